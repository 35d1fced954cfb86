"""Retrying what a run's limits stopped: `lit nli --resume` with larger limits.

A generation (or parse) stopped by a time limit or a memory cap is `timeout` / `resource`, not
a failure of the sentence: a later run with a larger limit may succeed. When `--resume` finds
that a limit grew (lit.pipeline.identity.check_resume), the records holding such a status are
taken out of the output and their pairs run again; every other record stays as written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lit.errors import InputError
from lit.io.output import atomic_text
from lit.records import NliRecord, Record, as_record
from lit.status import Status

#: Statuses that name a limit of the run rather than the sentence.
LIMITED = frozenset({Status.TIMEOUT.value, Status.RESOURCE.value})


def stopped_by_limit(record: Record | NliRecord) -> bool:
    """Did a time limit or memory cap stop this `lit nli` record or one of its transforms?"""
    record = as_record(record)
    return record.status in LIMITED or any(t.status in LIMITED for t in record.transforms)


def drop_limited(output: Path) -> int:
    """Rewrite *output* (atomically, streaming) without the records a limit stopped; how
    many went. Lines that are not complete records are kept for `written_ids` to judge."""
    dropped = sum(map(_limited_line, _lines(output)))
    if dropped:
        with atomic_text(output) as f:
            for raw in _lines(output):
                if not _limited_line(raw):
                    f.write(raw.decode("utf-8"))
    return dropped


def _lines(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as f:
        yield from f


def _limited_line(raw: bytes) -> bool:
    if not raw.endswith(b"\n"):
        return False  # cut off mid-write: written_ids repairs it
    try:
        return stopped_by_limit(Record.from_json(raw))
    except InputError:
        return False  # not a record: written_ids judges it
