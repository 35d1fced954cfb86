"""Match compiled rule blocks against a PyDelphin MRS and build the edited MRS.

Matching is plain backtracking over the pattern items, in the order the rule writes them. The
input MRS is never touched: edits go to a draft that becomes a new MRS.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice, product
from pathlib import Path

from delphin import predicate as delphin_predicate
from delphin import variable
from delphin.mrs import EP, MRS, HCons, ICons

from lit.errors import InputError
from lit.mrs import properties
from lit.phenomena import ANCHORS
from lit.lexicon import semi
from lit.rules.syntax import (
    Add,
    Block,
    Change,
    ConsPattern,
    Const,
    Context,
    CopyProps,
    Edit,
    EPPattern,
    Filter,
    Fresh,
    HConsPattern,
    Input,
    Lookup,
    Param,
    PredAny,
    PredExact,
    PredParam,
    PredRegex,
    PredTest,
    Prop,
    PropLiteral,
    PropNot,
    PropNotParam,
    PropParam,
    PropRef,
    PropValue,
    Relabel,
    Remove,
    Role,
    Rule,
    Semi,
    SetProps,
    SetSpecial,
    Table,
    Unset,
    VarTerm,
    VarTest,
    When,
    Where,
)

SPECIALS = ("INDEX", "TOP")
#: Candidate EPs and constraints one step may try while matching (a rule with many
#: unconstrained items is combinatorial: 9 of them on a 20-EP MRS would take hours).
DEFAULT_MATCH_BUDGET = 2_000_000


#: Alternative outputs one step may give (table lookups with several values multiply).
MAX_ALTERNATIVES = 32


class MatchBudgetExceeded(Exception):
    """Matching one step tried more candidates than its budget allows."""


class NoTableValue(Exception):
    """An output lookup found no value for its key: the step does not apply (rewriting the
    other matches but not this one would leave a half-rewritten MRS)."""


ICONS_ORDER = {"focus": 0, "topic": 1}


@lru_cache(maxsize=65536)
def _pred(p: str) -> str:
    return delphin_predicate.normalize(p)


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern:
    return re.compile(pattern)


@dataclass
class Binding:
    """Variables bound so far (pattern variable -> MRS variable), named EPs and used items."""

    vars: dict[str, str] = field(default_factory=dict)
    eps: dict[str, int] = field(default_factory=dict)
    used_eps: frozenset[int] = frozenset()
    consumed: tuple[tuple[str, int], ...] = ()

    def copy(self) -> Binding:
        return Binding(dict(self.vars), dict(self.eps), self.used_eps, self.consumed)


class Matcher:
    """Matches the blocks of one module, with one step's parameters, on one MRS."""

    def __init__(self, m: MRS, params: dict[str, str], where: str,
                 budget: int = DEFAULT_MATCH_BUDGET,
                 tables: dict[str, Table] | None = None) -> None:
        self.m = m
        self.params = params
        self.tables = tables or {}
        self.where = where  # the file of the block being matched, for run-time errors
        self._anchors: dict[str, EP | None] = {}
        self.allowed = budget
        self.budget = budget  # candidates left to try, for all blocks of this step
        self.block: Block | None = None

    def _spend(self, n: int) -> None:
        """Count *n* candidate tries against the budget (MatchBudgetExceeded when spent)."""
        self.budget -= n
        if self.budget < 0:
            where = f" {self.block.name}" if isinstance(self.block, Rule) else ""
            line = f" ({self.block.file}:{self.block.line})" if self.block else ""
            raise MatchBudgetExceeded(f"rule{where}{line} is still matching after "
                                      f"{self.allowed:,} candidate tries; it has too "
                                      "many unconstrained items (see `lit rules check`)")

    # --- parameters and values
    def param(self, name: str) -> str:
        if name not in self.params or self.params[name] == "":
            raise InputError(f"{self.where}: parameter {{{name}}} has no value for this step")
        return self.params[name]

    def role(self, role: str | Param) -> str:
        """A role name, filling a {parameter} role from the step."""
        return self.param(role.name).upper() if isinstance(role, Param) else role

    def _prop_ok(self, actual: str | None, prop: Prop, b: Binding) -> bool:
        for alt in prop.alternatives:
            match alt:
                case PropLiteral(value=value):
                    ok = actual == value.lower()
                case PropParam(name=name):
                    ok = actual == self.param(name).lower()
                case PropNot(value=value):
                    ok = actual != value.lower()
                case PropNotParam(name=name):
                    ok = actual != self.param(name).lower()
                case PropRef(var=var, feature=feature):
                    other = self._resolve(var, b)
                    ok = other is not None and actual == properties(self.m, other).get(feature)
            if ok:
                return True
        return False

    def _resolve(self, var: str, b: Binding) -> str | None:
        if var == "INDEX":
            return self.m.index
        if var == "TOP":
            return self.m.top
        return b.vars.get(var)

    def _bind(self, var: str, value: str, b: Binding) -> bool:
        bound = self._resolve(var, b)
        if bound is None:
            if var in SPECIALS:
                return False
            b.vars[var] = value
            return True
        return bound == value

    def column(self, column: str | Param) -> str:
        """A table column's name, filling a {parameter} column from the step."""
        return self.param(column.name) if isinstance(column, Param) else column

    def in_table(self, lookup: Lookup, key: str) -> bool:
        """Is *key* a key of the lookup's column (or, for ``!<...>``, not)?"""
        table = self.tables[lookup.table]
        if table.predicates:
            key = _pred(key)
        return (key in table.keys(self.column(lookup.key))) != lookup.negated

    def table_values(self, lookup: Lookup, key: str) -> tuple[str, ...]:
        """The output lookup's values for *key* (NoTableValue if there are none)."""
        table = self.tables[lookup.table]
        if table.predicates:
            key = _pred(key)
        column, target = self.column(lookup.key), self.column(lookup.target)
        found = table.values(column, key, target)
        if not found:
            raise NoTableValue(f"table {table.name} ({Path(table.file).name}) has no {target} "
                               f"for {key} in column {column}")
        return found

    def _term_ok(self, term: VarTerm | Const | Lookup, value: str | None, b: Binding) -> bool:
        if value is None:
            return False
        if isinstance(term, Lookup):
            return self.in_table(term, value)
        if isinstance(term, Const):
            return value == term.value
        if not self._bind(term.var, value, b):
            return False
        if term.vtype and term.vtype != "u" and variable.type(value) != term.vtype:
            return False
        if term.props:
            actual = properties(self.m, value)
            return all(self._prop_ok(actual.get(p.name), p, b) for p in term.props)
        return True

    def pred_ok(self, test: PredTest | None, pred: str) -> bool:
        match test:
            case None | PredAny():
                return True
            case PredRegex(pattern=pattern):
                return _regex(pattern).search(_pred(pred)) is not None
            case PredParam(name=name):
                return _pred(pred) == _pred(self.param(name))
            case PredExact(name=name):
                return _pred(pred) == _pred(name)
            case Lookup():
                return self.in_table(test, pred)
        raise InputError(f"{self.where}: unresolved predicate test {test}")

    # --- items
    def _match_ep(
        self, pat: EPPattern, b: Binding, injective: bool
    ) -> Iterator[tuple[int, Binding]]:
        if pat.anchor:
            if pat.anchor not in self._anchors:
                self._anchors[pat.anchor] = ANCHORS[pat.anchor](self.m)
            found = self._anchors[pat.anchor]
            candidates = [i for i, ep in enumerate(self.m.rels) if ep is found]
        elif pat.name and pat.name in b.eps:
            candidates = [b.eps[pat.name]]
        else:
            candidates = range(len(self.m.rels))
        self._spend(len(candidates))
        for i in candidates:
            if injective and i in b.used_eps and b.eps.get(pat.name or "") != i:
                continue
            ep = self.m.rels[i]
            if not self.pred_ok(pat.pred, ep.predicate):
                continue
            nb = b.copy()
            ok = True
            for role in pat.roles:
                name = self.role(role.name)
                value = ep.label if name == "LBL" else ep.args.get(name)
                if not self._term_ok(role.value, value, nb):
                    ok = False
                    break
            if not ok:
                continue
            if pat.name:
                nb.eps[pat.name] = i
            if injective:
                nb.used_eps = b.used_eps | {i}
            yield i, nb

    def _match_cons(self, pat: ConsPattern, b: Binding) -> Iterator[tuple[int, Binding]]:
        pairs = ([(c.hi, c.relation, c.lo) for c in self.m.hcons] if isinstance(pat, HConsPattern)
                 else [(c.left, c.relation, c.right) for c in self.m.icons])
        self._spend(len(pairs))
        for j, (left, relation, right) in enumerate(pairs):
            if relation != pat.relation:
                continue
            nb = b.copy()
            if self._bind(pat.left, left, nb) and self._bind(pat.right, right, nb):
                yield j, nb

    def match_items(self, items, b: Binding, consume: bool, injective: bool) -> Iterator[Binding]:
        if not items:
            yield b
            return
        first, rest = items[0], items[1:]
        if isinstance(first, VarTest):
            value = self._resolve(first.term.var, b)
            nb = b.copy()
            if value is not None and self._term_ok(first.term, value, nb):
                yield from self.match_items(rest, nb, consume, injective)
        elif isinstance(first, EPPattern):
            for i, nb in self._match_ep(first, b, injective):
                if consume:
                    nb.consumed = nb.consumed + (("ep", i),)
                yield from self.match_items(rest, nb, consume, injective)
        else:
            pool = "hcons" if isinstance(first, HConsPattern) else "icons"
            for j, nb in self._match_cons(first, b):
                if consume:
                    nb.consumed = nb.consumed + ((pool, j),)
                yield from self.match_items(rest, nb, consume, injective)

    # --- blocks
    def match_block(self, block: Block) -> Binding | None:
        """The first binding satisfying all of *block*'s conditions, or None."""
        return next(self.bindings(block), None)

    def bindings(self, block: Block) -> Iterator[Binding]:
        """Every binding satisfying all of *block*'s conditions, in matching order."""
        self.where = block.file
        self.block = block
        for cond in block.conditions:
            if isinstance(cond, When) and self.params.get(cond.name, "") not in cond.values:
                return
        positive: list[tuple[bool, object]] = []
        for cond in block.conditions:
            if isinstance(cond, (Input, Context)):
                positive += [(isinstance(cond, Input), item) for item in cond.items]
        checks = [c for c in block.conditions if isinstance(c, (Where, Semi, Filter))]
        for b in self._match_positive(positive, Binding()):
            if all(self._check(c, b) for c in checks):
                yield b

    def _match_positive(self, positive, b: Binding) -> Iterator[Binding]:
        if not positive:
            yield b
            return
        (consume, item), rest = positive[0], positive[1:]
        for nb in self.match_items((item,), b, consume, injective=True):
            yield from self._match_positive(rest, nb)

    def _check(self, cond: Where | Semi | Filter, b: Binding) -> bool:
        match cond:
            case Where(left=a, op=op, right=c):
                same = self._resolve(a, b) == self._resolve(c, b)
                return same if op == "==" else not same
            case Semi(var=var, role=role, vtype=vtype):
                if var not in b.eps:
                    raise InputError(
                        f"{self.where}:{cond.line}: semi needs a named EP (?v = [ ... ])")
                pred = self.m.rels[b.eps[var]].predicate
                return semi.has_role(pred, self.role(role), vtype) is not False
            case Filter(items=items):  # the block fails if the filter items can be matched
                return next(self.match_items(items, b.copy(), False, injective=False),
                            None) is None


class Draft:
    """A mutable copy of an MRS that edits are applied to; ``build()`` returns a new MRS."""

    def __init__(self, m: MRS) -> None:
        self.top, self.index = m.top, m.index
        self.rels: list[dict | None] = [
            {"predicate": ep.predicate, "label": ep.label, "args": dict(ep.args),
             "lnk": ep.lnk, "surface": ep.surface, "base": ep.base}
            for ep in m.rels
        ]
        self.hcons: list[tuple[str, str, str] | None] = [(h.hi, h.relation, h.lo) for h in m.hcons]
        self.icons: list[tuple[str, str, str] | None] = [
            (i.left, i.relation, i.right) for i in m.icons
        ]
        self.variables = {v: dict(p) for v, p in m.variables.items()}
        self.lnk, self.surface, self.identifier = m.lnk, m.surface, m.identifier
        numbers = [variable.split(v)[1] for v in self._all_vars(m)]
        self._next = max((int(n) for n in numbers if n.isdigit()), default=0) + 1

    @staticmethod
    def _all_vars(m: MRS) -> set[str]:
        found = set(m.variables) | {v for v in (m.top, m.index) if v}
        for ep in m.rels:
            found.add(ep.label)
            found.update(v for r, v in ep.args.items() if r != "CARG")
        return found

    def fresh(self, vtype: str) -> str:
        name = f"{vtype}{self._next}"
        self._next += 1
        self.variables.setdefault(name, {})
        return name

    def build(self) -> MRS:
        rels = [EP(r["predicate"], r["label"], r["args"], r["lnk"], r["surface"], r["base"])
                for r in self.rels if r is not None]
        hcons = [HCons(*h) for h in self.hcons if h is not None]
        # ICONS order carries no meaning; keep the ERG's own order (focus before topic) so
        # outputs are stable whatever order the rules added them in.
        icons = sorted((ICons(*i) for i in self.icons if i is not None),
                       key=lambda ic: ICONS_ORDER.get(ic.relation, len(ICONS_ORDER)))
        used = {v for v in (self.top, self.index) if v}
        for ep in rels:
            used.add(ep.label)
            used.update(v for r, v in ep.args.items() if r != "CARG")
        for h in hcons:
            used.update((h.hi, h.lo))
        for i in icons:
            used.update((i.left, i.right))
        variables = {v: p for v, p in self.variables.items() if v in used}
        return MRS(self.top, self.index, rels, hcons, icons, variables,
                   lnk=self.lnk, surface=self.surface, identifier=self.identifier)


Application = tuple[Block, Binding]
#: Where a lookup's chosen value goes: (application, edit, role name or "" for the predicate).
_Slot = tuple[int, int, str]


def targets(matcher: Matcher, block: Block, b: Binding) -> set[tuple[str, object]]:
    """What applying *block* at *b* changes: EPs (by index) and variables. Two matches of
    ``every`` rules that change the same thing are not both applied (the first wins)."""
    found: set[tuple[str, object]] = {("ep", i) for pool, i in b.consumed if pool == "ep"}
    for edit in block.edits if isinstance(block, Rule) else ():
        match edit:
            case Change(var=name) | Remove(item=EPPattern(name=str() as name)):
                found.add(("ep", b.eps[name]))
            case SetProps(var=v) | Unset(var=v) | CopyProps(target=v):
                found.add(("var", matcher._resolve(v, b) or v))
    return found


def _choices(matcher: Matcher, applications: Sequence[Application]
             ) -> list[tuple[_Slot, tuple[str, ...]]]:
    """Every output lookup of the applications with its values for the matched key (the
    key is the matched EP's predicate, or its constant for a role such as CARG)."""
    found = []
    for a, (block, b) in enumerate(applications):
        for e, edit in enumerate(block.edits if isinstance(block, Rule) else ()):
            if not isinstance(edit, Change):
                continue
            ep = matcher.m.rels[b.eps[edit.var]]
            if isinstance(edit.pred, Lookup):
                found.append(((a, e, ""), matcher.table_values(edit.pred, ep.predicate)))
            for role in edit.roles:
                if isinstance(role.value, Lookup):
                    name = matcher.role(role.name)
                    key = ep.args.get(name)
                    if key is None:
                        raise NoTableValue(f"{ep.predicate} has no {name} to look up")
                    found.append(((a, e, name), matcher.table_values(role.value, key)))
    return found


def apply_all(matcher: Matcher, applications: Sequence[Application],
              limit: int = MAX_ALTERNATIVES) -> list[MRS]:
    """The MRSs that applying every (block, binding) together to the matched MRS gives: one,
    or one per combination of the values of multi-valued table lookups (at most *limit*)."""
    choices = _choices(matcher, applications)
    slots = [slot for slot, _ in choices]
    outputs = []
    for combination in islice(product(*(values for _, values in choices)), limit):
        chosen = dict(zip(slots, combination))
        draft = Draft(matcher.m)
        for a, (block, b) in enumerate(applications):
            _apply(matcher, draft, block, b, {(e, r): v for (i, e, r), v in chosen.items()
                                              if i == a})
        outputs.append(draft.build())
    return outputs


def _apply(matcher: Matcher, draft: Draft, block: Block, b: Binding,
           chosen: dict[tuple[int, str], str]) -> None:
    """Apply *block*'s output at *b* to *draft*: consumed input items are removed, then each
    edit runs in the order written; *chosen* gives each output lookup's value."""
    writer = Writer(matcher, draft, fresh_names(draft, block, b), b.eps, chosen)
    remove_consumed(draft, b)
    for e, edit in enumerate(block.edits if isinstance(block, Rule) else ()):
        writer.apply(e, edit)


def fresh_names(draft: Draft, block: Block, b: Binding) -> dict[str, str]:
    """The pattern variables of *b*, and a new variable of *draft* for each of *block*'s
    `fresh` ones."""
    names = dict(b.vars)
    for cond in block.conditions:
        if isinstance(cond, Fresh):
            for v in cond.vars:
                names[v] = draft.fresh(cond.vtype)
    return names


def remove_consumed(draft: Draft, b: Binding) -> None:
    """Take the input items *b* consumed (EPs, HCONS, ICONS) out of *draft*."""
    pools = {"ep": draft.rels, "hcons": draft.hcons, "icons": draft.icons}
    for pool, i in b.consumed:
        pools[pool][i] = None


def fit_roles(draft: Draft, ep: dict) -> None:
    """Give an EP whose predicate came from a table the roles its new predicate has in
    the SEM-I (_son_n_of -> _daughter_n_1 drops ARG1, the reverse adds one): an
    unexpressed role (an i or u variable) is dropped or added; dropping an expressed one
    ("the king of Spain" -> monarch) would lose meaning, so the step does not apply."""
    found = semi.roles(ep["predicate"])
    if found is None:
        return
    every, required = found
    for role in [r for r in ep["args"] if r not in ("ARG0", "CARG") and r not in every]:
        if variable.type(ep["args"][role]) not in ("i", "u"):
            raise NoTableValue(f"{ep['predicate']} has no {role} in the SEM-I, and the "
                               f"{role} here is expressed ({ep['args'][role]})")
        del ep["args"][role]
    for role in sorted(required - set(ep["args"]) - {"ARG0", "CARG"}):
        ep["args"][role] = draft.fresh("i")


@dataclass
class Writer:
    """Writes one match's edits into a draft: *names* are the match's pattern variables (and
    its fresh ones), *eps* its named EPs by index, *chosen* the value of each output lookup by
    (edit index, role name or "" for the predicate)."""

    matcher: Matcher
    draft: Draft
    names: dict[str, str]
    eps: dict[str, int]
    chosen: dict[tuple[int, str], str]

    def var(self, v: str) -> str:
        """The draft variable a pattern variable (or INDEX, TOP) stands for now."""
        if v == "INDEX":
            return self.draft.index
        if v == "TOP":
            return self.draft.top
        return self.names[v]

    def prop_value(self, alt: PropValue) -> str:
        """An output property's value ("" for a ?v.PROP reference to a property ?v lacks)."""
        match alt:
            case PropLiteral(value=value):
                return value
            case PropParam(name=name):
                return self.matcher.param(name)
            case PropRef(var=ref, feature=feature):
                props = self.draft.variables.get(self.var(ref), {})
                return {k.upper(): v for k, v in props.items()}.get(feature, "")
        raise InputError(f"{self.matcher.where}: '!' cannot be used in an output property")

    def set_props(self, target: str, props: tuple[Prop, ...]) -> None:
        """Set *props* on the draft variable *target*, keeping the spelling of a feature it
        has; an empty value removes the feature."""
        slot = self.draft.variables.setdefault(target, {})
        for p in props:
            value = self.prop_value(p.alternatives[0])
            key = next((k for k in slot if k.upper() == p.name), p.name)
            if value:
                slot[key] = value
            else:
                slot.pop(key, None)

    def output_pred(self, pred: PredTest | None, e: int) -> str:
        """An output predicate (the checker allows a name, a {parameter} or a lookup)."""
        match pred:
            case PredExact(name=name):
                return name
            case PredParam(name=name):
                return self.matcher.param(name)
            case Lookup():
                return self.chosen[e, ""]
        raise InputError(f"{self.matcher.where}: an output predicate must be a name")

    def roles_into(self, ep: dict, roles: tuple[Role, ...], e: int) -> None:
        """Write the output *roles* of edit *e* into the draft EP *ep* (LBL is its label)."""
        for role in roles:
            name = self.matcher.role(role.name)
            if isinstance(role.value, Lookup):
                ep["args"][name] = self.chosen[e, name]
                continue
            if isinstance(role.value, Const):
                ep["args"][name] = role.value.value
                continue
            value = self.var(role.value.var)
            if name == "LBL":
                ep["label"] = value
            else:
                ep["args"][name] = value
            if role.value.props:
                self.set_props(value, role.value.props)

    def new_ep(self, item: EPPattern, e: int) -> dict:
        """The draft EP an added EP pattern describes, ARG0 first as SimpleMRS writes it."""
        ep = {"predicate": self.output_pred(item.pred, e), "label": None, "args": {},
              "lnk": None, "surface": None, "base": None}
        self.roles_into(ep, item.roles, e)
        if "ARG0" in ep["args"]:
            ep["args"] = {"ARG0": ep["args"].pop("ARG0"), **ep["args"]}
        return ep

    def cons(self, item: ConsPattern) -> tuple[list, tuple[str, str, str]]:
        """The draft's pool for a constraint pattern (HCONS or ICONS) and the constraint."""
        pool = self.draft.hcons if isinstance(item, HConsPattern) else self.draft.icons
        return pool, (self.var(item.left), item.relation, self.var(item.right))

    def change(self, edit: Change, e: int) -> None:
        """Give a matched EP a new predicate and roles; a predicate from a table of predicates
        gets the roles the SEM-I gives it."""
        ep = self.draft.rels[self.eps[edit.var]]
        if edit.pred is not None:
            ep["predicate"] = self.output_pred(edit.pred, e)
        self.roles_into(ep, edit.roles, e)
        if isinstance(edit.pred, Lookup) and self.matcher.tables[edit.pred.table].predicates:
            fit_roles(self.draft, ep)

    def relabel(self, old: str, new: str) -> None:
        """Move every EP labelled *old* to the label *new*."""
        old_value, new_value = self.var(old), self.var(new)
        for ep in self.draft.rels:
            if ep is not None and ep["label"] == old_value:
                ep["label"] = new_value

    def apply(self, e: int, edit: Edit) -> None:
        """Run edit number *e* of the block on the draft."""
        draft = self.draft
        match edit:
            case Add(item=EPPattern() as item):
                draft.rels.append(self.new_ep(item, e))
            case Add(item=ConsPattern() as item):
                pool, cons = self.cons(item)
                pool.append(cons)
            case Remove(item=EPPattern(name=str() as name)):
                draft.rels[self.eps[name]] = None
            case Remove(item=ConsPattern() as item):
                pool, cons = self.cons(item)
                for j, c in enumerate(pool):
                    if c == cons:
                        pool[j] = None
            case Change():
                self.change(edit, e)
            case SetProps(var=target, props=props):
                self.set_props(self.var(target), props)
            case Unset(var=target, features=features):
                slot = draft.variables.get(self.var(target), {})
                for key in [k for k in slot if k.upper() in features]:
                    del slot[key]
            case CopyProps(source=source, target=target):
                draft.variables[self.var(target)] = dict(draft.variables.get(self.var(source), {}))
            case Relabel(old=old, new=new):
                self.relabel(old, new)
            case SetSpecial(special="INDEX", var=v):
                draft.index = self.var(v)
            case SetSpecial(special="TOP", var=v):
                draft.top = self.var(v)
