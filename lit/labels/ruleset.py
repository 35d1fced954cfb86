"""A parsed label-rule set over one task's labels: reading it, and what it says about pairs."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from lit.errors import InputError
from lit.labels.decide import (
    ID_JOIN,
    Case,
    decide_edit,
    decide_steps,
    edit_shaped,
    strip_neutral,
)
from lit.labels.model import LabelDecision, LabelRule
from lit.labels.names import NLI, LabelSet
from lit.labels.parser import parse_rules
from lit.labels.steps import sides_of
from lit.phenomena import Phenomena
from lit.spec import PairSpec

if TYPE_CHECKING:
    from lit.logic import Edit

#: Label-rule files end in this suffix (rule modules use ``.lit``).
LABEL_SUFFIX = ".labels"
DEFAULT_RULES = f"default{LABEL_SUFFIX}"


class LabelRules:
    """A parsed label-rule set over one task's *labels*; `decide` labels one transformed
    pair."""

    def __init__(self, rules: list[LabelRule], source: str = "<rules>", labels: LabelSet = NLI):
        self.rules = rules
        self.source = source
        self.labels = labels

    @classmethod
    def parse(cls, text: str, source: str = "<string>", labels: LabelSet = NLI) -> LabelRules:
        """Parse a rule file's *text* whose `map` lines speak *labels* (a RuleError names a
        label that is not one of them)."""
        return cls(parse_rules(text, source, labels), source, labels)

    @classmethod
    def load(cls, path: str | Path | None = None, labels: LabelSet = NLI) -> LabelRules:
        """The rules in *path* over *labels*, or the default NLI set shipped with LIT."""
        if path is None:
            res = resources.files("lit.labels").joinpath(DEFAULT_RULES)
            return cls.parse(res.read_text("utf-8"), f"lit/labels/{DEFAULT_RULES}", labels)
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{path}: cannot read label rules: {exc.strerror}") from None
        return cls.parse(text, str(path), labels)

    def gold_code(self, value: object) -> str | None:
        """The code of a gold label of this set's task in any spelling (its `no_consensus`
        code for that spelling); None for a missing or unknown one, which no rule but `*`
        maps."""
        try:
            return self.labels.code(value)
        except ValueError:
            return None

    @property
    def has_edit_rules(self) -> bool:
        """True if some rule is an `edit` rule (natural-logic labels for edits)."""
        return any(r.edit is not None for r in self.rules)

    def may_label(self, pair: PairSpec) -> bool:
        """True if some rule could label pairs made by *pair* for some gold label: a
        `pairs`/`either` rule matches its steps (after `neutral` steps), or it is an edit
        shape (premise kept, one step on the hypothesis) and edit rules exist.
        Preconditions on the sentences are not checked: they need the sentences."""
        sides = sides_of(pair)
        bare, _ = strip_neutral(self.rules, sides)
        return (any(r.matches_either(sides) or r.matches_pair(sides) or r.matches_pair(bare)
                    for r in self.rules)
                or (self.has_edit_rules and edit_shaped(self.rules, pair)))

    def skip_reason(self, gold: object) -> tuple[str, str] | None:
        """(rule id, reason) if a `gold ... skip` rule says this pair is not to be transformed."""
        code = self.gold_code(gold)
        for r in self.rules:
            if r.skip and (code in r.gold or (gold is not None and str(gold) in r.gold)):
                return r.id, f"{r.id}: gold label {gold!r}: {r.why}"
        return None

    def preserves_label(self, rule_id: str) -> bool:
        """True if the rule *rule_id* (as `decide` names it: a `pairs`/`either` rule, then any
        `neutral` rules it fell back through, joined by `+`) maps each label it labels to
        itself; labels it leaves uncovered or unlabelled are never scored, so they do not count
        (o;m keeps E and N and leaves C open: label-preserving; a rule that labels nothing
        is not). Neutral steps are
        truth-preserving, so the first rule decides. KeyError names an id not in this set."""
        base, *neutral = rule_id.split(ID_JOIN)
        by_id = {r.id: r for r in self.rules}
        for part in (base, *neutral):
            if part not in by_id:
                raise KeyError(part)
        labelled = [(c, new) for c in self.labels.codes
                    if (new := by_id[base].map_label(c, self.labels)[1]) is not None]
        return bool(labelled) and all(new == self.labels.name_of(c) for c, new in labelled)

    def decide(
        self,
        pair: PairSpec,
        gold: object,
        premise: Phenomena | None = None,
        hypothesis: Phenomena | None = None,
        edit: Edit | None = None,
        same_sentence: bool = False,
    ) -> LabelDecision:
        """Label a pair transformed by *pair*; phenomena are those of the original premise and
        hypothesis (see `phenomena_of`). *edit* is the hypothesis side's meaning-changing edit,
        if it has one: then `edit` rules decide, and a pair whose premise is its hypothesis
        (*same_sentence*, e.g. `lit nli --self-pairs`) has the gold code `=`."""
        code = self.gold_code(gold)
        code = "=" if edit is not None and same_sentence else None if code == "-" else code
        case = Case(pair, gold, code, premise, hypothesis)
        if edit is None:
            return decide_steps(self.rules, self.labels, case)
        return decide_edit(self.rules, self.labels, case, edit)
