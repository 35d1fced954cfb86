"""Compile rule files (the lark grammar in ``rules.lark``) into immutable module objects.

A rule file is data: parsing never runs user code. Errors are InputErrors that name
``file:line:column`` and say what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from lit.config import GRAMMAR_VERSIONS
from lit.errors import InputError

# ---------------------------------------------------------------------------- rule objects


@dataclass(frozen=True)
class Param:
    """A ``{name}`` placeholder filled from the step's value and its bindings."""

    name: str


@dataclass(frozen=True)
class PropValue:
    """One alternative of a property test or assignment: literal, {param}, !negation, ?v.PROP."""

    kind: str  # "lit" | "param" | "not" | "not_param" | "ref"
    value: str
    var: str | None = None


@dataclass(frozen=True)
class Prop:
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
class PredTest:
    kind: str  # "exact" | "regex" | "any" | "param"
    value: str = ""


@dataclass(frozen=True)
class EPPattern:
    name: str | None
    anchor: str | None
    pred: PredTest | None
    roles: tuple[tuple[str | Param, VarTerm | Const], ...]
    line: int
    column: int


@dataclass(frozen=True)
class ConsPattern:
    """An HCONS (``?h qeq ?l``) or ICONS (``?e topic ?x``) pattern."""

    kind: str  # "hcons" | "icons"
    left: str
    relation: str
    right: str
    line: int
    column: int


@dataclass(frozen=True)
class VarTest:
    """A test on a variable's type and properties alone: ``INDEX [ SF: ques ]``."""

    term: VarTerm
    line: int
    column: int


Item = EPPattern | ConsPattern | VarTest


@dataclass(frozen=True)
class Condition:
    kind: str  # when | context | input | filter | where | semi | fresh
    args: tuple
    line: int
    column: int


@dataclass(frozen=True)
class Edit:
    kind: str  # add | remove | change | set | unset | copy | relabel | set_special
    args: tuple
    line: int
    column: int


@dataclass(frozen=True)
class Block:
    """A ``not_applicable`` guard (``edits`` empty) or a ``rule``."""

    kind: str  # "guard" | "rule"
    name: str  # the reason of a guard, the name of a rule
    conditions: tuple[Condition, ...]
    edits: tuple[Edit, ...]
    line: int


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
class Module:
    """One compiled rule file (or several files of the same module merged)."""

    name: str
    path: str
    codes: tuple[tuple[str, str | None], ...] = ()
    description: str = ""
    versions: tuple[str, ...] = ()
    values: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    default: str | None = None
    examples: tuple[Example, ...] = ()
    otherwise: str | None = None
    blocks: tuple[Block, ...] = field(default=(), repr=False)

    @property
    def params(self) -> tuple[str, ...]:
        """The values this module accepts (empty: it takes none)."""
        return tuple(v for v, _ in self.values)

    def bindings(self, value: str | None) -> dict[str, str]:
        """``{value}`` plus the named bindings of *value*'s ``value`` line (the engine adds
        ``{version}``, the grammar version)."""
        found = dict(self.values).get(value, ())
        return {"value": value or "", **dict(found)}


# ---------------------------------------------------------------------------- parsing


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("lit.rules").joinpath("rules.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", maybe_placeholders=False, propagate_positions=True)


def _unquote(token: str) -> str:
    return re.sub(r"\\(.)", r"\1", str(token)[1:-1])


def _pos(token: Token) -> tuple[int, int]:
    return (token.line or 0, token.column or 0)


@v_args(inline=True)
class _ToModule(Transformer):
    """Parse tree -> Module; positions come from the first token of each construct."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    # terminals and small pieces
    def var(self, tok: Token) -> Token:
        return tok

    def role_name(self, tok: Token) -> Token:
        return tok

    def binding(self, name: Token, value: Token) -> tuple[str, str]:
        return (str(name), _unquote(value) if value.type == "STRING" else str(value))

    def mrs_pair(self, source: Token, target: Token) -> tuple[str, str]:
        return (_unquote(source), _unquote(target))

    def pred_regex(self, tok: Token) -> PredTest:
        pattern = str(tok)[1:-1].replace("\\/", "/")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise self._error(tok, f"bad regular expression /{pattern}/: {exc}") from None
        return PredTest("regex", pattern)

    def pred_any(self) -> PredTest:
        return PredTest("any")

    def pred_exact(self, tok: Token) -> PredTest:
        text = _unquote(tok) if tok.type == "STRING" else str(tok)
        if text in ("e", "x", "h", "i", "u", "p"):
            raise self._error(tok, f"'[{text}]' reads as an EP with predicate {text!r}; to give "
                              f"a variable a type write it as its own item: ?v [{text}]")
        return PredTest("exact", text)

    def pred_param(self, tok: Token) -> PredTest:
        return PredTest("param", str(tok)[1:-1])

    def pv_literal(self, tok: Token) -> PropValue:
        return PropValue("lit", str(tok))

    def pv_param(self, tok: Token) -> PropValue:
        return PropValue("param", str(tok)[1:-1])

    def pv_not(self, tok: Token) -> PropValue:
        return PropValue("not", str(tok))

    def pv_not_param(self, tok: Token) -> PropValue:
        return PropValue("not_param", str(tok)[1:-1])

    def pv_ref(self, var: Token, feat: Token) -> PropValue:
        return PropValue("ref", str(feat).upper(), str(var))

    def prop(self, name: Token, *alternatives: PropValue) -> Prop:
        return Prop(str(name).upper(), tuple(alternatives))

    def var_value(self, var: Token, *rest) -> VarTerm:
        vtype = next((str(r) for r in rest if isinstance(r, Token) and r.type == "TYPE"), None)
        return VarTerm(str(var), vtype, tuple(r for r in rest if isinstance(r, Prop)))

    def const_value(self, tok: Token) -> Const:
        return Const(_unquote(tok))

    def role(self, name: Token, value: VarTerm | Const) -> tuple[str | Param, VarTerm | Const]:
        key: str | Param = Param(str(name)[1:-1]) if name.type == "PARAM" else str(name).upper()
        return (key, value)

    @v_args(meta=True)
    def ep(self, meta, parts) -> EPPattern:
        name = anchor = pred = None
        roles = []
        for part in parts:
            if isinstance(part, Token) and part.type in ("VAR", "SPECIAL"):
                name = str(part)
            elif isinstance(part, Token) and part.type == "ANCHOR":
                anchor = str(part)[1:]
            elif isinstance(part, PredTest):
                pred = part
            else:
                roles.append(part)
        return EPPattern(name, anchor, pred, tuple(roles), meta.line, meta.column)

    def hcons(self, left: Token, rel: Token, right: Token) -> ConsPattern:
        return ConsPattern("hcons", str(left), str(rel), str(right), *_pos(left))

    def icons(self, left: Token, rel: Token, right: Token) -> ConsPattern:
        return ConsPattern("icons", str(left), str(rel), str(right), *_pos(left))

    def var_test(self, var: Token, *rest) -> VarTest:
        vtype = next((str(r) for r in rest if isinstance(r, Token)), None)
        term = VarTerm(str(var), vtype, tuple(r for r in rest if isinstance(r, Prop)))
        return VarTest(term, *_pos(var))

    # conditions
    def when(self, name: Token, *values: Token) -> Condition:
        return Condition("when", (str(name), tuple(str(v) for v in values)), *_pos(name))

    def _items(self, kind: str, items: tuple[Item, ...]) -> Condition:
        return Condition(kind, tuple(items), items[0].line, items[0].column)

    def context(self, *items: Item) -> Condition:
        return self._items("context", items)

    def input(self, *items: Item) -> Condition:
        return self._items("input", items)

    def filter(self, *items: Item) -> Condition:
        return self._items("filter", items)

    def where(self, a: Token, op: Token, b: Token) -> Condition:
        return Condition("where", (str(a), str(op), str(b)), *_pos(a))

    def semi(self, var: Token, role: Token, vtype: Token) -> Condition:
        key: str | Param = Param(str(role)[1:-1]) if role.type == "PARAM" else str(role).upper()
        return Condition("semi", (str(var), key, str(vtype)), *_pos(var))

    def fresh(self, *parts: Token) -> Condition:
        *names, vtype = parts
        return Condition("fresh", (tuple(str(n) for n in names), str(vtype)), *_pos(names[0]))

    # edits
    def add(self, item: Item) -> Edit:
        return Edit("add", (item,), item.line, item.column)

    def remove(self, item: Item) -> Edit:
        return Edit("remove", (item,), item.line, item.column)

    def change(self, var: Token, *parts) -> Edit:
        pred = next((p for p in parts if isinstance(p, PredTest)), None)
        roles = tuple(p for p in parts if not isinstance(p, PredTest))
        return Edit("change", (str(var), pred, roles), *_pos(var))

    def set_props(self, var: Token, *props: Prop) -> Edit:
        return Edit("set", (str(var), props), *_pos(var))

    def unset_props(self, var: Token, *names: Token) -> Edit:
        return Edit("unset", (str(var), tuple(str(n).upper() for n in names)), *_pos(var))

    def copy_props(self, a: Token, b: Token) -> Edit:
        return Edit("copy", (str(a), str(b)), *_pos(a))

    def relabel(self, a: Token, b: Token) -> Edit:
        return Edit("relabel", (str(a), str(b)), *_pos(a))

    def set_special(self, special: Token, var: Token) -> Edit:
        return Edit("set_special", (str(special), str(var)), *_pos(special))

    def output(self, *edits: Edit) -> tuple[Edit, ...]:
        return edits

    # blocks and headers
    def guard(self, reason: Token, *conditions: Condition) -> Block:
        return Block("guard", _unquote(reason), conditions, (), reason.line or 0)

    def rule(self, name: Token, *rest) -> Block:
        edits = rest[-1] if rest and isinstance(rest[-1], tuple) else ()
        conditions = tuple(r for r in rest if isinstance(r, Condition))
        return Block("rule", str(name), conditions, edits, name.line or 0)

    def module_decl(self, name: Token) -> tuple[str, str]:
        return ("module", str(name))

    def code(self, code: Token, value: Token | None = None) -> tuple[str, tuple]:
        return ("code", (str(code), str(value) if value is not None else None))

    def description(self, text: Token) -> tuple[str, str]:
        return ("description", _unquote(text))

    def versions(self, *versions: Token) -> tuple[str, tuple]:
        return ("versions", tuple(str(v) for v in versions))

    def value(self, name: Token, *rest) -> tuple[str, tuple]:
        default = any(isinstance(r, Token) and r.type == "DEFAULT" for r in rest)
        bindings = tuple(r for r in rest if isinstance(r, tuple))
        return ("value", (str(name), bindings, default))

    def example_versions(self, *versions: Token) -> frozenset[str]:
        return frozenset(str(v) for v in versions)

    def example(self, spec: Token, source: Token, target: Token, *rest) -> tuple[str, Example]:
        versions = next((r for r in rest if isinstance(r, frozenset)), frozenset())
        pair = next((r for r in rest if isinstance(r, tuple)), (None, None))
        return ("example", Example(_unquote(spec), _unquote(source), _unquote(target), *pair,
                                   versions=tuple(sorted(versions, reverse=True))))

    def otherwise(self, text: Token) -> tuple[str, str]:
        return ("otherwise", _unquote(text))

    def header(self, item):
        return item

    def block(self, item):
        return item

    def start(self, decl, *rest) -> Module:
        fields: dict = {"codes": [], "versions": (), "values": [], "examples": [], "blocks": []}
        default = None
        for item in rest:
            if isinstance(item, Block):
                fields["blocks"].append(item)
                continue
            key, val = item
            if key == "code":
                fields["codes"].append(val)
            elif key == "value":
                name, bindings, is_default = val
                fields["values"].append((name, bindings))
                default = name if is_default else default
            elif key == "example":
                fields["examples"].append(val)
            else:
                fields[key] = val
        return Module(
            name=decl[1],
            path=self.source,
            codes=tuple(fields["codes"]),
            description=fields.get("description", ""),
            versions=tuple(fields["versions"]) or GRAMMAR_VERSIONS,
            values=tuple(fields["values"]),
            default=default,
            examples=tuple(fields["examples"]),
            otherwise=fields.get("otherwise"),
            blocks=tuple(fields["blocks"]),
        )

    def _error(self, tok: Token, what: str) -> InputError:
        line, col = _pos(tok)
        return InputError(f"{self.source}:{line}:{col}: {what}")


_TERMINAL_NAMES = {
    "VAR": "a variable like ?x",
    "SPECIAL": "INDEX or TOP",
    "FEAT": "a role or property like ARG1:",
    "STRING": 'a "quoted string"',
    "NAME": "a lower-case name",
    "SYMBOL": "a value or predicate",
    "REGEX": "a /regular expression/",
    "PARAM": "a {parameter}",
    "TYPE": "a variable type (e h i x u p)",
    "VERSION": "a grammar version (2025, 2018, 1214)",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "EQUAL": "'='",
}


def _describe_expected(expected) -> str:
    names = sorted({_TERMINAL_NAMES.get(e, e.lower().strip('"')) for e in expected})
    return ", ".join(names[:12]) + (" …" if len(names) > 12 else "")


def compile_text(text: str, source: str = "<rules>") -> Module:
    """Compile one rule file's text; *source* names it in errors."""
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as exc:
        raise InputError(
            f"{source}:{exc.line}:{exc.column}: unexpected character {text[exc.pos_in_stream]!r}"
            + (f"; expected {_describe_expected(exc.allowed)}" if exc.allowed else "")
        ) from None
    except UnexpectedToken as exc:
        found = "end of file" if exc.token.type == "$END" else repr(str(exc.token))
        raise InputError(
            f"{source}:{exc.line}:{exc.column}: unexpected {found}; expected "
            + _describe_expected(exc.accepts or exc.expected)
        ) from None
    except UnexpectedEOF as exc:
        raise InputError(
            f"{source}: unexpected end of file; expected {_describe_expected(exc.expected)}"
        ) from None
    except UnexpectedInput as exc:  # pragma: no cover - lark's other parse errors
        raise InputError(f"{source}:{exc.line}:{exc.column}: {exc}") from None
    try:
        module = _ToModule(source).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, InputError):
            raise exc.orig_exc from None
        raise
    _validate(module)
    return module


def compile_file(path: str | Path) -> Module:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read rule file {path}: {exc.strerror}") from None
    return compile_text(text, str(path))


# ---------------------------------------------------------------------------- checks


def _at(module: Module, line: int, column: int, what: str) -> InputError:
    return InputError(f"{module.path}:{line}:{column}: {what}")


def _item_vars(item: Item) -> list[str]:
    if isinstance(item, ConsPattern):
        return [item.left, item.right]
    if isinstance(item, VarTest):
        return [item.term.var]
    found = [item.name] if item.name else []
    for _, val in item.roles:
        if isinstance(val, VarTerm):
            found.append(val.var)
            found += [a.var for p in val.props for a in p.alternatives if a.kind == "ref"]
    return found


def _params_used(block: Block) -> list[tuple[str, int, int]]:
    used: list[tuple[str, int, int]] = []

    def from_item(item: Item) -> None:
        if isinstance(item, VarTest):
            from_props(item.term.props, item.line, item.column)
        if isinstance(item, EPPattern):
            if item.pred and item.pred.kind == "param":
                used.append((item.pred.value, item.line, item.column))
            for role, val in item.roles:
                if isinstance(role, Param):
                    used.append((role.name, item.line, item.column))
                if isinstance(val, VarTerm):
                    from_props(val.props, item.line, item.column)

    def from_props(props, line, col) -> None:
        for p in props:
            for a in p.alternatives:
                if a.kind in ("param", "not_param"):
                    used.append((a.value, line, col))

    for cond in block.conditions:
        if cond.kind in ("context", "input", "filter"):
            for item in cond.args:
                from_item(item)
        elif cond.kind == "semi" and isinstance(cond.args[1], Param):
            used.append((cond.args[1].name, cond.line, cond.column))
    for edit in block.edits:
        if edit.kind in ("add", "remove"):
            from_item(edit.args[0])
        elif edit.kind == "set":
            from_props(edit.args[1], edit.line, edit.column)
        elif edit.kind == "change":
            _, pred, roles = edit.args
            if pred and pred.kind == "param":
                used.append((pred.value, edit.line, edit.column))
    used += [(p, block.line, 0) for p in re.findall(r"\{([a-z0-9_]+)\}", block.name)]
    return used


def _check_edit_form(module: Module, edit: Edit) -> None:
    """Output EPs need a plain predicate and a label; output properties need one value."""
    pred = None
    if edit.kind == "add" and isinstance(edit.args[0], EPPattern):
        pred = edit.args[0].pred
        if pred is None:
            raise _at(module, edit.line, edit.column, "'add' needs a predicate")
        if not any(role == "LBL" for role, _ in edit.args[0].roles):
            raise _at(module, edit.line, edit.column, "the added EP needs LBL: ?label")
        if edit.args[0].anchor:
            raise _at(module, edit.line, edit.column, "an added EP cannot be an @anchor")
    elif edit.kind == "change":
        pred = edit.args[1]
    if pred is not None and pred.kind not in ("exact", "param"):
        raise _at(module, edit.line, edit.column,
                  "an output predicate must be a name or {parameter}, not a test")
    props = edit.args[1] if edit.kind == "set" else ()
    for p in props:
        if len(p.alternatives) != 1 or p.alternatives[0].kind in ("not", "not_param"):
            raise _at(module, edit.line, edit.column,
                      f"set {p.name}: give exactly one value (no '|' or '!')")


def _validate(module: Module) -> None:
    """Catch mistakes a parser cannot: unknown {params}, unbound output variables, …"""
    known = {"value", "step", "version"} | {k for _, bindings in module.values for k, _ in bindings}
    names = [v for v, _ in module.values]
    if len(names) != len(set(names)):
        raise InputError(f"{module.path}: a value is declared twice in module {module.name}")
    for block in module.blocks:
        for name, line, col in _params_used(block):
            if name not in known:
                raise _at(module, line, col, f"unknown parameter {{{name}}}; declared: "
                          + ", ".join(sorted(known)))
        bound = {"INDEX", "TOP"}
        for cond in block.conditions:
            if cond.kind in ("context", "input"):
                for item in cond.args:
                    bound.update(_item_vars(item))
            elif cond.kind == "fresh":
                bound.update(cond.args[0])
        for cond in block.conditions:
            if cond.kind in ("where", "semi"):
                for var in (cond.args[0], cond.args[2]) if cond.kind == "where" else cond.args[:1]:
                    if var not in bound:
                        raise _at(module, cond.line, cond.column,
                                  f"{var} is not bound by context or input")
        for edit in block.edits:
            item = edit.args[0]
            _check_edit_form(module, edit)
            if edit.kind in ("add", "remove") and isinstance(item, VarTest):
                raise _at(module, edit.line, edit.column,
                          f"'{edit.kind}' takes an EP, HCONS or ICONS; use 'set' for properties")
            if edit.kind == "remove" and isinstance(item, EPPattern) and not item.name:
                raise _at(module, edit.line, edit.column,
                          "'remove' needs a named EP (?v = [ ... ] in input or context)")
            if edit.kind in ("add", "remove"):
                vars_ = _item_vars(edit.args[0])
                if edit.kind == "remove" and isinstance(edit.args[0], EPPattern):
                    vars_ = [edit.args[0].name] if edit.args[0].name else vars_
            elif edit.kind == "change":
                vars_ = [edit.args[0]] + [v.var for _, v in edit.args[2] if isinstance(v, VarTerm)]
            elif edit.kind == "unset":
                vars_ = [edit.args[0]]
            elif edit.kind == "set":
                vars_ = [edit.args[0]] + [
                    a.var for p in edit.args[1] for a in p.alternatives if a.kind == "ref"
                ]
            else:
                vars_ = list(edit.args[:2]) if edit.kind != "set_special" else [edit.args[1]]
            for var in vars_:
                if var not in bound:
                    raise _at(module, edit.line, edit.column,
                              f"{var} is neither matched nor declared with 'fresh'")
