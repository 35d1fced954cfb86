"""The output records of docs/design.md §5 (typed in lit.records), built from plain data.

Every field is present in every record, with one type (null where there is no value), so the
JSONL loads with `datasets.load_dataset("json", ...)`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from lit.pipeline.standins import Substitution
from lit.rank.ranking import Scored
from lit.records import NliRecord, PairTransform, SideRecord, TransformRecord
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

    def fields(self) -> SideRecord:
        return {
            "output": self.output,
            "mrs": self.mrs or None,  # never "": a missing MRS is null in every record
            "verified": self.verified,
            "candidates": list(self.candidates) if self.candidates is not None else None,
            "ranking": [s.to_json() for s in self.ranking] if self.ranking else None,
            "chosen_because": self.chosen_because,
            "capped": self.capped,
            "stand_ins": [s.to_json() for s in self.stand_ins] if self.stand_ins else None,
            "reading": self.reading,
            "reading_evidence": list(self.reading_evidence) if self.reading_evidence else None,
            "alternatives": self.alternatives,
            "route": self.route,
        }

    @property
    def usable(self) -> bool:
        """Has an output sentence (verified, or kept unverified on request)."""
        return self.output is not None


def transform_record(spec: str, side: SideResult) -> TransformRecord:
    """A `lit transform` record: status, reason, spec, mrs, output, verified, candidates."""
    return {"status": str(side.status), "reason": side.reason, "spec": spec, **side.fields()}


def pair_transform(
    spec: str,
    status: Status,
    reason: str | None,
    premise: SideResult | None = None,
    hypothesis: SideResult | None = None,
    label: str | None = None,
    rule: str | None = None,
    rationale: str | None = None,
) -> PairTransform:
    """One entry of a `lit nli` record's `transforms`."""
    empty = SideResult(status, reason)
    return {
        "spec": spec,
        "status": str(status),
        "reason": reason,
        "premise": (premise or empty).fields(),
        "hypothesis": (hypothesis or empty).fields(),
        "label": label,
        "label_rule": rule,
        "label_rationale": rationale,
    }


def record_status(transforms: list[PairTransform]) -> tuple[Status, str | None]:
    """ok if any spec gave a contrast pair; else the commonest failure, with its reason."""
    if not transforms:
        return Status.NOT_APPLICABLE, "no specs requested"
    if any(t["status"] == Status.OK for t in transforms):
        return Status.OK, None
    counts = Counter(t["status"] for t in transforms)
    status = counts.most_common(1)[0][0]
    reasons = {t["reason"] for t in transforms}
    if len(reasons) == 1:
        return Status(status), transforms[0]["reason"]
    detail = "; ".join(f"{t['spec']}: {t['reason']}" for t in transforms)
    return Status(status), f"no spec gave a contrast pair ({detail})"


def nli_record(rid: str, fields: dict, transforms: list[PairTransform], timings: dict,
               status: Status | None = None, reason: str | None = None) -> NliRecord:
    """A `lit nli` record (docs/design.md §5); status/reason default to `record_status`."""
    if status is None:
        status, reason = record_status(transforms)
    return {
        "id": rid,
        "input": fields,
        "status": str(status),
        "reason": reason,
        "transforms": transforms,
        "timings": timings,
    }
