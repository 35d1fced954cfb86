"""One writer per output: an advisory lock that a second run on the same output is refused by.

Two runs appending to one file interleave their records and break lines (issue 25). The lock is
``fcntl.flock`` (Linux and macOS) on a small file beside the output, ``.OUTPUT.lock``, rather
than on the output itself: ``--overwrite`` renames a new file over OUTPUT, and a lock on the old
inode would not cover the new one; the run-identity file is only written under it too. The lock
file says who holds it, so the refusal can name the holder; the kernel drops the lock when the
holder exits, however it exits (SIGKILL included), so a stale lock file never blocks a run.
One moment after a SIGKILL the lock can still be held: a child the run was starting (between
fork and exec, before it closes the inherited descriptors) shares it. So a lock whose named
holder is no longer alive is waited for, up to `DEAD_HOLDER_SECONDS`, before refusing.
"""

from __future__ import annotations

import fcntl
import os
import re
import socket
import time
from pathlib import Path
from types import TracebackType

from lit.errors import InputError

#: How long a lock whose holder process is gone is waited for (its children drop it at exec).
DEAD_HOLDER_SECONDS = 5.0


def lock_path(output: Path) -> Path:
    return output.with_name(f".{output.name}.lock")


class OutputLock:
    """Held from `acquire` to `release` (or over a ``with`` block); `acquire` raises
    InputError naming the holder if another process holds it. The lock file is left in place (removing it would let a third run lock a new
    file while the second still holds the old one)."""

    def __init__(self, output: str | Path, command: str = "lit") -> None:
        self.output = Path(output)
        self.path = lock_path(self.output)
        self.command = command
        self._fd: int | None = None

    def acquire(self) -> None:
        if not self.output.parent.is_dir():
            raise InputError(f"{self.output}: directory {self.output.parent} does not exist")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise InputError(f"cannot write {self.output}: {exc.strerror or exc}") from None
        if not _locked(fd):
            holder = os.pread(fd, 4096, 0).decode("utf-8", errors="replace").strip()
            if not (_gone(holder) and _locked(fd, DEAD_HOLDER_SECONDS)):
                os.close(fd)
                raise InputError(
                    f"{self.output} is being written by another run "
                    f"({holder or 'holder unknown'}); wait for it to finish, or write to "
                    "another -o")
        os.ftruncate(fd, 0)
        started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
        os.pwrite(fd, f"{self.command}, pid {os.getpid()} on {socket.gethostname()}, "
                      f"since {started}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        """Give the lock up (safe if it was never taken)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _locked(fd: int, wait: float = 0.0) -> bool:
    """Take the lock on *fd*, trying for up to *wait* seconds; whether it was taken."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


def _gone(holder: str) -> bool:
    """Whether the holder a lock file names ("CMD, pid N on HOST, since ...") is a process of
    this host that no longer runs."""
    found = re.search(r"pid (\d+) on (\S+),", holder)
    if found is None or found.group(2) != socket.gethostname():
        return False
    try:
        os.kill(int(found.group(1)), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
