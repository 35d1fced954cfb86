"""Label rules as data: (pair spec, old label, preconditions) -> new label (docs/design.md §2).

A rule set speaks one task's labels (a lit.labels.names.LabelSet: NLI's E/N/C by default, a
task profile's otherwise, lit.tasks). A rule file (format in docs/labelrules.md; the default
NLI set is `default.labels` beside this module, the built-in tasks' sets are in
lit/tasks/profiles) holds five kinds of rule, tried in this order for a transformed pair:

1. `gold` + `skip` — pairs whose gold label says there is nothing to transform (SNLI "-");
2. `either` — a step on either side decides alone (questions get no NLI label);
3. `pairs` — exact pair specs (`specs` for a single-text task's spec, run as the pair
   "spec;o"), with `when` preconditions on the *original* sentences;
4. `neutral` — truth-preserving steps (passive, cleft) are removed from both sides and the
   `pairs` rules are tried again, so `f;p +pa` falls back to `f;p`;
5. `edit` — for a pair whose hypothesis is a meaning-changing edit of its premise side
   (lit.logic.edits), the edit's lexical relation at the polarity of its position decides
   (natural logic, issue 15); only these rules are consulted for such a pair.

No rule, or a rule that maps no label for the gold label: the pair is *uncovered* and gets no
label — never a guessed one. A `map` may send a label to `keep` (the gold label stays: an
invariance) or to `none` (covered, but no label: a change that may or may not flip it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from lark import Token, Transformer
from lark.exceptions import VisitError

from lit import frontend
from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.errors import InputError, RuleError
from lit.labels.names import NLI, LabelSet, label_code
from lit.phenomena import Phenomena, describe
from lit.status import Status

#: Label-rule files end in this suffix (rule modules use ``.lit``).
LABEL_SUFFIX = ".labels"
DEFAULT_RULES = f"default{LABEL_SUFFIX}"
#: `map X -> keep`: the gold label stays (an invariance).
KEEP = "keep"
#: A condition's side `text` is a single-text task's text (the first side of its pair).
_SIDE_ALIASES = {"text": "premise"}

#: Joins a decision's rule id to the ids of the neutral rules it fell back through.
_ID_JOIN = "+"
#: Step names that leave the MRS unchanged (the `o` of docs/design.md §2).
IDENTITY_STEPS = frozenset({"o", "orig", "original", "identity"})


def gold_code(value: object) -> str | None:
    """`E`/`N`/`C` for a gold label in any spelling lit.labels.names reads, `-` for no
    consensus; None for a missing or unknown one, which no rule but `*` maps."""
    try:
        return label_code(value)
    except ValueError:
        return None


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
    pairs: tuple = ()  # tuple[PairSpec, ...]
    pair_texts: tuple[str, ...] = ()
    either: tuple = ()  # tuple[Step, ...]
    neutral: tuple = ()  # tuple[Step, ...]
    gold: tuple[str, ...] = ()
    skip: bool = False
    when: tuple[Condition, ...] = ()
    mapping: tuple[tuple[str, str | None], ...] = ()
    edit: tuple[str, str] | None = None  # (lexical relation, polarity); `*` matches any

    def matches_edit(self, relation: str, polarity: str) -> bool:
        """True for an `edit` rule whose relation and polarity patterns admit these."""
        return self.edit is not None and all(
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


class _ToRules(Transformer):
    def __init__(self, source: str, labels: LabelSet):
        super().__init__()
        self.source = source
        self.labels = labels

    def _spec(self, tok: Token, kind: str):
        from lit.spec import parse_pair, parse_spec, parse_text_spec

        text = json.loads(tok)
        parse = {"pair": parse_pair, "step": parse_spec, "text": parse_text_spec}[kind]
        try:
            return text, parse(text)
        except InputError as exc:
            raise RuleError(self.source, tok.line, tok.column, str(exc)) from None

    def _label(self, tok: Token, extra: tuple[str, ...]) -> str:
        """A label of the rule set's task (by code or name) as its code, or one of *extra*."""
        if str(tok) in extra:
            return str(tok)
        try:
            code = self.labels.code(str(tok))
        except ValueError:
            code = None
        if code is None or code not in self.labels.codes:
            raise RuleError(self.source, tok.line, tok.column,
                            f"{str(tok)!r} is not {self.labels.what} (labels: "
                            f"{', '.join(self.labels.codes)}; or {', '.join(extra)})")
        return code

    def pairs(self, toks):
        return ("pairs", [self._spec(t, "pair") for t in toks])

    def specs(self, toks):
        return ("specs", [self._spec(t, "text") for t in toks])

    def either(self, toks):
        return ("either", [s for t in toks for s in _real_steps(self._spec(t, "step")[1])])

    def neutral(self, toks):
        return ("neutral", [s for t in toks for s in _real_steps(self._spec(t, "step")[1])])

    def gold(self, toks):
        return ("gold", [json.loads(t) for t in toks])

    def edit(self, toks):
        return ("edit", (str(toks[0]), str(toks[1])))

    def when(self, conds):
        return ("when", list(conds))

    def cond(self, toks):
        side, fld, op, value = (str(t) for t in toks)
        return Condition(side, fld, op, value)

    def map(self, items):
        return ("map", list(items))

    def mapping(self, toks):
        old = self._label(toks[0], ("*", "="))
        new = self._label(toks[1], ("none", KEEP))
        return (old, None if new == "none" else new)

    def skip(self, _):
        return ("skip", True)

    def why(self, toks):
        return ("why", json.loads(toks[0]))

    def rule(self, items):
        name, clauses = items[0], items[1:]
        where = f"{self.source}:{name.line}"

        def error(expected: str) -> RuleError:
            return RuleError(self.source, name.line, name.column, f"rule {name}: {expected}")

        fields: dict = {}
        for key, value in clauses:
            if key in fields:
                raise error(f"`{key}` given twice")
            fields[key] = value
        kinds = [k for k in ("pairs", "specs", "either", "neutral", "gold", "edit") if k in fields]
        if len(kinds) != 1:
            raise error("needs exactly one of pairs, specs, either, neutral, gold, edit")
        if "why" not in fields:
            raise error("needs a `why` line (its rationale)")
        if kinds[0] in ("pairs", "specs", "either", "edit") and "map" not in fields:
            raise error(f"a `{kinds[0]}` rule needs a `map`")
        if kinds[0] == "gold" and "skip" not in fields:
            raise error("a `gold` rule must say `skip`")
        pairs = fields.get("pairs", fields.get("specs", []))
        return LabelRule(
            id=str(name), why=fields["why"], where=where,
            pairs=tuple(p for _, p in pairs), pair_texts=tuple(t for t, _ in pairs),
            either=tuple(fields.get("either", ())), neutral=tuple(fields.get("neutral", ())),
            gold=tuple(fields.get("gold", ())), skip=fields.get("skip", False),
            when=tuple(fields.get("when", ())), mapping=tuple(fields.get("map", ())),
            edit=fields.get("edit"),
        )

    def start(self, rules):
        seen: dict[str, str] = {}
        for r in rules:
            if r.id in seen:
                file, _, line = r.where.rpartition(":")
                raise RuleError(file, int(line), None,
                                f"rule id {r.id!r} already used at {seen[r.id]}")
            seen[r.id] = r.where
        return list(rules)


#: How syntax errors name the terminals a label-rule author could have written.
TERMINAL_NAMES = {
    "NAME": "a lower-case rule id",
    "STRING": 'a "quoted string"',
    "SIDE": "premise, hypothesis, both or text",
    "FIELD": "a phenomenon (tense, prog, perf, sf, mood, modal, negated, passive, cleft, "
             "question)",
    "OP": "= or !=",
    "FROM": "a gold label (a code or name of the task's labels: E, N, C for NLI), * or = "
             "(the premise is the hypothesis)",
    "TO": "a label (E, N, C for NLI), none or keep",
    "RELATION": "a lexical relation (same, hypernym, hyponym, sibling, antonym, unrelated, *)",
    "POLARITY": "a polarity (up, down, none, *)",
    "VALUE": "a value",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
}


def _real_steps(spec) -> tuple:
    return tuple(s for s in spec.steps if s.name not in IDENTITY_STEPS)


def _steps_match(pattern: tuple, steps: tuple) -> bool:
    """Same steps in the same order; a pattern step without a value matches any value."""
    return len(pattern) == len(steps) and all(
        p.name == s.name and (p.value is None or p.value == s.value)
        for p, s in zip(pattern, steps)
    )


def _spec_text(steps: tuple) -> str:
    return "+".join(s.name + (f"={s.value}" if s.value is not None else "") for s in steps) or "o"


class LabelRules:
    """A parsed label-rule set over one task's *labels*; `decide` labels one transformed
    pair."""

    def __init__(self, rules: list[LabelRule], source: str = "<rules>", labels: LabelSet = NLI):
        self.rules = rules
        self.source = source
        self.labels = labels

    @classmethod
    def parse(cls, text: str, source: str = "<string>", labels: LabelSet = NLI) -> "LabelRules":
        """Parse a rule file's *text* whose `map` lines speak *labels* (a RuleError names a
        label that is not one of them)."""
        tree = frontend.parse("lit.labels", "labelrules.lark", text, source, TERMINAL_NAMES)
        try:
            return cls(_ToRules(source, labels).transform(tree), source, labels)
        except VisitError as exc:
            raise frontend.unwrap(exc) from None

    @classmethod
    def load(cls, path: str | Path | None = None, labels: LabelSet = NLI) -> "LabelRules":
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

    def may_label(self, pair) -> bool:
        """True if some rule could label pairs made by *pair* (a lit.spec.PairSpec) for some
        gold label: a `pairs`/`either` rule matches its steps (after `neutral` steps), or it
        is an edit shape (premise kept, one step on the hypothesis) and edit rules exist.
        Preconditions on the sentences are not checked: they need the sentences."""
        sides = (_real_steps(pair.premise), _real_steps(pair.hypothesis))
        neutral = [n for r in self.rules for n in r.neutral]
        bare = tuple(tuple(s for s in side if not any(_steps_match((n,), (s,)) for n in neutral))
                     for side in sides)
        for r in self.rules:
            if r.either and any(_steps_match((p,), (s,)) for p in r.either
                                for side in sides for s in side):
                return True
            if any(_steps_match(_real_steps(p.premise), ss[0])
                   and _steps_match(_real_steps(p.hypothesis), ss[1])
                   for p in r.pairs for ss in (sides, bare)):
                return True
        return self.has_edit_rules and not sides[0] and len(bare[1]) == 1

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
        base, *neutral = rule_id.split(_ID_JOIN)
        by_id = {r.id: r for r in self.rules}
        for part in (base, *neutral):
            if part not in by_id:
                raise KeyError(part)
        labelled = [(c, new) for c in self.labels.codes
                    if (new := by_id[base].map_label(c, self.labels)[1]) is not None]
        return bool(labelled) and all(new == self.labels.name_of(c) for c, new in labelled)

    def decide(
        self,
        pair,
        gold: object,
        premise: Phenomena | None = None,
        hypothesis: Phenomena | None = None,
        edit=None,
        same_sentence: bool = False,
    ) -> LabelDecision:
        """Label a pair transformed by *pair* (a lit.spec.PairSpec); phenomena are those of the
        original premise and hypothesis (see `phenomena_of`). *edit* (a lit.logic.Edit) is the
        hypothesis side's meaning-changing edit, if it has one: then `edit` rules decide, and a
        pair whose premise is its hypothesis (*same_sentence*, e.g. `lit nli --self-pairs`) has
        the gold code `=`."""
        code = self.gold_code(gold)
        code = None if code == "-" else code
        if edit is not None:
            if hypothesis is not None and (hypothesis.question or hypothesis.sf == "comm"):
                return LabelDecision(
                    Status.NOT_APPLICABLE,
                    f"no label rule covers {pair}: the hypothesis is a question or command, "
                    f"which asserts nothing for natural logic ({edit.describe()})",
                    None, None, None, edit.as_dict())
            return self._decide_edit(edit, "=" if same_sentence else code, gold, pair)
        sides = (_real_steps(pair.premise), _real_steps(pair.hypothesis))
        for r in self.rules:
            if r.either and any(
                _steps_match((p,), (s,)) for p in r.either for side in sides for s in side
            ):
                return self._apply(r, code, gold, (), pair)
        misses: list[str] = []
        found = self._match_pairs(sides, code, gold, premise, hypothesis, misses, (), pair)
        if found:
            return found
        neutral_used = []
        stripped = sides
        for r in self.rules:
            if r.neutral:
                new = tuple(
                    tuple(s for s in side if not any(_steps_match((n,), (s,)) for n in r.neutral))
                    for side in stripped
                )
                if new != stripped:
                    neutral_used.append(r)
                    stripped = new
        if neutral_used:
            found = self._match_pairs(
                stripped, code, gold, premise, hypothesis, misses, tuple(neutral_used), pair
            )
            if found:
                return found
        reason = f"no label rule covers {pair}"
        if misses:
            reason += " (" + "; ".join(misses) + ")"
        return LabelDecision(Status.NOT_APPLICABLE, reason, None, None, None)

    def _decide_edit(self, edit, code, gold, pair) -> LabelDecision:
        """The first `edit` rule for the edit's relation and polarity that maps the gold label;
        the decision names the edit (position, polarity, relation) in its rationale too. The
        hypothesis side must be that one edit, with at most truth-preserving (`neutral`) steps
        beside it: "o;hyper+tense=past" changes more than the edit says."""
        steps = [s for s in _real_steps(pair.hypothesis)
                 if not any(_steps_match((n,), (s,)) for r in self.rules for n in r.neutral)]
        if _real_steps(pair.premise) or len(steps) != 1:
            return LabelDecision(
                Status.NOT_APPLICABLE,
                f"no label rule covers {pair}: an edit rule needs the premise kept and one "
                f"meaning-changing step on the hypothesis ({edit.describe()})",
                None, None, None, edit.as_dict())
        misses = []
        for r in self.rules:
            if not r.matches_edit(edit.relation, edit.polarity):
                continue
            covered, label = r.map_label(code, self.labels)
            if covered:
                return LabelDecision(Status.OK, None, label, r.id,
                                     f"{r.why} [{edit.describe()}]", edit.as_dict())
            misses.append(f"{r.id}: maps no label for gold {gold!r}")
        reason = f"no label rule covers {pair}: {edit.describe()}"
        if misses:
            reason += " (" + "; ".join(misses) + ")"
        return LabelDecision(Status.NOT_APPLICABLE, reason, None, None, None, edit.as_dict())

    def _match_pairs(self, sides, code, gold, premise, hypothesis, misses, neutral, pair):
        for r in self.rules:
            for p in r.pairs:
                if not (
                    _steps_match(_real_steps(p.premise), sides[0])
                    and _steps_match(_real_steps(p.hypothesis), sides[1])
                ):
                    continue
                failed = [c for c in r.when if not c.holds(premise, hypothesis)]
                if failed:
                    misses.append(f"{r.id}: precondition {failed[0]} does not hold")
                    break
                covered, _ = r.map_label(code, self.labels)
                if not covered:
                    misses.append(f"{r.id}: maps no label for gold {gold!r}")
                    break
                return self._apply(r, code, gold, neutral, pair)
        return None

    def _apply(self, rule: LabelRule, code, gold, neutral: tuple, pair) -> LabelDecision:
        covered, label = rule.map_label(code, self.labels)
        if not covered:
            return LabelDecision(
                Status.NOT_APPLICABLE,
                f"{rule.id}: maps no label for gold {gold!r} ({pair})",
                None, rule.id, rule.why,
            )
        ids = _ID_JOIN.join([rule.id, *(n.id for n in neutral)])
        why = " ".join([rule.why, *(n.why for n in neutral)])
        return LabelDecision(Status.OK, None, label, ids, why)


def phenomena_of(mrs, grammar_version: str | None) -> Phenomena | None:
    """lit.phenomena.describe for preconditions; None when there is no MRS."""
    if mrs is None:
        return None
    return describe(mrs, grammar_version or DEFAULT_GRAMMAR_VERSION)
