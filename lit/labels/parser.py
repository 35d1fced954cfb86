"""The label-rule language's parser: a rule file's text to its LabelRules (docs/labelrules.md).

The lark grammar is `labelrules.lark` beside this module; each clause of a rule becomes a small
frozen dataclass whose fields are the LabelRule fields it sets, so a rule is its clauses merged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import ClassVar, TypeVar

from lark import Token, Transformer
from lark.exceptions import VisitError

from lit import frontend
from lit.errors import InputError, RuleError
from lit.labels.model import KEEP, Condition, LabelRule
from lit.labels.names import LabelSet
from lit.labels.steps import real_steps
from lit.spec import PairSpec, Spec, Step, parse_pair, parse_spec, parse_text_spec

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
    "RELATION": "a lexical relation (same, hypernym, hyponym, sibling, disjoint, antonym, "
                "unrelated, *)",
    "POLARITY": "a polarity (up, down, none, *)",
    "STAND": "the premise's stand on the new material (silent, supports, excludes)",
    "VALUE": "a value",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
}

#: What a quoted spec parses to: a pair spec (a text spec is one) or a step spec.
S = TypeVar("S", PairSpec, Spec)

#: The clauses that say what a rule is about: a rule has exactly one of them.
KINDS = ("pairs", "specs", "either", "neutral", "gold", "edit")
#: The kinds of rule that label pairs, so need a `map`.
MAPPED_KINDS = ("pairs", "specs", "either", "edit")


@dataclass(frozen=True)
class Clause:
    """One clause of a rule; its fields are the LabelRule fields it sets."""

    #: the word the clause starts with, as the author wrote it
    keyword: ClassVar[str]

    def settings(self) -> dict[str, object]:
        """The LabelRule fields this clause sets, by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class PairsClause(Clause):
    """`pairs "f;p" ...`: exact pair specs, with their text as written."""

    keyword: ClassVar[str] = "pairs"
    pairs: tuple[PairSpec, ...]
    pair_texts: tuple[str, ...]


@dataclass(frozen=True)
class SpecsClause(PairsClause):
    """`specs "p" ...`: a single-text task's specs, run as the pairs "spec;o"."""

    keyword: ClassVar[str] = "specs"


@dataclass(frozen=True)
class EitherClause(Clause):
    """`either "n" ...`: steps that decide alone, on either side."""

    keyword: ClassVar[str] = "either"
    either: tuple[Step, ...]


@dataclass(frozen=True)
class NeutralClause(Clause):
    """`neutral "pa" ...`: truth-preserving steps."""

    keyword: ClassVar[str] = "neutral"
    neutral: tuple[Step, ...]


@dataclass(frozen=True)
class GoldClause(Clause):
    """`gold "-" ...`: gold labels (as written) this rule is about."""

    keyword: ClassVar[str] = "gold"
    gold: tuple[str, ...]


@dataclass(frozen=True)
class EditClause(Clause):
    """`edit hypernym at up [given premise silent]`: an edit's lexical relation and polarity
    patterns, and the premise's stand on the new material it must have (None: any)."""

    keyword: ClassVar[str] = "edit"
    edit: tuple[str, str]
    stand: str | None = None


@dataclass(frozen=True)
class WhenClause(Clause):
    """`when premise.tense = pres, ...`: preconditions on the original sentences."""

    keyword: ClassVar[str] = "when"
    when: tuple[Condition, ...]


@dataclass(frozen=True)
class MapClause(Clause):
    """`map E -> N, ...`: gold code -> new label code (None for `none`)."""

    keyword: ClassVar[str] = "map"
    mapping: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True)
class SkipClause(Clause):
    """`skip`: pairs with these gold labels are not transformed."""

    keyword: ClassVar[str] = "skip"
    skip: bool = True


@dataclass(frozen=True)
class WhyClause(Clause):
    """`why "..."`: the rule's rationale."""

    keyword: ClassVar[str] = "why"
    why: str


def _steps(specs: list[tuple[str, Spec]]) -> tuple[Step, ...]:
    """The real steps of step specs, one after the other."""
    return tuple(s for _, spec in specs for s in real_steps(spec))


class _ToRules(Transformer):
    """The parse tree of one rule file to its rules; errors name file, line and column."""

    def __init__(self, source: str, labels: LabelSet):
        super().__init__()
        self.source = source
        self.labels = labels

    def _spec(self, tok: Token, parse: Callable[[str], S]) -> tuple[str, S]:
        """(text, *parse* of it) of a quoted spec; a RuleError says where it is wrong."""
        text = json.loads(tok)
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

    def pairs(self, toks) -> PairsClause:
        specs = [self._spec(t, parse_pair) for t in toks]
        return PairsClause(tuple(p for _, p in specs), tuple(t for t, _ in specs))

    def specs(self, toks) -> SpecsClause:
        specs = [self._spec(t, parse_text_spec) for t in toks]
        return SpecsClause(tuple(p for _, p in specs), tuple(t for t, _ in specs))

    def either(self, toks) -> EitherClause:
        return EitherClause(_steps([self._spec(t, parse_spec) for t in toks]))

    def neutral(self, toks) -> NeutralClause:
        return NeutralClause(_steps([self._spec(t, parse_spec) for t in toks]))

    def gold(self, toks) -> GoldClause:
        return GoldClause(tuple(json.loads(t) for t in toks))

    def edit(self, toks) -> EditClause:
        return EditClause((str(toks[0]), str(toks[1])), str(toks[2]) if len(toks) > 2 else None)

    def when(self, conds) -> WhenClause:
        return WhenClause(tuple(conds))

    def cond(self, toks) -> Condition:
        side, fld, op, value = (str(t) for t in toks)
        return Condition(side, fld, op, value)

    def map(self, items) -> MapClause:
        return MapClause(tuple(items))

    def mapping(self, toks) -> tuple[str, str | None]:
        old = self._label(toks[0], ("*", "="))
        new = self._label(toks[1], ("none", KEEP))
        return (old, None if new == "none" else new)

    def skip(self, _) -> SkipClause:
        return SkipClause()

    def why(self, toks) -> WhyClause:
        return WhyClause(json.loads(toks[0]))

    def rule(self, items) -> LabelRule:
        name, clauses = items[0], items[1:]
        problem = _clause_problem([c.keyword for c in clauses])
        if problem:
            raise RuleError(self.source, name.line, name.column, f"rule {name}: {problem}")
        settings = {k: v for c in clauses for k, v in c.settings().items()}
        return LabelRule(id=str(name), where=f"{self.source}:{name.line}", **settings)

    def start(self, rules) -> list[LabelRule]:
        seen: dict[str, str] = {}
        for r in rules:
            if r.id in seen:
                file, _, line = r.where.rpartition(":")
                raise RuleError(file, int(line), None,
                                f"rule id {r.id!r} already used at {seen[r.id]}")
            seen[r.id] = r.where
        return list(rules)


def _clause_problem(keywords: list[str]) -> str | None:
    """What is wrong with a rule made of clauses with these *keywords*, if anything."""
    twice = next((k for i, k in enumerate(keywords) if k in keywords[:i]), None)
    if twice:
        return f"`{twice}` given twice"
    kinds = [k for k in KINDS if k in keywords]
    if len(kinds) != 1:
        return f"needs exactly one of {', '.join(KINDS)}"
    if "why" not in keywords:
        return "needs a `why` line (its rationale)"
    if kinds[0] in MAPPED_KINDS and "map" not in keywords:
        return f"a `{kinds[0]}` rule needs a `map`"
    if kinds[0] == "gold" and "skip" not in keywords:
        return "a `gold` rule must say `skip`"
    return None


def parse_rules(text: str, source: str, labels: LabelSet) -> list[LabelRule]:
    """The rules of a rule file's *text* whose `map` lines speak *labels* (a RuleError names
    where the text is wrong)."""
    tree = frontend.parse("lit.labels", "labelrules.lark", text, source, TERMINAL_NAMES)
    try:
        return _ToRules(source, labels).transform(tree)
    except VisitError as exc:
        raise frontend.unwrap(exc) from None
