"""The rule model: a label rule, its preconditions and the decision it gives a pair."""

from __future__ import annotations

from dataclasses import dataclass

from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.labels.names import NLI, LabelSet, label_code
from lit.labels.steps import Sides, sides_of, step_matches, steps_match
from lit.phenomena import Phenomena, describe
from lit.spec import PairSpec, Step
from lit.status import Status

#: `map X -> keep`: the gold label stays (an invariance).
KEEP = "keep"
#: A condition's side `text` is a single-text task's text (the first side of its pair).
_SIDE_ALIASES = {"text": "premise"}


def gold_code(value: object) -> str | None:
    """`E`/`N`/`C` for a gold label in any spelling lit.labels.names reads, `-` for no
    consensus; None for a missing or unknown one, which no rule but `*` maps."""
    try:
        return label_code(value)
    except ValueError:
        return None


def phenomena_of(mrs, grammar_version: str | None) -> Phenomena | None:
    """lit.phenomena.describe for preconditions; None when there is no MRS."""
    if mrs is None:
        return None
    return describe(mrs, grammar_version or DEFAULT_GRAMMAR_VERSION)


@dataclass(frozen=True)
class Condition:
    """`premise.tense = pres`: a field of lit.phenomena.Phenomena of an original sentence."""

    side: str  # premise | hypothesis | both
    field: str
    op: str
    value: str

    def holds(self, premise: Phenomena | None, hypothesis: Phenomena | None) -> bool:
        sides = {"premise": [premise], "hypothesis": [hypothesis]}.get(
            _SIDE_ALIASES.get(self.side, self.side), [premise, hypothesis]
        )
        return all(p is not None and self._check(p) for p in sides)

    def _check(self, p: Phenomena) -> bool:
        value = getattr(p, self.field)
        text = str(value).lower() if value is not None else "none"
        return (text == self.value.lower()) == (self.op == "=")

    def __str__(self) -> str:
        return f"{self.side}.{self.field} {self.op} {self.value}"


@dataclass(frozen=True)
class LabelRule:
    """One rule of a label-rule file; `where` is `file:line` for messages."""

    id: str
    why: str
    where: str
    pairs: tuple[PairSpec, ...] = ()
    pair_texts: tuple[str, ...] = ()
    either: tuple[Step, ...] = ()
    neutral: tuple[Step, ...] = ()
    gold: tuple[str, ...] = ()
    skip: bool = False
    when: tuple[Condition, ...] = ()
    mapping: tuple[tuple[str, str | None], ...] = ()
    edit: tuple[str, str] | None = None  # (lexical relation, polarity); `*` matches any
    stand: str | None = None  # `given premise STAND`: the edit's premise stand; None: any

    def matches_either(self, sides: Sides) -> bool:
        """True for an `either` rule one of whose steps is on either side."""
        return any(step_matches(p, s) for p in self.either for side in sides for s in side)

    def matches_pair(self, sides: Sides) -> bool:
        """True for a `pairs` rule one of whose pair specs has exactly these steps."""
        return any(all(map(steps_match, sides_of(p), sides)) for p in self.pairs)

    def matches_edit(self, relation: str, polarity: str, stand: str | None = None) -> bool:
        """True for an `edit` rule whose relation and polarity patterns admit these, and
        whose `given premise` stand, if it has one, is the edit's *stand*."""
        return self.edit is not None and self.stand in (None, stand) and all(
            pat in ("*", got) for pat, got in zip(self.edit, (relation, polarity))
        )

    def map_label(self, gold: str | None, labels: LabelSet = NLI) -> tuple[bool, str | None]:
        """(covered, new label name) for a gold code of *labels* (`=`: the premise is the
        hypothesis); `*` maps any label, also a missing one; `keep` gives the gold label
        itself (none for a missing one)."""
        for old, new in self.mapping:
            if old == "*" or old == gold:
                if new == KEEP:
                    return True, labels.name_of(gold) if gold in labels.codes else None
                return True, (labels.name_of(new) if new else None)
        return False, None


@dataclass(frozen=True)
class LabelDecision:
    """The outcome for one transformed pair: status ok (label may be None) or not_applicable."""

    status: Status
    reason: str | None
    label: str | None
    rule: str | None
    rationale: str | None
    edit: dict | None = None  # lit.logic.Edit.as_dict() for an `edit` rule's decision
