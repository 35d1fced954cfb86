"""The main job against the original LIT code (issue 44): the original `transfer()` and `lit nli`
with the paper's specs on the same sentences, back to back, then the same `lit nli` warm.

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.bench_original --original DIR
        [--input FILE] [--pairs 10] [--skip 0] [--workers 2]

DIR holds `ergtransfer.py` of leo-liuzy/LIT_auto-gen-contrast-set (`transfer/ergtransfer.py`,
extracted from a local copy; never vendored). Rows, each printed with the load average:

1. the original `transfer()` on the premise and hypothesis of --pairs pairs of --input (any
   file `lit nli` reads; default the SNLI dev pairs) after the first --skip, so a held-out
   range is measured as the benchmark is (the first 10 dev pairs are not the measure), with its own set of changes (tenses x progressive, modal *may*) and a fresh
   ACE per call (tools/bench_pipeline.py's `run_original`), in this process;
2. `lit nli` on those pairs with the paper's specs (its default), `--scorer freq`, --workers,
   as a user runs it: a child process, cold (an empty LIT cache directory, so no parse or
   generation is served from disk), timed whole (start-up, grammar loading, ACE processes);
3. the same command again on that cache directory (warm).

Printed: wall and sentences/s of each, ours against the original (target >= 10x, moonshot
20x), warm against cold (target >= 5x), whether the warm records equal the cold ones (timings
aside), the ok transforms, and the peak RSS of `lit nli` with its ACE processes. Without
--original only rows 2 and 3 run. Prints figures, never asserts; take them on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from itertools import islice
from pathlib import Path

from lit.tasks.reader import read_nli
from tools.bench_pipeline import SNLI_DEV, load_average, peak_memory, run_original
from tools.fault_run import without_timings

ROOT = Path(__file__).resolve().parents[1]


def records(path: Path) -> list[dict]:
    """The records of *path*, each without its timings."""
    return [without_timings(json.loads(line))
            for line in path.read_text(encoding="utf-8").splitlines()]


def lit_nli(pairs: Path, out: Path, cache: Path, workers: int) -> tuple[int, float, int]:
    """(peak tree RSS, seconds, exit code) of `lit nli` on *pairs* with LIT_CACHE_DIR=*cache*."""
    cmd = [sys.executable, "-m", "lit", "nli", str(pairs), "-o", str(out), "--overwrite",
           "--scorer", "freq", "--workers", str(workers), "--no-progress"]
    env = dict(os.environ, LIT_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    return peak_memory(cmd, env)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--original", metavar="DIR", help="folder holding the original ergtransfer.py")
    ap.add_argument("--input", type=Path, default=SNLI_DEV,
                    help="NLI pairs (default: the SNLI dev pairs in tests/data)")
    ap.add_argument("--pairs", type=int, default=10, help="pairs measured (default 10)")
    ap.add_argument("--skip", type=int, default=0, help="pairs skipped first (default 0)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if not (os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR")):
        print("not measured: set LIT_ACE and LIT_GRAMMAR")
        return 0
    items = list(islice(read_nli(args.input), args.skip, args.skip + args.pairs))
    sentences = [s for it in items for s in (it.premise, it.hypothesis)]
    print(f"bench_original: {len(items)} pairs of {args.input} from #{args.skip} ({len(sentences)} "
          f"sentences); {os.environ['LIT_ACE']} + {os.environ['LIT_GRAMMAR']}; "
          f"{os.cpu_count()} cores")
    rate_o = None
    if args.original:
        print(f"  load average before the original    {load_average()}")
        wall, counts = run_original(Path(args.original), sentences, os.environ["LIT_ACE"],
                                    os.environ["LIT_GRAMMAR"])
        rate_o = len(sentences) / wall
        print(f"  original transfer()  {wall:8.1f} s  {rate_o:7.3f} sentences/s  "
              + ", ".join(f"{k} {v}" for k, v in counts.items()))
    with tempfile.TemporaryDirectory(prefix="lit-bench-original-") as tmp:
        work = Path(tmp)
        pairs = work / "pairs.jsonl"
        with pairs.open("w", encoding="utf-8") as f:
            for it in items:
                f.write(json.dumps(it.input) + "\n")
        walls = {}
        for run in ("cold", "warm"):
            print(f"  load average before lit nli {run:<5}  {load_average()}")
            peak, wall, code = lit_nli(pairs, work / f"{run}.jsonl", work / "cache", args.workers)
            walls[run] = wall
            rate = len(sentences) / wall
            versus = f"  {rate / rate_o:5.1f}x the original" if rate_o else ""
            ok = sum(t["status"] == "ok" for line in (work / f"{run}.jsonl").read_text()
                     .splitlines() for t in json.loads(line)["transforms"])
            print(f"  lit nli {run:<5} w{args.workers}    {wall:8.1f} s  {rate:7.3f} sentences/s"
                  f"{versus}; transforms ok {ok}; peak RSS {peak / 2**30:.2f} GiB; exit {code}")
        same = records(work / "cold.jsonl") == records(work / "warm.jsonl")
        print(f"  warm re-run: {walls['cold'] / walls['warm']:.1f}x faster than cold; records "
              f"{'identical' if same else 'DIFFERENT'} (timings aside)")
        print(f"  load average after                  {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
