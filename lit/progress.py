"""Progress for long runs wherever they are watched: a tqdm bar on a terminal, a notebook
widget in Jupyter (tqdm.auto), and periodic plain lines when stderr goes to a log file.

A bar redrawn with carriage returns turns a log file into one unreadable line, so off a
terminal `PlainProgress` writes a whole line (count, percentage, rate, ETA) every
`LIT_PROGRESS_SECONDS` seconds (default 30) and once at the end.

Inside a batch, the pipeline hands out the batch's pairs as fractions while its work finishes
(`BatchShare`: parses, generations, verified sides), so a bar over 32-pair batches moves
within a batch; `PairTicks` turns those fractions into whole-pair updates of a bar.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TextIO

from tqdm import tqdm as std_tqdm

DEFAULT_SECONDS = 30.0


def in_notebook() -> bool:
    """True inside a Jupyter kernel (where tqdm.auto draws a widget)."""
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    return bool(get and type(get()).__name__ == "ZMQInteractiveShell")


class PlainProgress:
    """tqdm's `update`/`close` interface, writing one plain line per interval to *file*."""

    def __init__(self, total: int | None, desc: str, unit: str, file: TextIO,
                 seconds: float = DEFAULT_SECONDS) -> None:
        self.total, self.desc, self.unit, self.file = total, desc, unit, file
        self.seconds = seconds
        self.n = 0
        self.start = self.last = time.monotonic()

    def line(self) -> str:
        """"DESC: N/TOTAL PCT, RATE unit/s, ETA" as tqdm formats it, on one line."""
        elapsed = time.monotonic() - self.start
        return std_tqdm.format_meter(self.n, self.total, elapsed, prefix=self.desc,
                                     unit=self.unit, ascii=True, ncols=0)

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.last >= self.seconds:
            self.last = now
            print(self.line(), file=self.file, flush=True)

    def close(self) -> None:
        print(self.line(), file=self.file, flush=True)

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def progress_bar(total: int | None, desc: str, unit: str, enabled: bool = True,
                 file: TextIO | None = None) -> Any:
    """A per-item progress display for *total* items (None: unknown): tqdm on a terminal,
    tqdm.auto in a notebook, `PlainProgress` otherwise; nothing shown when not *enabled*."""
    file = file or sys.stderr
    if not enabled:
        return std_tqdm(total=total, disable=True)
    if in_notebook():
        from tqdm.auto import tqdm as auto_tqdm

        return auto_tqdm(total=total, desc=desc, unit=unit)
    if getattr(file, "isatty", lambda: False)():
        return std_tqdm(total=total, desc=desc, unit=unit, file=file, dynamic_ncols=True)
    seconds = float(os.environ.get("LIT_PROGRESS_SECONDS") or DEFAULT_SECONDS)
    return PlainProgress(total, desc, unit, file, seconds)


#: A callback that takes pairs done, possibly a fraction of one.
Progress = Callable[[Fraction], None]


class BatchShare:
    """One batch's *size* pairs, handed to *report* as parts of its work finish: `add` never
    pays out more than *size* in all, and `close` pays what is left, so each batch reports
    exactly its size (Fractions: no rounding drift). *report* None: nothing is reported."""

    def __init__(self, report: Progress | None, size: int) -> None:
        self.report = report
        self.left = Fraction(size)

    def add(self, pairs: Fraction) -> None:
        pay = min(Fraction(pairs), self.left)
        if self.report is not None and pay > 0:
            self.left -= pay
            self.report(pay)

    def close(self) -> None:
        self.add(self.left)


class PairTicks:
    """A Progress for *bar* (tqdm's `update`): fractions of pairs, from any thread, become
    whole-pair updates (the bar's count stays an integer and ends at the pair count)."""

    def __init__(self, bar: Any) -> None:
        self.bar = bar
        self.owed = Fraction(0)
        self._lock = threading.Lock()

    def __call__(self, pairs: Fraction) -> None:
        with self._lock:
            self.owed += pairs
            whole = int(self.owed)
            if whole:
                self.owed -= whole
                self.bar.update(whole)
