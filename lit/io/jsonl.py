"""JSONL files: strict reading, and append-only output that a killed run can resume without
duplicating records."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from lit.errors import InputError
from lit.io.readers import json_objects


def iter_jsonl(path: Path, skipped: list[str] | None = None) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line. A bad line (not JSON, not an object,
    not UTF-8) is an InputError naming file and line, or, given a *skipped* list, is left
    out and its message appended there."""
    for line, obj, error in json_objects(path):
        if error:
            if skipped is None:
                raise InputError(f"{path}:{line.number}: {error}")
            skipped.append(f"{path}:{line.number}: {error}")
            continue
        yield line.number, obj


def written_ids(path: str | Path, repair: bool = True) -> Counter:
    """How often each record id occurs in *path* (empty if it does not exist).

    A run killed mid-write can leave a half-written last line (no newline): with *repair* it is
    cut off, so appending starts on a clean line. Any other broken line is an InputError
    (never silently dropped).
    """
    path = Path(path)
    ids: Counter = Counter()
    if not path.exists():
        return ids
    good_end = 0  # byte offset just after the last complete record
    with open(path, "rb") as f:
        for number, raw in enumerate(iter(f.readline, b""), 1):
            if not raw.endswith(b"\n"):
                break  # the last line, cut off mid-write (even if its JSON happens to parse)
            if raw.strip():
                try:
                    ids[str(json.loads(raw)["id"])] += 1
                except (ValueError, KeyError, TypeError) as exc:
                    raise InputError(
                        f"{path}:{number}: not a complete output record ({exc}); "
                        "cannot resume safely — move the file away or fix that line"
                    ) from None
            good_end += len(raw)
        size = f.seek(0, 2)
    if repair and good_end < size:
        with open(path, "r+b") as f:
            f.truncate(good_end)
    return ids


def complete_records(path: Path) -> int:
    """How many complete (newline-terminated, non-blank) lines *path* holds (0 if none)."""
    try:
        with open(path, "rb") as f:
            return sum(1 for raw in f if raw.endswith(b"\n") and raw.strip())
    except OSError:
        return 0


#: A written record reaches the disk (fsync) within this many seconds.
SYNC_SECONDS = 2.0


class RecordWriter:
    """Writes one JSON object per line. Each record goes to the operating system as it is
    written (a killed process loses none), and to the disk at least every *sync_seconds*
    and at `flush()`."""

    def __init__(self, path: str | Path, append: bool = False,
                 sync_seconds: float = SYNC_SECONDS):
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            raise InputError(f"{self.path}: directory {self.path.parent} does not exist")
        self._f = open(self.path, "a" if append else "w", encoding="utf-8")
        self.sync_seconds = sync_seconds
        self._synced = time.monotonic()

    def write(self, record: dict) -> None:
        """One line of strict JSON (no NaN); text that is not UTF-8 is written \\u-escaped."""
        try:
            line = json.dumps(record, ensure_ascii=False, allow_nan=False)
            line.encode("utf-8")
        except UnicodeEncodeError:
            line = json.dumps(record, allow_nan=False)
        try:
            self._f.write(line + "\n")
            self._f.flush()
        except OSError as exc:  # a full disk, a file-size limit, a lost mount
            raise self._cannot_write(exc) from None
        if time.monotonic() - self._synced >= self.sync_seconds:
            self.flush()

    def flush(self) -> None:
        try:
            self._f.flush()
            os.fsync(self._f.fileno())
        except OSError as exc:
            raise self._cannot_write(exc) from None
        self._synced = time.monotonic()

    def _cannot_write(self, exc: OSError) -> InputError:
        return InputError(f"cannot write {self.path}: {exc.strerror or exc}; the complete "
                          "records before it are kept, and --resume (once there is room) "
                          "drops a cut-off last line and continues")

    def close(self) -> None:
        if not self._f.closed:
            try:
                self._f.close()  # the file is closed even if this last flush fails
            except OSError as exc:
                raise self._cannot_write(exc) from None

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        try:
            self.close()
        except InputError:
            if exc_type is None:  # else the error already under way says it first
                raise
