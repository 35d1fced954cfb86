"""Parse rule text (the lark grammar ``rules.lark``) into the typed syntax tree of lit.rules.syntax.

Parsing never runs user code. Syntax errors are RuleErrors (lit.frontend); the mistakes a
grammar cannot see are the checker's (lit.rules.checker).
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Transformer, v_args
from lark.exceptions import VisitError

from lit import frontend
from lit.errors import InputError, RuleError
from lit.rules import syntax as s
from lit.spec import parse_spec

#: How syntax errors name the terminals a rule author could have written.
TERMINAL_NAMES = {
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
    "ANCHOR": "an anchor like @index",
    "CLASS": "a predicate class like %modal",
    "WORD": "a word",
    "COUNT": "a whole number like 2",
    "LOOKUP": "a table lookup like <table.column>",
    "TABLE_KIND": "predicates or strings",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "EQUAL": "'='",
}


def _unquote(token: Token) -> str:
    return re.sub(r"\\(.)", r"\1", str(token)[1:-1])


def _at(token: Token) -> dict[str, int]:
    """The ``line`` and ``column`` keywords of a construct that starts at *token*."""
    return {"line": token.line or 0, "column": token.column or 0}


def _role_name(tok: Token) -> str | s.Param:
    return s.Param(str(tok)[1:-1]) if tok.type == "PARAM" else str(tok).upper()


_COLUMN = r"(?:\{([a-z][a-z0-9_]*)\}|([A-Za-z][A-Za-z0-9_]*))"
_LOOKUP = re.compile(rf"(!?)<\s*([a-z][a-z0-9_]*)\.{_COLUMN}\s*(?:->\s*{_COLUMN}\s*)?>")


def _column(param: str | None, name: str | None) -> str | s.Param | None:
    return s.Param(param) if param else name


def _var_term(var: Token, rest: tuple) -> s.VarTerm:
    vtype = next((str(r) for r in rest if isinstance(r, Token) and r.type == "TYPE"), None)
    return s.VarTerm(str(var), vtype, tuple(r for r in rest if isinstance(r, s.Prop)))


@v_args(inline=True)
class _ToSyntax(Transformer):
    """Parse tree -> syntax tree; positions come from the first token of each construct."""

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

    def pred_regex(self, tok: Token) -> s.PredRegex:
        pattern = str(tok)[1:-1].replace("\\/", "/")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise self._error(tok, f"bad regular expression /{pattern}/: {exc}") from None
        return s.PredRegex(pattern)

    def pred_any(self) -> s.PredAny:
        return s.PredAny()

    def pred_class(self, tok: Token) -> s.PredClass:
        return s.PredClass(str(tok)[1:], **_at(tok))

    def pred_exact(self, tok: Token) -> s.PredExact:
        text = _unquote(tok) if tok.type == "STRING" else str(tok)
        if text in ("e", "x", "h", "i", "u", "p"):
            raise self._error(tok, f"'[{text}]' reads as an EP with predicate {text!r}; to give "
                              f"a variable a type write it as its own item: ?v [{text}]")
        return s.PredExact(text)

    def pred_lookup(self, tok: Token) -> s.Lookup:
        found = _LOOKUP.fullmatch(str(tok))
        if not found:
            raise self._error(tok, f"bad table lookup {tok}; write <table.column>, "
                              "!<table.column> or <table.column -> column>")
        negated, table, cp, cn, tp, tn = found.groups()
        return s.Lookup(table, _column(cp, cn), bool(negated), _column(tp, tn), **_at(tok))

    def lookup_value(self, tok: Token) -> s.Lookup:
        return self.pred_lookup(tok)

    def pred_param(self, tok: Token) -> s.PredParam:
        return s.PredParam(str(tok)[1:-1])

    def pv_literal(self, tok: Token) -> s.PropLiteral:
        return s.PropLiteral(str(tok))

    def pv_param(self, tok: Token) -> s.PropParam:
        return s.PropParam(str(tok)[1:-1])

    def pv_not(self, tok: Token) -> s.PropNot:
        return s.PropNot(str(tok))

    def pv_not_param(self, tok: Token) -> s.PropNotParam:
        return s.PropNotParam(str(tok)[1:-1])

    def pv_ref(self, var: Token, feat: Token) -> s.PropRef:
        return s.PropRef(str(var), str(feat).upper())

    def prop(self, name: Token, *alternatives: s.PropValue) -> s.Prop:
        return s.Prop(str(name).upper(), tuple(alternatives))

    def var_value(self, var: Token, *rest: Any) -> s.VarTerm:
        return _var_term(var, rest)

    def const_value(self, tok: Token) -> s.Const:
        return s.Const(_unquote(tok))

    def role(self, name: Token, value: s.VarTerm | s.Const) -> s.Role:
        return s.Role(_role_name(name), value)

    # items
    @v_args(meta=True)
    def ep(self, meta: Any, parts: list) -> s.EPPattern:
        name = anchor = pred = None
        roles = []
        for part in parts:
            if isinstance(part, Token) and part.type in ("VAR", "SPECIAL"):
                name = str(part)
            elif isinstance(part, Token) and part.type == "ANCHOR":
                anchor = str(part)[1:]
            elif isinstance(part, s.Role):
                roles.append(part)
            else:
                pred = part
        return s.EPPattern(name, anchor, pred, tuple(roles), line=meta.line, column=meta.column)

    def hcons(self, left: Token, rel: Token, right: Token) -> s.HConsPattern:
        return s.HConsPattern(str(left), str(rel), str(right), **_at(left))

    def icons(self, left: Token, rel: Token, right: Token) -> s.IConsPattern:
        return s.IConsPattern(str(left), str(rel), str(right), **_at(left))

    def var_test(self, var: Token, *rest: Any) -> s.VarTest:
        return s.VarTest(_var_term(var, rest), **_at(var))

    # conditions
    def when(self, name: Token, *values: Token) -> s.When:
        return s.When(str(name), tuple(str(v) for v in values), **_at(name))

    def context(self, *items: s.Item) -> s.Context:
        return s.Context(items, line=items[0].line, column=items[0].column)

    def input(self, *items: s.Item) -> s.Input:
        return s.Input(items, line=items[0].line, column=items[0].column)

    def filter(self, *items: s.Item) -> s.Filter:
        return s.Filter(items, line=items[0].line, column=items[0].column)

    def where(self, a: Token, op: Token, b: Token) -> s.Where:
        return s.Where(str(a), str(op), str(b), **_at(a))

    def semi(self, var: Token, role: Token, vtype: Token) -> s.Semi:
        return s.Semi(str(var), _role_name(role), str(vtype), **_at(var))

    def fresh(self, *parts: Token) -> s.Fresh:
        *names, vtype = parts
        return s.Fresh(tuple(str(n) for n in names), str(vtype), **_at(names[0]))

    # edits
    def add(self, item: s.Item) -> s.Add:
        return s.Add(item, line=item.line, column=item.column)

    def remove(self, item: s.Item) -> s.Remove:
        return s.Remove(item, line=item.line, column=item.column)

    def change(self, var: Token, *parts: Any) -> s.Change:
        pred = next((p for p in parts if not isinstance(p, s.Role)), None)
        roles = tuple(p for p in parts if isinstance(p, s.Role))
        return s.Change(str(var), pred, roles, **_at(var))

    def set_props(self, var: Token, *props: s.Prop) -> s.SetProps:
        return s.SetProps(str(var), props, **_at(var))

    def unset_props(self, var: Token, *names: Token) -> s.Unset:
        return s.Unset(str(var), tuple(str(n).upper() for n in names), **_at(var))

    def copy_props(self, a: Token, b: Token) -> s.CopyProps:
        return s.CopyProps(str(a), str(b), **_at(a))

    def relabel(self, a: Token, b: Token) -> s.Relabel:
        return s.Relabel(str(a), str(b), **_at(a))

    def set_special(self, special: Token, var: Token) -> s.SetSpecial:
        return s.SetSpecial(str(special), str(var), **_at(special))

    def output(self, *edits: s.Edit) -> tuple[s.Edit, ...]:
        return edits

    # blocks
    def guard(self, reason: Token, *conditions: s.Condition) -> s.Guard:
        return s.Guard(_unquote(reason), conditions, self.source, reason.line or 0)

    def guard_ref(self, name: Token) -> s.GuardRef:
        return s.GuardRef(str(name), self.source, **_at(name))

    def rule(self, name: Token, *rest: Any) -> s.Rule:
        every = bool(rest) and isinstance(rest[0], Token) and rest[0].type == "EVERY"
        rest = rest[1:] if every else rest
        edits = rest[-1] if rest and isinstance(rest[-1], tuple) else ()
        conditions = tuple(r for r in rest if not isinstance(r, tuple))
        return s.Rule(str(name), conditions, edits, self.source, name.line or 0, every)

    def _regex(self, pattern: Token) -> str:
        text = _unquote(pattern)
        try:
            re.compile(text)
        except re.error as exc:
            raise self._error(pattern, f"bad regular expression {text!r}: {exc}") from None
        return text

    def surface(self, pattern: Token) -> s.Const:
        return s.Const(self._regex(pattern))

    def rewrite(self, pattern: Token, replacement: Token) -> list[str]:
        return [self._regex(pattern), _unquote(replacement)]

    def candidates(self, count: Token) -> int:
        if int(count) < 1:
            raise self._error(count, f"candidates {count}: a route keeps at least 1 per candidate")
        return int(count)

    def route(self, name: Token, reason: Token, *rest: Any) -> s.Route:
        surface = next((r.value for r in rest if isinstance(r, s.Const)), None)
        rewrites = tuple((r[0], r[1]) for r in rest if isinstance(r, list))
        candidates = next((r for r in rest if isinstance(r, int)), None)
        edits = rest[-1] if rest and isinstance(rest[-1], tuple) else ()
        conditions = tuple(r for r in rest if not isinstance(r, (tuple, list, s.Const, int)))
        return s.Route(str(name), conditions, edits, self.source, name.line or 0,
                       reason=_unquote(reason), rewrites=rewrites, surface=surface,
                       candidates=candidates)

    def block(self, item: s.Block | s.GuardRef) -> s.Block | s.GuardRef:
        return item

    # headers
    def module_decl(self, name: Token) -> str:
        return str(name)

    def use(self, name: Token) -> s.Use:
        return s.Use(str(name), **_at(name))

    def code(self, code: Token, value: Token | None = None) -> s.Code:
        return s.Code(str(code), str(value) if value is not None else None)

    def description(self, text: Token) -> s.Description:
        return s.Description(_unquote(text))

    def versions(self, *versions: Token) -> s.Versions:
        return s.Versions(tuple(str(v) for v in versions))

    def otherwise(self, text: Token) -> s.Otherwise:
        return s.Otherwise(_unquote(text))

    def value(self, name: Token, *rest: Any) -> s.Value:
        default = any(isinstance(r, Token) and r.type == "DEFAULT" for r in rest)
        return s.Value(str(name), tuple(r for r in rest if isinstance(r, tuple)), default)

    def example_versions(self, *versions: Token) -> frozenset[str]:
        return frozenset(str(v) for v in versions)

    def example(self, spec: Token, source: Token, target: Token, *rest: Any) -> s.Example:
        versions = next((r for r in rest if isinstance(r, frozenset)), frozenset())
        pair = next((r for r in rest if isinstance(r, tuple)), (None, None))
        return s.Example(_unquote(spec), _unquote(source), _unquote(target), *pair,
                         versions=tuple(sorted(versions, reverse=True)))

    def prefer_initial(self, name: Token, *words: Token) -> s.Preference:
        return s.Preference(_unquote(name), words=tuple(str(w).lower() for w in words),
                            file=self.source, **_at(name))

    def prefer_matches(self, name: Token, pattern: Token) -> s.Preference:
        text = _unquote(pattern)
        try:
            re.compile(text)
        except re.error as exc:
            raise self._error(pattern, f"bad regular expression {text!r}: {exc}") from None
        return s.Preference(_unquote(name), pattern=text, file=self.source, **_at(name))

    def table(self, name: Token, path: Token, kind: Token | None = None) -> s.TableDecl:
        return s.TableDecl(str(name), _unquote(path), str(kind) != "strings", self.source,
                           **_at(name))

    def inverse(self, *specs: Token) -> s.Inverse:
        for tok in specs:
            try:
                steps = parse_spec(_unquote(tok)).steps
            except InputError as exc:
                raise self._error(tok, f"bad inverse spec {tok}: {exc}") from None
            if len(steps) != 1:
                raise self._error(tok, f"an inverse is one step, not {tok}")
        return s.Inverse(tuple(_unquote(t) for t in specs), self.source, **_at(specs[0]))

    def header(self, item: Any) -> Any:
        return item

    # files
    def module_file(self, name: str, *parts: Any) -> s.ModuleFile:
        return s.ModuleFile(name, self.source, parts)

    def class_def(self, name: Token, regex: Token) -> s.ClassDef:
        return s.ClassDef(str(name), self.pred_regex(regex).pattern, **_at(name))

    def named_guard(self, name: Token, reason: Token, *conditions: s.Condition) -> s.NamedGuard:
        guard = s.Guard(_unquote(reason), conditions, self.source, name.line or 0)
        return s.NamedGuard(str(name), guard, name.column or 0)

    def library_file(self, name: Token, *parts: Any) -> s.LibraryFile:
        return s.LibraryFile(str(name), self.source, parts)

    def _error(self, tok: Token, what: str) -> RuleError:
        return RuleError(self.source, tok.line, tok.column, what)


def parse(text: str, source: str = "<rules>") -> s.ModuleFile | s.LibraryFile:
    """Parse one rule file's text; *source* names it in errors."""
    tree = frontend.parse("lit.rules", "rules.lark", text, source, TERMINAL_NAMES)
    try:
        return _ToSyntax(source).transform(tree)
    except VisitError as exc:
        raise frontend.unwrap(exc) from None
