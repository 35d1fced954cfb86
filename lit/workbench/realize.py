"""With ACE: generate, rank and verify the results of the inputs a spec applied to, exactly as
`lit transform` does (lit.pipeline), so an author sees the sentences a rule's MRSs come out as
and whether they re-parse to them."""

from __future__ import annotations

from collections.abc import Sequence

from dataclasses import replace

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.equivalence import equivalent
from lit.pipeline.core import Parsed, Pipeline
from lit.pipeline.records import SideResult
from lit.pipeline.timing import StageTimes
from lit.spec import Spec
from lit.status import Status
from lit.workbench.trial import APPLIED, Outcome


def realize(pipeline: Pipeline, spec: Spec, outcomes: Sequence[Outcome], limit: int
            ) -> dict[str, SideResult]:
    """Input id -> the realization of the first *limit* applied inputs that have a sentence
    (the source sentence ranks the candidates by closeness). The input's own MRS is
    realized; the sentence is also parsed, and ACE's readings are weighed as `lit transform`
    weighs them (lit.pipeline.reading), each marked `gold` when it is the input's MRS: the
    side's `reading_evidence` shows whether LIT would have chosen the treebank's reading."""
    chosen = [o for o in outcomes if o.kind == APPLIED and o.item.sentence][:limit]
    parsed = {o.item.sentence: Parsed(Status.OK, None, o.item.mrs,
                                      simplemrs.encode(o.item.mrs))
              for o in chosen}
    times = StageTimes()
    weighed = pipeline.parse(list(parsed), times)
    sides = pipeline.sides([(s, spec) for s in parsed], parsed, times)
    return {o.item.id: replace(sides[o.item.sentence, spec],
                               reading_evidence=_evidence(weighed[o.item.sentence], o.item.mrs))
            for o in chosen}


def _evidence(parsed: Parsed, gold: MRS) -> tuple[dict, ...] | None:
    """ACE's readings of the sentence as weighed, each marked `gold` (equivalent to *gold*)
    and `chosen` (the one LIT would transform)."""
    return tuple({**e, "chosen": parsed.status == Status.OK and w.index == parsed.reading,
                  "gold": equivalent(w.mrs, gold)}
                 for w, e in zip(parsed.weighed, parsed.evidence() or ())) or None
