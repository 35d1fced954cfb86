"""With ACE: generate, rank and verify the results of the inputs a spec applied to, exactly as
`lit transform` does (lit.pipeline), so an author sees the sentences a rule's MRSs come out as
and whether they re-parse to them."""

from __future__ import annotations

from collections.abc import Sequence

from delphin.codecs import simplemrs

from lit.pipeline.core import Parsed, Pipeline
from lit.pipeline.records import SideResult
from lit.pipeline.timing import StageTimes
from lit.spec import Spec
from lit.status import Status
from lit.workbench.trial import APPLIED, Outcome


def realize(pipeline: Pipeline, spec: Spec, outcomes: Sequence[Outcome], limit: int
            ) -> dict[str, SideResult]:
    """Input id -> the realization of the first *limit* applied inputs that have a sentence
    (the source sentence ranks the candidates by closeness)."""
    chosen = [o for o in outcomes if o.kind == APPLIED and o.item.sentence][:limit]
    parsed = {o.item.sentence: Parsed(Status.OK, None, o.item.mrs,
                                      simplemrs.encode(o.item.mrs))
              for o in chosen}
    sides = pipeline.sides([(s, spec) for s in parsed], parsed, StageTimes())
    return {o.item.id: sides[o.item.sentence, spec] for o in chosen}
