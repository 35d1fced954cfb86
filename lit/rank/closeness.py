"""How far a realization strays from its source sentence, and what a person would not write.

Verification proves the meaning, not the English: the generator also offers realizations with
over-regular inflections (*mans*), commas the source never had, and reordered compounds
(*a cart shopping* for *a shopping cart*) and stutters (*I I saw*, *I-I saw*). Measured against the source sentence, as Tailor
measures closeness, these are *defects*; the token edit distance says how close the rest is.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*|[^\sA-Za-z0-9]")
#: Punctuation that ends a sentence: a transformation may change it (. -> ? for a question).
FINAL = frozenset(".?!")


def tokens(sentence: str) -> list[str]:
    """Lower-cased words and punctuation marks."""
    return [t.lower() for t in _TOKEN.findall(sentence)]


@lru_cache(maxsize=1)
def nonwords() -> dict[str, str]:
    """Over-regular forms of irregular stems -> the ERG's form (lit/rank/data/nonwords.tsv)."""
    text = resources.files("lit.rank.data").joinpath("nonwords.tsv").read_text("utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {row[0]: row[1] for row in rows}


def edit_distance(a: list[str], b: list[str]) -> int:
    """Levenshtein distance over tokens."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


@dataclass(frozen=True)
class Closeness:
    """A realization measured against its source sentence."""

    distance: float  # token edit distance / the longer length, 0..1
    defects: tuple[str, ...]  # what a person would not write, each a short phrase


def _words(toks: list[str]) -> list[str]:
    return [t for t in toks if t[0].isalnum()]


def measure(source: str, candidate: str) -> Closeness:
    """Distance and defects of *candidate* against *source*: non-words the source lacks,
    punctuation the source lacks (sentence-final marks aside), moved words (two words
    adjacent in the source, both still there, no longer adjacent in that order) and a word
    said twice in a row (with or without a hyphen) where the source never repeats it."""
    src, cand = tokens(source), tokens(candidate)
    distance = edit_distance(src, cand) / max(1, len(src), len(cand))
    known, table = set(src), nonwords()
    defects = [f"non-word {t!r} ({table[t]})" for t in cand if t in table and t not in known]
    inner_src = Counter(t for t in src[:-1] if not t[0].isalnum())
    inner_cand = Counter(t for t in cand[:-1] if not t[0].isalnum())
    if cand and cand[-1] not in FINAL and not cand[-1][0].isalnum():
        inner_cand[cand[-1]] += 1
    defects += [f"added {p!r}" for p, n in (inner_cand - inner_src).items() for _ in range(n)]
    src_words, cand_words = _words(src), _words(cand)
    kept = set(cand_words)
    adjacent = set(zip(cand_words, cand_words[1:]))
    defects += [
        f"moved {a!r} {b!r}" for a, b in dict.fromkeys(zip(src_words, src_words[1:]))
        if a in kept and b in kept and (a, b) not in adjacent and (b, a) in adjacent
    ]
    src_repeats = set(_repeats(src))
    defects += [f"repeated {w!r}" for w in _repeats(cand) if w not in src_repeats]
    return Closeness(round(distance, 6), tuple(defects))


def _repeats(toks: list[str]) -> list[str]:
    """Words that directly follow themselves, across at most a hyphen (*I I*, *I-I*)."""
    return [a for a, sep, b in zip(toks, toks[1:] + [""], toks[2:] + ["", ""])
            if a[0].isalnum() and (sep == a or (sep == "-" and b == a))]
