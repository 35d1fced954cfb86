"""Hand-built diffs and a stand-in grammar for `lit audit` tests: no ACE, no lit.diff parse."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lit.ace.results import ParseResult, Reading
from lit.diff.model import EditSize, MrsDiff, NamedEdit, Residue, SentenceDiff
from lit.status import Status
from tests.standin_ace import StandInAce

#: A present-tense statement: what every original parses to here (phenomena: tense pres).
PRESENT = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: - PERF: - ] "
           "RELS: < [ _sleep_v_1<0:5> LBL: h1 ARG0: e2 ] > HCONS: < h0 qeq h1 > ]")


def edit(kind: str, step: str | None = None, relation: str | None = None,
         polarity: str | None = None, old: str | None = None, new: str | None = None,
         detail: str = "") -> NamedEdit:
    return NamedEdit(kind, step, relation, polarity, (old,) if old else (), (new,) if new else (),
                     detail or kind)


def diff(*edits: NamedEdit, residue: Residue | None = None, tokens: int = 1) -> MrsDiff:
    return MrsDiff(tuple(edits), residue or Residue(), EditSize(len(edits), tokens, 0.9), (0, 0))


NEG = edit("neg", "neg", detail="negated")
FUTURE = edit("tense", "tense=fut", detail="pres -> fut")
SOCCER_CRICKET = edit("lexical", None, "cohyponym", "up", "_soccer_n_1<21:27>",
                      "_cricket_n_1<21:28>", "soccer -> cricket (cohyponym)")
OUTSIDE_DROPPED = edit("modifier_dropped", None, "hypernym", "up", "_outside_a_1<28:35>", None,
                       "outside dropped")
GARDEN_ADDED = edit("modifier_added", None, "hyponym", "up", None, "_in_p_loc<52:54>",
                    "in the garden added")


#: Which edit the fake differ names for an edited sentence containing a word.
EDITS_BY_WORD = {
    "cricket": diff(SOCCER_CRICKET),
    "aren't": diff(NEG),
    "soccer.": diff(OUTSIDE_DROPPED),
    "garden": diff(GARDEN_ADDED),
    "will": diff(FUTURE),
}


def fake_diff(a: str, b: str) -> SentenceDiff:
    """The diff a test grammar names: by a word of *b* (EDITS_BY_WORD), no parse for a
    sentence with "unparsable", else an unnamed residue."""
    if "unparsable" in b:
        return SentenceDiff(a, b, None, str(Status.NO_PARSE), "no parse found")
    for word, d in EDITS_BY_WORD.items():
        if word in b:
            return SentenceDiff(a, b, d, str(Status.OK), None)
    return SentenceDiff(a, b, diff(residue=Residue(("_race_n_1<17:21>",), ("_lover_n_1<0:6>",))),
                        str(Status.OK), None)


class Differ:
    """A stand-in lit.diff.diff_parsed that records the pairs it was given."""

    def __init__(self) -> None:
        self.pairs: list[tuple[str, str]] = []

    def __call__(self, a: str, b: str, parse_a: ParseResult, parse_b: ParseResult,
                 grammar_version: str = "2025") -> SentenceDiff:
        self.pairs.append((a, b))
        return fake_diff(a, b)


class PresentAce(StandInAce):
    """Every sentence parses to one present-tense reading; `calls` holds the sentences of
    each parse call."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.calls: list[list[str]] = []

    def parse(self, sentences: Iterable[str], n: int = 1) -> Iterator[ParseResult]:
        sentences = list(sentences)
        self.calls.append(sentences)
        for s in sentences:
            yield ParseResult(s, Status.OK, None, (Reading(PRESENT),), 0.0, 0.0)

    def generate(self, mrss, limit=None):  # never asked
        raise AssertionError("lit audit generates nothing")
