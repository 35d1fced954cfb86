"""Exceptions that say what to do; the CLI prints them as one line, without a traceback."""

from __future__ import annotations


class LitError(Exception):
    """Base class for errors LIT reports to the user as a single clear message."""


class ConfigurationError(LitError):
    """ACE, a grammar or a model could not be found or used."""


class InputError(LitError):
    """A user-supplied file, spec or rule is malformed; the message names where."""


class RuleError(InputError):
    """A syntax or check error in a rule or label-rule file, where it is and what was wrong.

    ``expected`` says what the file should have had there (for a check error: what is wrong
    and how to fix it); the message is built from the fields, as ``file:line:column: ...``.
    """

    def __init__(self, file: str, line: int | None, column: int | None, expected: str) -> None:
        self.file, self.line, self.column, self.expected = file, line, column, expected
        where = ":".join([file] + [str(n) for n in (line, column) if n])
        super().__init__(f"{where}: {expected}")

    def __reduce__(self):  # keep the fields when pickled (e.g. across processes)
        return (type(self), (self.file, self.line, self.column, self.expected))
