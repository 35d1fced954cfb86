"""Exceptions that say what to do; the CLI prints them as one line, without a traceback."""

from __future__ import annotations


class LitError(Exception):
    """Base class for errors LIT reports to the user as a single clear message."""


class ConfigurationError(LitError):
    """ACE, a grammar or a model could not be found or used."""


class InputError(LitError):
    """A user-supplied file, spec or rule is malformed; the message names where."""
