"""Opening an input file as bytes, kept below lit.io and lit.records, which both read files."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path
from typing import IO

from lit.errors import InputError


def open_binary(path: str | Path) -> IO[bytes]:
    """A byte stream for a path (gzip by .gz) or `-` (stdin); InputError if it cannot open."""
    if str(path) == "-":
        return sys.stdin.buffer
    path = Path(path)
    try:
        return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from None
