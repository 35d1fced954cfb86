"""The pipeline: parse -> transform -> dedupe -> generate -> rank -> verify -> label -> records.

Work is done a batch at a time: each distinct sentence of a batch is parsed once, each distinct
(sentence, spec) transformed once, each equivalent MRS generated once (see realize.py), and the
label rules run *before* generation so pairs no rule covers cost no ACE time.
"""

from __future__ import annotations

import copy
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import groupby

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.ace.protocol import Ace
from lit.config import DEFAULTS, RunConfig
from lit.labels import IDENTITY_STEPS, LabelDecision, LabelRules, phenomena_of
from lit.logic import edit_between
from lit.pipeline.reading import Weighed, moved_phrase, weigh
from lit.pipeline.realize import Job, Realizer, mrs_key
from lit.pipeline.records import SideResult, nli_record, pair_transform, transform_record
from lit.pipeline.roundtrip import RoundTrip
from lit.pipeline.timing import StageTimes
from lit.progress import BatchShare, Progress
from lit.rank import Scorer
from lit.rank.explained import examples, moved_arguments
from lit.spec import PairSpec, Spec, parse_pair, parse_spec
from lit.status import Status
from lit.tasks.item import TaskItem


@dataclass(frozen=True)
class Parsed:
    """A sentence's chosen reading (lit.pipeline.reading), or why there is none, and the next
    readings to fall back on (only trusted ones with the same label-rule phenomena)."""

    status: Status
    reason: str | None
    mrs: MRS | None = None
    text: str | None = None  # the reading's SimpleMRS as ACE printed it
    fallbacks: tuple[tuple[int, MRS], ...] = ()  # (reading index, MRS), in ACE's order
    reading: int = 0  # the chosen reading's index in ACE's order
    weighed: tuple[Weighed, ...] = ()  # every reading, with what speaks against it

    def evidence(self) -> tuple[dict, ...] | None:
        """Every reading's evidence as the records give it (Weighed.to_json)."""
        top = self.weighed[0].score if self.weighed else None
        return tuple(w.to_json(top) for w in self.weighed) or None

#: Side failures that speak against the reading, so a later one may not have them: the rule
#: does not apply to it, its realizations do not read like the source, its round trip fails.
#: Not no_generation or not_verified, which say that the grammar cannot realize the change:
#: on 400 unseen SNLI pairs later readings rescued 1 of ~320 sides that generated nothing and
#: 18 of ~160 that did not verify, at a generation (and its re-parses) per reading tried, many
#: running to ACE's memory cap (docs/performance.md, "Choosing the reading").
RETRY = frozenset({Status.NOT_APPLICABLE, Status.NOT_FLUENT, Status.UNTRUSTED_READING})
#: Later readings a failed side tries at most: every one may cost a generation and its
#: re-parses, and the misreadings seen come in pairs (a reading and its twin with one more
#: name or compound), the right reading third.
MAX_FALLBACKS = 2


def _trip_json(outcome: tuple[str, RoundTrip | None] | None) -> dict | None:
    return outcome[1].to_json() if outcome and outcome[1] is not None else None


def is_identity(spec: Spec) -> bool:
    return all(s.name in IDENTITY_STEPS for s in spec.steps)


def _new_predicates(m: MRS, source: MRS) -> list[str]:
    """The predicates *m* has that *source* lacks (what one alternative put in: "_animal_n_1")."""
    return sorted((Counter(ep.predicate for ep in m.rels)
                   - Counter(ep.predicate for ep in source.rels)).elements())


def _named_pair(spec) -> tuple[str, PairSpec]:
    if isinstance(spec, tuple):
        return spec
    if isinstance(spec, PairSpec):
        return str(spec), spec
    return spec.strip(), parse_pair(spec)


class _BatchProgress:
    """How one `nli` batch shares out its pairs while it runs: an item that needs no ACE work
    (invalid, skipped) at once; of the others, PARSE_PART each spread over the batch's
    parses as they arrive, and the rest spread over the distinct sides to realize (half
    when a side's MRS is generated, the rest when it is decided); items left with nothing
    to realize (no parse, no label rule) when the labels are decided. An estimate of where
    the batch is, exact at its end (`BatchShare` pays what is left)."""

    PARSE_PART = Fraction(1, 3)

    def __init__(self, share: BatchShare, idle: int, working: int):
        self.share, self.working = share, working
        self.per_side = Fraction(0)
        self.heard: dict[tuple[str, Spec], Fraction] = {}
        share.add(Fraction(idle))

    def parsed(self, distinct: int) -> None:
        self.share.add(self.working * self.PARSE_PART / distinct)

    def labelled(self, realizing: int, sides: int) -> None:
        """*realizing* of the working items have sides to realize, *sides* distinct ones."""
        rest = 1 - self.PARSE_PART
        self.share.add((self.working - realizing) * rest)
        self.per_side = realizing * rest / sides if sides else Fraction(0)

    def side(self, key: tuple[str, Spec], part: Fraction) -> None:
        before = self.heard.get(key, Fraction(0))
        if part > before:
            self.heard[key] = part
            self.share.add((part - before) * self.per_side)

    def close(self) -> None:
        self.share.close()


class Pipeline:
    """One configured pipeline over an ACE service, a RuleEngine and a scorer. `transform` and
    `nli` handle one batch each and may run in parallel threads; `times` totals all batches."""

    def __init__(self, service: Ace, rules, scorer: Scorer, *,
                 label_rules: LabelRules | None = None, options: RunConfig = DEFAULTS):
        """*options*: the run's RunConfig (its grammar_version is the rules' grammar's)."""
        self.service = service
        self.options = options
        self.round_trip = options.round_trip
        self._trips: dict[tuple[str, str], RoundTrip] = {}  # run-wide: (sentence, MRS) -> trip
        self._lock = threading.Lock()
        self.rules = rules
        self.grammar_version = options.grammar_version
        self.readings = options.readings
        self.max_alternatives = options.max_alternatives
        self.label_rules = label_rules or LabelRules.load()
        self.times = StageTimes()
        self.realizer = Realizer(service, scorer, options=options, times=self.times)

    def with_label_rules(self, label_rules: LabelRules) -> Pipeline:
        """This pipeline (same ACE service, rules, realizer and stage times) labelling with
        other rules: another task's (lit.tasks)."""
        other = copy.copy(self)
        other.label_rules = label_rules
        return other

    # --- stages -------------------------------------------------------------------------

    def parse(self, sentences: Sequence[str], times: StageTimes,
              share: Callable[[int], None] = lambda distinct: None) -> dict[str, Parsed]:
        """The top reading of each distinct sentence, and up to `readings` - 1 fallbacks.
        *share(d)* is called once per parse as it arrives, d being the distinct count."""
        distinct = list(dict.fromkeys(sentences))
        out: dict[str, Parsed] = {}
        with times.stage("parse"):
            start = time.perf_counter()
            results = []
            for r in self.service.parse(distinct, n=self.readings):
                results.append(r)
                share(len(distinct))
            times.add_ace("parse", time.perf_counter() - start)
            for r in results:
                if r.status != Status.OK or not r.readings:
                    status = Status(r.status) if r.status != Status.OK else Status.NO_PARSE
                    out[r.input] = Parsed(status, r.reason or "no parse")
                    continue
                try:
                    top = simplemrs.decode(r.readings[0].mrs)
                except Exception as exc:  # an MRS PyDelphin cannot read: report, keep going
                    out[r.input] = Parsed(Status.ACE_ERROR, f"unreadable MRS from ACE: {exc}")
                    continue
                out[r.input] = self._choose(r.input, top, r.readings)
            # what the grammar parsed needs no index probe
            self.service.vouch([m for p in out.values() if p.mrs is not None
                                for m in (p.mrs, *(f for _, f in p.fallbacks))])
        return out

    def _choose(self, sentence: str, top: MRS, readings) -> Parsed:
        """The first reading of *sentence* nothing speaks against (lit.pipeline.reading),
        with its fallbacks and every reading's evidence; untrusted_reading, saying why, when
        something speaks against each."""
        decoded = [(0, top, readings[0].mrs, readings[0].derivation)]
        for k, reading in enumerate(readings[1:], 1):
            try:
                decoded.append((k, simplemrs.decode(reading.mrs), reading.mrs,
                                reading.derivation))
            except Exception:  # an unreadable reading is no candidate
                continue
        weighed = weigh(sentence, decoded)
        chosen = next((w for w in weighed if w.doubt is None), None)
        if chosen is None:
            doubts = "; ".join(f"reading {w.index}: {w.doubt}" for w in weighed)
            return Parsed(Status.UNTRUSTED_READING, f"no reading in the top {len(readings)} "
                          f"is trusted: {doubts} (--readings tries more)", weighed=weighed)
        later = [w for w in weighed if w.index > chosen.index and w.doubt is None]
        return Parsed(Status.OK, None, chosen.mrs, chosen.text,
                      self._fallbacks(chosen.mrs, later), chosen.index, weighed)

    def _fallbacks(self, chosen: MRS, later: Sequence[Weighed]) -> tuple[tuple[int, MRS], ...]:
        """The *later* readings whose label-rule phenomena (tense, voice, cleft, ...) equal
        the chosen reading's, so a label decided on the chosen reading holds for them too."""
        if not later:
            return ()
        want = phenomena_of(chosen, self.grammar_version)
        return tuple((w.index, w.mrs) for w in later
                     if phenomena_of(w.mrs, self.grammar_version) == want)

    def sides(
        self, jobs: Sequence[tuple[str, Spec]], parsed: dict[str, Parsed], times: StageTimes,
        done: Callable[[tuple[str, Spec], Fraction], None] = lambda key, part: None,
    ) -> dict[tuple[str, Spec], SideResult]:
        """Transform, generate, rank and verify each distinct (sentence, spec): with the chosen
        reading first (lit.pipeline.reading), then, for a side that failed in a way that speaks
        against the reading (`RETRY`: not_applicable, not_fluent, or the round trip), with each
        fallback reading in turn. The
        side keeps the first reading that succeeds (its index is recorded), else the chosen
        reading's failure; its `reading_evidence` says what became of each reading tried.
        *done(key, part)* hears how far each side got (1: decided, with the reading tried;
        fallbacks after that are not counted again), for progress bars."""
        results: dict[tuple[str, Spec], SideResult] = {}
        todo: dict[tuple[str, Spec], tuple[int, MRS]] = {}  # -> (reading index, reading)
        for key in dict.fromkeys(jobs):
            sentence, spec = key
            p = parsed[sentence]
            if p.status != Status.OK:
                results[key] = SideResult(p.status, p.reason,
                                          reading_evidence=p.evidence())
            elif is_identity(spec):  # `o`: the sentence itself is its own realization
                results[key] = SideResult(Status.OK, None, p.text, sentence, True, (sentence,),
                                          reading=p.reading, reading_evidence=p.evidence())
            else:
                todo[key] = (p.reading, p.mrs)
            if key in results:
                done(key, Fraction(1))
        tries = {key: 0 for key in todo}  # index into [chosen] + fallbacks
        tried: dict[tuple[str, Spec], dict[int, tuple[str, RoundTrip | None]]] = {}
        while todo:
            attempted = self._attempt(todo, times, done, parsed)
            trips = self._round_trips(attempted, todo, times)
            for key, side in attempted.items():
                done(key, Fraction(1))
                trip = trips.get(key)
                if trip is not None and trip.against:
                    side = SideResult(Status.UNTRUSTED_READING, f"reading {todo[key][0]}: "
                                      f"{trip.describe()}", reading=todo[key][0])
                tried.setdefault(key, {})[todo[key][0]] = (
                    "ok" if side.status == Status.OK else f"{side.status}: {side.reason}", trip)
                if key not in results or side.status == Status.OK:
                    results[key] = side
            todo = {}
            for key, side in list(results.items()):
                if key not in tries or side.status not in RETRY:
                    continue
                fallbacks = parsed[key[0]].fallbacks[:MAX_FALLBACKS]
                tries[key] += 1
                if tries[key] <= len(fallbacks):
                    todo[key] = fallbacks[tries[key] - 1]
                else:
                    del tries[key]
        for key, outcomes in tried.items():
            evidence = tuple({**w, "tried": outcomes[w["reading"]][0] if w["reading"] in outcomes
                              else None,
                              "round_trip": _trip_json(outcomes.get(w["reading"]))}
                             for w in parsed[key[0]].evidence() or ())
            results[key] = replace(results[key], reading_evidence=evidence or None)
        return results

    def _round_trips(self, attempted: dict[tuple[str, Spec], SideResult],
                     todo: dict[tuple[str, Spec], tuple[int, MRS]], times: StageTimes,
                     ) -> dict[tuple[str, Spec], RoundTrip]:
        """The round trip of the reading each successful side came from, when the pipeline
        checks round trips: kept across runs in the parse cache, else generated (a sentence's
        reading once per run, however many sides use it)."""
        if not self.round_trip:
            return {}
        wanted = {key: (key[0], todo[key][1]) for key, side in attempted.items()
                  if side.status == Status.OK}
        items = {(s, mrs_key(m)): (s, m) for s, m in wanted.values()}
        with self._lock:
            found = {k: self._trips[k] for k in items if k in self._trips}
        store = self.service.parse_cache
        missing = {}
        for k, item in items.items():
            kept = None
            if k not in found and store is not None:
                kept = store.get_answer("round trip", [*k, self.realizer.limits()])
            if kept is not None:
                found[k] = RoundTrip.from_json(kept)
            elif k not in found:
                missing[k] = item
        if missing:
            for k, trip in zip(missing, self.realizer.round_trips(list(missing.values()), times)):
                found[k] = trip
                if trip.lasting and store is not None:
                    store.put_answer("round trip", [*k, self.realizer.limits()], trip.to_json())
        with self._lock:
            self._trips.update(found)
        return {key: found[(s, mrs_key(m))] for key, (s, m) in wanted.items()}

    def _attempt(self, todo: dict[tuple[str, Spec], tuple[int, MRS]], times: StageTimes,
                 done: Callable[[tuple[str, Spec], Fraction], None],
                 parsed: dict[str, Parsed]) -> dict[tuple[str, Spec], SideResult]:
        """Transform, generate, rank and verify each (sentence, spec) from the given reading;
        a reading whose transformation would move a phrase the verb owns (another reading
        gives it to the verb: lit.pipeline.reading.moved_phrase) is untrusted for that spec,
        before any ACE time is spent on it."""
        results: dict[tuple[str, Spec], SideResult] = {}
        pending: dict[tuple[str, Spec], tuple[MRS, ...]] = {}
        with times.stage("transform"):
            for key, (_, source) in todo.items():
                spec = key[1]
                try:
                    outcome = self.rules.apply(source, spec)
                except Exception as exc:  # a rule bug must not lose the record
                    results[key] = SideResult(Status.ERROR, f"{spec}: {type(exc).__name__}: {exc}",
                                              reading=todo[key][0])
                    continue
                if outcome.status != Status.OK or outcome.mrs is None:
                    status = Status(outcome.status)
                    if status == Status.OK:
                        status = Status.ERROR
                    results[key] = SideResult(status, outcome.reason or f"{spec}: {status}",
                                              reading=todo[key][0])
                elif doubt := self._moved_phrase(key[0], todo[key][0], source, outcome.mrs,
                                                 parsed[key[0]].weighed):
                    results[key] = SideResult(Status.UNTRUSTED_READING,
                                              f"reading {todo[key][0]}: {doubt}",
                                              reading=todo[key][0])
                else:
                    pending[key] = outcome.alternatives or (outcome.mrs,)
        results.update(self._realize_alternatives(pending, todo, times, done))
        return results

    @staticmethod
    def _moved_phrase(sentence: str, index: int, source: MRS, target: MRS,
                      weighed: Sequence[Weighed]) -> str | None:
        """lit.pipeline.reading.moved_phrase for reading *index*, if the change moves any
        argument."""
        moved = moved_arguments(source, target)
        reading = next((w for w in weighed if w.index == index), None)
        if not moved or reading is None:
            return None
        return moved_phrase(sentence, reading, [w for w in weighed if w.index != index], moved)

    def _realize_alternatives(
        self, pending: dict[tuple[str, Spec], tuple[MRS, ...]],
        todo: dict[tuple[str, Spec], tuple[int, MRS]], times: StageTimes,
        done: Callable[[tuple[str, Spec], Fraction], None],
    ) -> dict[tuple[str, Spec], SideResult]:
        """Realize each side's transformed MRS; a side whose transformation gave several (a
        table lookup: one per hypernym, ...) tries them in table order, up to
        `max_alternatives`, until one verifies. Rounds batch the k-th alternative of every
        side still unresolved, so the first alternatives cost what they did before. A side
        none of whose alternatives verifies keeps the first one's failure."""
        results: dict[tuple[str, Spec], SideResult] = {}
        first: dict[tuple[str, Spec], SideResult] = {}
        failed: dict[tuple[str, Spec], list[dict]] = {key: [] for key in pending}
        live = list(pending)
        k = 0
        while live:
            realized = self.realizer.realize(
                [Job(pending[key][k], key[0], self.rules.preferences(key[1]),
                     self.rules.route(pending[key][k]), todo[key][1],
                     examples(self.rules, key[1]))
                 for key in live],
                times, lambda j, part, live=live: done(live[j], part),
            )
            unresolved = []
            for key, r in zip(live, realized):
                m = pending[key][k]
                side = SideResult(
                    r.status, r.reason, simplemrs.encode(m, lnk=False), r.output, r.verified,
                    r.candidates, r.scores, r.chosen_because, r.capped, r.stand_ins,
                    todo[key][0], route=r.route,
                )
                alternatives = pending[key]
                last = k + 1 >= min(len(alternatives), self.max_alternatives)
                if r.status != Status.OK and len(alternatives) > 1:
                    failed[key].append({"index": k, "predicates": _new_predicates(m, todo[key][1]),
                                        "status": str(r.status), "reason": r.reason})
                if r.status != Status.OK and not last:
                    first.setdefault(key, side)
                    unresolved.append(key)
                    continue
                if len(alternatives) > 1:
                    if r.status != Status.OK and k:
                        side = first[key]
                        side = replace(side, reason=f"{side.reason}; the next {k} "
                                       "alternative(s) failed too (see alternatives)")
                    side = replace(side, alternatives={
                        "used": k if r.status == Status.OK else None, "tried": k + 1,
                        "available": len(alternatives), "failed": failed[key]})
                results[key] = side
            live = unresolved
            k += 1
        return results

    # --- whole records ----------------------------------------------------------------------

    def transform(self, sentences: Sequence[str], specs: Spec | str | Sequence) -> list[dict]:
        """`lit transform` records for *sentences*, in input order: one per sentence and spec
        (in spec order), each sentence parsed once."""
        specs = [specs] if isinstance(specs, (str, Spec)) else specs
        specs = [parse_spec(s) if isinstance(s, str) else s for s in specs]
        times = StageTimes()
        parsed = self.parse(sentences, times)
        sides = self.sides([(s, spec) for s in sentences for spec in specs], parsed, times)
        self.times.merge(times)
        return [transform_record(str(spec), sides[(s, spec)]) for s in sentences for spec in specs]

    def nli(self, items: Sequence[TaskItem], specs: Sequence,
            progress: Progress | None = None) -> list[dict]:
        """One `lit nli` record per item, in order, for the pair *specs*: texts ("p;f +i"),
        PairSpecs, or (text, PairSpec) tuples; a record names each spec by its text.
        *progress* hears the batch's pairs as fractions while its work finishes (see
        `_BatchProgress`); they add up to len(items) when this returns."""
        pairs = [_named_pair(s) for s in specs]
        times = StageTimes()  # this batch's own: batches may run in parallel threads
        work = [(k, it) for k, it in enumerate(items)
                if not it.error and not self.label_rules.skip_reason(it.gold)]
        share = _BatchProgress(BatchShare(progress, len(items)), len(items) - len(work),
                               len(work))
        parsed = self.parse([s for _, it in work for s in (it.premise, it.hypothesis)], times,
                            share.parsed)
        decisions: dict[tuple[int, str], object] = {}
        wanted: list[tuple[tuple[str, Spec], tuple[str, Spec]]] = []  # (premise, hypothesis)
        with times.stage("label"):
            for k, it in work:
                p, h = parsed[it.premise], parsed[it.hypothesis]
                if p.status != Status.OK or h.status != Status.OK:
                    continue
                ph_p = phenomena_of(p.mrs, self.grammar_version)
                ph_h = phenomena_of(h.mrs, self.grammar_version)
                for text, pair in pairs:
                    d = self._decide(it, pair, h.mrs, ph_p, ph_h)
                    decisions[(k, text)] = d
                    if d.status == Status.OK:
                        wanted.append(((it.premise, pair.premise),
                                       (it.hypothesis, pair.hypothesis)))
        share.labelled(len({k for (k, _), d in decisions.items() if d.status == Status.OK}),
                       len({key for keys in wanted for key in keys}))
        sides = self.pair_sides(wanted, parsed, times, share.side)
        share.close()
        self.times.merge(times)
        share = times.share(len(items))
        records = []
        for k, it in enumerate(items):
            if it.error:
                t = [pair_transform(text, Status.INVALID_INPUT, it.error) for text, _ in pairs]
                records.append(nli_record(it.id, it.input, t, share, Status.INVALID_INPUT,
                                          it.error))
                continue
            skip = self.label_rules.skip_reason(it.gold)
            if skip:
                t = [pair_transform(text, Status.NOT_APPLICABLE, skip[1]) for text, _ in pairs]
                records.append(nli_record(it.id, it.input, t, share, Status.NOT_APPLICABLE,
                                          skip[1]))
                continue
            transforms = [self._pair(it, text, pair, parsed, decisions.get((k, text)), sides)
                          for text, pair in pairs]
            records.append(nli_record(it.id, it.input, transforms, share))
        return records

    def pair_sides(
        self, wanted: Sequence[tuple[tuple[str, Spec], tuple[str, Spec]]],
        parsed: dict[str, Parsed], times: StageTimes,
        done: Callable[[tuple[str, Spec], Fraction], None],
    ) -> dict[tuple[str, Spec], SideResult]:
        """The sides of the labelled pairs *wanted*: premises first, then only the hypothesis
        sides of pairs whose premise side has an output (a pair needs both; a premise side is
        shared by its hypotheses and specs, and premises are the longer sentences that fail
        most). A hypothesis side no pair can use is never generated nor verified: its record
        shows it empty, the pair's reason names the premise's failure."""
        sides = self.sides([p for p, _ in wanted], parsed, times, done)
        needed = {h for p, h in wanted if sides[p].usable and h not in sides}
        for _, h in wanted:
            if h not in needed and h not in sides:
                done(h, Fraction(1))  # decided: not needed
        sides.update(self.sides([h for _, h in wanted if h in needed], parsed, times, done))
        return sides

    def stream_nli(self, items: Sequence[TaskItem], specs: Sequence,
                   progress: Progress | None = None) -> Iterator[dict]:
        """`nli`'s records, in order, each handed out as soon as its premise group (neighbours
        with the same premise, parsed once) is done: the groups run in input order, as many
        at once as ACE has workers (in threads over the shared ACE pool; all at once, they
        would all finish together), so the first records come early and a slow pair holds
        back only the records after it (`lit nli` writes each record as it finishes). The
        records are `nli`'s (a record never depends on the other pairs of its batch); the
        scorer is called once per group, not per batch."""
        groups = [list(group) for _, group in groupby(items, key=lambda it: it.premise)]
        if len(groups) < 2:
            yield from self.nli(items, specs, progress)
            return
        at_once = min(len(groups), max(2, self.service.workers))
        with ThreadPoolExecutor(max_workers=at_once, thread_name_prefix="lit-pairs") as pool:
            futures = [pool.submit(self.nli, group, specs, progress) for group in groups]
            try:
                for future in futures:
                    yield from future.result()
            finally:
                for future in futures:  # the consumer stopped early
                    future.cancel()

    def _decide(self, it: TaskItem, pair: PairSpec, hypothesis: MRS, ph_p, ph_h) -> LabelDecision:
        """The label rules' decision; a pair no other rule covers whose premise is kept and
        whose hypothesis side is a meaning-changing edit goes to the `edit` rules (natural
        logic, issue 15): the edit is found by transforming the hypothesis's MRS here (no ACE)."""
        d = self.label_rules.decide(pair, it.gold, ph_p, ph_h)
        if d.status == Status.OK or not self.label_rules.has_edit_rules \
                or not is_identity(pair.premise) or is_identity(pair.hypothesis):
            return d
        try:
            outcome = self.rules.apply(hypothesis, pair.hypothesis)
        except Exception:  # a rule bug: the transform stage reports it for the record
            return d
        if outcome.status != Status.OK or outcome.mrs is None:
            return LabelDecision(Status(outcome.status), outcome.reason, None, None, None)
        return self._edit_decision(it, pair, hypothesis, outcome.mrs, ph_p, ph_h) or d

    def _edit_decision(self, it: TaskItem, pair: PairSpec, hypothesis: MRS, edited: MRS,
                       ph_p, ph_h) -> LabelDecision | None:
        """The `edit` rules' decision for the hypothesis *edited* into *edited* (None: no
        edit found between them)."""
        edit = edit_between(hypothesis, edited)
        if edit is None:
            return None
        return self.label_rules.decide(pair, it.gold, ph_p, ph_h, edit=edit,
                                       same_sentence=it.premise == it.hypothesis)

    def _pair(self, it: TaskItem, text: str, pair: PairSpec, parsed, d, sides) -> dict:
        for side, sentence in (("premise", it.premise), ("hypothesis", it.hypothesis)):
            p = parsed[sentence]
            if p.status != Status.OK:
                return pair_transform(text, p.status, f"{side}: {p.reason}")
        if d.status != Status.OK:
            return pair_transform(text, d.status, d.reason)
        ps, hs = sides[(it.premise, pair.premise)], sides.get((it.hypothesis, pair.hypothesis))
        if not ps.usable:
            # the hypothesis side is left out even when another pair of the batch needed it,
            # so a record does not depend on which pairs share its batch
            return pair_transform(text, ps.status, f"premise: {ps.reason}", ps)
        if not hs.usable:
            return pair_transform(text, hs.status, f"hypothesis: {hs.reason}", ps, hs)
        if d.edit is not None and (hs.alternatives or {}).get("used"):
            # a later alternative was realized: label the edit that was made, not the first
            h = parsed[it.hypothesis]
            d = self._edit_decision(
                it, pair, dict(h.fallbacks).get(hs.reading, h.mrs), simplemrs.decode(hs.mrs),
                phenomena_of(parsed[it.premise].mrs, self.grammar_version),
                phenomena_of(h.mrs, self.grammar_version)) or d
            if d.status != Status.OK:
                return pair_transform(text, d.status, d.reason, ps, hs)
        status, reason = Status.OK, None
        for side, s in (("premise", ps), ("hypothesis", hs)):
            if s.status != Status.OK:  # kept unverified on request
                status, reason = s.status, f"{side}: {s.reason}"
                break
        return pair_transform(text, status, reason, ps, hs, d.label, d.rule, d.rationale)
