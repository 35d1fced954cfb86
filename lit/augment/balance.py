"""Balance (FAST step 2): for each source pair (or text), one transformed pair for every label
of its task other than its gold label, among the specs whose label rules can give that label.

Which spec can give which label is read from the label rules themselves (with their `when`
preconditions assumed to hold: whether they do is known only per pair), so a new rule file
changes the plan without code.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from lit.augment.flatten import Candidate
from lit.config import PAPER_SPECS
from lit.labels import LabelRules
from lit.labels.names import NLI, LabelSet
from lit.spec import parse_pair, parse_text_spec

#: What the balance report says for a label that no spec of the run can give.
NO_RULE = "no label rule gives it"


def producers(rules: LabelRules, specs: Iterable[str]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(gold code, label code) -> the specs, in order, whose label rules can turn a pair with
    that gold label into a pair with that label (preconditions assumed to hold). A spec
    without `;` is a single-text task's."""
    labels = rules.labels
    relaxed = LabelRules([replace(r, when=()) for r in rules.rules], rules.source, labels)
    table: dict[tuple[str, str], list[str]] = {}
    for spec in dict.fromkeys(specs):
        pair = parse_pair(spec) if ";" in spec else parse_text_spec(spec)
        for gold in labels.codes:
            decision = relaxed.decide(pair, labels.name_of(gold))
            if decision.label is not None:
                table.setdefault((gold, labels.code(decision.label)), []).append(spec)
    return {k: tuple(v) for k, v in table.items()}


def balance_specs(rules: LabelRules) -> list[str]:
    """The paper's specs and every pair spec the label rules name, kept if they can change
    some gold label: `--balance`'s specs when none are given."""
    named = [t for r in rules.rules for t in r.pair_texts]
    table = producers(rules, [*PAPER_SPECS, *named])
    changing = {s for (gold, label), specs in table.items() if gold != label for s in specs}
    return [s for s in dict.fromkeys([*PAPER_SPECS, *named]) if s in changing]


def source_rng(seed: int, source_id: str) -> random.Random:
    """A generator for one source pair: choices depend on the seed and the id only, so a row
    set does not change when other pairs are added or the input is reordered."""
    return random.Random(f"{seed}\0{source_id}")


@dataclass
class BalancePlan:
    """A balanced run's plan and outcome: *table* ((gold, label) -> the specs that can give
    it, from producers), the task's *labels*, and per label name a Counter of "reached" or
    why not, filled source by source."""

    table: dict[tuple[str, str], tuple[str, ...]]
    labels: LabelSet = NLI
    outcome: dict[str, Counter] = field(default_factory=dict)

    @classmethod
    def of(cls, rules: LabelRules, specs: Iterable[str], labels: LabelSet) -> BalancePlan:
        """The plan for *specs* under *rules*, with an empty outcome per label."""
        return cls(producers(rules, specs), labels,
                   {labels.name_of(c): Counter() for c in labels.codes})

    def choose(self, gold: str, candidates: Sequence[Candidate],
               survivors: Sequence[Candidate], fates: dict[str, str],
               fresh: Callable[[Candidate], bool], rng: random.Random) -> list[Candidate]:
        """One of *survivors* (the source's *candidates* that passed screening) per label
        other than *gold*, at random among those *fresh* admits to the output; the outcome
        gets "reached" or why not: the commonest fate (*fates*: spec -> why dropped, which
        *fresh* also fills) of the candidates whose spec can give the label."""
        chosen = []
        for target in self.labels.codes:
            if target == gold:
                continue
            able = self.table.get((gold, target), ())
            pool = [c for c in survivors if c.label == target and c.spec in able]
            rng.shuffle(pool)
            pick = next((c for c in pool if fresh(c)), None)
            name = self.labels.name_of(target)
            if pick is not None:
                chosen.append(pick)
                self.outcome[name]["reached"] += 1
                continue
            self.outcome[name][self._why_not(candidates, able, fates)] += 1
        return chosen

    def _why_not(self, candidates: Sequence[Candidate], able: tuple[str, ...],
                 fates: dict[str, str]) -> str:
        """Why no candidate of a spec in *able* was chosen: the commonest fate among them."""
        if not able:
            return NO_RULE
        tried = [fates.get(c.spec) or "labelled "
                 + (self.labels.name_of(c.label) if c.label in self.labels.codes else "none")
                 for c in candidates if c.spec in able]
        return Counter(tried).most_common(1)[0][0] if tried else "spec not run"

    def report(self) -> dict[str, dict]:
        """Per label: the sources that aimed at it, how many reached it, and why not."""
        return {label: {"aimed": sum(o.values()), "reached": o["reached"],
                        "why_not": {k: v for k, v in o.most_common() if k != "reached"}}
                for label, o in self.outcome.items()}


def choose_capped(gold: str, candidates: Sequence[Candidate], limit: int | None,
                  fresh: Callable[[Candidate], bool], rng: random.Random) -> list[Candidate]:
    """Without --balance: every candidate *fresh* admits, or with *limit* K, K of them, chosen
    at random with label-changing ones first."""
    if limit is None:
        return [c for c in candidates if fresh(c)]
    order = list(candidates)
    rng.shuffle(order)
    order.sort(key=lambda c: c.label == gold)
    chosen: list[Candidate] = []
    for c in order:
        if len(chosen) == limit:
            break
        if fresh(c):
            chosen.append(c)
    return chosen
