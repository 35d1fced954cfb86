"""`lit.run`: a whole resumable run of any task (read, skip done ids, write, summarize), and
its documented one-line entries `lit.run_nli` and `lit.run_contrast`.

The CLIs (`lit nli`, `lit contrast`) are thin wrappers around `run`, so a Python user gets the
same resume, overwrite, limit, progress and summary behaviour as the command line.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import chain, islice
from pathlib import Path
from typing import Any

from lit.config import PAPER_SPECS, RunConfig
from lit.errors import InputError
from lit.io import RecordWriter, count_records, iter_jsonl, written_ids
from lit.io.jsonl import complete_records
from lit.io.lock import OutputLock
from lit.io.output import (
    create_overwrite_temporary,
    overwrite_temporary,
    refuse_input_as_output,
    stale_temporaries,
)
from lit.pipeline.contrast import parse_task_spec, task_specs
from lit.pipeline.engine import Engine
from lit.pipeline.identity import check_resume, identity_path, run_identity, save_identity
from lit.pipeline.retry import drop_limited, stopped_by_limit
from lit.pipeline.selfpairs import self_pair_items
from lit.pipeline.summary import Summary
from lit.progress import PairTicks, progress_bar
from lit.tasks.item import TaskItem
from lit.tasks.profile import NLI_TASK, TaskProfile, load_task
from lit.tasks.reader import read_task


@dataclass(frozen=True)
class RunOptions:
    """Everything a run takes beside its input and output. task: a profile name or file
    (docs/tasks.md); specs: default the profile's. resume: append, skipping ids the output
    already holds (a half-written last line is cut off). overwrite: replace an existing
    output (else it is an InputError). limit: only the first N records. progress: a
    progress bar on stderr. engine: an Engine to use (left open), or a function that makes
    one (closed at the end); default ``Engine.from_config(config, task=...)``. format,
    columns (side -> field), label_column, id_column: how to read the input. self_pairs
    (a pair-records task): one pair (S, S) per distinct sentence instead of the input's
    pairs (lit.pipeline.selfpairs), ids ``ID/premise`` and ``ID/hypothesis``."""

    task: str | Path | TaskProfile = NLI_TASK
    specs: Sequence[str] | None = None
    resume: bool = False
    overwrite: bool = False
    limit: int | None = None
    progress: bool = False
    engine: Engine | Callable[[], Engine] | None = None
    config: RunConfig | None = None
    format: str | None = None
    columns: Mapping[str, str] | None = None
    label_column: str | None = None
    id_column: str | None = None
    self_pairs: bool = False


@dataclass(frozen=True)
class RunResult:
    """What a `run` did; ``summary`` counts every record now in ``output``."""

    output: Path
    written: int
    resumed: int
    seconds: float
    summary: Summary
    #: records now in ``output`` that a time limit or memory cap stopped (lit.pipeline.retry)
    limited: int = 0
    command: str = "lit nli"  # the command that ran, and what its records are per
    unit: str = "pair"
    #: input records after the first --limit N, not run (a sample run says how to go on)
    left_out: int = 0

    def format(self) -> str:
        """The closing lines `lit nli` (`lit contrast`) prints: throughput, then the per-spec
        summary."""
        head = (
            f"{self.command}: wrote {self.written} records to {self.output} in "
            f"{self.seconds:.1f} s "
            f"({self.written / max(self.seconds, 1e-9):.1f} {self.unit}s/s)"
            + (f"; {self.resumed} were already there" if self.resumed else "")
        )
        if self.limited:
            head += (f"\n{self.limited} record(s) were stopped by a limit (timeout, resource): "
                     "--resume with a larger --generate-timeout, --timeout or memory cap "
                     "retries just those")
        if self.left_out:
            head += (f"\n{self.left_out} more record(s) of the input were left out by --limit: "
                     "run the same command without --limit and with --resume to add them")
        return head + "\n" + self.summary.format()


def _check_output(input: str | Path, output: Path, options: RunOptions) -> None:
    """Refuse to overwrite the input, or an existing output without resume/overwrite, or a
    negative limit."""
    refuse_input_as_output(output, input)
    if output.exists() and output.stat().st_size and not (options.resume or options.overwrite):
        raise InputError(
            f"{output} exists: pass --resume to continue it or --overwrite to replace it"
        )
    if options.limit is not None and options.limit < 0:
        raise InputError("--limit must be at least 0")


def _put_in_place(target: Path, output: Path, identity: dict | None) -> None:
    """Rename the temporary output of --overwrite over OUTPUT and store the run's identity;
    a run stopped before it began leaves OUTPUT as it was."""
    if target == output:
        return
    if identity is None:
        _remove(target)
        return
    os.replace(target, output)
    save_identity(output, identity)
    identity_path(target).unlink(missing_ok=True)


def _remove(target: Path) -> None:
    target.unlink(missing_ok=True)
    identity_path(target).unlink(missing_ok=True)


def _take_over_killed_runs(output: Path, resume: bool, command: str) -> None:
    """What a killed run left beside OUTPUT (the caller holds OUTPUT's lock, so no live run
    owns it): --resume adopts an --overwrite run's records, as if it had been stopped by
    Ctrl-C (they replace OUTPUT and are continued); any other run removes them."""
    pending = overwrite_temporary(output)
    records = complete_records(pending) if pending.exists() else 0
    if resume and pending.exists() and identity_path(pending).exists():
        os.replace(pending, output)
        os.replace(identity_path(pending), identity_path(output))
        print(f"{command}: continuing the {records} records of a killed --overwrite run "
              f"({pending.name}); they replace {output}'s earlier records", file=sys.stderr)
    elif pending.exists():
        _remove(pending)
        if records:
            print(f"{command}: removed {pending}: {records} records of a killed --overwrite run "
                  "(--resume would have continued them)", file=sys.stderr)
    for stale in stale_temporaries(output):
        stale.unlink(missing_ok=True)


def _interrupted(output: Path, identity: dict | None, command: str) -> None:
    """Say how many records an interrupted run leaves and how to go on."""
    if identity is None:
        print(f"{command}: stopped before writing anything; {output} is unchanged",
              file=sys.stderr)
        return
    print(f"{command}: {complete_records(output)} records are safe in {output}; run the same "
          "command with --resume to continue", file=sys.stderr)


def _warn_duplicates(input: str | Path, seen: Counter, command: str) -> None:
    """Warn (stderr) about ids that occur more than once: records are still written for
    each, but `--resume` and `lit evaluate` key records by id."""
    repeated = [(rid, n) for rid, n in seen.items() if n > 1]
    if repeated:
        rid, n = repeated[0]
        print(f"{command}: warning: {input}: {len(repeated)} id(s) occur more than once, e.g. "
              f"id {rid!r} occurs {n} times; --resume and lit evaluate need unique ids "
              "(name an id column with --id-column)", file=sys.stderr)


def run_nli(input: str | Path, output: str | Path, specs: Sequence[str] = PAPER_SPECS, *,
            premise_column: str | None = None, hypothesis_column: str | None = None,
            **options: Any) -> RunResult:
    """A `lit nli` run: `run` with task nli (the one path); *premise_column* and
    *hypothesis_column* name those fields, *options* are RunOptions' fields."""
    columns = {side: name for side, name in (("premise", premise_column),
                                              ("hypothesis", hypothesis_column)) if name}
    return run(input, output, RunOptions(NLI_TASK, specs, columns=columns, **options))


def run_contrast(input: str | Path, output: str | Path, task: str | Path | TaskProfile,
                 specs: Sequence[str] | None = None, **options: Any) -> RunResult:
    """A `lit contrast` run of *task*: `run` (the one path); *options* are RunOptions'
    fields. An open Engine passed in labels with the task's rules if its own task differs
    (local backend)."""
    return run(input, output, RunOptions(task, specs, **options))


def run(input: str | Path, output: str | Path, options: RunOptions = RunOptions()
        ) -> RunResult:
    """Write one record per record of *input* (a dataset `read_task` reads, or "-" for JSONL
    on stdin) to *output*, as `lit nli` / `lit contrast` do: the task's pair records or
    contrast records (docs/tasks.md), the run as *options* say."""
    profile = load_task(options.task)
    output = Path(output)
    _check_output(input, output, options)
    if options.self_pairs and not profile.pair_records:
        raise InputError(f"--self-pairs makes pairs: task {profile.name}'s records are not "
                         "pair records")
    specs = task_specs(profile, options.specs)
    for s in specs:  # the kind of spec (single or pair) before ACE starts
        parse_task_spec(profile, s)
    items, total, left_out = _counted(input, options.format, read_task(
        input, profile, options.format, columns=options.columns, label=options.label_column,
        id_field=options.id_column), options.limit)
    if options.self_pairs:
        items, total = self_pair_items(items), None  # repeated sentences go once
    engine = options.engine or (lambda: Engine.from_config(options.config or RunConfig(),
                                                           task=profile))
    job = _Job(input, output, items, total, specs, _identity_options(profile, options),
               profile, engine)
    return replace(_run(job, options.resume, options.progress), left_out=left_out)


def _identity_options(profile: TaskProfile, options: RunOptions) -> dict:
    """The options a run's identity records (a resumed run must match them): a pair-records
    task's columns in side order as `lit nli` has always recorded them, else by name."""
    columns = dict(options.columns or {})
    if profile.pair_records:
        return {"format": options.format,
                "columns": [*(columns.get(side) for side in profile.sides),
                            options.label_column, options.id_column],
                **({"self_pairs": True} if options.self_pairs else {})}
    return {"task": profile.name, "task_profile": profile.source, "format": options.format,
            "columns": columns, "label_column": options.label_column,
            "id_column": options.id_column}


@dataclass(frozen=True)
class _Job:
    """One run's work: its items (and how many, None: unknown), specs, the options its
    identity records, its task and the Engine (or what makes one)."""

    input: str | Path
    output: Path
    items: Iterator[TaskItem]
    total: int | None
    specs: list[str]
    options: dict
    profile: TaskProfile
    engine: Engine | Callable[[], Engine]

    @property
    def command(self) -> str:
        """The command whose run this is, as messages name it."""
        return "lit nli" if self.profile.pair_records else "lit contrast"

    @property
    def unit(self) -> str:
        """What one record is per, as the progress bar and summary count."""
        return "pair" if self.profile.pair_records else "record"


def _counted(input: str | Path, format: str | None, items: Iterator, limit: int | None
             ) -> tuple[Iterator, int | None, int]:
    """*items* (the first read now: a bad file fails before OUTPUT is touched), cut to
    *limit*, how many there will be (None: unknown), and how many *limit* leaves out (0
    when the input cannot be counted)."""
    first = next(items, None)
    items = chain([first] if first is not None else [], items)
    total = count_records(input, format)
    left_out = 0
    if limit is not None:
        items = islice(items, limit)
        left_out = 0 if total is None else max(0, total - limit)
        total = limit if total is None else min(total, limit)
    return items, total, left_out


def _run(job: _Job, resume: bool, progress: bool) -> RunResult:
    """Lock OUTPUT, adopt or clear what a killed run left, check a resumed run is the same
    run, write the Engine's records of the items not yet written, put OUTPUT in place,
    summarize."""
    output, command = job.output, job.command
    seen: Counter = Counter()  # input ids, to warn about duplicates
    identity: dict | None = None
    start = time.perf_counter()
    built: Engine | None = None
    target = output
    lock = OutputLock(output, command)  # one writer per output (lit.io.lock)
    try:
        lock.acquire()
        target = _prepare(output, resume, command)
        built = job.engine if isinstance(job.engine, Engine) else job.engine()
        retried_before = built.ace_retries()  # a caller's Engine may have run before
        for s in job.specs:
            built.check_task_spec(job.profile, s)
        identity = run_identity(job.input, job.specs, built, job.options)
        done = _done_ids(output, identity, command) if resume else Counter()
        resumed = sum(done.values())
        save_identity(target, identity)  # a killed run's output is resumed: it needs this
        written = _write(job, built, RecordWriter(target, append=resume), progress, done,
                         seen)
        # before `close` stops the ACE pools (a restarted Ray actor counts again from 0)
        retries = {k: max(0, v - retried_before.get(k, 0))
                   for k, v in built.ace_retries().items()}
    except KeyboardInterrupt:  # keep what was written: --resume continues it
        _put_in_place(target, output, identity)
        _interrupted(output, identity, command)
        raise
    except BaseException:
        if target != output:
            _remove(target)
        raise
    else:
        _put_in_place(target, output, identity)
    finally:
        if built is not None and built is not job.engine:
            built.close()
        lock.release()
    _warn_duplicates(job.input, seen, command)
    return _result(job, written, resumed, time.perf_counter() - start, retries)


def _prepare(output: Path, resume: bool, command: str) -> Path:
    """Adopt or clear what a killed run left and warn about a resumed OUTPUT with no run
    identity; the file to write: OUTPUT, or beside it for --overwrite (the old file stays
    until the end, and a killed run's records there are adopted by --resume)."""
    _take_over_killed_runs(output, resume, command)
    if resume and output.exists() and output.stat().st_size and not identity_path(
            output).exists():
        print(f"{command}: warning: {output} has no run identity "
              f"({identity_path(output).name}): it is resumed without checking that this "
              "run matches the one that wrote it", file=sys.stderr)
    replacing = not resume and output.exists() and output.stat().st_size > 0
    return create_overwrite_temporary(output) if replacing else output


def _done_ids(output: Path, identity: dict, command: str) -> Counter:
    """The ids OUTPUT already holds, after checking a resumed run is the same run (records a
    limit stopped are dropped, to be retried, when a limit grew)."""
    changed = check_resume(output, identity)
    grown = any(now > was for _, was, now in changed)
    retried = drop_limited(output) if grown else 0
    if changed:
        what = "; ".join(f"{k}: was {was}, now {now}" for k, was, now in changed)
        print(f"{command}: --resume with changed limits ({what}): " + (
              f"retrying the {retried} record(s) a limit stopped (timeout, resource)"
              if grown else "none grew, so nothing is retried"), file=sys.stderr)
    return written_ids(output)


def _write(job: _Job, engine: Engine, writer: RecordWriter, progress: bool, done: Counter,
           seen: Counter) -> int:
    """Write *engine*'s records of the items not *done* (ids an earlier run wrote) with
    *writer*, counting every input id in *seen*; how many it wrote."""
    written = 0
    with writer, progress_bar(job.total, job.command, job.unit, progress) as bar:
        ticks = PairTicks(bar)  # moves within a batch, as its work finishes

        def todo() -> Iterator[TaskItem]:
            for item in job.items:
                seen[item.id] += 1
                if done[item.id] > 0:  # already written by an earlier run
                    done[item.id] -= 1
                    ticks(Fraction(1))
                    continue
                yield item

        for record in engine.contrast(todo(), job.profile, job.specs, progress=ticks):
            writer.write(record)  # on disk within RecordWriter.sync_seconds
            written += 1
        writer.flush()
    return written


def _result(job: _Job, written: int, resumed: int, seconds: float,
            retries: dict[str, int]) -> RunResult:
    """The run's result: its counts and the summary of every record now in OUTPUT."""
    summary = Summary()
    summary.ace_retries = retries
    limited = 0
    for _, record in iter_jsonl(job.output):
        summary.add(record)
        limited += stopped_by_limit(record)
    return RunResult(job.output, written, resumed, seconds, summary, limited, job.command,
                     job.unit)
