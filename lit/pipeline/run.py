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
from lit.io.output import refuse_input_as_output, temporary_beside
from lit.pipeline.engine import Engine
from lit.pipeline.identity import check_resume, run_identity, save_identity
from lit.pipeline.progress import PairTicks, progress_bar
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

    def format(self) -> str:
        """The closing lines `lit nli` prints: throughput, then the per-spec summary."""
        head = (
            f"lit nli: wrote {self.written} records to {self.output} in {self.seconds:.1f} s "
            f"({self.written / max(self.seconds, 1e-9):.1f} pairs/s)"
            + (f"; {self.resumed} were already there" if self.resumed else "")
        )
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
        target.unlink(missing_ok=True)
        return
    os.replace(target, output)
    save_identity(output, identity)


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
    done = written_ids(output) if resume else Counter()
    resumed = sum(done.values())
    seen: Counter = Counter()  # input ids, to warn about duplicates
    # --overwrite writes beside OUTPUT and renames at the end: the old file stays until then
    replacing = not resume and output.exists() and output.stat().st_size > 0
    target = temporary_beside(output) if replacing else output
    identity: dict | None = None
    start = time.perf_counter()
    written = 0
    owned = not isinstance(engine, Engine)
    if engine is None:
        built = Engine.from_config(config or RunConfig())
    else:
        built = engine if isinstance(engine, Engine) else engine()
    try:
        specs = [s.strip() for s in specs]
        for s in specs:
            built.check_pair(s)
        identity = run_identity(input, specs, built, {
            "format": format, "columns": [premise_column, hypothesis_column, label_column,
                                          id_column],
            **({"self_pairs": True} if self_pairs else {})})
        if resume:
            check_resume(output, identity)
        if not replacing:  # a killed run's output can be resumed, so it needs its identity
            save_identity(output, identity)
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

            batch_left = 0
            for record in built.nli(todo(), specs, progress=ticks):
                writer.write(record)
                written += 1
                batch_left = (batch_left or built.batch_size) - 1
                if batch_left == 0:
                    writer.flush()
            writer.flush()
    except KeyboardInterrupt:  # keep what was written: --resume continues it
        _put_in_place(target, output, identity)
        raise
    except BaseException:
        if target != output:
            target.unlink(missing_ok=True)
        raise
    else:
        _put_in_place(target, output, identity)
    finally:
        if owned:
            built.close()
    _warn_duplicates(input, seen)
    seconds = time.perf_counter() - start
    summary = Summary()
    for _, record in iter_jsonl(output):
        summary.add(record)
    return RunResult(output, written, resumed, seconds, summary)
