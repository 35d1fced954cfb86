"""Generate -> rank -> verify for a batch of transformed MRSs (docs/design.md §1, issue 4).

Equivalent MRSs are generated once per batch. All realizations (distinct strings, up to
`max_candidates`, in ACE's order) are candidates; the scorer ranks them; candidates are then
re-parsed *in rank order* with `verify_readings` readings and the first one with a reading
equivalent to the intended MRS (lit.equivalence, ICONS included) is the output. Re-parses are
batched across all MRSs of the batch in rounds (1, then 2, 4, ... more candidates per
unresolved MRS), so the ACE pool stays busy and few candidates past the winner get parsed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from delphin import predicate
from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.equivalence import EquivalenceIndex, equivalent
from lit.pipeline.defaults import DEFAULT_MAX_CANDIDATES, DEFAULT_VERIFY_READINGS
from lit.pipeline.timing import StageTimes
from lit.rank import Scorer
from lit.status import Status

_PRED = re.compile(r"\[\s*(\"[^\"]*\"|\S+?)(?:<[^>]*>)?\s+LBL:")


@dataclass(frozen=True)
class Realization:
    """What became of one transformed MRS: the output sentence and its provenance."""

    status: Status
    reason: str | None
    output: str | None
    verified: bool
    candidates: tuple[str, ...]  # best first


def _pred_signature(mrs_text: str) -> tuple[str, ...] | None:
    """Sorted normalized predicates of a SimpleMRS string: a cheap filter before decoding."""
    preds = _PRED.findall(mrs_text)
    return tuple(sorted(predicate.normalize(p.strip('"')) for p in preds)) if preds else None


class _Target:
    def __init__(self, mrs: MRS):
        self.mrs = mrs
        self.signature = tuple(sorted(predicate.normalize(ep.predicate) for ep in mrs.rels))
        self.candidates: list[str] = []
        self.status = Status.OK
        self.reason: str | None = None
        self.next = 0  # index of the first candidate not yet checked
        self.winner: str | None = None
        self.failed_parses: list[str] = []

    @property
    def open(self) -> bool:
        return self.status == Status.OK and self.winner is None and self.next < len(
            self.candidates
        )


class Realizer:
    """Turns MRSs into verified sentences through an AceService and a scorer."""

    def __init__(
        self,
        service,
        scorer: Scorer,
        *,
        max_candidates: int = DEFAULT_MAX_CANDIDATES,
        verify_readings: int = DEFAULT_VERIFY_READINGS,
        keep_unverified: bool = False,
        times: StageTimes | None = None,
    ):
        self.service = service
        self.scorer = scorer
        self.max_candidates = max(1, max_candidates)
        self.verify_readings = max(1, verify_readings)
        self.keep_unverified = keep_unverified
        self.times = times if times is not None else StageTimes()

    def realize(self, mrss: Sequence[MRS], times: StageTimes | None = None) -> list[Realization]:
        """One Realization per input MRS, in order. Stage times go to *times* if given, else
        to `self.times`; concurrent calls are safe (the service may be shared by threads)."""
        own = times is None
        times = StageTimes() if own else times
        index = EquivalenceIndex()
        targets: list[_Target] = []
        slots: list[int] = []
        with times.stage("generate"):
            for m in mrss:
                slot = index.get(m)
                if slot is None:
                    slot = len(targets)
                    index.add(m, slot)
                    targets.append(_Target(m))
                slots.append(slot)
            self._generate(targets, times)
        with times.stage("rank"):
            self._rank(targets)
        with times.stage("verify"):
            self._verify(targets, times)
        if own:
            self.times.merge(times)
        results = [self._result(t) for t in targets]
        return [results[s] for s in slots]

    def _generate(self, targets: list[_Target], times: StageTimes) -> None:
        start = time.perf_counter()
        results = list(self.service.generate([t.mrs for t in targets]))
        times.add_ace("generate", time.perf_counter() - start)
        for t, r in zip(targets, results):
            if r.status != Status.OK:
                t.status, t.reason = Status(r.status), r.reason or f"generation: {r.status}"
                continue
            seen: dict[str, None] = {}
            for s in r.surfaces:
                if s not in seen:
                    seen[s] = None
                    if len(seen) == self.max_candidates:
                        break
            t.candidates = list(seen)
            if not t.candidates:
                t.status, t.reason = Status.NO_GENERATION, "ACE produced no realization"

    def _rank(self, targets: list[_Target]) -> None:
        live = [t for t in targets if t.candidates]
        scores = self.scorer.score([t.candidates for t in live])
        for t, s in zip(live, scores):
            order = sorted(range(len(t.candidates)), key=lambda i: (s[i], i))
            t.candidates = [t.candidates[i] for i in order]

    def _verify(self, targets: list[_Target], times: StageTimes) -> None:
        parses: dict[str, object] = {}  # surface -> ParseResult, shared by all targets
        chunk = 1
        while True:
            wanted: dict[str, None] = {}
            for t in targets:
                if t.open:
                    for s in t.candidates[t.next : t.next + chunk]:
                        if s not in parses:
                            wanted[s] = None
            if not wanted:
                break
            start = time.perf_counter()
            for r in self.service.parse(list(wanted), n=self.verify_readings):
                parses[r.input] = r
            times.add_ace("verify", time.perf_counter() - start)
            for t in targets:
                while t.open and t.candidates[t.next] in parses:
                    surface = t.candidates[t.next]
                    if self._verifies(t, parses[surface]):
                        t.winner = surface
                    t.next += 1
            chunk *= 2

    def _verifies(self, t: _Target, parse) -> bool:
        if parse.status != Status.OK:
            t.failed_parses.append(f"{parse.status}")
            return False
        for reading in parse.readings:
            sig = _pred_signature(reading.mrs)
            if sig is not None and sig != t.signature:
                continue
            try:
                m = simplemrs.decode(reading.mrs)
            except Exception:  # a reading PyDelphin cannot read cannot verify anything
                continue
            if equivalent(m, t.mrs):
                return True
        return False

    def _result(self, t: _Target) -> Realization:
        cands = tuple(t.candidates)
        if t.status != Status.OK:
            return Realization(t.status, t.reason, None, False, cands)
        if t.winner is not None:
            return Realization(Status.OK, None, t.winner, True, cands)
        reason = (
            f"none of {len(cands)} candidates re-parses (top {self.verify_readings} readings) "
            "to the transformed MRS"
        )
        if t.failed_parses:
            reason += f"; {len(t.failed_parses)} did not parse"
        output = cands[0] if self.keep_unverified else None
        return Realization(Status.NOT_VERIFIED, reason, output, False, cands)
