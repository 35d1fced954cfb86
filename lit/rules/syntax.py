"""The typed syntax tree of the rule language: one frozen dataclass per construct.

The parser (lit.rules.parser) builds these, the checker (lit.rules.checker) checks them, the
matcher matches and applies them with ``match`` on their types. Every condition, item and edit
knows its line and column; every block and preference knows its own file, so a block pulled in
from a rule library or merged from a second file still reports where it was written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True, kw_only=True)
class Located:
    """Where a construct starts in its file (1-based line and column)."""

    line: int
    column: int


# ---------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Param:
    """A ``{name}`` placeholder filled from the step's value and its bindings."""

    name: str


@dataclass(frozen=True)
class PropLiteral:
    value: str


@dataclass(frozen=True)
class PropParam:
    name: str


@dataclass(frozen=True)
class PropNot:
    value: str


@dataclass(frozen=True)
class PropNotParam:
    name: str


@dataclass(frozen=True)
class PropRef:
    """``?v.PROP``: the value of another variable's property."""

    var: str
    feature: str


PropValue = PropLiteral | PropParam | PropNot | PropNotParam | PropRef


@dataclass(frozen=True)
class Prop:
    """``NAME: alt | alt``: a property test (any alternative) or an assignment (one)."""

    name: str
    alternatives: tuple[PropValue, ...]


@dataclass(frozen=True)
class VarTerm:
    """A variable in a pattern, optionally with a type and property tests: ``?x [x NUM: sg]``."""

    var: str
    vtype: str | None = None
    props: tuple[Prop, ...] = ()


@dataclass(frozen=True)
class Const:
    """A constant argument, e.g. ``CARG: "Browne"``."""

    value: str


@dataclass(frozen=True)
class Lookup(Located):
    """A table lookup. In a pattern ``<table.column>`` holds when the predicate or constant is a
    key of the column (``!<table.column>``: is not); in an output ``<table.column -> target>``
    replaces it by the target column's values for that key, one alternative output each."""

    table: str
    key: str | Param  # the column whose cells are the keys
    negated: bool = False
    target: str | Param | None = None

    def __str__(self) -> str:
        show = lambda c: f"{{{c.name}}}" if isinstance(c, Param) else c  # noqa: E731
        arrow = f" -> {show(self.target)}" if self.target is not None else ""
        return f"{'!' if self.negated else ''}<{self.table}.{show(self.key)}{arrow}>"


@dataclass(frozen=True)
class Role:
    """``ARG1: ?x`` in an EP pattern; the role name may be a ``{parameter}``."""

    name: str | Param
    value: VarTerm | Const | Lookup


# ---------------------------------------------------------------------------- predicates


@dataclass(frozen=True)
class PredExact:
    name: str


@dataclass(frozen=True)
class PredParam:
    name: str


@dataclass(frozen=True)
class PredRegex:
    """``/regex/``, or a library predicate class ``%name`` once resolved."""

    pattern: str


@dataclass(frozen=True)
class PredAny:
    pass


@dataclass(frozen=True)
class PredClass(Located):
    """``%name``: a predicate class from a rule library; resolved to PredRegex when compiled."""

    name: str


PredTest = PredExact | PredParam | PredRegex | PredAny | PredClass | Lookup

# ---------------------------------------------------------------------------- items


@dataclass(frozen=True)
class EPPattern(Located):
    name: str | None
    anchor: str | None
    pred: PredTest | None
    roles: tuple[Role, ...]


@dataclass(frozen=True)
class ConsPattern(Located):
    """A constraint between two variables: ``LEFT RELATION RIGHT``."""

    left: str
    relation: str
    right: str


@dataclass(frozen=True)
class HConsPattern(ConsPattern):
    """``?h qeq ?l`` (also lheq, outscopes)."""


@dataclass(frozen=True)
class IConsPattern(ConsPattern):
    """``?e topic ?x``, ``INDEX focus ?x``."""


@dataclass(frozen=True)
class VarTest(Located):
    """A test on a variable's type and properties alone: ``INDEX [ SF: ques ]``."""

    term: VarTerm


Item = EPPattern | HConsPattern | IConsPattern | VarTest

# ---------------------------------------------------------------------------- conditions


@dataclass(frozen=True)
class When(Located):
    name: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Context(Located):
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Input(Located):
    """Like Context, but the matched items are removed before the output is added."""

    items: tuple[Item, ...]


@dataclass(frozen=True)
class Filter(Located):
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Where(Located):
    left: str
    op: str
    right: str


@dataclass(frozen=True)
class Semi(Located):
    var: str
    role: str | Param
    vtype: str


@dataclass(frozen=True)
class Fresh(Located):
    vars: tuple[str, ...]
    vtype: str


Condition = When | Context | Input | Filter | Where | Semi | Fresh

# ---------------------------------------------------------------------------- edits


@dataclass(frozen=True)
class Add(Located):
    item: Item


@dataclass(frozen=True)
class Remove(Located):
    item: Item


@dataclass(frozen=True)
class Change(Located):
    var: str
    pred: PredTest | None
    roles: tuple[Role, ...]


@dataclass(frozen=True)
class SetProps(Located):
    var: str
    props: tuple[Prop, ...]


@dataclass(frozen=True)
class Unset(Located):
    var: str
    features: tuple[str, ...]


@dataclass(frozen=True)
class CopyProps(Located):
    source: str
    target: str


@dataclass(frozen=True)
class Relabel(Located):
    old: str
    new: str


@dataclass(frozen=True)
class SetSpecial(Located):
    """``INDEX = ?m`` or ``TOP = ?h``."""

    special: str
    var: str


Edit = Add | Remove | Change | SetProps | Unset | CopyProps | Relabel | SetSpecial

# ---------------------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Guard:
    """``not_applicable "reason"``: when its conditions hold the step does not apply."""

    reason: str
    conditions: tuple[Condition, ...]
    file: str
    line: int


@dataclass(frozen=True)
class Rule:
    """``rule NAME``; with ``every`` it applies at each of its matches, together with the
    other ``every`` rules that match (docs/rules.md, "Rewriting every match")."""

    name: str
    conditions: tuple[Condition, ...]
    edits: tuple[Edit, ...]
    file: str
    line: int
    every: bool = False


@dataclass(frozen=True)
class GuardRef(Located):
    """``not_applicable NAME``: a named guard from a rule library, inserted here."""

    name: str
    file: str


@dataclass(frozen=True)
class Route(Rule):
    """``route NAME "why"``: for a phenomenon the grammar parses but will not generate, how
    to build a *twin* MRS that it does generate with the same surface strings. Its conditions
    match the transformed (target) MRS and its edits build the twin from it; the pipeline
    generates the twin and verifies every realization against the target (docs/rules.md,
    "Realization routes"). ``rewrites`` are (regex, replacement) pairs applied, first match
    each, to a twin realization (a string the twin has but the target lacks, such as the comma
    of a non-restrictive relative); ``surface`` is a regex a rewritten realization must match
    to be a candidate (None: any); ``candidates`` is how many times the pipeline's candidates
    per MRS the twin keeps (None: the pipeline's default for a twin), since a twin realizes
    variants of which the surface test keeps few; ``reason`` says why the grammar will not
    generate the target."""

    reason: str = ""
    rewrites: tuple[tuple[str, str], ...] = ()
    surface: str | None = None
    candidates: int | None = None

    def rewrite(self, realization: str) -> str:
        """*realization* of the twin with the route's rewrites applied."""
        for pattern, replacement in self.rewrites:
            realization = re.sub(pattern, replacement, realization, count=1)
        return realization

    def admits(self, realization: str) -> bool:
        """May *realization* (rewritten) be a candidate for the target?"""
        return self.surface is None or re.search(self.surface, realization) is not None


Block = Guard | Rule

# ---------------------------------------------------------------------------- headers


@dataclass(frozen=True)
class Example:
    """Source -> target sentences, optionally with their MRSs; ``versions`` empty = all the
    module's grammar versions."""

    spec: str
    source: str
    target: str
    source_mrs: str | None = None
    target_mrs: str | None = None
    versions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Value:
    """A ``value`` line: the value, its bindings and whether it is the default."""

    name: str
    bindings: tuple[tuple[str, str], ...]
    default: bool


@dataclass(frozen=True)
class Preference(Located):
    """``prefer "name" initial w1 w2 ...`` or ``prefer "name" matches "regex"``: a test over a
    realization string saying which realizations a module's output should rather have
    (case-insensitive). Declared as data; the pipeline decides how to use it."""

    name: str
    words: tuple[str, ...] = ()
    pattern: str | None = None
    file: str = ""

    def holds(self, surface: str) -> bool:
        """Does *surface* pass this preference's test?"""
        if self.pattern is not None:
            return re.search(self.pattern, surface, re.IGNORECASE) is not None
        first = _FIRST_WORD.match(surface)
        return first is not None and first.group(1).lower() in self.words


_FIRST_WORD = re.compile(r"[\s\"'(\[]*([A-Za-z][A-Za-z']*)")


@dataclass(frozen=True)
class TableDecl(Located):
    """``table NAME "PATH" [predicates|strings]``: a TSV file beside the module's file."""

    name: str
    path: str
    predicates: bool
    file: str


@dataclass(frozen=True)
class Inverse(Located):
    """``inverse "SPEC" ...``: the module's step (its default value) undoes each of these
    one-step specs of other modules; tests/rules/test_inverse_law.py checks it on gold MRSs."""

    specs: tuple[str, ...]
    file: str


@dataclass(frozen=True)
class Code:
    code: str
    value: str | None


@dataclass(frozen=True)
class Use(Located):
    """``use NAME``: pull in the rule library NAME (its predicate classes and guards)."""

    name: str


@dataclass(frozen=True)
class Description:
    text: str


@dataclass(frozen=True)
class Versions:
    versions: tuple[str, ...]


@dataclass(frozen=True)
class Otherwise:
    """The reason given when no rule of the module matches."""

    reason: str


@dataclass(frozen=True)
class ModuleFile:
    """A parsed module file, before libraries are resolved and it is checked."""

    name: str
    file: str
    parts: tuple[Code | Description | Versions | Otherwise | Value | Example | Preference | Use
                 | TableDecl | Inverse | Guard | Rule | Route | GuardRef, ...]


@dataclass(frozen=True)
class ClassDef(Located):
    name: str
    pattern: str


@dataclass(frozen=True)
class NamedGuard:
    """``guard NAME "reason" CONDITIONS`` in a library."""

    name: str
    guard: Guard
    column: int


@dataclass(frozen=True)
class LibraryFile:
    name: str
    file: str
    parts: tuple[Use | ClassDef | NamedGuard, ...]


# ---------------------------------------------------------------------------- compiled module


@dataclass(frozen=True)
class Table:
    """A loaded data table: column names (the TSV's header) and rows, each with its line."""

    name: str
    file: str
    predicates: bool  # cells are MRS predicates, checked against the SEM-I (else strings)
    columns: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]

    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def keys(self, column: str) -> frozenset[str]:
        """The non-empty cells of *column*."""
        if column not in self._cache:
            i = self.columns.index(column)
            self._cache[column] = frozenset(cells[i] for _, cells in self.rows if cells[i])
        return self._cache[column]

    def values(self, column: str, key: str, target: str) -> tuple[str, ...]:
        """*target*'s non-empty cells in the rows whose *column* is *key*, in file order,
        each once (a key in several rows has several values)."""
        if (column, target) not in self._cache:
            k, t = self.columns.index(column), self.columns.index(target)
            index: dict[str, tuple[str, ...]] = {}
            for _, cells in self.rows:
                if cells[k] and cells[t] and cells[t] not in index.get(cells[k], ()):
                    index[cells[k]] = index.get(cells[k], ()) + (cells[t],)
            self._cache[column, target] = index
        return self._cache[column, target].get(key, ())


@dataclass(frozen=True)
class Module:
    """One compiled module (one file, or several files of the same module merged); each
    block keeps its own file in ``file``, and ``paths`` lists every file it came from."""

    name: str
    paths: tuple[str, ...]
    codes: tuple[tuple[str, str | None], ...] = ()
    description: str = ""
    versions: tuple[str, ...] = ()
    values: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    default: str | None = None
    examples: tuple[Example, ...] = ()
    otherwise: str | None = None
    blocks: tuple[Block, ...] = field(default=(), repr=False)
    preferences: tuple[Preference, ...] = ()
    tables: dict[str, Table] = field(default_factory=dict, repr=False, compare=False)
    routes: tuple[Route, ...] = field(default=(), repr=False)
    inverses: tuple[Inverse, ...] = ()

    @property
    def path(self) -> str:
        """The module's first file (its other files are in ``paths``)."""
        return self.paths[0]

    @property
    def params(self) -> tuple[str, ...]:
        """The values this module accepts (empty: it takes none)."""
        return tuple(v for v, _ in self.values)

    def bindings(self, value: str | None) -> dict[str, str]:
        """``{value}`` plus the named bindings of *value*'s ``value`` line (the engine adds
        ``{version}``, the grammar version)."""
        found = dict(self.values).get(value, ())
        return {"value": value or "", **dict(found)}
