#!/usr/bin/env python3
"""What ACE time buys: ok transforms against generation seconds, per setting (issue 23).

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.bench_yield --pairs 10 \\
        --vary generate_timeout=60,10,5 --vary generate_unpack=1500,500,300

Runs `lit nli` (Engine.nli, `--scorer freq`, the paper's specs unless --specs) over the first
N SNLI dev pairs once per setting, each on a fresh AceService (so an empty generation cache
and fresh ACE processes; no parse cache). A setting is the baseline (--baseline, default: the
run defaults of lit.config), then each whole combination (--setting "knob=v,knob=v"), then the
baseline with one knob changed (--vary KNOB=V1,V2,...; every value is one setting). Knobs:

    generate_timeout    per-MRS generation time budget, seconds (--generate-timeout)
    generate_unpack     generator unpacking cap, MB (--generate-unpack-megabytes)
    generate_chart      generator chart cap, MB (--generate-chart-megabytes)
    parse_unpack        parser unpacking cap, MB (--max-unpack-megabytes)
    parse_chart         parser chart cap, MB (--max-chart-megabytes)
    realizations        realizations asked per candidate kept (--realizations-per-candidate)
    candidates          candidates kept and verified per MRS (--max-candidates)
    check               the pre-generation index check (on/off; off: every MRS goes to ACE)
    sides               needed (a hypothesis side only for a pair whose premise side has an
                        output) or all (every side of every labelled pair: before issue 23;
                        `realize_every_side`; the records are the same)

Printed per setting: ok transforms and pairs with one, wall and generation seconds (the time
the pipeline waited for ACE's generations, Engine.times: pairs waiting at once each count, so
it includes queueing), the summed wall seconds of the generation items themselves by outcome
(what the issue measured; the index check's probes too), MRSs sent to ACE and how each ended
(realized, no_generation, timeout, resource, refused before generation), the slowest items,
the peak resident memory of each kind of ACE process (VmHWM, sampled) and of the whole process
tree, and the load average before and after. Then, for every setting, the transforms the
baseline had ok and it lost (by pair and spec).

--original also times the original LIT `transfer()` of leo-liuzy/LIT_auto-gen-contrast-set on
the sentences of the same pairs, against ours (`lit transform` with the original's changes,
workers 1 and 2, run defaults): tools/bench_pipeline.py's comparison, with `ergtransfer.py`
read from the local mirror at run time (--original-git, never vendored).

Figures depend on the machine's load: pick defaults on a small set if you must, but take the
figures that go into docs/performance.md on a quiet box.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from lit.config import (
    DEFAULT_GENERATE_CHART_MEGABYTES,
    DEFAULT_GENERATE_UNPACK_MEGABYTES,
    DEFAULT_MAX_CHART_MEGABYTES,
    DEFAULT_MAX_UNPACK_MEGABYTES,
    DEFAULTS,
    PAPER_SPECS,
    RunConfig,
)
from lit.pipeline.core import Pipeline
from lit.tasks.reader import read_nli
from tools.bench_pipeline import (
    ORIGINAL_CHANGES,
    PeakRss,
    load_average,
    real_transform,
    run_original,
    snli_items,
)


def realize_every_side(pipeline: Pipeline) -> None:
    """Make *pipeline* realize both sides of every labelled pair, even the hypothesis of a
    pair whose premise failed, as LIT did before issue 23 (its records stay today's: that
    hypothesis is left out of them), so the ACE time the change saves can be measured."""
    def every_side(wanted, parsed, times, done):
        return pipeline.sides([key for keys in wanted for key in keys], parsed, times, done)

    pipeline.pair_sides = every_side


MIRROR = Path("/work/.mirror/leo-liuzy+LIT_auto-gen-contrast-set/repo")
ORIGINAL_FILE = "transfer/ergtransfer.py"

#: knob -> (type, default from lit.config)
KNOBS = {
    "generate_timeout": (float, DEFAULTS.generate_timeout),
    "generate_unpack": (int, DEFAULT_GENERATE_UNPACK_MEGABYTES),
    "generate_chart": (int, DEFAULT_GENERATE_CHART_MEGABYTES),
    "parse_unpack": (int, DEFAULT_MAX_UNPACK_MEGABYTES),
    "parse_chart": (int, DEFAULT_MAX_CHART_MEGABYTES),
    "realizations": (float, DEFAULTS.realizations_per_candidate),
    "candidates": (int, DEFAULTS.max_candidates),
    "check": (lambda v: v == "on", True),
    "sides": (str, "needed"),
}


def parse_setting(text: str, base: dict | None = None) -> dict:
    """"knob=v,knob=v" over *base* (default: the run defaults)."""
    setting = dict(base or {k: d for k, (_, d) in KNOBS.items()})
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if name not in KNOBS:
            raise SystemExit(f"unknown knob {name!r}: one of {', '.join(KNOBS)}")
        setting[name] = KNOBS[name][0](value)
    return setting


def label(setting: dict, base: dict) -> str:
    changed = [f"{k}={({True: 'on', False: 'off'}.get(v, v) if isinstance(v, bool) else v)}"
               for k, v in setting.items() if v != base[k]]
    return ", ".join(changed) or "baseline"


class AcePeaks:
    """Samples the peak resident memory (VmHWM) of every ACE process below this one, by
    kind (generator: started with -e), every 50 ms."""

    def __enter__(self):
        self.peak: Counter = Counter()
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._poll, daemon=True)
        self._t.start()
        return self

    def _poll(self):
        while not self._stop.is_set():
            for pid in _descendants(os.getpid()):
                try:
                    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                    if not argv[0].endswith(b"ace"):
                        continue
                    status = Path(f"/proc/{pid}/status").read_text()
                except OSError:
                    continue
                kb = next((int(line.split()[1]) for line in status.splitlines()
                           if line.startswith("VmHWM:")), 0)
                kind = "generator" if b"-e" in argv else "parser"
                self.peak[kind] = max(self.peak[kind], kb * 1024)
            time.sleep(0.05)

    def __exit__(self, *exc):
        self._stop.set()
        self._t.join()


def _descendants(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        p = stack.pop()
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                kids = Path(f"/proc/{p}/task/{task}/children").read_text().split()
                found += map(int, kids)
                stack += map(int, kids)
        except OSError:
            continue
    return found


@dataclass
class Run:
    setting: dict
    wall: float = 0.0
    generate_seconds: float = 0.0
    ok: set = field(default_factory=set)  # (pair id, spec)
    pairs_ok: int = 0
    outcomes: Counter = field(default_factory=Counter)
    slowest: list = field(default_factory=list)  # (seconds, status, reason)
    #: outcome -> summed wall seconds of the ACE items (and of the index check's probes)
    seconds: Counter = field(default_factory=Counter)
    items: list = field(default_factory=list)  # one dict per MRS sent to ACE (--dump)
    records: list = field(default_factory=list)
    peaks: Counter = field(default_factory=Counter)
    tree_peak: int = 0
    load: tuple = ("", "")


def run_setting(config, items, specs, setting: dict, workers: int) -> Run:
    from lit.ace.service import AceService
    from lit.api import Engine

    run = Run(setting)
    service = AceService(
        config,
        RunConfig(
            workers=workers,
            timeout=DEFAULTS.timeout,
            generate_timeout=setting["generate_timeout"],
            generate_unpack_megabytes=setting["generate_unpack"],
            generate_chart_megabytes=setting["generate_chart"],
            max_unpack_megabytes=setting["parse_unpack"],
            max_chart_megabytes=setting["parse_chart"],
        ),
    )
    with service:
        generate = service.generate

        def timed_generate(mrss, limit=None):
            for r in generate(mrss, limit=limit):
                outcome = "realized" if r.surfaces else str(r.status)
                run.outcomes[outcome] += 1
                run.seconds[outcome] += r.wall_seconds
                run.slowest.append((r.wall_seconds, str(r.status), (r.reason or "")[:100]))
                run.items.append({"mrs": r.input, "outcome": outcome, "wall": r.wall_seconds,
                                  "ace": r.ace_seconds, "reason": r.reason,
                                  "surfaces": len(r.surfaces)})
                yield r

        service.generate = timed_generate
        if not setting["check"]:
            service.unindexed = lambda mrss, limit=None: [() for _ in mrss]
        else:  # the check's probes are ACE generation items too (their own time, not the
            # time they waited in the queue behind other items)
            probe = service.generation_index.probe

            def timed_probe(text, limit):
                result = probe(text, limit)
                run.outcomes["index probes"] += 1
                run.seconds["index probes"] += result.wall_seconds
                return result

            service.generation_index.probe = timed_probe
        engine = Engine(service=service, scorer="freq", grammar_version=config.grammar_version,
                        max_candidates=setting["candidates"],
                        realizations_per_candidate=setting["realizations"])
        if setting["sides"] == "all":
            realize_every_side(engine.pipeline)
        run.load = (load_average(), "")
        with PeakRss() as tree, AcePeaks() as peaks:
            start = time.perf_counter()
            records = list(engine.nli(items, specs))
            run.wall = time.perf_counter() - start
        run.load = (run.load[0], load_average())
        run.tree_peak, run.peaks = tree.peak, peaks.peak
        run.generate_seconds = engine.times.ace["generate"]
        run.outcomes["refused before generation"] = engine.pipeline.realizer.stats[
            "MRSs refused before generation"]
    run.records = records
    for r in records:
        oks = {(r["id"], t["spec"]) for t in r["transforms"] if t["status"] == "ok"}
        run.ok |= oks
        run.pairs_ok += bool(oks)
    run.slowest.sort(reverse=True)
    return run


def print_run(run: Run, base: dict) -> None:
    print(f"\n== {label(run.setting, base)}")
    print(f"  load average before / after    {run.load[0]}  /  {run.load[1]}")
    print(f"  ok transforms / pairs with one  {len(run.ok):5d} / {run.pairs_ok}")
    print(f"  wall, generation seconds        {run.wall:8.1f} s, {run.generate_seconds:8.1f} s")
    print("  MRSs by outcome                 "
          + ", ".join(f"{k} {v}" for k, v in sorted(run.outcomes.items()) if v))
    print("  item seconds by outcome         "
          + ", ".join(f"{k} {v:.1f}" for k, v in sorted(run.seconds.items()) if v)
          + f"; all {sum(run.seconds.values()):.1f}")
    for seconds, status, reason in run.slowest[:3]:
        print(f"      {seconds:6.2f} s  {status:<14} {reason}")
    print("  peak RSS per ACE process        "
          + ", ".join(f"{k} {v / 2**20:.0f} MB" for k, v in sorted(run.peaks.items()))
          + f"; whole tree {run.tree_peak / 2**30:.2f} GiB")


def original_mirror(git_dir: Path) -> Path:
    """A temporary directory holding the original's ergtransfer.py, read from its git mirror
    (nothing of it is kept in this repository)."""
    text = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{ORIGINAL_FILE}"],
                          check=True, capture_output=True, text=True).stdout
    directory = Path(tempfile.mkdtemp(prefix="lit-original-"))
    (directory / "ergtransfer.py").write_text(text, encoding="utf-8")
    return directory


def compare_original(config, items, git_dir: Path, workers: list[int]) -> None:
    sentences = list(dict.fromkeys(s for it in items for s in (it.premise, it.hypothesis)))
    print(f"\n== original LIT transfer() vs lit transform (run defaults), {len(sentences)} "
          f"distinct sentences of the first {len(items)} SNLI dev pairs")
    print(f"  our specs: {' '.join(ORIGINAL_CHANGES)}")
    print(f"  load average before original    {load_average()}")
    wall_o, counts = run_original(original_mirror(git_dir), sentences, config.ace,
                                  config.grammar)
    print(f"  original: {wall_o:.1f} s, {len(sentences) / wall_o:.3f} sentences/s; "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))
    walls = {}
    for w in workers:
        print(f"  load average before ours, w{w}   {load_average()}")
        wall, _, stats, ok, total = real_transform(config, sentences, list(ORIGINAL_CHANGES), w)
        walls[w] = wall
        print(f"  ours --workers {w}: {wall:.1f} s, {wall_o / wall:.1f}x the original "
              f"(target >= 10x with 2 workers); records ok {ok}/{total}; MRSs generated "
              f"{stats.get('MRSs generated', 0)}, refused before generation "
              f"{stats.get('MRSs refused before generation', 0)}; load {load_average()}")
    if 1 in walls and 2 in walls:
        print(f"  --workers 2 over 1: {walls[1] / walls[2]:.2f}x (target >= 1.8x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=10, help="first N SNLI dev pairs (10)")
    ap.add_argument("--skip", type=int, default=0, help="start after this many pairs")
    ap.add_argument("--input", type=Path, metavar="FILE",
                    help="NLI pairs to run (any format `lit nli` reads) instead of SNLI dev")
    ap.add_argument("--specs", nargs="+", default=list(PAPER_SPECS), metavar="SPEC")
    ap.add_argument("--workers", type=int, default=1, help="ACE workers per setting (1)")
    ap.add_argument("--baseline", default="", metavar="KNOB=V,...",
                    help="the setting others are compared with (default: the run defaults)")
    ap.add_argument("--vary", action="append", default=[], metavar="KNOB=V1,V2",
                    help="one setting per value, the other knobs at the baseline")
    ap.add_argument("--setting", action="append", default=[], metavar="KNOB=V,...",
                    help="one more setting: these knobs over the baseline")
    ap.add_argument("--dump", type=Path, metavar="DIR",
                    help="write each setting's generation items and records as JSONL here")
    ap.add_argument("--no-curve", action="store_true",
                    help="run no setting (with --original: only the comparison)")
    ap.add_argument("--original", action="store_true",
                    help="also time the original LIT transfer() against lit transform")
    ap.add_argument("--original-git", type=Path, default=MIRROR, metavar="GIT_DIR",
                    help=f"the original's git directory (default {MIRROR})")
    ap.add_argument("--original-workers", default="1,2", help="our worker counts (1,2)")
    args = ap.parse_args()
    if not (os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR")):
        print("bench_yield: set LIT_ACE and LIT_GRAMMAR (a live grammar)", file=sys.stderr)
        return 2
    from lit.ace.config import resolve_config

    config = resolve_config()
    base = parse_setting(args.baseline)
    settings = [base] + [parse_setting(s, base) for s in args.setting]
    for vary in args.vary:
        name, _, values = vary.partition("=")
        settings += [parse_setting(f"{name}={v}", base) for v in values.split(",")]
    unique = list({tuple(sorted(s.items())): s for s in settings}.values())
    items = (list(islice(read_nli(args.input), args.skip, args.skip + args.pairs)) if args.input
             else snli_items(args.pairs, args.skip))
    print(f"bench_yield: {ace_version(config.ace)} + {config.grammar}; {os.cpu_count()} cores; "
          f"first {args.pairs} pairs of {args.input or 'SNLI dev'} after {args.skip}; specs {' '.join(args.specs)}; "
          f"--workers {args.workers}; baseline {base}")
    runs = []
    for setting in [] if args.no_curve else unique:
        runs.append(run_setting(config, items, args.specs, setting, args.workers))
        print_run(runs[-1], base)
        if args.dump:
            dump(args.dump / f"setting{len(runs)}", runs[-1])
    if len(runs) > 1:
        print("\n== lost against the baseline (ok there, not in the setting)")
    for run in runs[1:]:
        lost = sorted(runs[0].ok - run.ok)
        gained = len(run.ok - runs[0].ok)
        print(f"  {label(run.setting, base)}: lost {len(lost)}, gained {gained}"
              + (": " + "; ".join(f"{i} {s}" for i, s in lost[:8]) if lost else ""))
    if args.original:
        compare_original(config, items, args.original_git,
                         [int(w) for w in args.original_workers.split(",")])
    return 0


def dump(directory: Path, run: Run) -> None:
    """The setting's generation items and output records, for analysis after the run."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, rows in (("items.jsonl", run.items), ("records.jsonl", run.records)):
        with open(directory / name, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(row, default=str) + "\n" for row in rows)
    (directory / "setting.json").write_text(json.dumps(run.setting), encoding="utf-8")


def ace_version(ace: Path) -> str:
    try:
        out = subprocess.run([str(ace), "-V"], capture_output=True, text=True, timeout=10)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return str(ace)


if __name__ == "__main__":
    sys.exit(main())
