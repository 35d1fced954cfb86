"""The output records of docs/design.md §5, built as lit.records' typed records from the
pipeline's results and handed on as the JSON objects `Engine` returns and `lit` writes.

Every field is present in every record, with one type (null where there is no value), so the
JSONL loads with `datasets.load_dataset("json", ...)`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from lit.pipeline.standins import Substitution
from lit.rank.ranking import Scored
from lit.records import NliRecord, Record, Side, Transform, TransformRecord
from lit.status import Status


@dataclass(frozen=True)
class SideResult:
    """One sentence transformed by one spec: the `premise`/`hypothesis` object of a record."""

    status: Status
    reason: str | None
    mrs: str | None = None  # SimpleMRS of the transformed MRS
    output: str | None = None
    verified: bool | None = None
    candidates: tuple[str, ...] | None = None
    ranking: tuple[Scored, ...] | None = None
    chosen_because: str | None = None
    capped: bool | None = None
    stand_ins: tuple[Substitution, ...] | None = None
    reading: int | None = None  # which parse reading of the sentence was transformed (0 = top)
    #: each reading weighed: its parse-ranker score and margin, what speaks against it, and
    #: what became of it when tried (lit.pipeline.reading)
    reading_evidence: tuple[dict, ...] | None = None
    alternatives: dict | None = None  # SideRecord.alternatives (lit.records)
    route: str | None = None  # SideRecord.route (lit.records)

    def side(self) -> Side:
        """The side as a record holds it (lit.records.Side)."""
        return Side(
            output=self.output,
            mrs=self.mrs or None,  # never "": a missing MRS is null in every record
            verified=self.verified,
            candidates=self.candidates,
            ranking=tuple(s.to_json() for s in self.ranking) if self.ranking else None,
            chosen_because=self.chosen_because,
            capped=self.capped,
            stand_ins=tuple(s.to_json() for s in self.stand_ins) if self.stand_ins else None,
            reading=self.reading,
            reading_evidence=self.reading_evidence or None,
            alternatives=self.alternatives,
            route=self.route,
        )

    @property
    def usable(self) -> bool:
        """Has an output sentence (verified, or kept unverified on request)."""
        return self.output is not None


def transform_record(spec: str, side: SideResult) -> TransformRecord:
    """A `lit transform` record: status, reason, spec, mrs, output, verified, candidates."""
    fields = {"status": str(side.status), "reason": side.reason, "spec": spec}
    return {**fields, **side.side().to_dict()}  # type: ignore[return-value]


def pair_transform(
    spec: str,
    status: Status,
    reason: str | None,
    premise: SideResult | None = None,
    hypothesis: SideResult | None = None,
    label: str | None = None,
    rule: str | None = None,
    rationale: str | None = None,
) -> Transform:
    """One entry of a `lit nli` record's `transforms`."""
    empty = SideResult(status, reason)
    return Transform(spec, str(status), reason,
                     (("premise", (premise or empty).side()),
                      ("hypothesis", (hypothesis or empty).side())),
                     label, rule, rationale)


def record_status(transforms: Sequence[Transform]) -> tuple[Status, str | None]:
    """ok if any spec gave a contrast pair; else the commonest failure, with its reason."""
    if not transforms:
        return Status.NOT_APPLICABLE, "no specs requested"
    if any(t.ok for t in transforms):
        return Status.OK, None
    counts = Counter(t.status for t in transforms)
    status = counts.most_common(1)[0][0]
    reasons = {t.reason for t in transforms}
    if len(reasons) == 1:
        return Status(status), transforms[0].reason
    detail = "; ".join(f"{t.spec}: {t.reason}" for t in transforms)
    return Status(status), f"no spec gave a contrast pair ({detail})"


def nli_record(rid: str, fields: dict, transforms: Sequence[Transform], timings: dict,
               status: Status | None = None, reason: str | None = None) -> NliRecord:
    """A `lit nli` record (docs/design.md §5) as `Engine.nli` returns it; status/reason
    default to `record_status`."""
    if status is None:
        status, reason = record_status(transforms)
    return Record(rid, fields, str(status), reason, tuple(transforms),  # type: ignore[return-value]
                  timings).to_dict()
