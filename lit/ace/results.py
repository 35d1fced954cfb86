"""What an ACE parse or generation of one item came to: the service returns these and the
parse cache stores and rebuilds them, so they live apart from both (lit.ace.service,
lit.ace.parsecache)."""

from __future__ import annotations

from dataclasses import dataclass, field

from lit.status import Status


@dataclass(frozen=True)
class Reading:
    """One analysis: the SimpleMRS string as ACE printed it, and its derivation."""

    mrs: str
    derivation: str | None = None


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
