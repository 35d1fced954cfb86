"""The one front end of LIT's two small languages: rule modules and label rules.

Both grammars are lark files inside the package, loaded with ``Lark.open_from_package`` (and
lark's grammar cache, kept in LIT's cache dir), and every syntax error becomes a
:class:`lit.errors.RuleError` that says where it is and what was expected there, in words a rule
author reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from lark import Lark, Tree
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.lexer import PatternStr

from lit.config import cache_dir
from lit.errors import RuleError


def _lark_cache(package: str, grammar: str) -> str | bool:
    """Where lark caches the built parser: LIT's cache dir (lark's own default is a file left in
    the temp dir), or no cache if that cannot be made. Lark checks the file's grammar hash."""
    folder = cache_dir() / "lark"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(folder / f"{package}.{grammar}.cache")


@lru_cache(maxsize=None)
def parser(package: str, grammar: str) -> Lark:
    """The LALR parser for the grammar file *grammar* of *package* (built once per process)."""
    return Lark.open_from_package(
        package, grammar, ("",), parser="lalr", maybe_placeholders=False,
        propagate_positions=True, cache=_lark_cache(package, grammar),
    )


def _word(lark: Lark, terminal: str, names: Mapping[str, str]) -> str:
    """One terminal as a reader knows it: a keyword as written, punctuation quoted, a named
    terminal by its description (``a variable like ?x``)."""
    if terminal in names:
        return names[terminal]
    try:
        pattern = lark.get_terminal(terminal).pattern
    except KeyError:  # $END
        return terminal.lower()
    if isinstance(pattern, PatternStr):
        return pattern.value if pattern.value.isidentifier() else repr(pattern.value)
    return terminal.lower()


def describe_expected(lark: Lark, expected: Iterable[str], names: Mapping[str, str]) -> str:
    """What the parser would have accepted, in words, at most twelve of them."""
    words = sorted({_word(lark, e, names) for e in expected})
    return ", ".join(words[:12]) + (" …" if len(words) > 12 else "")


def parse(package: str, grammar: str, text: str, source: str,
          names: Mapping[str, str]) -> Tree:
    """Parse *text* (named *source* in errors); a syntax error is a RuleError."""
    lark = parser(package, grammar)
    try:
        return lark.parse(text)
    except UnexpectedCharacters as exc:
        found = f"unexpected character {text[exc.pos_in_stream]!r}"
        allowed = describe_expected(lark, exc.allowed, names) if exc.allowed else ""
        raise RuleError(source, exc.line, exc.column,
                        found + (f"; expected {allowed}" if allowed else "")) from None
    except UnexpectedToken as exc:
        found = "end of file" if exc.token.type == "$END" else repr(str(exc.token))
        raise RuleError(
            source, exc.line, exc.column,
            f"unexpected {found}; expected "
            + describe_expected(lark, exc.accepts or exc.expected, names),
        ) from None
    except UnexpectedEOF as exc:
        raise RuleError(source, None, None, "unexpected end of file; expected "
                        + describe_expected(lark, exc.expected, names)) from None
    except UnexpectedInput as exc:  # pragma: no cover - lark's other parse errors
        raise RuleError(source, exc.line, exc.column, str(exc)) from None


def unwrap(exc: VisitError) -> BaseException:
    """The RuleError a Transformer raised, out of lark's VisitError wrapper."""
    return exc.orig_exc if isinstance(exc.orig_exc, RuleError) else exc
