"""The decision: which rule of a set labels one transformed pair, and with what label.

Tried in order: `either` rules, then `pairs` rules, then `pairs` rules again on the pair with
its `neutral` steps removed; an `edit` (natural logic) is decided by `edit` rules alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lit.labels.model import LabelDecision, LabelRule
from lit.labels.names import LabelSet
from lit.labels.steps import Sides, sides_of, without
from lit.phenomena import Phenomena
from lit.spec import PairSpec
from lit.status import Status

if TYPE_CHECKING:
    from lit.logic import Edit

#: Joins a decision's rule id to the ids of the neutral rules it fell back through.
ID_JOIN = "+"


@dataclass(frozen=True)
class Case:
    """One transformed pair to label: its spec, its gold label as given and as a code of the
    rule set's labels, and the phenomena of its original sentences (for preconditions)."""

    pair: PairSpec
    gold: object
    code: str | None
    premise: Phenomena | None = None
    hypothesis: Phenomena | None = None


def strip_neutral(rules: Sequence[LabelRule], sides: Sides) -> tuple[Sides, tuple[LabelRule, ...]]:
    """*sides* without every `neutral` rule's steps, and the neutral rules that removed some,
    in file order: `f;p+pa` is `f;p` through the passive's rule."""
    used = []
    for r in rules:
        stripped = without(sides, r.neutral)
        if stripped != sides:
            used.append(r)
            sides = stripped
    return sides, tuple(used)


def edit_shaped(rules: Sequence[LabelRule], pair: PairSpec) -> bool:
    """True if *pair* keeps the premise and makes one step on the hypothesis beside
    truth-preserving ones: the shape an `edit` rule can label."""
    sides = sides_of(pair)
    return not sides[0] and len(strip_neutral(rules, sides)[0][1]) == 1


def uncovered(reason: str, misses: Sequence[str], edit: dict | None = None) -> LabelDecision:
    """No label: *reason*, then why each rule that came close did not apply."""
    if misses:
        reason += " (" + "; ".join(misses) + ")"
    return LabelDecision(Status.NOT_APPLICABLE, reason, None, None, None, edit)


def decide_steps(rules: Sequence[LabelRule], labels: LabelSet, case: Case) -> LabelDecision:
    """The first `either` rule whose step is on a side, else the first `pairs` rule for the
    pair's steps, else for its steps without neutral ones; misses say why rules that matched
    the steps did not label."""
    sides = sides_of(case.pair)
    for r in rules:
        if r.matches_either(sides):
            return apply_rule(r, (), labels, case)
    misses: list[str] = []
    found = match_pairs(rules, labels, case, sides, (), misses)
    if found:
        return found
    stripped, neutral = strip_neutral(rules, sides)
    if neutral:
        found = match_pairs(rules, labels, case, stripped, neutral, misses)
        if found:
            return found
    return uncovered(f"no label rule covers {case.pair}", misses)


def match_pairs(rules: Sequence[LabelRule], labels: LabelSet, case: Case, sides: Sides,
                neutral: tuple[LabelRule, ...], misses: list[str]) -> LabelDecision | None:
    """The decision of the first `pairs` rule for *sides* whose preconditions hold and which
    maps the gold label; each rule passed over adds why to *misses*."""
    for r in rules:
        if not r.matches_pair(sides):
            continue
        failed = [c for c in r.when if not c.holds(case.premise, case.hypothesis)]
        if failed:
            misses.append(f"{r.id}: precondition {failed[0]} does not hold")
        elif not r.map_label(case.code, labels)[0]:
            misses.append(f"{r.id}: maps no label for gold {case.gold!r}")
        else:
            return apply_rule(r, neutral, labels, case)
    return None


def apply_rule(rule: LabelRule, neutral: tuple[LabelRule, ...], labels: LabelSet,
               case: Case) -> LabelDecision:
    """*rule*'s label for the case, named with the *neutral* rules it fell back through."""
    covered, label = rule.map_label(case.code, labels)
    if not covered:
        return LabelDecision(
            Status.NOT_APPLICABLE,
            f"{rule.id}: maps no label for gold {case.gold!r} ({case.pair})",
            None, rule.id, rule.why,
        )
    ids = ID_JOIN.join([rule.id, *(n.id for n in neutral)])
    why = " ".join([rule.why, *(n.why for n in neutral)])
    return LabelDecision(Status.OK, None, label, ids, why)


def decide_edit(rules: Sequence[LabelRule], labels: LabelSet, case: Case,
                edit: Edit) -> LabelDecision:
    """The first `edit` rule for the edit's relation and polarity that maps the gold label;
    the decision names the edit (position, polarity, relation) in its rationale too. The
    hypothesis side must be that one edit, with at most truth-preserving (`neutral`) steps
    beside it: "o;hyper+tense=past" changes more than the edit says. A question or command
    asserts nothing, so no edit rule labels it."""
    if case.hypothesis is not None and (case.hypothesis.question or case.hypothesis.sf == "comm"):
        return uncovered(
            f"no label rule covers {case.pair}: the hypothesis is a question or command, "
            f"which asserts nothing for natural logic ({edit.describe()})", (), edit.as_dict())
    if not edit_shaped(rules, case.pair):
        return uncovered(
            f"no label rule covers {case.pair}: an edit rule needs the premise kept and one "
            f"meaning-changing step on the hypothesis ({edit.describe()})", (), edit.as_dict())
    misses = []
    for r in rules:
        if not r.matches_edit(edit.relation, edit.polarity, edit.premise):
            continue
        covered, label = r.map_label(case.code, labels)
        if covered:
            return LabelDecision(Status.OK, None, label, r.id,
                                 f"{r.why} [{edit.describe()}]", edit.as_dict())
        misses.append(f"{r.id}: maps no label for gold {case.gold!r}")
    return uncovered(f"no label rule covers {case.pair}: {edit.describe()}", misses,
                     edit.as_dict())
