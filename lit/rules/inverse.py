"""Declared inverses: a module says which steps of other modules its step undoes
(``inverse "neg=not"`` in aff.lit), so that the law "the inverse gives back the original MRS"
can be checked on gold data (tests/rules/test_inverse_law.py; docs/rules.md, "Inverses").

The law, forward: where a declared forward step applies to an MRS, the inverse applied to the
result gives back an MRS equivalent to the original (lit.equivalence). Backward: where the
inverse applies, one of the forward steps declared with it gives the original back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from delphin.mrs import MRS

from lit.equivalence import equivalent
from lit.errors import InputError
from lit.rules.diff import explain
from lit.rules.engine import RuleEngine
from lit.spec import Step
from lit.status import Status


@dataclass(frozen=True)
class InversePair:
    """``inverse`` undoes ``forward``; declared at ``file``:``line``."""

    forward: Step
    inverse: Step
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.forward} -> {self.inverse}"


@dataclass(frozen=True)
class LawCheck:
    """One MRS through a step and back: ``applied`` is False when the first step does not
    apply (the MRS says nothing about the law); ``held`` when a step back gave the original;
    otherwise ``reason`` says what happened instead."""

    applied: bool
    held: bool = False
    reason: str | None = None


def declared_inverses(engine: RuleEngine) -> tuple[InversePair, ...]:
    """Every inverse pair the modules of *engine* declare, by module name; an InputError names
    the declaring file and line when a declared step is unknown to this grammar version."""
    pairs = []
    for info in engine.modules:
        module = engine.module(info.name)
        own = Step(module.name, module.default)
        for decl in module.inverses:
            for text in decl.specs:
                try:
                    (forward,) = engine.check(text).steps
                except InputError as exc:
                    raise InputError(f"{decl.file}:{decl.line}:{decl.column}: inverse "
                                     f"{text!r}: {exc}") from None
                pairs.append(InversePair(forward, own, decl.file, decl.line))
    return tuple(pairs)


def check_law(engine: RuleEngine, first: Step, back: Sequence[Step], mrs: MRS) -> LawCheck:
    """Apply *first* to *mrs*; where it applies, some step of *back* applied to the result
    must give an MRS equivalent to *mrs*. The reason names what each step back did."""
    there = engine.apply(mrs, str(first))
    if there.status is not Status.OK:
        return LawCheck(applied=False)
    reasons = []
    for step in back:
        result = engine.apply(there.mrs, str(step))
        if result.status is not Status.OK:
            reasons.append(f"{step}: {result.status.value}: {result.reason}")
        elif equivalent(result.mrs, mrs):
            return LawCheck(applied=True, held=True)
        else:
            reasons.append(f"{step} gives back a different MRS: {explain(result.mrs, mrs)}")
    return LawCheck(applied=True, reason="; ".join(reasons))
