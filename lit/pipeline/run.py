"""`lit.run_nli`: a whole resumable `lit nli` run (read, skip done ids, write, summarize).

The CLI (`lit nli`) is a thin wrapper around this function, so a Python user gets the same
resume, overwrite, limit, progress and summary behaviour as the command line.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, islice
from pathlib import Path

from lit.config import PAPER_SPECS, RunConfig
from lit.errors import InputError
from lit.io import NliItem, RecordWriter, count_records, iter_jsonl, read_nli, written_ids
from lit.io.jsonl import complete_records
from lit.io.lock import OutputLock
from lit.io.output import (
    create_overwrite_temporary,
    overwrite_temporary,
    refuse_input_as_output,
    stale_temporaries,
)
from lit.pipeline.engine import Engine
from lit.pipeline.identity import check_resume, identity_path, run_identity, save_identity
from lit.pipeline.progress import PairTicks, progress_bar
from lit.pipeline.retry import drop_limited, stopped_by_limit
from lit.pipeline.selfpairs import self_pair_items
from lit.pipeline.summary import Summary


@dataclass(frozen=True)
class RunResult:
    """What a `run_nli` call did; ``summary`` counts every record now in ``output``."""

    output: Path
    written: int
    resumed: int
    seconds: float
    summary: Summary
    #: records now in ``output`` that a time limit or memory cap stopped (lit.pipeline.retry)
    limited: int = 0

    def format(self) -> str:
        """The closing lines `lit nli` prints: throughput, then the per-spec summary."""
        head = (
            f"lit nli: wrote {self.written} records to {self.output} in {self.seconds:.1f} s "
            f"({self.written / max(self.seconds, 1e-9):.1f} pairs/s)"
            + (f"; {self.resumed} were already there" if self.resumed else "")
        )
        if self.limited:
            head += (f"\n{self.limited} record(s) were stopped by a limit (timeout, resource): "
                     "--resume with a larger --generate-timeout, --timeout or memory cap "
                     "retries just those")
        return head + "\n" + self.summary.format()


def _check_output(input: str | Path, output: Path, resume: bool, overwrite: bool) -> None:
    """Refuse to overwrite the input, or an existing output without resume/overwrite."""
    refuse_input_as_output(output, input)
    if output.exists() and output.stat().st_size and not (resume or overwrite):
        raise InputError(
            f"{output} exists: pass --resume to continue it or --overwrite to replace it"
        )


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


def _take_over_killed_runs(output: Path, resume: bool) -> None:
    """What a killed run left beside OUTPUT (the caller holds OUTPUT's lock, so no live run
    owns it): --resume adopts an --overwrite run's records, as if it had been stopped by
    Ctrl-C (they replace OUTPUT and are continued); any other run removes them."""
    pending = overwrite_temporary(output)
    records = complete_records(pending) if pending.exists() else 0
    if resume and pending.exists() and identity_path(pending).exists():
        os.replace(pending, output)
        os.replace(identity_path(pending), identity_path(output))
        print(f"lit nli: continuing the {records} records of a killed --overwrite run "
              f"({pending.name}); they replace {output}'s earlier records", file=sys.stderr)
    elif pending.exists():
        _remove(pending)
        if records:
            print(f"lit nli: removed {pending}: {records} records of a killed --overwrite run "
                  "(--resume would have continued them)", file=sys.stderr)
    for stale in stale_temporaries(output):
        stale.unlink(missing_ok=True)


def _interrupted(output: Path, identity: dict | None) -> None:
    """Say how many records an interrupted run leaves and how to go on."""
    if identity is None:
        print(f"lit nli: stopped before writing anything; {output} is unchanged",
              file=sys.stderr)
        return
    print(f"lit nli: {complete_records(output)} records are safe in {output}; run the same "
          "command with --resume to continue", file=sys.stderr)


def _warn_duplicates(input: str | Path, seen: Counter) -> None:
    """Warn (stderr) about ids that occur more than once: records are still written for
    each, but `--resume` and `lit evaluate` key records by id."""
    repeated = [(rid, n) for rid, n in seen.items() if n > 1]
    if repeated:
        rid, n = repeated[0]
        print(f"lit nli: warning: {input}: {len(repeated)} id(s) occur more than once, e.g. "
              f"id {rid!r} occurs {n} times; --resume and lit evaluate need unique ids "
              "(name an id column with --id-column)", file=sys.stderr)


def run_nli(
    input: str | Path,
    output: str | Path,
    specs: Sequence[str] = PAPER_SPECS,
    *,
    resume: bool = False,
    overwrite: bool = False,
    limit: int | None = None,
    progress: bool = False,
    engine: Engine | Callable[[], Engine] | None = None,
    config: RunConfig | None = None,
    format: str | None = None,
    premise_column: str | None = None,
    hypothesis_column: str | None = None,
    label_column: str | None = None,
    id_column: str | None = None,
    self_pairs: bool = False,
) -> RunResult:
    """Write one `lit nli` record per input pair of *input* (JSONL/CSV/TSV, or "-") to *output*.

    resume: append, skipping ids *output* already holds (a half-written last line is cut off).
    overwrite: replace an existing *output* (else it is an InputError). limit: only the first N
    records. progress: a progress bar on stderr. engine: an Engine to use (left open), or a
    function that makes one (closed at the end); default ``Engine.from_config(config)``.
    self_pairs: instead of the input's pairs, one pair (S, S) per distinct sentence
    (lit.pipeline.selfpairs), ids ``ID/premise`` and ``ID/hypothesis``.
    """
    output = Path(output)
    _check_output(input, output, resume, overwrite)
    if limit is not None and limit < 0:
        raise InputError("--limit must be at least 0")
    items: Iterator[NliItem] = read_nli(
        input, format, premise=premise_column, hypothesis=hypothesis_column,
        label=label_column, id_field=id_column,
    )
    first = next(items, None)  # a bad file (CSV header, ...) fails before OUTPUT is touched
    items = chain([first] if first is not None else [], items)
    total = count_records(input, format)
    if limit is not None:
        items = islice(items, limit)
        total = limit if total is None else min(total, limit)
    if self_pairs:
        items, total = self_pair_items(items), None  # repeated sentences go once
    seen: Counter = Counter()  # input ids, to warn about duplicates
    identity: dict | None = None
    start = time.perf_counter()
    written = 0
    owned = not isinstance(engine, Engine)
    built: Engine | None = None
    target = output
    lock = OutputLock(output, "lit nli")  # one writer per output (lit.io.lock)
    try:
        lock.acquire()
        _take_over_killed_runs(output, resume)
        if resume and output.exists() and output.stat().st_size and not identity_path(
                output).exists():
            print(f"lit nli: warning: {output} has no run identity ({identity_path(output).name}"
                  "): it is resumed without checking that this run matches the one that wrote "
                  "it", file=sys.stderr)
        # --overwrite writes beside OUTPUT and renames at the end: the old file stays until
        # then, and a killed run's records there are adopted by --resume
        replacing = not resume and output.exists() and output.stat().st_size > 0
        target = create_overwrite_temporary(output) if replacing else output
        if engine is None:
            built = Engine.from_config(config or RunConfig())
        else:
            built = engine if isinstance(engine, Engine) else engine()
        specs = [s.strip() for s in specs]
        for s in specs:
            built.check_pair(s)
        identity = run_identity(input, specs, built, {
            "format": format, "columns": [premise_column, hypothesis_column, label_column,
                                          id_column],
            **({"self_pairs": True} if self_pairs else {})})
        done: Counter = Counter()
        if resume:
            changed = check_resume(output, identity)
            grown = any(now > was for _, was, now in changed)
            retried = drop_limited(output) if grown else 0
            if changed:
                what = "; ".join(f"{k}: was {was}, now {now}" for k, was, now in changed)
                print(f"lit nli: --resume with changed limits ({what}): " + (
                      f"retrying the {retried} record(s) a limit stopped (timeout, resource)"
                      if grown else "none grew, so nothing is retried"), file=sys.stderr)
            done = written_ids(output)
        resumed = sum(done.values())
        save_identity(target, identity)  # a killed run's output is resumed: it needs this
        with RecordWriter(target, append=resume) as writer, progress_bar(
            total, "lit nli", "pair", progress,
        ) as bar:
            ticks = PairTicks(bar)  # moves within a batch, as its work finishes

            def todo() -> Iterator[NliItem]:
                for item in items:
                    seen[item.id] += 1
                    if done[item.id] > 0:  # already written by an earlier run
                        done[item.id] -= 1
                        ticks(Fraction(1))
                        continue
                    yield item

            for record in built.nli(todo(), specs, progress=ticks):
                writer.write(record)  # on disk within RecordWriter.sync_seconds
                written += 1
            writer.flush()
    except KeyboardInterrupt:  # keep what was written: --resume continues it
        _put_in_place(target, output, identity)
        _interrupted(output, identity)
        raise
    except BaseException:
        if target != output:
            _remove(target)
        raise
    else:
        _put_in_place(target, output, identity)
    finally:
        if owned and built is not None:
            built.close()
        lock.release()
    _warn_duplicates(input, seen)
    seconds = time.perf_counter() - start
    summary = Summary()
    limited = 0
    for _, record in iter_jsonl(output):
        summary.add(record)
        limited += stopped_by_limit(record)
    return RunResult(output, written, resumed, seconds, summary, limited)
