"""A long `lit nli` run on the rig, sampled: memory, file handles, temp entries, throughput.

    python -m tools.soak [--pairs 10000] [--skip 0] [--input FILE] [--specs S,...]
                         [--workers 2] [--kill-every S] [--interval 60] [--out DIR]
                         [--clean OUT]

PAIRS SNLI pairs (of FILE, SNLI JSONL, default tests/data/snli-1.0-dev.jsonl.gz, from SKIP,
repeated with fresh ids when PAIRS exceeds the file) plus two broken lines go through `lit nli`
on the rig (LIT_ACE, LIT_GRAMMAR) with a random ACE process of the run SIGKILLed every
KILL_EVERY seconds (0: none, a clean run; no parse cache, so a repeated pair is parsed again).
Every INTERVAL seconds it samples the run's process tree: resident memory, open file handles
(/proc/PID/fd of every process), entries in the run's own TMPDIR and records written per minute.
Written to DIR: soak.csv, soak.md (a markdown table and a summary) and soak.png (with
matplotlib, the `bench` extra), beside the input (in.jsonl) and output (out.jsonl). With --clean
OUT (the out.jsonl of a clean soak of the same PAIRS and SKIP), the output is compared with it
transform by transform (tools/chaos_run.py's comparison).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import threading
import time
from dataclasses import astuple, dataclass, fields
from pathlib import Path

from lit.ace.process import resident_megabytes
from lit.config import PAPER_SPECS
from lit.io.jsonl import complete_records
from tools.bench_pipeline import SNLI_DEV, load_average
from tools.chaos_run import (
    BROKEN_LINES,
    Rig,
    compare,
    held_out_pairs,
    rig_from_env,
    run,
    write_input,
)


@dataclass(frozen=True)
class Sample:
    minute: float
    rss_mib: float  # the whole tree's
    lit_rss_mib: float  # the `lit nli` process's own (ACE processes come and go per item)
    open_files: int
    processes: int
    temp_entries: int
    records: int
    records_per_minute: float


def tree(pid: int) -> list[int]:
    """*pid* and its descendants (psutil, a dev dependency of Ray)."""
    import psutil

    try:
        root = psutil.Process(pid)
        return [pid, *(p.pid for p in root.children(recursive=True))]
    except psutil.Error:
        return []


def open_files(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            total += len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:  # gone meanwhile
            pass
    return total


class Sampler:
    """Samples a running process tree every *interval* seconds, and once more at its end."""

    def __init__(self, out: Path, temp: Path, interval: float):
        self.out, self.temp, self.interval = out, temp, interval
        self.samples: list[Sample] = []

    def start(self, proc) -> None:
        self.proc, self.started = proc, time.monotonic()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while self.proc.poll() is None:
            self._sample()
            deadline = time.monotonic() + self.interval
            while self.proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.2)
        self._sample()

    def _sample(self) -> None:
        pids = tree(self.proc.pid)
        minute = (time.monotonic() - self.started) / 60
        records = complete_records(self.out)
        last = self.samples[-1] if self.samples else Sample(0, 0, 0, 0, 0, 0, 0, 0)
        rate = (records - last.records) / (minute - last.minute) if minute > last.minute else 0
        temp = len(os.listdir(self.temp)) if self.temp.exists() else 0
        rss = {pid: resident_megabytes(pid) or 0.0 for pid in pids}  # 0: gone meanwhile
        self.samples.append(Sample(round(minute, 2), round(sum(rss.values()), 1),
                                   round(rss.get(self.proc.pid, 0.0), 1), open_files(pids),
                                   len(pids), temp, records, round(rate, 1)))


def write_reports(samples: list[Sample], folder: Path, title: str) -> list[str]:
    """soak.csv, soak.md and (with matplotlib) soak.png in *folder*; the summary lines."""
    names = [f.name for f in fields(Sample)]
    with open(folder / "soak.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(names)
        writer.writerows(astuple(s) for s in samples)
    live = [s for s in samples if s.processes] or samples
    warm = live[min(len(live) - 1, max(1, len(live) // 10))]  # after the first tenth
    peak = max(s.rss_mib for s in live)
    summary = [
        title,
        f"RSS after warm-up (minute {warm.minute:g}) {warm.rss_mib:g} MiB, at the end "
        f"{live[-1].rss_mib:g} MiB ({_change(warm.rss_mib, live[-1].rss_mib)}), peak {peak:g} "
        f"MiB; the lit process's own {warm.lit_rss_mib:g} MiB after warm-up, "
        f"{live[-1].lit_rss_mib:g} MiB at the end "
        f"({_change(warm.lit_rss_mib, live[-1].lit_rss_mib)}), peak "
        f"{max(s.lit_rss_mib for s in live):g} MiB; open files "
        f"{min(s.open_files for s in live)}-{max(s.open_files for s in live)}; "
        f"temp entries at most {max(s.temp_entries for s in samples)}, at the end "
        f"{samples[-1].temp_entries}",
    ]
    table = ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]
    table += ["| " + " | ".join(str(v) for v in astuple(s)) + " |" for s in samples]
    (folder / "soak.md").write_text("\n\n".join(summary) + "\n\n" + "\n".join(table) + "\n")
    try:
        plot(samples, folder / "soak.png", title)
    except ImportError:
        summary.append("no plot: matplotlib is not installed (pip install 'lit-contrast[bench]')")
    return summary


def _change(before: float, after: float) -> str:
    return f"{(after - before) / before:+.1%}" if before else "n/a"


def plot(samples: list[Sample], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    live = [s for s in samples if s.processes]  # the tree's own figures end with it
    rows = ((live, "rss_mib", "RSS of the run's tree (MiB)"),
            (live, "lit_rss_mib", "RSS of lit itself (MiB)"), (live, "open_files", "open files"),
            (samples, "temp_entries", "temp entries"),
            (samples, "records_per_minute", "records per minute"))
    figure, axes = pyplot.subplots(len(rows), 1, sharex=True, figsize=(8, 11))
    for ax, (shown, name, label) in zip(axes, rows):
        ax.plot([s.minute for s in shown], [getattr(s, name) for s in shown], marker=".")
        ax.set_ylabel(label, fontsize=8)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("minutes")
    figure.suptitle(title, fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)


def soak_pairs(pairs: int, skip: int, source: Path = SNLI_DEV) -> list[dict]:
    """*pairs* SNLI pairs of *source* from *skip*, repeated with fresh ids past its end."""
    rows = held_out_pairs(10**9, skip, source)  # all from skip
    return [dict(rows[k % len(rows)], pairID=f"soak{k}") for k in range(pairs)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument("--input", type=Path, default=SNLI_DEV, metavar="FILE",
                        help="SNLI JSONL to take the pairs from (default: %(default)s)")
    parser.add_argument("--specs", default=",".join(PAPER_SPECS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kill-every", type=float, default=5.0, metavar="S",
                        help="SIGKILL a random ACE process of the run every S seconds (0: none)")
    parser.add_argument("--interval", type=float, default=60.0, metavar="S")
    parser.add_argument("--out", type=Path, default=Path("soak"), metavar="DIR")
    parser.add_argument("--clean", type=Path, metavar="OUT",
                        help="a clean soak's out.jsonl of the same pairs to compare with")
    args = parser.parse_args(argv)
    rig = rig_from_env(parser, args.out)
    try:
        return soak(rig, args)
    finally:
        rig.grammar.unlink()


def soak(rig: Rig, args: argparse.Namespace) -> int:
    inp, out, temp = args.out / "in.jsonl", args.out / "out.jsonl", args.out / "tmp"
    rows = soak_pairs(args.pairs, args.skip, args.input)
    write_input(inp, rows)
    lines = args.pairs + len(BROKEN_LINES)
    distinct = len({(r["sentence1"], r["sentence2"]) for r in rows})
    title = (f"lit nli soak: {args.pairs} pairs of {args.input.name} ({distinct} distinct) + "
             f"{len(BROKEN_LINES)} broken lines, specs {args.specs}, {args.workers} workers, "
             + (f"an ACE killed every {args.kill_every:g} s" if args.kill_every else "no kills"))
    print(f"{title}; load average {load_average()}", flush=True)
    sampler = Sampler(out, temp, args.interval)
    argv = rig.nli_argv(inp, out, args.specs.split(","), "--workers", str(args.workers),
                        "--scorer", "ace", "--overwrite", "--no-parse-cache")
    done = run(rig, argv, temp, kill_every=args.kill_every or None, on_start=sampler.start)
    sampler.thread.join()
    print(*write_reports(sampler.samples, args.out, title), sep="\n")
    print(f"run: {done.format()}; {complete_records(out)} records for {lines} lines; "
          f"load average {load_average()}")
    ok = done.code == 0 and not done.left_ace and not done.left_temp
    if done.code:
        print(done.stderr[-2000:])
    if args.clean:
        clean_input = args.clean.parent / "in.jsonl"
        c = compare(args.clean, out, lines, inputs=(clean_input, inp))
        print(f"against {args.clean}: {c.records} records, {c.ok} ok transforms, "
              f"{c.differing} of {c.transforms} transforms differ")
        ok = ok and c.equal
    print(f"written: {args.out}/soak.csv, soak.md, soak.png")
    print("pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
