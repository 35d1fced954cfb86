"""`diff_sentences`: parse sentence pairs and diff the readings that make the smallest edit.

Each distinct sentence is parsed once (``service.parse(sentences, n=readings)``). For a pair,
every reading of A is aligned with every reading of B (lit.diff.difference, cheap) and the
pair of readings with the smallest difference (then the lowest reading numbers) is diffed in full
(lit.diff.core.diff_mrs). A pair whose sentence did not parse is reported with that status and
its reason, never dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.ace.protocol import Ace
from lit.ace.results import ParseResult
from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.diff.core import diff_mrs
from lit.diff.difference import difference
from lit.diff.model import SentenceDiff
from lit.status import Status


def closest_readings(a: list[MRS], b: list[MRS]) -> tuple[int, int]:
    """The reading numbers (of *a*, of *b*) whose MRSs differ least."""
    best = min(((difference(x, y).cost, i + j, i, j)
                for i, x in enumerate(a) for j, y in enumerate(b)))
    return best[2], best[3]


def _readings(result: ParseResult) -> list[MRS]:
    return [simplemrs.decode(r.mrs) for r in result.readings]


def diff_parsed(a: str, b: str, parse_a: ParseResult, parse_b: ParseResult,
                grammar_version: str = DEFAULT_GRAMMAR_VERSION) -> SentenceDiff:
    """The diff of one pair from its two parse results."""
    for parsed in (parse_a, parse_b):
        if parsed.status is not Status.OK or not parsed.readings:
            side = "A" if parsed is parse_a else "B"
            reason = f"sentence {side}: {parsed.reason or 'no reading'}"
            status = parsed.status if parsed.status is not Status.OK else Status.NO_PARSE
            return SentenceDiff(a, b, None, str(status), reason)
    ra, rb = _readings(parse_a), _readings(parse_b)
    i, j = closest_readings(ra, rb)
    diff = diff_mrs(ra[i], rb[j], grammar_version, sentences=(a, b), readings=(i, j))
    return SentenceDiff(a, b, diff, str(Status.OK), None)


def diff_sentences(service: Ace, pairs: Iterable[tuple[str, str]], *, readings: int = 5,
                   grammar_version: str = DEFAULT_GRAMMAR_VERSION) -> Iterator[SentenceDiff]:
    """The diff of each (A, B) pair, in input order (see the module docstring)."""
    pairs = list(pairs)
    distinct = list(dict.fromkeys(s for pair in pairs for s in pair))
    parsed = dict(zip(distinct, service.parse(distinct, n=readings)))
    for a, b in pairs:
        yield diff_parsed(a, b, parsed[a], parsed[b], grammar_version)
