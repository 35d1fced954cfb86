"""Same records whatever the load (issue 40): one input through `lit nli` under several
conditions on the rig, each run's records compared whole (timings aside) with the first run's.

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.bench_load --input FILE [--pairs 30]
        [--runs w2,w1,ray,w1-busy,chaos] [--specs S,...] [--keep DIR]

Runs (each a fresh `lit nli` process, no parse cache, `--scorer ace`):

    w2        --workers 2 (the reference: every other run is compared with the first given)
    w1        --workers 1
    ray       --backend ray, 2 actors of 1 ACE worker (needs the `ray` extra)
    w1-busy   --workers 1 with two processes computing beside it all the time (a machine
              with more busy processes than cores)
    chaos     --workers 2 with one of the run's ACE processes SIGKILLed every 5 s

Prints per run: wall seconds, processor seconds of the run and its ACE processes (not for
Ray, whose actors are not its children), ACE retries from the run summary, records, ok
transforms, records identical to the reference's, and for each differing record the fields
that differ; the load average before and after. Exit status 1 if any record differs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from itertools import islice
from pathlib import Path

from lit.config import PAPER_SPECS
from lit.tasks.reader import read_nli
from tools.bench_pipeline import load_average
from tools.chaos_run import Rig, rig_from_env, run
from tools.fault_run import without_timings

RUNS = {
    "w2": ["--workers", "2"],
    "w1": ["--workers", "1"],
    "ray": ["--backend", "ray", "--actors", "2", "--ace-workers-per-actor", "1"],
    "w1-busy": ["--workers", "1"],
    "chaos": ["--workers", "2"],
}
BUSY = "while True: pass"


def differences(want: dict, have: dict, path: str = "") -> list[str]:
    """Where two records differ: the paths of differing leaves (lists by position)."""
    if isinstance(want, dict) and isinstance(have, dict):
        return [d for k in sorted(set(want) | set(have))
                for d in differences(want.get(k), have.get(k), f"{path}/{k}")]
    if isinstance(want, list) and isinstance(have, list) and len(want) == len(have):
        return [d for k, (a, b) in enumerate(zip(want, have))
                for d in differences(a, b, f"{path}[{k}]")]
    return [] if want == have else [path or "/"]


def records(path: Path) -> list[dict]:
    return [without_timings(json.loads(line)) for line in path.read_text().splitlines()]


def one_run(rig: Rig, name: str, inp: Path, folder: Path, specs: Sequence[str]) -> dict:
    out = folder / f"{name}.jsonl"
    argv = rig.nli_argv(inp, out, specs, *RUNS[name], "--scorer", "ace", "--overwrite",
                        "--no-parse-cache")
    busy = ([subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
            if name == "w1-busy" else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = load_average()
    try:
        done = run(rig, argv, folder / f"{name}-tmp",
                   kill_every=5.0 if name == "chaos" else None)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    summary = folder / f"{name}.jsonl.summary.json"
    retries = (json.loads(summary.read_text()).get("ace_retries", {})
               if summary.exists() else {})
    return {"name": name, "run": done, "out": out, "cpu": None if name == "ray" else cpu,
            "retries": retries, "load": (load, load_average())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, required=True, metavar="FILE",
                        help="NLI pairs (any format `lit nli` reads)")
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--runs", default=",".join(RUNS),
                        help=f"runs in order, the first the reference ({','.join(RUNS)})")
    parser.add_argument("--specs", default=",".join(PAPER_SPECS))
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep inputs and outputs here (default: a folder removed after)")
    args = parser.parse_args(argv)
    names = args.runs.split(",")
    unknown = [n for n in names if n not in RUNS]
    if unknown:
        parser.error(f"unknown run {', '.join(unknown)}; choose from {', '.join(RUNS)}")
    with tempfile.TemporaryDirectory(prefix="lit-load-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        rig = rig_from_env(parser, folder)
        try:
            return compare_runs(rig, folder, names, args)
        finally:
            rig.grammar.unlink()


def compare_runs(rig: Rig, folder: Path, names: list[str], args: argparse.Namespace) -> int:
    inp = folder / "pairs.jsonl"
    pairs = list(islice(read_nli(args.input), args.pairs))
    inp.write_text("".join(json.dumps(p.input) + "\n" for p in pairs), encoding="utf-8")
    print(f"bench_load: {len(pairs)} pairs of {args.input}; specs {args.specs}; runs "
          f"{', '.join(names)}; {os.cpu_count()} cores", flush=True)
    reference: list[dict] | None = None
    failed = False
    for name in names:
        got = one_run(rig, name, inp, folder, args.specs.split(","))
        done = got["run"]
        have = records(got["out"]) if got["out"].exists() else []
        ok = sum(t["status"] == "ok" for r in have for t in r.get("transforms", []))
        cpu = "n/a (Ray actors)" if got["cpu"] is None else f"{got['cpu']:.0f} s"
        print(f"\n== {name}: exit {done.code}, wall {done.seconds:.0f} s, processor {cpu}, "
              f"{done.kills} ACE kills, ACE retries {got['retries'] or '-'}; load "
              f"{got['load'][0]} / {got['load'][1]}")
        print(f"  {len(have)} records, {ok} ok transforms")
        if done.code:
            print("  " + done.stderr[-1500:])
            failed = True
        if reference is None:
            reference = have
            continue
        same = sum(a == b for a, b in zip(reference, have))
        print(f"  identical to {names[0]}'s (timings aside): {same} of {len(reference)}"
              + ("" if len(have) == len(reference) else f"; {len(have)} records"))
        for want, record in zip(reference, have):
            if want != record:
                paths = differences(want, record)
                print(f"  differs: {want.get('id')}: {', '.join(paths[:6])}"
                      + (f" (+{len(paths) - 6})" if len(paths) > 6 else ""))
        failed |= same != len(reference) or len(have) != len(reference)
    print(f"\n{'FAIL' if failed else 'pass'}; load average {load_average()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
