"""The label LIT's rules predict for an edited pair (issue 42): the edits lit.diff named on each
side become what the label machinery already reads, and the label rules decide.

* Grammatical edits (a rule module's `step`: "n", "tense=fut", "pass") make a pair spec, the
  premise's steps before the `;` and the hypothesis's after it ("o;neg"), decided by the
  task's `pairs`/`either`/`neutral` rules exactly as `lit nli` and `lit contrast` decide a
  transformed pair (lit.labels.LabelRules.decide).
* A meaning-changing edit (a word, modifier, determiner or number replaced, with its
  lexical relation and polarity) is a lit.logic.Edit; several on one side are one composite
  edit where their relations compose (lit.audit.compose). On the hypothesis the task's `edit`
  rules decide (natural logic; docs/labelrules.md); on the premise the rules of
  lit/audit/premise.labels, which say how the relation composes the other way round.
* Anything else gets no label and the reason: a side whose edit is not fully named (a
  residue), an edit kind no rule speaks of, meaning-changing edits on both sides or with no
  joint relation. No label is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from importlib import resources

from lit.audit.compose import compose
from lit.diff.model import MrsDiff, NamedEdit
from lit.errors import InputError, RuleError
from lit.labels import LabelRules
from lit.labels.model import LabelDecision
from lit.logic import UP, Edit
from lit.logic.support import edit_stand, premise_stand
from lit.phenomena import Phenomena
from lit.spec import PairSpec, parse_pair, parse_text_spec
from lit.status import Status

#: The NLI sides; a task profile's sides take these positions in order.
NLI_SIDES = ("premise", "hypothesis")
#: Both sides edited.
BOTH = "both"
PREMISE_RULES = "premise.labels"

#: lit.diff relation spellings -> the label rules' (lit.lexicon's) vocabulary.
_RELATIONS = {"synonym": "same", "cohyponym": "sibling", "co-hyponym": "sibling"}
#: lit.diff structural kinds -> lit.logic.Edit kinds.
_EDIT_KINDS = {"lexical": "substitute", "quantifier": "determiner",
               "modifier_dropped": "drop", "argument_dropped": "drop",
               "modifier_added": "add", "argument_added": "add"}
#: The perturbation module that makes an edit of this relation (lit.rules modules), so the
#: pair spec names the step as `lit nli` would ("o;hyper").
_STEP_OF_RELATION = {"hypernym": "hyper", "hyponym": "hypo", "sibling": "sibling",
                     "disjoint": "disjoint",
                     "antonym": "antonym", "same": "same", "unrelated": "unrelated"}
_STEP_OF_KIND = {"drop": "drop", "add": "add", "determiner": "quant", "number": "quant"}
_SPAN = re.compile(r"<-?\d+:-?\d+>$")


@dataclass(frozen=True)
class Words:
    """The predicates the premise's stand on an edit is read from (lit.logic.support): the
    original premise's (for a hypothesis edit), and for a premise edit also the original
    hypothesis's and the edited premise's -- each None where it was not read, and the
    three only where every one of them asserts all its open-class words (no negation,
    *every* restrictor or *believe* above one), as word-by-word reading needs."""

    premise: Collection[str] | None = None
    hypothesis: Collection[str] | None = None
    edited_premise: Collection[str] | None = None


@dataclass(frozen=True)
class Prediction:
    """What the rules say of an edited pair: a label (None: no label) with the rule id and
    its rationale, or the reason no rule gave one; `spec` is the pair spec the edits amount
    to (None when they amount to none)."""

    label: str | None
    rule: str | None
    rationale: str | None
    reason: str | None
    spec: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"label": self.label, "rule": self.rule, "rationale": self.rationale,
                "reason": self.reason, "spec": self.spec}


def no_label(reason: str, spec: str | None = None) -> Prediction:
    return Prediction(None, None, None, reason, spec)


def premise_rules(rules: LabelRules) -> LabelRules | None:
    """The premise-side natural-logic rules in *rules*' labels; None if that task's labels
    cannot say them (they speak NLI's E, N, C)."""
    text = resources.files("lit.audit").joinpath(PREMISE_RULES).read_text("utf-8")
    try:
        return LabelRules.parse(text, f"lit/audit/{PREMISE_RULES}", rules.labels)
    except RuleError:
        return None


def _predicate(ep: str) -> str:
    """The predicate of an EP as lit.diff writes it ("_man_n_1<2:5>" -> "_man_n_1")."""
    return _SPAN.sub("", ep.split()[0]) if ep.strip() else ep


def relation_of(edit: NamedEdit) -> str | None:
    """The edit's relation in the label rules' vocabulary (None for a grammatical edit)."""
    return None if edit.relation is None else _RELATIONS.get(edit.relation, edit.relation)


def logic_edit(edit: NamedEdit) -> Edit:
    """The lit.logic.Edit a meaning-changing named edit is, for the `edit` rules."""
    kind = _EDIT_KINDS.get(edit.kind, edit.kind)
    old = _predicate(edit.eps_a[0]) if edit.eps_a else None
    new = _predicate(edit.eps_b[0]) if edit.eps_b else None
    return Edit(kind, old, new, edit.detail or edit.kind, edit.polarity or "none",
                relation_of(edit) or "unrelated")


def edit_step(edit: NamedEdit) -> str:
    """The step name a meaning-changing edit stands for in a pair spec."""
    if edit.step:
        return edit.step
    kind = _EDIT_KINDS.get(edit.kind, edit.kind)
    return _STEP_OF_KIND.get(kind) or _STEP_OF_RELATION.get(relation_of(edit) or "", "edit")


def _unnamed(side: str, diff: MrsDiff) -> str | None:
    """Why *diff* cannot be labelled, if it cannot: its edits are not all named."""
    if diff.residue.empty():
        return None
    parts = [f"{what} {', '.join(eps)}" for what, eps in (
        ("removed", diff.residue.removed), ("added", diff.residue.added),
        ("changed", diff.residue.changed)) if eps]
    named = f" beside {', '.join(diff.kinds())}" if diff.edits else ""
    return f"{side}: the edit is not fully named{named} ({'; '.join(parts)})"


def _decided(decision: LabelDecision, spec: str) -> Prediction:
    if decision.status is Status.OK and decision.label is not None:
        return Prediction(decision.label, decision.rule, decision.rationale, None, spec)
    if decision.status is Status.OK:  # covered, but the rule maps to no label
        return Prediction(None, decision.rule, decision.rationale,
                          f"{decision.rule}: {decision.rationale}", spec)
    return Prediction(None, None, None, decision.reason, spec)


def _pair(steps: Sequence[Sequence[str]], single: bool) -> PairSpec:
    texts = ["+".join(s) or "o" for s in steps]
    return parse_text_spec(texts[0]) if single else parse_pair(";".join(texts))


def predict(original_label: object, side: str, diff: MrsDiff | Sequence[MrsDiff],
            rules: LabelRules | None = None, *, sides: Sequence[str] = NLI_SIDES,
            premise: Phenomena | None = None, hypothesis: Phenomena | None = None,
            words: Words | None = None) -> Prediction:
    """The label *rules* (default: LIT's NLI rules) give the edited pair, whose original pair
    had *original_label*, when *side* (one of *sides*, or "both") was edited as *diff* says
    (for "both", one MrsDiff per side in order). *sides* names the task's sides (a task
    profile's, e.g. ("text",) for a single-text task); *premise*/*hypothesis* are the
    phenomena of the original first/second text (lit.labels.phenomena_of), which `when`
    preconditions read. *words* give an edit the premise's stand on what it changed
    (lit.logic.support), which `given premise` rules read. A step the diff named that the
    spec syntax does not read gets no label, with the reason."""
    try:
        return _predict(original_label, side, diff, rules, sides, premise, hypothesis,
                        words or Words())
    except InputError as exc:
        if str(exc).startswith("side "):
            raise
        return no_label(f"the edits make no pair spec LIT reads: {exc}")


def _predict(original_label: object, side: str, diff: MrsDiff | Sequence[MrsDiff],
             rules: LabelRules | None, sides: Sequence[str], premise: Phenomena | None,
             hypothesis: Phenomena | None, words: Words) -> Prediction:
    rules = rules or LabelRules.load()
    sides = tuple(sides)
    edited = _edited(side, diff, sides)
    skip = rules.skip_reason(original_label)
    if skip:
        return no_label(skip[1])
    for name, d in edited.items():
        why = _unnamed(name, d)
        if why:
            return no_label(why)
    steps, meaning, unruled = _steps_and_meaning(edited, sides)
    if unruled:
        return no_label(unruled)
    if not meaning:
        pair = _pair(steps, len(sides) == 1)
        return _decided(rules.decide(pair, original_label, premise, hypothesis), str(pair))
    if len({i for i, _ in meaning}) > 1:
        listed = "; ".join(f"{sides[i]}: {e.kind} ({e.detail})" for i, e in meaning)
        return no_label("natural-logic rules label meaning-changing edits of one side; this "
                        f"pair has them on both: {listed}")
    return _meaning_changed(original_label, rules, sides, (premise, hypothesis), steps,
                            meaning, words)


def _edited(side: str, diff: MrsDiff | Sequence[MrsDiff], sides: tuple[str, ...]
            ) -> dict[str, MrsDiff]:
    """The diff of each edited side (*side* one of *sides*, or BOTH with one diff each)."""
    if side == BOTH:
        diffs = tuple(diff) if isinstance(diff, Sequence) else (diff,)
        if len(diffs) != len(sides):
            raise InputError(f"side both needs one diff per side ({len(sides)}), "
                             f"got {len(diffs)}")
        return dict(zip(sides, diffs))
    if side in sides:
        if not isinstance(diff, MrsDiff):
            raise InputError(f"side {side!r} takes one diff")
        return {side: diff}
    raise InputError(f"side {side!r}: expected one of {', '.join(sides)} or {BOTH}")


def _steps_and_meaning(edited: dict[str, MrsDiff], sides: tuple[str, ...]
                       ) -> tuple[list[list[str]], list[tuple[int, NamedEdit]], str | None]:
    """Per side the steps its edits are (passive, tense, ...), the meaning-changing edits
    (side index, edit), and why no rule can label the pair (an edit of a kind no rule
    speaks of), if so."""
    steps: list[list[str]] = [[] for _ in sides]
    meaning: list[tuple[int, NamedEdit]] = []
    for i, name in enumerate(sides):
        for e in edited[name].edits if name in edited else ():
            if e.relation is not None:
                meaning.append((i, e))
            elif e.step:
                steps[i].append(e.step)
            else:
                return steps, meaning, (f"{name}: no label rule speaks of a {e.kind} edit "
                                        f"({e.detail})")
    return steps, meaning, None


def _meaning_changed(original_label: object, rules: LabelRules, sides: tuple[str, ...],
                     phenomena: tuple[Phenomena | None, Phenomena | None],
                     steps: list[list[str]], meaning: list[tuple[int, NamedEdit]],
                     words: Words) -> Prediction:
    """The label of a pair whose one edited side has meaning-changing edits: natural-logic
    rules of the hypothesis (the task's) or of the premise read their joint edit."""
    single = len(sides) == 1
    at = meaning[0][0]
    shown = list(steps)
    shown[at] = steps[at] + [edit_step(e) for _, e in meaning]
    spec = str(_pair(shown, single))
    stand = _stand(at, len(sides), [e for _, e in meaning], words)
    edit = _joint_edit(meaning, at, stand)
    if isinstance(edit, str):
        return no_label(f"{sides[at]}: {edit}", spec)
    steps[at].append(edit_step(meaning[0][1]))
    if single:
        return no_label("a single-text task's label rules label no meaning-changing edit "
                        f"({edit.describe()})", spec)
    if at == len(sides) - 1:  # the hypothesis: the task's rules
        decision = rules.decide(_pair(steps, single), original_label, *phenomena, edit)
        return _decided(_respelled(decision, _pair(steps, single), spec), spec)
    own = premise_rules(rules)
    if own is None:
        return no_label(f"{sides[at]}: no premise-side natural-logic rules in this task's "
                        f"labels ({edit.describe()})", spec)
    # the premise rules read the edit as the only step of an edit-shaped pair (no phenomena:
    # the premise is not the hypothesis whose question or command edit rules refuse)
    shaped = _pair([steps[-1], steps[at]], single)
    decision = own.decide(shaped, original_label, None, None, edit)
    return _decided(_respelled(decision, shaped, spec), spec)


def _joint_edit(meaning: list[tuple[int, NamedEdit]], at: int, stand: str | None
                ) -> Edit | str:
    """The one logic edit the side's meaning-changing edits make together (its premise
    *stand* set), or why they have none."""
    edit = logic_edit(meaning[0][1]) if len(meaning) == 1 else None
    if edit is None:
        composed = compose([logic_edit(e) for _, e in meaning])
        # a premise edit whose stand is known is read whole (its words all assert: _stand)
        relation = composed.relation or ("unrelated" if at == 0 and stand else None)
        if relation is None:
            return (f"{len(meaning)} meaning-changing edits, no joint relation: "
                    f"{composed.reason}")
        details = "; ".join(e.detail or e.kind for _, e in meaning)
        edit = Edit("composite", None, None, details, UP, relation)
    return replace(edit, premise=stand)


def _stand(at: int, n_sides: int, edits: Sequence[NamedEdit], words: Words) -> str | None:
    """The premise's stand on what the *edits* of side *at* changed (lit.logic.support): on
    a hypothesis edit's new material, or the edited premise's new stand on the hypothesis;
    None where *words* lack a text it needs."""
    if words.premise is None or n_sides < 2:
        return None
    if at == n_sides - 1:
        return premise_stand([_predicate(ep) for e in edits for ep in e.eps_b], words.premise)
    if words.hypothesis is None or words.edited_premise is None:
        return None
    return edit_stand(words.hypothesis, words.premise, words.edited_premise)


def _respelled(decision: LabelDecision, decided: PairSpec, spec: str) -> LabelDecision:
    """*decision* with the pair spec it was decided as named as the edits' *spec*."""
    if decision.reason is None or str(decided) == spec:
        return decision
    return replace(decision, reason=decision.reason.replace(str(decided), spec))
