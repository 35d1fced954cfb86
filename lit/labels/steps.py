"""Comparing a pair's steps with a rule's step patterns, and removing truth-preserving ones."""

from __future__ import annotations

from collections.abc import Iterable

from lit.spec import PairSpec, Spec, Step

#: Step names that leave the MRS unchanged (the `o` of docs/design.md §2).
IDENTITY_STEPS = frozenset({"o", "orig", "original", "identity"})

Steps = tuple[Step, ...]
#: A pair's (premise, hypothesis) steps, identity steps left out.
Sides = tuple[Steps, Steps]


def real_steps(spec: Spec) -> Steps:
    """*spec*'s steps without identity ones: `o+pass` is `pass`, `o` is none."""
    return tuple(s for s in spec.steps if s.name not in IDENTITY_STEPS)


def sides_of(pair: PairSpec) -> Sides:
    """The real steps of both sides of *pair*."""
    return real_steps(pair.premise), real_steps(pair.hypothesis)


def step_matches(pattern: Step, step: Step) -> bool:
    """Same name; a pattern without a value matches any value (`tense` matches `tense=past`)."""
    return pattern.name == step.name and (pattern.value is None or pattern.value == step.value)


def steps_match(pattern: Steps, steps: Steps) -> bool:
    """Same steps in the same order, each as step_matches says."""
    return len(pattern) == len(steps) and all(map(step_matches, pattern, steps))


def _kept(side: Steps, patterns: Steps) -> Steps:
    return tuple(s for s in side if not any(step_matches(n, s) for n in patterns))


def without(sides: Sides, neutral: Iterable[Step]) -> Sides:
    """*sides* without the steps some *neutral* pattern matches (truth-preserving ones)."""
    patterns = tuple(neutral)
    return _kept(sides[0], patterns), _kept(sides[1], patterns)
