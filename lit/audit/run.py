"""`lit.audit.run_audit`: a whole resumable `lit audit` run. Read the rows, skip the ids the
output already holds (--resume), write one record per row, then the summary
(OUTPUT.summary.json) and the rows to review (OUTPUT.review.jsonl, for `lit judge serve`)."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lit.ace.protocol import Ace
from lit.audit.records import DEFAULT_READINGS, Differ, audit_records
from lit.audit.rows import AuditRow
from lit.audit.summary import review_items, summarize
from lit.errors import InputError
from lit.io.jsonl import RecordWriter, iter_jsonl, written_ids
from lit.io.lock import OutputLock
from lit.io.output import create_overwrite_temporary, write_text_atomic
from lit.labels import LabelRules
from lit.progress import progress_bar
from lit.tasks.profile import TaskProfile

COMMAND = "lit audit"


def summary_path(output: Path) -> Path:
    return output.with_name(output.name + ".summary.json")


def review_path(output: Path) -> Path:
    return output.with_name(output.name + ".review.jsonl")


@dataclass(frozen=True)
class AuditResult:
    """What a run did; `summary` and `records` cover every record now in `output`."""

    output: Path
    written: int
    resumed: int
    seconds: float
    summary: dict
    records: list[dict]
    review: int


def run_audit(rows: Iterator[AuditRow], output: str | Path, service: Ace,
              profile: TaskProfile, rules: LabelRules, *, resume: bool = False,
              overwrite: bool = False, total: int | None = None, progress: bool = False,
              differ: Differ | None = None, readings: int = DEFAULT_READINGS,
              batch: int | None = None) -> AuditResult:
    """Write one record per row of *rows* to *output* (resume: append after the ids it holds;
    overwrite: replace it once the run is complete, or keep what was written if it is
    interrupted, for --resume), then the summary and review files beside it."""
    output = Path(output)
    if output.exists() and output.stat().st_size and not (resume or overwrite):
        raise InputError(f"{output} exists: pass --resume to continue it or --overwrite to "
                         "replace it")
    start = time.perf_counter()
    written = 0
    lock = OutputLock(output, COMMAND)
    lock.acquire()
    try:
        done: Counter = written_ids(output) if resume else Counter()
        resumed = sum(done.values())
        target = output if resume or not output.exists() else create_overwrite_temporary(output)

        def todo() -> Iterator[AuditRow]:
            for row in rows:
                if done[row.id] > 0:
                    done[row.id] -= 1
                    bar.update(1)
                    continue
                yield row

        try:
            with RecordWriter(target, append=resume) as writer, progress_bar(
                    total, COMMAND, "row", progress) as bar:
                for record in audit_records(todo(), service, profile, rules, differ=differ,
                                            readings=readings, batch=batch):
                    writer.write(record)
                    written += 1
                    bar.update(1)
                writer.flush()
        finally:  # complete or interrupted, what was written is the output (--resume)
            if target != output:
                os.replace(target, output)
    finally:
        lock.release()
    records = [r for _, r in iter_jsonl(output)]
    summary = summarize(records)
    write_text_atomic(summary_path(output), json.dumps(summary, indent=2) + "\n")
    review = review_items(records, profile)
    with RecordWriter(review_path(output)) as writer:  # lit judge's sample format
        for item in review:
            writer.write(item)
    return AuditResult(output, written, resumed, time.perf_counter() - start, summary,
                       records, len(review))
