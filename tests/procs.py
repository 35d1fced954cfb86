"""Child processes from /proc, for tests that check no ACE process is left behind."""

from __future__ import annotations

import os
from pathlib import Path


def children(pid: int | None = None) -> set[int]:
    """The child processes of *pid* (default: this process), zombies included: every thread's
    /proc/PID/task/TID/children (a child belongs to the thread that started it)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid or os.getpid()}/task").iterdir():
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:  # the thread ended meanwhile
            continue
    return found
