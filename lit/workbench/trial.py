"""Apply a spec to every input and sum up: applied, not applicable per reason, errors, each
with a count and a first example; and, between two versions of a module, the inputs whose
outcome changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.equivalence import equivalent
from lit.rules.diff import explain
from lit.rules.engine import RuleEngine, same_meaning
from lit.rules.syntax import Block, Example, Guard, Module
from lit.spec import Spec
from lit.status import Status
from lit.workbench.sources import Item

#: The outcomes `try` counts, in the order it prints them.
APPLIED, REFUSED, TIMEOUT, ERROR, NO_INPUT = (
    "applied", "not_applicable", "timeout", "error", "no_mrs")
KINDS = (APPLIED, REFUSED, TIMEOUT, ERROR, NO_INPUT)


@dataclass(frozen=True)
class Outcome:
    """What one spec did to one input: its kind (``KINDS``), the reason for anything but
    applied, the result MRSs (several when a table lookup has several values), and the blocks
    that fired, as ``file:line`` lines naming the block."""

    item: Item
    kind: str
    reason: str | None = None
    results: tuple[MRS, ...] = ()
    fired: tuple[str, ...] = ()


def block_name(block: Block) -> str:
    """``rules/modal.lit:27 not_applicable "modal: already modal"`` or ``... rule wrap``."""
    where = f"{Path(block.file).name}:{block.line}"
    if isinstance(block, Guard):
        return f'{where} not_applicable "{block.reason}"'
    return f"{where} rule {block.name}{' every' if block.every else ''}"


def apply_one(engine: RuleEngine, spec: Spec, item: Item) -> Outcome:
    """*spec* on one input; an exception in a rule is this input's error, not the run's."""
    if item.mrs is None:
        return Outcome(item, NO_INPUT, item.problem)
    try:
        outcome = engine.apply(item.mrs, spec)
    except Exception as exc:  # a rule bug: report it with the input, keep going
        return Outcome(item, ERROR, f"{spec}: {type(exc).__name__}: {exc}")
    fired = tuple(f"{step.step}: {block_name(b)}" if len(spec.steps) > 1 else block_name(b)
                  for step in outcome.steps for b in step.fired)
    if outcome.status is Status.OK:
        return Outcome(item, APPLIED, None, outcome.alternatives or (outcome.mrs,), fired)
    kind = TIMEOUT if outcome.status is Status.TIMEOUT else REFUSED
    return Outcome(item, kind, outcome.reason, (), fired)


def run(engine: RuleEngine, spec: Spec, items: Sequence[Item]) -> list[Outcome]:
    return [apply_one(engine, spec, item) for item in items]


@dataclass
class Tally:
    """How many inputs had one outcome (or one reason), and the first of them."""

    count: int = 0
    example: Outcome | None = None

    def add(self, outcome: Outcome) -> None:
        self.count += 1
        self.example = self.example or outcome


@dataclass
class Summary:
    """Counts per kind, and per reason within each kind but applied (most frequent first)."""

    spec: str
    total: int = 0
    kinds: dict[str, Tally] = field(default_factory=dict)
    reasons: dict[str, dict[str, Tally]] = field(default_factory=dict)

    def count(self, kind: str) -> int:
        return self.kinds[kind].count if kind in self.kinds else 0


def summarize(spec: Spec, outcomes: Sequence[Outcome]) -> Summary:
    summary = Summary(str(spec), len(outcomes))
    for o in outcomes:
        summary.kinds.setdefault(o.kind, Tally()).add(o)
        if o.kind != APPLIED:
            summary.reasons.setdefault(o.kind, {}).setdefault(o.reason or "", Tally()).add(o)
    summary.kinds = {k: summary.kinds[k] for k in KINDS if k in summary.kinds}
    summary.reasons = {k: dict(sorted(r.items(), key=lambda kv: -kv[1].count))
                       for k, r in summary.reasons.items()}
    return summary


@dataclass(frozen=True)
class Change:
    """An input whose outcome differs between the old and the new version of a module."""

    item: Item
    old: Outcome
    new: Outcome
    how: str  # "applied -> not_applicable", "not_applicable -> applied", "other result", ...
    detail: str  # the reasons, or how the results differ (lit.rules.diff.explain)


def _how(old: Outcome, new: Outcome) -> tuple[str, str] | None:
    if old.kind != new.kind:
        return (f"{old.kind} -> {new.kind}",
                f"{old.reason or 'applied'} -> {new.reason or 'applied'}")
    if old.kind == APPLIED:
        if len(old.results) != len(new.results) or not all(
                same_meaning(a, b) for a, b in zip(old.results, new.results)):
            return "other result", "new ('ours') vs old ('target'): " + explain(
                new.results[0], old.results[0])
        return None
    if old.reason != new.reason:
        return f"{old.kind}: other reason", f"{old.reason} -> {new.reason}"
    return None


def compare(old: Sequence[Outcome], new: Sequence[Outcome]) -> list[Change]:
    """The inputs (in order) whose outcome differs: applied <-> refused (or an error), another
    result MRS (not equivalent, lit.rules.engine.same_meaning), or another refusal reason."""
    changes = []
    for a, b in zip(old, new):
        found = _how(a, b)
        if found:
            changes.append(Change(b.item, a, b, *found))
    return changes


def check_examples(engine: RuleEngine, module: Module) -> list[tuple[Example, str | None]]:
    """The module's examples that have MRSs for this grammar version, each with None if the
    spec turns its source into (an MRS equivalent to) its target, else why not; the same
    check tests/rules/test_modules.py makes of LIT's own modules."""
    found = []
    for ex in module.examples:
        if not ex.source_mrs or engine.grammar_version not in (ex.versions or module.versions):
            continue
        outcome = engine.apply(simplemrs.decode(ex.source_mrs), ex.spec)
        if outcome.status is not Status.OK:
            found.append((ex, outcome.reason))
        elif not equivalent(outcome.mrs, simplemrs.decode(ex.target_mrs)):
            found.append((ex, "the result is not the target: "
                          + explain(outcome.mrs, simplemrs.decode(ex.target_mrs))))
        else:
            found.append((ex, None))
    return found
