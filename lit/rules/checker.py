"""The static checker: the mistakes a parser cannot see, found before any MRS is seen.

Unknown ``{parameters}`` and ``@anchors``, variables used but never bound, output EPs without a
predicate or label, ``set`` with more than one value. Each error is a RuleError at the file,
line and column of the construct (a block pulled in from a rule library reports the library).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lit.errors import RuleError
from lit.phenomena import ANCHORS
from lit.lexicon import semi
from lit.rules import syntax as s

#: Parameters every step has besides the module's bindings.
BUILTIN_PARAMS = frozenset({"value", "step", "version"})


def item_vars(item: s.Item) -> list[str]:
    """The variables an item mentions (an EP's name, role values and ?v.PROP references)."""
    match item:
        case s.ConsPattern():
            return [item.left, item.right]
        case s.VarTest():
            return [item.term.var]
        case s.EPPattern():
            found = [item.name] if item.name else []
            for role in item.roles:
                if isinstance(role.value, s.VarTerm):
                    found.append(role.value.var)
                    found += _prop_refs(role.value.props)
            return found


def _prop_refs(props: tuple[s.Prop, ...]) -> list[str]:
    return [a.var for p in props for a in p.alternatives if isinstance(a, s.PropRef)]


def _prop_params(props: tuple[s.Prop, ...]) -> Iterator[str]:
    for p in props:
        for a in p.alternatives:
            if isinstance(a, (s.PropParam, s.PropNotParam)):
                yield a.name


def _item_params(item: s.Item) -> Iterator[str]:
    match item:
        case s.VarTest():
            yield from _prop_params(item.term.props)
        case s.EPPattern():
            if isinstance(item.pred, s.PredParam):
                yield item.pred.name
            yield from _lookup_params(item.pred, item.roles)
            for role in item.roles:
                if isinstance(role.name, s.Param):
                    yield role.name.name
                if isinstance(role.value, s.VarTerm):
                    yield from _prop_params(role.value.props)


def _lookup_params(pred: s.PredTest | None, roles: tuple[s.Role, ...]) -> Iterator[str]:
    """The {parameters} naming columns in an EP's table lookups."""
    for lookup in [pred, *(r.value for r in roles)]:
        if isinstance(lookup, s.Lookup):
            yield from (c.name for c in (lookup.key, lookup.target) if isinstance(c, s.Param))


def _params_used(block: s.Block) -> Iterator[tuple[str, int, int]]:
    """Every {parameter} a block uses, with where."""
    for cond in block.conditions:
        match cond:
            case s.Context(items=items) | s.Input(items=items) | s.Filter(items=items):
                for item in items:
                    yield from ((p, item.line, item.column) for p in _item_params(item))
            case s.Semi(role=s.Param(name=name)):
                yield name, cond.line, cond.column
    if isinstance(block, s.Rule):
        for edit in block.edits:
            match edit:
                case s.Add(item=item) | s.Remove(item=item):
                    yield from ((p, edit.line, edit.column) for p in _item_params(item))
                case s.SetProps(props=props):
                    yield from ((p, edit.line, edit.column) for p in _prop_params(props))
                case s.Change(pred=pred, roles=roles):
                    if isinstance(pred, s.PredParam):
                        yield pred.name, edit.line, edit.column
                    yield from ((p, edit.line, edit.column) for p in _lookup_params(pred, roles))
    text = block.reason if isinstance(block, s.Guard) else block.name
    yield from ((p, block.line, 0) for p in re.findall(r"\{([a-z0-9_]+)\}", text))


def _anchors_used(block: s.Block) -> Iterator[s.EPPattern]:
    for cond in block.conditions:
        if isinstance(cond, (s.Context, s.Input, s.Filter)):
            yield from (i for i in cond.items if isinstance(i, s.EPPattern) and i.anchor)


def _edit_vars(edit: s.Edit) -> list[str]:
    """The variables an edit needs bound."""
    match edit:
        case s.Remove(item=s.EPPattern(name=str() as name)):
            return [name]
        case s.Add(item=item) | s.Remove(item=item):
            return item_vars(item)
        case s.Change():
            return [edit.var] + [r.value.var for r in edit.roles if isinstance(r.value, s.VarTerm)]
        case s.Unset():
            return [edit.var]
        case s.SetProps():
            return [edit.var] + _prop_refs(edit.props)
        case s.CopyProps():
            return [edit.source, edit.target]
        case s.Relabel():
            return [edit.old, edit.new]
        case s.SetSpecial():
            return [edit.var]


def _edit_form(edit: s.Edit) -> str | None:
    """What is wrong with an edit's form, if anything: output EPs need a plain predicate and a
    label; output properties need one value; add/remove take EPs and constraints."""
    pred: s.PredTest | None = None
    match edit:
        case s.Add(item=s.EPPattern() as ep):
            if ep.pred is None:
                return "'add' needs a predicate"
            if not any(role.name == "LBL" for role in ep.roles):
                return "the added EP needs LBL: ?label"
            if ep.anchor:
                return "an added EP cannot be an @anchor"
            pred = ep.pred
        case s.Add(item=s.VarTest()) | s.Remove(item=s.VarTest()):
            verb = "add" if isinstance(edit, s.Add) else "remove"
            return f"'{verb}' takes an EP, HCONS or ICONS; use 'set' for properties"
        case s.Remove(item=s.EPPattern(name=None)):
            return "'remove' needs a named EP (?v = [ ... ] in input or context)"
        case s.Change():
            pred = edit.pred
        case s.SetProps():
            for p in edit.props:
                alt = p.alternatives
                if len(alt) != 1 or isinstance(alt[0], (s.PropNot, s.PropNotParam)):
                    return f"set {p.name}: give exactly one value (no '|' or '!')"
    if pred is not None and not isinstance(pred, (s.PredExact, s.PredParam, s.Lookup)):
        return "an output predicate must be a name or {parameter}, not a test"
    return None


def _bound(block: s.Block) -> set[str]:
    """Variables a block binds: INDEX, TOP, what input/context match, what fresh declares."""
    bound = {"INDEX", "TOP"}
    for cond in block.conditions:
        match cond:
            case s.Context(items=items) | s.Input(items=items):
                for item in items:
                    bound.update(item_vars(item))
            case s.Fresh():
                bound.update(cond.vars)
    return bound


def check_block(block: s.Block, known: frozenset[str]) -> None:
    """Check one block against the parameters *known* to the module it is in."""
    for name, line, col in _params_used(block):
        if name not in known:
            raise RuleError(block.file, line, col, f"unknown parameter {{{name}}}; expected "
                            "one of the declared parameters: " + ", ".join(sorted(known)))
    for ep in _anchors_used(block):
        if ep.anchor not in ANCHORS:
            raise RuleError(block.file, ep.line, ep.column, f"unknown anchor @{ep.anchor}; "
                            "expected one of " + ", ".join(f"@{a}" for a in ANCHORS))
    bound = _bound(block)
    for cond in block.conditions:
        match cond:
            case s.Where():
                needed = [cond.left, cond.right]
            case s.Semi():
                needed = [cond.var]
            case _:
                needed = []
        for var in needed:
            if var not in bound:
                raise RuleError(block.file, cond.line, cond.column,
                                f"{var} is not bound by context or input")
    if isinstance(block, s.Rule):
        for edit in block.edits:
            problem = _edit_form(edit)
            if problem:
                raise RuleError(block.file, edit.line, edit.column, problem)
            for var in _edit_vars(edit):
                if var not in bound:
                    raise RuleError(block.file, edit.line, edit.column,
                                    f"{var} is neither matched nor declared with 'fresh'")


# ---------------------------------------------------------------------------- tables


def check_table(table: s.Table) -> None:
    """Every cell of a predicates table must be a predicate of the ERG 2025 SEM-I: a typo in a
    data row is reported at the table's file and line, not found later as a silent miss."""
    if not table.predicates:
        return
    known = semi.table()
    for number, cells in table.rows:
        for column, cell in zip(table.columns, cells):
            if cell and cell not in known:
                raise RuleError(table.file, number, None,
                                f"column {column}: {cell} is not a predicate of the ERG "
                                "2025 SEM-I (lit/lexicon/data/erg-2025-semi.json)")


def _lookups(block: s.Block) -> Iterator[tuple[s.Lookup, bool]]:
    """Every table lookup of a block, and whether it is in an output."""
    def in_ep(ep: s.EPPattern | s.Change) -> Iterator[s.Lookup]:
        if isinstance(ep.pred, s.Lookup):
            yield ep.pred
        yield from (r.value for r in ep.roles if isinstance(r.value, s.Lookup))

    for cond in block.conditions:
        if isinstance(cond, (s.Context, s.Input, s.Filter)):
            for item in cond.items:
                if isinstance(item, s.EPPattern):
                    yield from ((lookup, False) for lookup in in_ep(item))
    for edit in block.edits if isinstance(block, s.Rule) else ():
        if isinstance(edit, s.Change):
            yield from ((lookup, True) for lookup in in_ep(edit))
        elif isinstance(edit, s.Add) and isinstance(edit.item, s.EPPattern):
            found = next(in_ep(edit.item), None)
            if found is not None:
                raise RuleError(block.file, found.line, found.column, "a table lookup in an "
                                "output needs a key: use it in 'change', not 'add'")


def _columns(column: str | s.Param, module: s.Module) -> set[str]:
    """The column names *column* stands for, over all the module's values."""
    if isinstance(column, str):
        return {column}
    if column.name == "value":
        return set(module.params)
    return {v for _, bindings in module.values for k, v in bindings if k == column.name}


def check_lookup(lookup: s.Lookup, in_output: bool, module: s.Module, file: str) -> None:
    """The table is declared, its columns exist (for every value of a {parameter} column),
    and the lookup has the form its place needs."""
    where = (file, lookup.line, lookup.column)
    table = module.tables.get(lookup.table)
    if table is None:
        known = ", ".join(sorted(module.tables)) or "none (declare one with `table NAME \"FILE\"`)"
        raise RuleError(*where, f"unknown table {lookup.table}; expected one of: {known}")
    if in_output and (lookup.target is None or lookup.negated):
        raise RuleError(*where, f"{lookup} in an output needs a target column: "
                        f"<{lookup.table}.COLUMN -> COLUMN>")
    if not in_output and lookup.target is not None:
        raise RuleError(*where, f"{lookup}: '->' belongs in an output ('change'); a pattern "
                        "tests <table.column>")
    for column in (lookup.key, lookup.target):
        for name in _columns(column, module) if column is not None else ():
            if name not in table.columns:
                raise RuleError(*where, f"table {table.name} has no column {name!r}; expected "
                                f"one of: {', '.join(table.columns)} ({table.file})")


def check(module: s.Module) -> None:
    """Check a compiled module: its tables and values, then every block (its own or a
    library's)."""
    for table in module.tables.values():
        check_table(table)
    names = [v for v, _ in module.values]
    if len(names) != len(set(names)):
        raise RuleError(module.path, None, None,
                        f"a value is declared twice in module {module.name}")
    known = BUILTIN_PARAMS | {k for _, bindings in module.values for k, _ in bindings}
    for block in module.blocks + module.routes:
        check_block(block, known)
        for lookup, in_output in _lookups(block):
            check_lookup(lookup, in_output, module, block.file)
