"""Generate -> rank -> verify for a batch of transformed MRSs (docs/design.md §1).

Each MRS is generated at most once per run: generation results are kept in a run-wide cache
keyed by the MRS itself (its SimpleMRS without spans), shared by batches running in parallel
threads. Not by equivalence: that ignores e.g. a noun's NUM, and an equivalent MRS seen first
(in another batch or thread) would decide what this one realizes, so records would depend on
batch size, resume point and timing.
ACE gives at most `realizations_per_candidate` x `max_candidates` realizations per MRS
(bounded in ACE itself, see lit.ace.service; derivations often share a string), of which the
first `max_candidates` distinct strings are candidates; the record says when ACE stopped at that cap. Words outside the lexicon
are generated through known stand-ins and put back (lit.pipeline.standins).

Candidates are ordered by lit.rank.ranking (the spec's preferences, defects against the
source sentence, closeness and the scorer), then re-parsed *in that order* with
`verify_readings` readings; the first with a reading equivalent to the intended MRS
(lit.equivalence, ICONS included) is the output. Re-parses are batched across all MRSs of the
batch in rounds (1, then 2, 4, ... more candidates per unresolved MRS), so the ACE pool stays
busy and few candidates past the winner get parsed.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from fractions import Fraction

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.ace.protocol import Ace
from lit.ace.semindex import NOT_IN_INDEX
from lit.config import DEFAULTS, RunConfig
from lit.equivalence import equivalent
from lit.mrs.graph import predicate_label
from lit.pipeline.roundtrip import RoundTrip, judge
from lit.pipeline.standins import Substitution, restore, substitute
from lit.pipeline.timing import StageTimes
from lit.rank import Scorer
from lit.rank.articles import agree_articles
from lit.rank.explained import relocates, restructures
from lit.rank.minimal import Edit
from lit.rank.ranking import Preference, Scored, order, why
from lit.rank.surface import Repair, WordOrder, moves_words, repair
from lit.rules.engine import Routed
from lit.status import Status

#: Defective candidates rebuilt with the source's surface per MRS, best first (each repair
#: costs one re-parse if verification reaches it).
REPAIRS = 3
#: A route's twin MRS realizes more variants than a plain MRS (relative pronoun x voice of the
#: relative clause x comma for a cleft's twin), of which the route's surface test and the
#: ranking keep few: it gets this many times the candidates unless its routes say how many
#: (a route's ``candidates``; verification still stops at the first verified one).
ROUTE_CANDIDATE_FACTOR = 4
_PRED = re.compile(r"\[\s*(\"[^\"]*\"|\S+?)(?:<[^>]*>)?\s+LBL:")


@dataclass(frozen=True)
class Job:
    """One MRS to realize, the sentence it came from (for closeness) and the spec's
    realization preferences; *routed*: the twin to generate instead when the grammar will not
    generate *mrs* itself (a rule module's route); verification stays against *mrs*.
    *source_mrs* (the reading transformed) and *examples* (the applied modules' example
    sentence pairs) say which added or dropped words the transformation explains
    (lit.rank.explained); without *source_mrs* that is not checked."""

    mrs: MRS
    source: str | None = None
    preferences: tuple[Preference, ...] = ()
    routed: Routed | None = None
    source_mrs: MRS | None = None
    examples: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Realization:
    """What became of one transformed MRS: the output sentence and its provenance."""

    status: Status
    reason: str | None
    output: str | None
    verified: bool
    candidates: tuple[str, ...]  # best first
    scores: tuple[Scored, ...] = ()  # one per candidate, same order
    chosen_because: str | None = None
    capped: bool = False  # ACE stopped at max_candidates: more realizations may exist
    stand_ins: tuple[Substitution, ...] = ()
    route: str | None = None  # the realization route whose twin MRS was generated


@dataclass(frozen=True)
class _Generated:
    status: Status
    reason: str | None
    surfaces: tuple[str, ...]
    capped: bool


def _pred_signature(mrs_text: str) -> tuple[str, ...] | None:
    """Sorted predicates of a SimpleMRS string as lit.equivalence compares them
    (lit.mrs.graph.predicate_label): a cheap filter before decoding."""
    preds = _PRED.findall(mrs_text)
    return tuple(sorted(predicate_label(p.strip('"')) for p in preds)) if preds else None


class _Target:
    def __init__(self, job: Job):
        self.job = job
        self.mrs = job.mrs
        self.signature = tuple(sorted(predicate_label(ep.predicate) for ep in job.mrs.rels))
        self.routed = job.routed
        self.route = job.routed.name if job.routed else None
        self.word_order = word_order(job)
        self.edit = (Edit.of(job.source or "", job.source_mrs, job.mrs, self.word_order,
                             job.examples) if job.source_mrs is not None
                     else Edit(None, None, self.word_order, keeps_subject=False))
        self.generated_mrs, self.subs = substitute(
            job.routed.twin if job.routed else job.mrs, job.source)
        self.realized = 0  # distinct realizations, before a route's surface test
        self.candidates: list[str] = []
        self.scores: list[Scored] = []
        self.capped = False
        self.status = Status.OK
        self.reason: str | None = None
        self.next = 0  # index of the first candidate not yet checked
        #: candidates re-parsed: those that can be the output (no defect, every preference), a
        #: prefix of the ranking, and the best one after them, whose re-parse says whether
        #: the side is not_fluent or not_verified; the rest never are (None: all, with
        #: allow_defects)
        self.passable: int | None = None
        self.winner: str | None = None
        self.failed_parses: list[str] = []

    @property
    def end(self) -> int:
        """The index after the last candidate to re-parse."""
        return len(self.candidates) if self.passable is None else self.passable

    @property
    def open(self) -> bool:
        return self.status == Status.OK and self.winner is None and self.next < self.end


class _Heard:
    """Passes a batch's progress from targets to the jobs that share them (see `realize`)."""

    def __init__(self, slots: list[int], report: Callable[[int, Fraction], None] | None):
        self.report = report
        self.jobs: dict[int, list[int]] = {}
        for j, slot in enumerate(slots):
            self.jobs.setdefault(slot, []).append(j)

    def targets(self, indices: Sequence[int], done: Fraction) -> None:
        if self.report is not None:
            for k in indices:
                for j in self.jobs[k]:
                    self.report(j, done)


def word_order(job: Job) -> WordOrder:
    """What *job*'s transformation does to the source's word order: a swap moves words, so
    does a substitution of two words for each other; a new ICONS relation or sentence force
    restructures the clause around the rule's words; any other change keeps every word."""
    if moves_words(job.examples) or (
            job.source_mrs is not None and relocates(job.source_mrs, job.mrs)):
        return WordOrder.FREE
    if job.source_mrs is None or restructures(job.source_mrs, job.mrs):
        return WordOrder.KEPT
    return WordOrder.STRICT


def mrs_key(mrs: MRS) -> str:
    """An MRS as a cache key: its one-line SimpleMRS without character spans."""
    return simplemrs.encode(mrs, lnk=False)


class Realizer:
    """Turns MRSs into verified sentences through an ACE service and a scorer."""

    def __init__(self, service: Ace, scorer: Scorer, *, options: RunConfig = DEFAULTS,
                 times: StageTimes | None = None):
        self.service = service
        self.scorer = scorer
        self.max_candidates = options.max_candidates
        self.verify_readings = options.verify_readings
        self.keep_unverified = options.keep_unverified
        self.allow_defects = options.allow_defects
        self.closeness_weight = options.closeness_weight
        self.realizations_per_candidate = float(options.realizations_per_candidate)
        self.times = times if times is not None else StageTimes()
        #: run-wide counts: MRSs generated, generation cache hits, realizations, re-parses
        self.stats: Counter[str] = Counter()
        self._generated: dict[str, Future] = {}  # MRS -> Future[_Generated], for the run
        self._lock = threading.Lock()

    def realize(
        self, jobs: Sequence[Job | MRS], times: StageTimes | None = None,
        progress: Callable[[int, Fraction], None] | None = None,
    ) -> list[Realization]:
        """One Realization per job (or bare MRS), in order. Stage times go to *times* if
        given, else to `self.times`; concurrent calls are safe (the service may be shared).
        *progress* hears (job index, part done) as each job's MRS is generated (1/2) and as
        its realization is decided (1), while the batch runs: for progress bars."""
        own = times is None
        times = StageTimes() if own else times
        jobs = [j if isinstance(j, Job) else Job(j) for j in jobs]
        index: dict[str, dict] = {}  # MRS -> {(source, preferences): slot}
        targets: list[_Target] = []
        slots: list[int] = []
        for job in jobs:
            same = index.setdefault(mrs_key(job.mrs), {})
            key = (job.source, tuple(p.name for p in job.preferences), job.examples,
                   mrs_key(job.source_mrs) if job.source_mrs is not None else None)
            if key not in same:
                same[key] = len(targets)
                targets.append(_Target(job))
            slots.append(same[key])
        heard = _Heard(slots, progress)
        with times.stage("generate"):
            self._generate(targets, times, heard)
        with times.stage("rank"):
            self._rank(targets)
        with times.stage("verify"):
            self._verify(targets, times, heard)
        if own:
            self.times.merge(times)
        results = [self._result(t) for t in targets]
        return [results[s] for s in slots]

    def round_trips(self, items: Sequence[tuple[str, MRS]], times: StageTimes
                    ) -> list[RoundTrip]:
        """The round trip (lit.pipeline.roundtrip) of each (sentence, reading's MRS): its MRS
        generated like any other, through the stand-ins and the run's generation cache."""
        targets = [_Target(Job(m, s)) for s, m in items]
        with times.stage("generate"):
            self._generate(targets, times, _Heard([], None))
        return [judge(s, t.status, t.reason, tuple(t.candidates),
                      not t.capped and t.realized <= len(t.candidates))
                for (s, _), t in zip(items, targets)]

    def _generate(self, targets: list[_Target], times: StageTimes, heard: _Heard) -> None:
        """Realize every target's MRS (each distinct MRS once, across batches) and keep the
        candidates each target wants, or why it has none."""
        futures, mine = self._claim(targets)
        if mine:
            self._realize(mine, futures, times, heard)
        for k, (t, f) in enumerate(zip(targets, futures)):
            self._take(k, t, f.result(), heard)

    def _claim(self, targets: list[_Target]
               ) -> tuple[list[Future], list[tuple[MRS, Future, int]]]:
        """Each target's future realization, and those this batch must generate (with the
        candidates wanted): an MRS another batch generates is waited for, not redone."""
        futures: list[Future] = []
        mine: list[tuple[MRS, Future, int]] = []  # with the candidates wanted
        with self._lock:
            for t in targets:
                key = mrs_key(t.generated_mrs)
                future = self._generated.get(key)
                if future is None:
                    future = self._generated[key] = Future()
                    mine.append((t.generated_mrs, future, self._wanted(t)))
                else:
                    self.stats["generation cache hits"] += 1
                futures.append(future)
        return futures, mine

    def _realize(self, mine: list[tuple[MRS, Future, int]], futures: list[Future],
                 times: StageTimes, heard: _Heard) -> None:
        """Generate *mine* with ACE, grouped by the realizations wanted, settling each
        future (with the error, if generation fails, so waiting batches do not hang)."""
        start = time.perf_counter()
        waiting: dict[int, list[int]] = {}  # id(future) -> targets, for progress
        for k, f in enumerate(futures):
            waiting.setdefault(id(f), []).append(k)
        results = []
        try:
            mine = self._refuse_unknown(mine)
            for wanted in sorted({w for _, _, w in mine}):
                group = [(m, f) for m, f, w in mine if w == wanted]
                limit = math.ceil(self.realizations_per_candidate * wanted)
                for (_, f), r in zip(group, self.service.generate([m for m, _ in group],
                                                                  limit=limit)):
                    results.append(r)
                    f.set_result(_Generated(Status(r.status), r.reason, tuple(r.surfaces),
                                            r.capped))
                    heard.targets(waiting[id(f)], Fraction(1, 2))
        except BaseException as exc:  # waiting batches must not hang
            for _, f, _ in mine:
                if not f.done():
                    f.set_exception(exc)
            raise
        times.add_ace("generate", time.perf_counter() - start)
        self.stats["MRSs generated"] += len(mine)
        self.stats["realizations"] += sum(len(r.surfaces) for r in results)

    def _take(self, k: int, t: _Target, g: _Generated, heard: _Heard) -> None:
        """Target *t* (the batch's *k*th) gets its distinct realizations of *g* (restored,
        rewritten by its route) as candidates, or the status saying why it has none."""
        if g.status != Status.OK:
            t.status, t.reason = g.status, g.reason or f"generation: {g.status}"
            if t.routed is not None:
                t.reason = f"route {t.route} (twin MRS): {t.reason}"
            heard.targets([k], Fraction(1))
            return
        t.capped = g.capped
        distinct = list(dict.fromkeys(
            agree_articles(restore(s, t.subs), t.job.source) if t.subs else s
            for s in g.surfaces))
        t.realized = len(distinct)
        if t.routed is not None:
            rewritten = dict.fromkeys(t.routed.rewrite(s) for s in distinct)
            commas = (t.job.source or "").count(",")
            distinct = [s for s in rewritten
                        if t.routed.admits(s) and s.count(",") <= commas]
        t.candidates = distinct[: self._wanted(t)]
        if not t.candidates:
            t.status, t.reason = Status.NO_GENERATION, "ACE produced no realization"
            if t.routed is not None:
                t.reason = (f"route {t.route}: ACE produced no realization of the twin MRS"
                            if not t.realized else
                            f"route {t.route}: none of the twin's {t.realized} "
                            "realizations has the surface the route requires")
            heard.targets([k], Fraction(1))
        else:
            heard.targets([k], Fraction(1, 2))  # as above; or another batch's generation

    def _refuse_unknown(self, mine: list[tuple[MRS, Future, int]]
                        ) -> list[tuple[MRS, Future, int]]:
        """Fail at once each MRS with a predicate outside the grammar's generation index
        (after stand-ins: AceService.unindexed); the rest, for ACE."""
        limit = math.ceil(self.realizations_per_candidate * self.max_candidates)
        refused = self.service.unindexed([m for m, _, _ in mine], limit)
        for (_, f, _), preds in zip(mine, refused):
            if preds:
                f.set_result(_Generated(Status.NO_GENERATION, (
                    f"{NOT_IN_INDEX}: {', '.join(preds)} (the grammar cannot generate it; "
                    "found before generation)"), (), False))
        with self._lock:
            self.stats["MRSs refused before generation"] += sum(map(bool, refused))
        return [job for job, preds in zip(mine, refused) if not preds]

    def limits(self) -> list:
        """What bounds the realizations this realizer asks of ACE per MRS (a cache key part)."""
        return [self.max_candidates, self.realizations_per_candidate]

    def _wanted(self, t: _Target) -> int:
        """The candidates *t* keeps: more for a route's twin (its routes' ``candidates``, else
        ROUTE_CANDIDATE_FACTOR)."""
        if t.routed is None:
            return self.max_candidates
        return self.max_candidates * (t.routed.candidates or ROUTE_CANDIDATE_FACTOR)

    def _rank(self, targets: list[_Target]) -> None:
        live = [t for t in targets if t.candidates]
        scores = self.scorer.score([t.candidates for t in live])
        for t, s in zip(live, scores):
            t.scores = self._order(t, t.candidates, s)
        self._repair(live)
        for t in live:
            t.candidates = [x.surface for x in t.scores]
            if not self.allow_defects:
                wanted = len(t.job.preferences)
                clean = next((k for k, x in enumerate(t.scores)
                              if x.defects or len(x.preferred) < wanted), len(t.scores))
                t.passable = min(clean + 1, len(t.scores))

    def _order(self, t: _Target, candidates: Sequence[str], scores: Sequence[float],
               ) -> list[Scored]:
        return order(candidates, scores, t.job.source, t.job.preferences, self.closeness_weight,
                     self.scorer.scale, t.edit)

    def _repair(self, targets: list[_Target]) -> None:
        """Surface repair (lit.rank.surface): each target's best REPAIRS candidates that read
        otherwise than the source are rebuilt with the source's surface, scored, and ranked
        with the rest; a repair is verified like any candidate (one re-parse if reached)."""
        repairs: dict[int, dict[str, Repair]] = {}
        for k, t in enumerate(targets):
            if not t.job.source:
                continue
            found: dict[str, Repair] = {}
            for s in t.scores:
                r = repair(t.job.source, s.surface, t.word_order, t.edit.touched) if s.defects else None
                if r is not None and r.surface not in t.candidates and (
                        t.routed is None or t.routed.admits(r.surface)):  # a route's test holds
                    found.setdefault(r.surface, r)
                if len(found) == REPAIRS:
                    break
            if found:
                repairs[k] = found
        if not repairs:
            return
        with self._lock:
            self.stats["candidates repaired"] += sum(map(len, repairs.values()))
        scores = self.scorer.score([list(found) for found in repairs.values()])
        for (k, found), s in zip(repairs.items(), scores):
            t = targets[k]
            ranked = self._order(t, [x.surface for x in t.scores] + list(found),
                                 [x.score for x in t.scores] + list(s))
            t.scores = [replace(x, repair=found.get(x.surface)) for x in ranked]

    def _verify(self, targets: list[_Target], times: StageTimes, heard: _Heard) -> None:
        parses: dict[str, object] = {}  # surface -> ParseResult, shared by all targets
        checking: dict[str, list[int]] = {}  # surface -> open targets whose next it is
        chunk = 1
        while True:
            wanted: dict[str, None] = {}
            for t in targets:
                if t.open:
                    for s in t.candidates[t.next : min(t.next + chunk, t.end)]:
                        if s not in parses:
                            wanted[s] = None
            if not wanted:
                break
            start = time.perf_counter()
            checking.clear()
            for k, t in enumerate(targets):
                if t.open:
                    checking.setdefault(t.candidates[t.next], []).append(k)
            for r in self.service.parse(list(wanted), n=self.verify_readings):
                parses[r.input] = r
                # decide the targets this re-parse was next for now, for progress: each
                # target still checks its candidates strictly in ranked order
                for k in checking.pop(r.input, ()):
                    self._check(targets[k], parses)
                    if targets[k].open:
                        checking.setdefault(targets[k].candidates[targets[k].next], []).append(k)
                    else:
                        heard.targets([k], Fraction(1))
            times.add_ace("verify", time.perf_counter() - start)
            with self._lock:
                self.stats["candidates re-parsed"] += len(wanted)
            for k, t in enumerate(targets):
                was_open = t.open
                self._check(t, parses)
                if was_open and not t.open:
                    heard.targets([k], Fraction(1))
            chunk *= 2

    def _check(self, t: _Target, parses: dict[str, object]) -> None:
        """Check *t*'s candidates in ranked order while their re-parses are at hand."""
        while t.open and t.candidates[t.next] in parses:
            surface = t.candidates[t.next]
            if self._verifies(t, parses[surface]):
                t.winner = surface
            t.next += 1

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
        cands, scores = tuple(t.candidates), tuple(t.scores)
        extra = {"scores": scores, "capped": t.capped, "stand_ins": t.subs, "route": t.route}
        if t.status != Status.OK:
            return Realization(t.status, t.reason, None, False, cands, stand_ins=t.subs,
                               route=t.route)
        if t.winner is not None:
            won = cands.index(t.winner)
            best = scores[won]
            missing = [p.name for p in t.job.preferences if p.name not in best.preferred]
            flaws = list(best.defects) + [f"not {name}" for name in missing]
            if flaws and not self.allow_defects:
                # the best-ranked defective candidate verified (the only one re-parsed)
                return Realization(
                    Status.NOT_FLUENT, f"every verified candidate has a defect; the best, "
                    f"{t.winner!r}, has: {'; '.join(flaws)}", None, True, cands, **extra)
            return Realization(Status.OK, None, t.winner, True, cands,
                               chosen_because=why(best, scores, won), **extra)
        tried = t.end
        reason = (
            f"none of {tried} candidates re-parses (top {self.verify_readings} readings) "
            "to the transformed MRS"
        )
        if t.route is not None:
            reason = (f"route {t.route}: none of the {tried} candidate realizations of "
                      f"the twin MRS re-parses (top {self.verify_readings} readings) to the "
                      "transformed MRS")
        if t.failed_parses:
            reason += f"; {len(t.failed_parses)} did not parse"
        if tried < len(cands):
            reason += (f"; the other {len(cands) - tried}, each with a defect, are not "
                       "re-parsed (none could be the output)")
        output = cands[0] if self.keep_unverified else None
        return Realization(Status.NOT_VERIFIED, reason, output, False, cands, **extra)
