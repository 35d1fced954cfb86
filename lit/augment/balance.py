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
from dataclasses import replace

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


def choose_balanced(
    gold: str,
    candidates: Sequence[Candidate],
    survivors: Sequence[Candidate],
    fates: dict[str, str],
    table: dict[tuple[str, str], tuple[str, ...]],
    fresh: Callable[[Candidate], bool],
    rng: random.Random,
    outcome: dict[str, Counter],
    labels: LabelSet = NLI,
) -> list[Candidate]:
    """One of *survivors* (the source's *candidates* that passed screening) per label other
    than *gold*, at random among those *fresh* admits to the output; *outcome* (label ->
    Counter) gets "reached" or why not: the commonest fate (*fates*: spec -> why dropped,
    which *fresh* also fills) of the candidates whose spec can give the label."""
    chosen = []
    for target in labels.codes:
        if target == gold:
            continue
        able = table.get((gold, target), ())
        pool = [c for c in survivors if c.label == target and c.spec in able]
        rng.shuffle(pool)
        pick = next((c for c in pool if fresh(c)), None)
        name = labels.name_of(target)
        if pick is not None:
            chosen.append(pick)
            outcome[name]["reached"] += 1
            continue
        tried = [fates.get(c.spec) or "labelled "
                 + (labels.name_of(c.label) if c.label in labels.codes else "none")
                 for c in candidates if c.spec in able]
        if not able:
            why = NO_RULE
        else:
            why = Counter(tried).most_common(1)[0][0] if tried else "spec not run"
        outcome[name][why] += 1
    return chosen


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
