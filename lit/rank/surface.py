"""Align a realization with its source sentence, and put the source's surface back.

The ERG's generator knows nothing of the source: it may reorder modifiers (*black young men*),
split a hyphenated compound (*t shirt*), add or drop commas, capitalise or inflect a word its
own way. Everything a rule did not change should read exactly as the source wrote it, so each
candidate is aligned with the source token by token (difflib's longest-matching-blocks, then
moved words paired up) and `repair` rebuilds it with the source's order, spelling, case,
hyphenation and inner punctuation wherever the two agree on the word. The words that differ
(the rule's own: *was* for *is*, *may be*, *by*) keep the candidate's form and place; the final
mark is the candidate's (a rule may turn `.` into `?`). A repair is only a proposal: the
pipeline re-parses it and keeps it only if it verifies (lit.pipeline.realize).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from enum import Enum
from functools import lru_cache
from importlib import resources

from lit.rank.articles import agree_articles
from lit.rank.forms import other_form

#: A word (letters or digits, with inner hyphens and apostrophes, or a number's inner ./,),
#: or one punctuation mark.
_TOKEN = re.compile(r"[^\W_]+(?:(?:['’-]|(?<=\d)[.,](?=\d))[^\W_]+)*|[^\w\s]|_")
#: Punctuation that ends a sentence: a transformation may change it (. -> ? for a question).
FINAL = frozenset(".?!")
_SAME = str.maketrans("’“”", "'\"\"")
#: Auxiliaries: put first, they make a sentence a question (*Has his bike been wrecked ...*);
#: a clause the rule restructures (a passive) keeps them after its new subject.
AUXILIARIES = frozenset(
    "is are was were am be has have had do does did will would can could may might must shall "
    "should isn't aren't wasn't weren't hasn't haven't hadn't don't doesn't didn't won't "
    "wouldn't can't couldn't mustn't shouldn't".split())
#: Punctuation written without a space before it.
_CLOSING = frozenset(".,;:!?)]}”’%")


@dataclass(frozen=True)
class Token:
    """One token of a sentence, with its place in the sentence's text."""

    text: str
    start: int
    end: int

    @property
    def key(self) -> str:
        """What alignment compares: lower case, one apostrophe, one double quote."""
        return self.text.lower().translate(_SAME)

    @property
    def word(self) -> bool:
        return self.text[0].isalnum()

    @property
    def letters(self) -> str:
        """The key without hyphens, apostrophes or a number's separators (*t-shirt* = *t shirt*)."""
        return "".join(c for c in self.key if c.isalnum())


def tokenize(sentence: str) -> list[Token]:
    """Words and punctuation marks of *sentence*, in order."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]


def tokens(sentence: str) -> list[str]:
    """Lower-cased words and punctuation marks (the keys of `tokenize`)."""
    return [t.key for t in tokenize(sentence)]


@lru_cache(maxsize=1)
def nonwords() -> dict[str, str]:
    """Over-regular forms of irregular stems -> the ERG's form (lit/rank/data/nonwords.tsv)."""
    text = resources.files("lit.rank.data").joinpath("nonwords.tsv").read_text("utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {row[0]: row[1] for row in rows}


@dataclass(frozen=True)
class Link:
    """Source tokens and the candidate tokens that say the same words.

    kind: ``same`` (equal ignoring case and apostrophe), ``variant`` (the same letters written
    otherwise: hyphen split or joined, other separators, or a non-word for the source's word)
    or ``moved`` (the same word, moved across words the rule did not change)."""

    kind: str
    source: tuple[int, ...]
    candidate: tuple[int, ...]


@dataclass(frozen=True)
class WordAlignment:
    """A candidate aligned with its source; final marks are kept apart (`final`)."""

    source: list[Token]
    candidate: list[Token]
    links: tuple[Link, ...]
    final: tuple[Token | None, Token | None]  # the source's and the candidate's final mark
    strings: tuple[str, str]  # the source and the candidate sentence
    #: candidate words the source lacks -> where they go among the source's tokens (x.5:
    #: before source token x + 1): where the source words they replace were
    slots: dict[int, float]

    def text(self, side: str, indices: tuple[int, ...]) -> str:
        """What *side*'s tokens at *indices* (consecutive) read, with their own spacing."""
        toks = getattr(self, side)
        sentence = self.strings[side == "candidate"]
        return sentence[toks[indices[0]].start:toks[indices[-1]].end]

    def linked(self, side: str) -> set[int]:
        return {i for link in self.links for i in getattr(link, side)}

    def punctuation(self, side: str) -> Counter[str]:
        """*side*'s inner punctuation marks, but those inside a word written otherwise."""
        toks, linked = getattr(self, side), self.linked(side)
        return Counter(t.key for i, t in enumerate(toks) if not t.word and i not in linked)


def _split_final(toks: list[Token]) -> tuple[list[Token], Token | None]:
    if toks and toks[-1].text in FINAL:
        return toks[:-1], toks[-1]
    return toks, None


def _variant(src: list[Token], cand: list[Token]) -> bool:
    """Same letters written otherwise, a hyphenated compound's parts split and reordered
    (*driven bicycle* for *bicycle-driven*), or the candidate's non-word for the source's
    word."""
    if "".join(t.letters for t in src) == "".join(t.letters for t in cand):
        return True
    if len(src) == 1 and len(cand) > 1 and "-" in src[0].key:
        return sorted(src[0].key.split("-")) == sorted(t.key for t in cand)
    return len(src) == len(cand) == 1 and nonwords().get(cand[0].key) == src[0].key


#: Source words x candidate words that may be one word written otherwise (t-shirt: t shirt).
_SPANS = ((1, 1), (1, 2), (2, 1), (1, 3), (3, 1))


def _variants(src: list[Token], cand: list[Token], s_words: list[int], c_words: list[int],
              touched: frozenset[str] | None = None,
              ) -> tuple[list[Link], list[int], list[int]]:
    """In a stretch where the words differ, the words written otherwise (in order), and the
    loose source and candidate words left; with *touched* (the lemmas the change touches),
    also the source's words the candidate writes in another form (a ``form`` link)."""
    links: list[Link] = []
    loose_s: list[int] = []
    loose_c: list[int] = []
    a, k = 0, 0
    while a < len(s_words):
        hit = next(((b, m, n, "variant") for b in range(k, len(c_words)) for m, n in _SPANS
                    if a + m <= len(s_words) and b + n <= len(c_words)
                    and _variant([src[i] for i in s_words[a:a + m]],
                                 [cand[j] for j in c_words[b:b + n]])), None)
        if hit is None and touched is not None:
            hit = next(((b, 1, 1, "form") for b in range(k, len(c_words))
                        if other_form(src[s_words[a]].key, cand[c_words[b]].key, touched)),
                       None)
        if hit is None:
            loose_s.append(s_words[a])
            a += 1
            continue
        b, m, n, kind = hit
        loose_c += c_words[k:b]
        links.append(Link(kind, tuple(range(s_words[a], s_words[a + m - 1] + 1)),
                          tuple(range(c_words[b], c_words[b + n - 1] + 1))))
        a, k = a + m, b + n
    return links, loose_s, loose_c + c_words[k:]


class WordOrder(Enum):
    """What a transformation does to the order of the source's words."""

    #: it moves them (an argument swap, `moves_words`): a moved word is no defect
    FREE = "free"
    #: it puts its own words among them and restructures the clause (a passive, a question, a
    #: cleft): a word moved across only the rule's words is the rule's doing
    KEPT = "kept"
    #: it changes words in place (tense, modality, negation): every word the rule did not
    #: bring stays where the source has it, even across the rule's words
    STRICT = "strict"


def align_words(source: str, candidate: str, word_order: WordOrder = WordOrder.KEPT,
          touched: frozenset[str] | None = None) -> WordAlignment:
    """Align *candidate*'s words with *source*'s: equal words in order first (difflib), then,
    where they differ, words written otherwise (with *touched*, the lemmas the change
    touches, also untouched words in another form: lit.rank.forms.other_form), then (unless
    *word_order* is FREE) words moved (`_moves`). Punctuation is not
    aligned: inner marks are the source's (`repair`), compared by count."""
    src, s_final = _split_final(tokenize(source))
    cand, c_final = _split_final(tokenize(candidate))
    s_words = [i for i, t in enumerate(src) if t.word]
    c_words = [j for j, t in enumerate(cand) if t.word]
    links: list[Link] = []
    loose_s: list[int] = []
    loose_c: list[int] = []
    blocks: list[tuple[list[int], list[int], int]] = []  # loose words, the source word after
    matcher = SequenceMatcher(None, [src[i].key for i in s_words],
                              [cand[j].key for j in c_words], autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            links += [Link("same", (i,), (j,)) for i, j in zip(s_words[a1:a2], c_words[b1:b2])]
            continue
        found, ls, lc = _variants(src, cand, s_words[a1:a2], c_words[b1:b2], touched)
        links += found
        loose_s += ls
        loose_c += lc
        blocks.append((ls, lc, s_words[a2] if a2 < len(s_words) else len(src)))
    question = c_final is not None and c_final.text == "?" and (
        s_final is None or s_final.text != "?")
    moves = (_moves(src, cand, links, loose_s, loose_c, question, word_order)
             if word_order != WordOrder.FREE else [])
    moved = {i for link in moves for i in link.source}
    slots = {}
    # STRICT: source words the rule dropped in stretches where the candidate put nothing are
    # what the rule's words of another stretch replace (*was* for *is*, a phrase moved)
    orphans = [i for ls, lc, _ in blocks if not lc for i in ls if i not in moved
               ] if word_order == WordOrder.STRICT else []
    for ls, lc, after in blocks:  # the rule's words go where the words they replace were
        replaced = [i for i in ls if i not in moved] or orphans[:1] if lc else []
        if replaced and replaced[0] in orphans:
            orphans.remove(replaced[0])
        slots.update(dict.fromkeys(lc, (replaced[0] if replaced else after) - 0.5))
    return WordAlignment(src, cand, tuple(sorted(links + moves, key=lambda k: k.candidate)),
                     (s_final, c_final), (source, candidate), slots)


def _moves(src: list[Token], cand: list[Token], links: list[Link], loose_s: list[int],
           loose_c: list[int], question: bool, word_order: WordOrder) -> list[Link]:
    """Loose candidate words equal to loose source words, moved across linked words.

    Under KEPT, a word moved across a word the rule brought (a passive's *was ... by*) is the
    rule's doing, as is an auxiliary (a question's fronted one, a passive's after its new
    subject); those stay unlinked. Under STRICT a
    word moved across the source's own words is moved, whatever the rule brought between
    them (*Near weaved walls three women will sit together.* for *Three women sit together
    near woven walls.*)."""
    anchors = sorted((link.source[0], link.candidate[0]) for link in links)
    pairs: list[tuple[int, int]] = []
    free = list(loose_s)
    for j in loose_c:
        if not cand[j].word or (question and j == 0) or (
                word_order == WordOrder.KEPT and cand[j].key in AUXILIARIES):
            continue
        i = next((i for i in free if src[i].key == cand[j].key), None)
        if i is not None:
            free.remove(i)
            pairs.append((i, j))
    settled = {j for link in links for j in link.candidate} | {j for _, j in pairs}
    moves = []
    for i, j in pairs:
        before = [c for s, c in anchors if s < i]
        after = [c for s, c in anchors if s > i]
        left = max(before, default=-1)
        right = min(after, default=len(cand))
        crossed = range(j + 1, left + 1) if j < left else range(right, j)
        across = [c for c in crossed if cand[c].word]
        settled_across = [c in settled for c in across]
        if all(settled_across) or (word_order == WordOrder.STRICT and any(settled_across)):
            moves.append(Link("moved", (i,), (j,)))
    return moves


@lru_cache(maxsize=64)
def moves_words(examples: tuple[tuple[str, str], ...]) -> bool:
    """Whether a rule's own (source, target) examples move a word across others (a swap of
    arguments: *A car is driving a woman.*): then a moved word is the rule's doing."""
    return any(link.kind == "moved" for s, t in examples for link in align_words(s, t).links)


@dataclass(frozen=True)
class Repair:
    """A candidate rebuilt with the source's surface: the new string and what changed."""

    surface: str
    original: str
    changes: tuple[str, ...]

    def to_json(self) -> dict:
        return {"from": self.original, "changes": list(self.changes)}


def differences(a: WordAlignment) -> list[str]:
    """What reads differently from the source in words both share: moved words, split or
    joined hyphens, changed case or spelling, added or dropped inner punctuation. (A non-word
    for the source's word is named by lit.rank.closeness.)"""
    out = []
    for link in a.links:
        s_text, c_text = a.text("source", link.source), a.text("candidate", link.candidate)
        if link.kind == "form":
            continue  # named by lit.rank.explained ("changed form"), put back by `repair`
        if link.kind == "moved":
            out.append(f"moved {s_text.lower()!r}")
        elif link.kind == "variant":
            what = _written(s_text, c_text)
            if what:
                out.append(f"{what} {s_text!r} ({c_text!r})")
        elif s_text.replace("’", "'") != c_text.replace("’", "'"):
            # a sentence's first word may change case, unless both start the sentence and the
            # source writes it in lower case (*three children ...* stays lower case)
            if (link.source[0] and link.candidate[0]) or (
                    not link.source[0] and not link.candidate[0] and s_text[:1].islower()):
                out.append(f"changed case {s_text!r} ({c_text!r})")
        elif s_text != c_text:
            out.append(f"changed spelling {s_text!r} ({c_text!r})")
    src, cand = a.punctuation("source"), a.punctuation("candidate")
    out += [f"added {p!r}" for p, n in (cand - src).items() for _ in range(n)]
    out += [f"dropped {p!r}" for p, n in (src - cand).items() for _ in range(n)]
    out += [f"moved {p!r}" for p in _moved_marks(a)]
    return out


def _marks_after(side: str, a: WordAlignment) -> Counter[tuple[int, str]]:
    """Inner marks written right after a linked word: (the source word's index, mark)."""
    toks = getattr(a, side)
    out: Counter[tuple[int, str]] = Counter()
    for link in a.links:
        last = getattr(link, side)[-1]
        if last + 1 < len(toks) and not toks[last + 1].word:
            out[(link.source[-1], toks[last + 1].key)] += 1
    return out


def _moved_marks(a: WordAlignment) -> list[str]:
    """Inner marks both sentences have as often but after other words of the source's (a
    comma moved: *Near weaved walls, three women sit* for *Three women sit, near walls*)."""
    src, cand = _marks_after("source", a), _marks_after("candidate", a)
    lost = Counter(mark for (_, mark), n in (src - cand).items() for _ in range(n))
    put = Counter(mark for (_, mark), n in (cand - src).items() for _ in range(n))
    return sorted((lost & put).elements())


def _written(source: str, candidate: str) -> str | None:
    """How the candidate writes the source's word(s) otherwise; None for the non-word of an
    irregular form (named by lit.rank.closeness)."""
    s_words, c_words = len(source.split()), len(candidate.split())
    if source.count("-") > candidate.count("-"):
        return "split hyphen" if c_words > s_words else "joined hyphen"
    if candidate.count("-") > source.count("-"):
        return "added hyphen"
    if s_words != c_words:
        return "joined" if s_words > c_words else "split"
    return None if nonwords().get(candidate.lower()) == source.lower() else "changed spelling"


def repair(source: str, candidate: str, word_order: WordOrder = WordOrder.KEPT,
           touched: frozenset[str] | None = None) -> Repair | None:
    """*candidate* with the source's surface for every word both share: its order (unless
    *word_order* is FREE), spelling, case, hyphens and inner punctuation, and (with *touched*,
    the lemmas the change touches) the form of every word it does not touch (*woven* for
    *weaved*); None when that changes nothing."""
    a = align_words(source, candidate, word_order, touched)
    table = nonwords()
    changes = differences(a) + [
        f"changed form {a.text('source', link.source)!r} "
        f"({a.text('candidate', link.candidate)!r})" for link in a.links if link.kind == "form"] + [
        f"non-word {a.text('candidate', link.candidate)!r}" for link in a.links
        if link.kind == "variant" and a.text("candidate", link.candidate).lower() in table]
    text = agree_articles(_join(a, _items(a)), source)
    if a.final[1] is not None:
        text += a.final[1].text
    return Repair(text, candidate, tuple(changes)) if changes and text != candidate else None


@dataclass(frozen=True)
class _Item:
    key: float
    text: str
    source: tuple[int, ...] = ()
    candidate: tuple[int, ...] = ()


def _items(a: WordAlignment) -> list[_Item]:
    """The repaired tokens in order: linked words at their source place with the source's
    text, the rule's words where the words they replace were, the source's inner punctuation
    next to the word it is written against."""
    by_cand = {link.candidate[0]: link for link in a.links}
    covered = a.linked("candidate")
    items: list[_Item] = []
    place: dict[int, float] = {}  # source word -> its item's key
    for j, tok in enumerate(a.candidate):
        link = by_cand.get(j)
        if link is not None:
            text = a.text("source", link.source)
            if link.source[0] == 0 and (j or text[0].isupper()):
                # a sentence-initial capital: the candidate's case (the source's lower case
                # where both start the sentence)
                text = (text[0].lower() if tok.text[0].islower() else text[0]) + text[1:]
            place.update(dict.fromkeys(link.source, float(link.source[0])))
            items.append(_Item(float(link.source[0]), text, link.source, link.candidate))
        elif j not in covered and tok.word:  # the rule's word (punctuation the source lacks goes)
            items.append(_Item(a.slots[j] + j / 10_000, tok.text, (), (j,)))
    for i, t in enumerate(a.source):
        if not t.word and i not in place:
            items.append(_Item(_mark_key(a, i, place), t.text, (i,)))
    items.sort(key=lambda it: it.key)
    if items and a.strings[0][:1].isupper():
        first = items[0]
        items[0] = _Item(first.key, first.text[0].upper() + first.text[1:], first.source,
                         first.candidate)
    return items


def _mark_key(a: WordAlignment, i: int, place: dict[int, float]) -> float:
    """Where the source's punctuation mark *i* goes: after the word before it, or, an opening
    mark (spaced before and not after), before the word after it; before the rule's words
    that replace that word."""
    text, tok = a.strings[0], a.source[i]
    opening = (tok.start == 0 or text[tok.start - 1].isspace()) and (
        tok.end < len(text) and not text[tok.end].isspace())
    words = [k for k, t in enumerate(a.source) if t.word]
    if opening:
        after = next((k for k in words if k > i), len(a.source))
        return place[after] - 0.0005 if after in place else after - 0.5005
    before = [k for k in words if k < i]
    return place.get(before[-1], before[-1]) + 0.0005 if before else -1.0


def _join(a: WordAlignment, items: list[_Item]) -> str:
    """Items with the spacing between them: the source's between source neighbours, the
    candidate's between candidate neighbours, else a space (none before a closing mark)."""
    out = ""
    for prev, it in zip([None, *items], items):
        if prev is None:
            gap = ""
        elif prev.source and it.source and it.source[0] == prev.source[-1] + 1:
            gap = a.strings[0][a.source[prev.source[-1]].end:a.source[it.source[0]].start]
        elif prev.candidate and it.candidate and it.candidate[0] == prev.candidate[-1] + 1:
            gap = a.strings[1][a.candidate[prev.candidate[-1]].end:
                               a.candidate[it.candidate[0]].start]
        else:
            gap = "" if it.text[0] in _CLOSING else " "
        out += gap + it.text
    return out
