"""Compile rule files into Modules: parse, link ``use``d rule libraries, check.

A rule library (``NAME.litlib``, ``library NAME``) holds what several modules share: predicate
classes (``class modal = /^_[a-z]+_v_modal$/``, used as ``[ %modal ... ]``) and named guards
(``guard fragment "..." CONDITIONS``, used as ``not_applicable fragment``). A module pulls one
in with ``use NAME``; it is looked up next to the module's file, then among LIT's own modules.
A library's guard keeps its own file and line, so errors in it point at the library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from delphin import predicate as delphin_predicate

from lit.config import GRAMMAR_VERSIONS
from lit.errors import InputError, RuleError
from lit.rules import checker, parser
from lit.rules import syntax as s

LIBRARY_SUFFIX = ".litlib"
_COLUMN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def builtin_rules_dir() -> Path:
    """Where the installed rule modules and libraries live (``rules/`` in a checkout)."""
    from importlib import resources

    return Path(str(resources.files("lit.rules").joinpath("modules")))


@dataclass(frozen=True)
class Library:
    """A linked rule library: its predicate classes and named guards (with those it uses)."""

    name: str
    file: str
    classes: dict[str, str]
    guards: dict[str, s.Guard]


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: {what} is not UTF-8 at byte offset {exc.start}") from None


def _find_library(use: s.Use, file: str) -> Path:
    here = Path(file).parent if Path(file).is_file() else None
    for folder in [d for d in (here, builtin_rules_dir()) if d is not None]:
        candidate = folder / f"{use.name}{LIBRARY_SUFFIX}"
        if candidate.is_file():
            return candidate
    known = sorted(p.stem for p in builtin_rules_dir().glob(f"*{LIBRARY_SUFFIX}"))
    raise RuleError(file, use.line, use.column,
                    f"unknown rule library {use.name!r}; expected one of: {', '.join(known)}")


def _link_uses(uses: list[s.Use], file: str, seen: tuple[str, ...]) -> Library:
    """The classes and guards of every library in *uses*, merged (a name may be defined once)."""
    classes: dict[str, str] = {}
    guards: dict[str, s.Guard] = {}
    for use in uses:
        if use.name in seen:
            raise RuleError(file, use.line, use.column,
                            f"rule library {use.name!r} uses itself (through {' -> '.join(seen)})")
        lib = load_library(_find_library(use, file), seen + (use.name,))
        for name in (set(classes) & set(lib.classes)) | (set(guards) & set(lib.guards)):
            raise RuleError(file, use.line, use.column,
                            f"{name!r} is defined by two libraries used here")
        classes.update(lib.classes)
        guards.update(lib.guards)
    return Library("", file, classes, guards)


def load_library(path: Path, seen: tuple[str, ...] = ()) -> Library:
    """Parse and link one library file (its own ``use``s first)."""
    parsed = parser.parse(_read(path, "rule library"), str(path))
    if not isinstance(parsed, s.LibraryFile):
        raise RuleError(str(path), 1, 1, f"expected 'library {path.stem}', found a module")
    if parsed.name != path.stem:
        raise RuleError(str(path), 1, 1, f"expected 'library {path.stem}' (the file's name)")
    used = _link_uses([p for p in parsed.parts if isinstance(p, s.Use)], str(path),
                      seen or (parsed.name,))
    classes = dict(used.classes)
    for part in parsed.parts:
        if isinstance(part, s.ClassDef):
            if part.name in classes:
                raise RuleError(str(path), part.line, part.column,
                                f"class %{part.name} is defined twice")
            classes[part.name] = part.pattern
    guards = dict(used.guards)
    for part in parsed.parts:
        if isinstance(part, s.NamedGuard):
            if part.name in guards:
                raise RuleError(str(path), part.guard.line, part.column,
                                f"guard {part.name} is defined twice")
            guards[part.name] = _resolve_block(part.guard, classes)
    return Library(parsed.name, str(path), classes, guards)


# ---------------------------------------------------------------------------- predicate classes


def _resolve_pred(pred: s.PredTest | None, classes: dict[str, str], file: str) -> s.PredTest | None:
    if not isinstance(pred, s.PredClass):
        return pred
    if pred.name not in classes:
        known = ", ".join(f"%{c}" for c in sorted(classes)) or "none (add `use LIBRARY`)"
        raise RuleError(file, pred.line, pred.column,
                        f"unknown predicate class %{pred.name}; expected one of: {known}")
    return s.PredRegex(classes[pred.name])


def _resolve_item(item: s.Item, classes: dict[str, str], file: str) -> s.Item:
    if isinstance(item, s.EPPattern):
        return replace(item, pred=_resolve_pred(item.pred, classes, file))
    return item


def _resolve_block(block: s.Block, classes: dict[str, str]) -> s.Block:
    """*block* with every ``%class`` replaced by the class's regex."""
    conditions = []
    for cond in block.conditions:
        if isinstance(cond, (s.Context, s.Input, s.Filter)):
            cond = replace(cond, items=tuple(_resolve_item(i, classes, block.file)
                                             for i in cond.items))
        conditions.append(cond)
    if isinstance(block, s.Guard):
        return replace(block, conditions=tuple(conditions))
    edits = []
    for edit in block.edits:
        if isinstance(edit, (s.Add, s.Remove)):
            edit = replace(edit, item=_resolve_item(edit.item, classes, block.file))
        elif isinstance(edit, s.Change):
            edit = replace(edit, pred=_resolve_pred(edit.pred, classes, block.file))
        edits.append(edit)
    return replace(block, conditions=tuple(conditions), edits=tuple(edits))


# ---------------------------------------------------------------------------- tables


def load_table(decl: s.TableDecl) -> s.Table:
    """Read the TSV file a ``table`` line names, relative to the module's file: ``#`` lines are
    comments (say where the data comes from and its licence there), the first other line
    names the columns, each further line is a row; cells of a predicates table are normalized
    like MRS predicates (the checker looks each up in the SEM-I)."""
    path = Path(decl.file).parent / decl.path
    columns: tuple[str, ...] = ()
    rows = []
    for number, line in enumerate(_read(path, "table").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = tuple(c.strip() for c in line.split("\t"))
        if not columns:
            if len(set(cells)) != len(cells) or not all(_COLUMN_NAME.fullmatch(c) for c in cells):
                raise RuleError(str(path), number, 1, "the first line names the columns: "
                                "distinct names like female, male, separated by tabs")
            columns = cells
            continue
        if len(cells) > len(columns):
            raise RuleError(str(path), number, len(line.rsplit("\t", 1)[0]) + 2,
                            f"{len(cells)} cells, but the table has {len(columns)} columns: "
                            + ", ".join(columns))
        cells += ("",) * (len(columns) - len(cells))
        if decl.predicates:
            cells = tuple(delphin_predicate.normalize(c) if c else c for c in cells)
        rows.append((number, cells))
    if not columns:
        raise RuleError(str(path), 1, 1, "empty table; the first line names the columns")
    return s.Table(decl.name, str(path), decl.predicates, columns, tuple(rows))


def _link_tables(decls: list[s.TableDecl]) -> dict[str, s.Table]:
    tables: dict[str, s.Table] = {}
    for decl in decls:
        if decl.name in tables:
            raise RuleError(decl.file, decl.line, decl.column,
                            f"table {decl.name} is declared twice")
        tables[decl.name] = load_table(decl)
    return tables


# ---------------------------------------------------------------------------- modules


def _link(parsed: s.ModuleFile) -> s.Module:
    used = _link_uses([p for p in parsed.parts if isinstance(p, s.Use)], parsed.file, ())
    codes, values, examples, blocks, preferences, routes, inverses = [], [], [], [], [], [], []
    description, versions, otherwise, default = "", GRAMMAR_VERSIONS, None, None
    for part in parsed.parts:
        match part:
            case s.Code():
                codes.append((part.code, part.value))
            case s.Value():
                values.append((part.name, part.bindings))
                default = part.name if part.default else default
            case s.Example():
                examples.append(part)
            case s.Preference():
                preferences.append(part)
            case s.Inverse():
                inverses.append(part)
            case s.Description():
                description = part.text
            case s.Versions():
                versions = part.versions
            case s.Otherwise():
                otherwise = part.reason
            case s.GuardRef():
                if part.name not in used.guards:
                    known = ", ".join(sorted(used.guards)) or "none (add `use LIBRARY`)"
                    raise RuleError(part.file, part.line, part.column,
                                    f"unknown guard {part.name}; expected one of: {known}")
                blocks.append(used.guards[part.name])
            case s.Route():
                routes.append(_resolve_block(part, used.classes))
            case s.Guard() | s.Rule():
                blocks.append(_resolve_block(part, used.classes))
    return s.Module(
        name=parsed.name,
        paths=(parsed.file,),
        codes=tuple(codes),
        description=description,
        versions=versions,
        values=tuple(values),
        default=default,
        examples=tuple(examples),
        otherwise=otherwise,
        blocks=tuple(blocks),
        preferences=tuple(preferences),
        tables=_link_tables([p for p in parsed.parts if isinstance(p, s.TableDecl)]),
        routes=tuple(routes),
        inverses=tuple(inverses),
    )


def compile_text(text: str, source: str = "<rules>") -> s.Module:
    """Compile one module file's text; *source* names it in errors (and, if it is a file,
    where its ``use``d libraries are looked up first)."""
    parsed = parser.parse(text, source)
    if not isinstance(parsed, s.ModuleFile):
        raise RuleError(source, 1, 1, "expected 'module NAME': a library is not a module "
                        f"(give it the suffix {LIBRARY_SUFFIX})")
    module = _link(parsed)
    checker.check(module)
    return module


def compile_file(path: str | Path) -> s.Module:
    """Compile one module file."""
    path = Path(path)
    return compile_text(_read(path, "rule file"), str(path))
