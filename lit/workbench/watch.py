"""`lit rules try --watch`: run again whenever a watched file is saved (polling its
modification time: no extra dependency, and it works on every file system)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path


def _stamps(paths: Iterable[Path]) -> dict[Path, int]:
    found = {}
    for p in paths:
        try:
            found[p] = os.stat(p).st_mtime_ns
        except OSError:  # deleted while the editor saves: a change like any other
            found[p] = -1
    return found


def watch(once: Callable[[], Iterable[Path]], interval: float = 0.5,
          runs: int | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
    """Call *once* (which does the work and returns the files it read), then again each time
    one of those files changes; stop after *runs* calls if given (else on Ctrl-C)."""
    stamps = _stamps(once())
    done = 1
    while runs is None or done < runs:
        sleep(interval)
        now = _stamps(stamps)
        if now != stamps:
            stamps = _stamps(once())
            done += 1
