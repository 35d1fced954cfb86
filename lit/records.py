"""The typed shapes of LIT's output records (docs/design.md §5), for Python users and checkers.

Records stay plain dicts (they are JSON lines and load with ``datasets``); these TypedDicts
name their fields and types, and ``to_json`` writes one as `lit` does.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict


class SideRecord(TypedDict):
    """One side (premise or hypothesis) of a transformed pair."""

    output: str | None
    mrs: str | None
    verified: bool | None
    candidates: list[str] | None
    #: per candidate, same order: {surface, score, distance, fluency, defects, preferences,
    #: repaired}; repaired: {from, changes} when LIT rebuilt another candidate with the
    #: source's surface (lit.rank.surface), else null
    ranking: list[dict] | None
    chosen_because: str | None
    #: ACE stopped at --max-candidates realizations: more may exist
    capped: bool | None
    #: unknown words generated through a known stand-in: {word, predicate, stand_in}
    stand_ins: list[dict] | None
    #: the parse reading transformed (0 = ACE's top reading; see --readings)
    reading: int | None
    #: every reading weighed, in ACE's order: {reading, score (the parse ranker's), margin
    #: (below the top reading's score), doubt (what speaks against it, or null), tried (what
    #: became of this side from it: "ok" or "status: reason", or null), round_trip ({verdict,
    #: realized, example, why} or null)} (lit.pipeline.reading)
    reading_evidence: list[dict] | None
    #: a transformation with several outputs (a table lookup: one per hypernym, ...), realized
    #: in table order until one verified (--max-alternatives): {used: index of the output
    #: realized or null, tried, available, failed: [{index, predicates, status, reason}]};
    #: null when the transformation gave one output
    alternatives: dict | None
    #: the realization route (module.route) whose twin MRS was generated because the grammar
    #: will not generate the transformed MRS itself (docs/rules.md); null: generated directly
    route: str | None


class TransformRecord(SideRecord):
    """What `lit transform` writes per sentence and spec: a side's fields, and these."""

    status: str
    reason: str | None
    spec: str


class PairTransform(TypedDict):
    """One pair spec's result inside a `lit nli` record."""

    spec: str
    status: str
    reason: str | None
    premise: SideRecord
    hypothesis: SideRecord
    label: str | None
    label_rule: str | None
    label_rationale: str | None


class NliRecord(TypedDict):
    """What `lit nli` writes per input pair."""

    id: str
    input: dict[str, Any]
    status: str
    reason: str | None
    transforms: list[PairTransform]
    timings: dict[str, float]


def to_json(record: TransformRecord | NliRecord | dict[str, Any]) -> str:
    """One JSON line (without newline), as `lit transform` and `lit nli` write it."""
    return json.dumps(record, ensure_ascii=False)
