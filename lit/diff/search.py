"""Name grammatical edits with LIT's own rule modules: which steps make A's MRS into B's?

Every value of every module the rule engine loaded is a candidate step (a new rule file names a
new edit with no change here). A step is applied to A's MRS; a result whose predicates stray
further from B's than A's do is dropped at once (the cheap filter), the others are aligned with
B (lit.diff.difference) and the step that lowers the difference most is taken. The search goes on
from its result, greedily, for at most ``MAX_STEPS`` steps, and stops when B is reached or no
step brings A nearer. What is left is named structurally (lit.diff.naming).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from delphin.mrs import MRS

from lit.diff.difference import Difference, difference
from lit.errors import LitError
from lit.mrs import key
from lit.rules import RuleEngine
from lit.status import Status

#: Steps in one chain: enough for "was not driving" from "drives" (neg, prog, tense).
MAX_STEPS = 3
#: The identity module: it names no edit.
IDENTITY = "o"


@dataclass(frozen=True)
class Applied:
    """One step of the chain: its spec text, its module, and the MRSs before and after it."""

    step: str
    module: str
    before: MRS
    after: MRS


def module_steps(engine: RuleEngine) -> tuple[tuple[str, str], ...]:
    """(module, step) for every value of every module but the identity. Where two steps give
    the same result the first is taken, so the narrower module comes first: the one with
    fewer values ("Mary" -> "James" is ``name=swap`` before ``gender=swap``), then by name."""
    found = []
    for info in sorted(engine.modules, key=lambda m: (len(m.params), m.name)):
        if info.name == IDENTITY:
            continue
        for value in info.params or (None,):
            found.append((info.name, f"{info.name}={value}" if value else info.name))
    return tuple(found)


def _predicate_gap(m: MRS, target: Counter) -> int:
    mine = Counter(key(ep) for ep in m.rels)
    return sum((mine - target).values()) + sum((target - mine).values())


def _results(engine: RuleEngine, m: MRS, step: str) -> tuple[MRS, ...]:
    try:
        outcome = engine.apply(m, step)
    except LitError:
        return ()
    return outcome.alternatives if outcome.status is Status.OK else ()


def best_step(engine: RuleEngine, m: MRS, b: MRS, current: Difference,
              steps: tuple[tuple[str, str], ...]) -> tuple[Applied, Difference] | None:
    """The step that brings *m* nearest to *b* (ties: the first in module order), if any
    brings it nearer than *current*."""
    target = Counter(key(ep) for ep in b.rels)
    gap = _predicate_gap(m, target)
    best: tuple[Applied, Difference] | None = None
    for module, step in steps:
        for result in _results(engine, m, step):
            if _predicate_gap(result, target) > gap:
                continue
            found = difference(result, b)
            bar = best[1].cost if best else current.cost
            if found.cost < bar:
                best = (Applied(step, module, m, result), found)
    return best


def search(engine: RuleEngine, a: MRS, b: MRS, max_steps: int = MAX_STEPS
           ) -> tuple[tuple[Applied, ...], MRS, Difference]:
    """The greedy chain of rule steps from *a* towards *b*, where it ends, and what is left."""
    steps = module_steps(engine)
    chain: list[Applied] = []
    m, left = a, difference(a, b)
    while left.cost and len(chain) < max_steps:
        found = best_step(engine, m, b, left, steps)
        if found is None:
            break
        applied, left = found
        chain.append(applied)
        m = applied.after
    return tuple(chain), m, left
