"""What an ACE parse or generation of one item came to: the service returns these and the
parse cache stores and rebuilds them, so they live apart from both (lit.ace.service,
lit.ace.parsecache)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from lit.status import Status

_ROOT_SCORE = re.compile(r"^\s*\(\s*\d+\s+\S+\s+(-?[\d.]+(?:e-?\d+)?)\s")


def ranker_score(derivation: str | None) -> float | None:
    """The parse ranker's score of a reading: its derivation root's (ACE prints it)."""
    m = _ROOT_SCORE.match(derivation or "")
    return float(m.group(1)) if m else None


@dataclass(frozen=True)
class Reading:
    """One analysis: the SimpleMRS string as ACE printed it, and its derivation."""

    mrs: str
    derivation: str | None = None

    @property
    def score(self) -> float | None:
        return ranker_score(self.derivation)


def in_order(readings: Sequence[Reading]) -> tuple[Reading, ...]:
    """*readings* best first, readings of equal score by their MRS and derivation: ACE orders
    equal scores differently from one process to another, so its order alone would make the
    reading LIT chooses depend on which worker parsed the sentence. Without scores (no
    derivations) ACE's order is kept."""
    scores = [r.score for r in readings]
    if None in scores:
        return tuple(readings)
    return tuple(sorted(readings, key=lambda r: (-(r.score or 0.0), r.mrs, r.derivation or "")))


def best(readings: Sequence[Reading], n: int, asked: int) -> tuple[Reading, ...] | None:
    """The best *n* of ACE's first *asked* readings (ACE's order), as far as they are decided:
    where the n-th ties with the last one returned (ACE may have more of that score than it
    returned, and which of them it returns differs between processes), the readings above
    that score; None if that leaves none (ask ACE for more)."""
    ordered = in_order(readings)
    if len(ordered) < asked or len(ordered) <= n or ordered[n - 1].score != ordered[-1].score:
        return ordered[:n]
    boundary = ordered[n - 1].score
    if boundary is None:  # no scores: ACE's order is all there is
        return ordered[:n]
    return tuple(r for r in ordered if (r.score or 0.0) > boundary) or None


@dataclass(frozen=True)
class ParseResult:
    input: str
    status: Status
    reason: str | None
    readings: tuple[Reading, ...]
    ace_seconds: float | None
    wall_seconds: float
    #: tries this item took, each on a fresh ACE process (a death LIT did not cause is
    #: retried, lit.ace.service); records leave it out, so a retried item's is a clean run's
    attempts: int = field(default=1, compare=False)


@dataclass(frozen=True)
class GenerateResult:
    input: str
    status: Status
    reason: str | None
    surfaces: tuple[str, ...]
    ace_seconds: float | None
    wall_seconds: float
    #: ACE stopped at the item's limit: more realizations may exist than were returned
    capped: bool = False
    attempts: int = field(default=1, compare=False)  # as ParseResult.attempts
