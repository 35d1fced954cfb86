"""Transformation specs: the one syntax the CLI, the API and the label rules share (docs/design.md §4).

::

    spec  := step ("+" step)*            step  := NAME ("=" VALUE)?
    VALUE := "+" | "-" | [A-Za-z0-9_,]+   (prog/perf: exactly one of + or -; on/off accepted)
    pair  := spec ";" spec (WS+ "+" spec)?

``prog=++pass`` is ``prog=+`` then ``pass``; ``f;p +i`` means ``f+i;p+i`` while ``f;p+i`` means
``f;(p+i)``. The LIT paper's codes are aliases: o i pa p f m n q s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lit.errors import InputError

#: The paper's codes (docs/design.md §2) -> (canonical module name, value).
ALIASES: dict[str, tuple[str, str | None]] = {
    "o": ("o", None),
    "i": ("cleft", None),
    "pa": ("pass", None),
    "p": ("tense", "past"),
    "f": ("tense", "fut"),
    "m": ("modal", "may"),
    "n": ("neg", None),
    "q": ("ques", None),
    "s": ("swap", None),
}

#: Modules whose value is a polarity: exactly one of + or - (on/off accepted).
POLAR_MODULES = frozenset({"prog", "perf"})
_POLARITY = {"+": "+", "-": "-", "on": "+", "off": "-"}

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_VALUE = re.compile(r"[A-Za-z0-9_,]+")


@dataclass(frozen=True)
class Step:
    """One transformation: a canonical module name and its value (None = the default)."""

    name: str
    value: str | None = None

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name}={self.value}"


@dataclass(frozen=True)
class Spec:
    """Steps applied left to right; ``str()`` gives the canonical text."""

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return "+".join(str(s) for s in self.steps)

    def __add__(self, other: Spec) -> Spec:
        return Spec(self.steps + other.steps)


@dataclass(frozen=True)
class PairSpec:
    """Premise and hypothesis specs of an NLI pair; ``str()`` gives ``"a;b"``."""

    premise: Spec
    hypothesis: Spec

    def __str__(self) -> str:
        return f"{self.premise};{self.hypothesis}"


def _error(text: str, column: int, what: str) -> InputError:
    return InputError(f"bad spec {text!r} at column {column + 1}: {what}")


def _parse_spec(text: str, start: int, end: int, full: str) -> Spec:
    """Parse ``full[start:end]``; columns in errors count from the start of *full*."""
    steps: list[Step] = []
    pos = start
    while True:
        while pos < end and full[pos].isspace():
            pos += 1
        m = _NAME.match(full, pos, end)
        if not m:
            found = repr(full[pos]) if pos < end else "the end"
            raise _error(full, pos, f"expected a transformation name, found {found}")
        name, pos = m.group(), m.end()
        value: str | None = None
        if pos < end and full[pos] == "=":
            pos += 1
            if name in POLAR_MODULES and pos < end and full[pos] in "+-":
                value, pos = full[pos], pos + 1
            else:
                vm = _VALUE.match(full, pos, end)
                if not vm:
                    found = repr(full[pos]) if pos < end else "the end"
                    raise _error(full, pos, f"expected a value after '{name}=', found {found}")
                value, pos = vm.group(), vm.end()
        steps.append(_canonical(name, value, full, m.start()))
        while pos < end and full[pos].isspace():
            pos += 1
        if pos == end:
            return Spec(tuple(steps))
        if full[pos] != "+":
            raise _error(full, pos, f"expected '+' or the end, found {full[pos]!r}")
        pos += 1


def _canonical(name: str, value: str | None, full: str, column: int) -> Step:
    if name in ALIASES:
        if value is not None:
            raise _error(full, column, f"the code '{name}' takes no value")
        return Step(*ALIASES[name])
    if name in POLAR_MODULES:
        if value is None or value.lower() not in _POLARITY:
            raise _error(full, column, f"'{name}' needs a value: {name}=+ or {name}=- (on/off)")
        return Step(name, _POLARITY[value.lower()])
    return Step(name, value)


def parse_spec(text: str) -> Spec:
    """Parse one spec such as ``tense=fut+pass``; InputError names the column of a mistake."""
    if not text.strip():
        raise _error(text, 0, "empty spec")
    if ";" in text:
        raise _error(text, text.index(";"), "';' separates the premise and hypothesis of a "
                     "pair spec, which `lit nli` takes; a sentence takes one spec")
    return _parse_spec(text, 0, len(text), text)


_SHARED = re.compile(r"\s+\+")


def parse_pair(text: str) -> PairSpec:
    """Parse ``a;b`` or ``a;b +c`` (= ``a+c;b+c``); a '+' glued to b belongs to b."""
    if text.count(";") != 1:
        column = text.find(";", text.find(";") + 1) if ";" in text else len(text)
        raise _error(text, column, "a pair spec needs exactly one ';'")
    semi = text.index(";")
    premise = _parse_spec(text, 0, semi, text) if text[:semi].strip() else None
    if premise is None:
        raise _error(text, 0, "expected a premise spec before ';'")
    shared = _SHARED.search(text, semi + 1)
    end = shared.start() if shared else len(text)
    if not text[semi + 1 : end].strip():
        raise _error(text, semi + 1, "expected a hypothesis spec after ';'")
    hypothesis = _parse_spec(text, semi + 1, end, text)
    if shared:
        tail = _parse_spec(text, shared.end(), len(text), text)
        premise, hypothesis = premise + tail, hypothesis + tail
    return PairSpec(premise, hypothesis)


@dataclass(frozen=True)
class TextSpec(PairSpec):
    """A single-text task's spec, run as a pair whose second side is the text kept as it is
    (`o`), so one pipeline and one label-rule matcher serve both kinds of task; ``str()`` is
    the spec alone ("neg"), as records and label-rule messages name it."""

    def __str__(self) -> str:
        return str(self.premise)


def parse_text_spec(text: str) -> TextSpec:
    """Parse the spec of a single-text task (``neg``, ``gender=swap+pass``); InputError as
    `parse_spec`."""
    return TextSpec(parse_spec(text), Spec((Step(*ALIASES["o"]),)))
