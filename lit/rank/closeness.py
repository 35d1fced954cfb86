"""How far a realization strays from its source sentence, and what a person would not write.

Verification proves the meaning, not the English: the generator also offers realizations with
over-regular inflections (*mans*), commas the source never had, reordered modifiers (*a cart
shopping*, *black young men*), split hyphens (*t shirt*), other case or spelling, and stutters
(*I I saw*, *I-I saw*). Measured against the source sentence (lit.rank.surface aligns the
two), these are *defects*; the token edit distance with transpositions says how close the rest
is, so a word moved is an edit too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lit.rank.articles import article_defects
from lit.rank.surface import AUXILIARIES, WordOrder, align_words, differences, nonwords, tokens


def edit_distance(a: list[str], b: list[str], transpositions: bool = False) -> int:
    """Levenshtein distance over tokens; with *transpositions*, two neighbours swapped are one
    edit (the optimal-string-alignment distance), a word moved further a deletion and an
    insertion."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            best = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y))
            if transpositions and i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                best = min(best, rows[-2][j - 2] + 1)
            row.append(best)
        rows = [rows[-1], row]
    return rows[-1][-1]


#: A prepositional verb's passive (*A sheep has been turned into by a dog.*): the grammar
#: makes it, a writer does not.
_STRANDED = re.compile(r"\b(into|onto|in|on|at|to|with|for|of|from|about|after|over|through|"
                       r"upon|across|around|along|like)\s+by\b", re.I)


@dataclass(frozen=True)
class Closeness:
    """A realization measured against its source sentence."""

    distance: float  # token edit distance (with transpositions) / the longer length, 0..1
    defects: tuple[str, ...]  # what a person would not write, each a short phrase


def measure(source: str, candidate: str, word_order: WordOrder = WordOrder.KEPT) -> Closeness:
    """Distance and defects of *candidate* against *source*: non-words the source lacks,
    what reads otherwise in the words both share (lit.rank.surface.differences: moved words
    unless the rule moves words, *word_order* FREE; split or joined hyphens, changed case
    or spelling, added, dropped or moved inner punctuation), a word said twice in a row (with
    or without a hyphen) where the source never repeats it, an article that disagrees with the
    word after it, a statement (no final "?") that starts with an auxiliary the source did
    not start with, and a preposition stranded before a passive's *by*."""
    src, cand = tokens(source), tokens(candidate)
    distance = edit_distance(src, cand, transpositions=True) / max(1, len(src), len(cand))
    known, table = set(src), nonwords()
    defects = [f"non-word {t!r} ({table[t]})" for t in cand if t in table and t not in known]
    defects += differences(align_words(source, candidate, word_order))
    src_repeats = set(_repeats(src))
    defects += [f"repeated {w!r}" for w in _repeats(cand) if w not in src_repeats]
    defects += [f"article {d}" for d in article_defects(source, candidate)]
    if cand and cand[0] in AUXILIARIES and cand[-1] != "?" and src[:1] != cand[:1]:
        defects.append(f"a statement that starts with its auxiliary {cand[0]!r}")
    stranded = {m.group(1).lower() for m in _STRANDED.finditer(candidate)}
    defects += [f"a preposition stranded before 'by': {p!r}" for p in sorted(stranded)
                if not re.search(rf"\b{p}\s+by\b", source, re.I)]
    return Closeness(round(distance, 6), tuple(defects))


def _repeats(toks: list[str]) -> list[str]:
    """Words that directly follow themselves, with or without a hyphen (*I I*, *I-I*)."""
    parts = [t.split("-") for t in toks]
    return [p[0] for p in parts if len(p) == 2 and p[0] == p[1] and p[0][:1].isalnum()] + [
        a for a, b in zip(toks, toks[1:]) if a == b and a[0].isalnum()]
