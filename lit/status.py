"""The one status vocabulary every LIT record uses (docs/design.md §5)."""

from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    """Outcome of one item at any stage; every non-ok status carries a reason."""

    OK = "ok"
    NOT_APPLICABLE = "not_applicable"
    NO_PARSE = "no_parse"
    NO_GENERATION = "no_generation"
    NOT_VERIFIED = "not_verified"
    NOT_FLUENT = "not_fluent"  # every verified candidate has a defect (lit.rank.ranking)
    #: no reading among the top N could be trusted (lit.pipeline.reading: the reason names
    #: what spoke against each)
    UNTRUSTED_READING = "untrusted_reading"
    TIMEOUT = "timeout"
    #: ACE stopped at a memory cap (the reason names it): a run with larger caps may succeed
    RESOURCE = "resource"
    ACE_ERROR = "ace_error"
    INVALID_INPUT = "invalid_input"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value
