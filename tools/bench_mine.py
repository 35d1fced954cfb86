#!/usr/bin/env python3
"""Time and peak memory of mining shortcuts (`lit analyze --mine`, issue 30) on N parsed pairs.

    python -m tools.bench_mine                     # 10,000 pairs (target: < 1 min, < 1 GB)
    python -m tools.bench_mine --pairs 2000 --resamples 0

The gold ERG 2025 MRSs (tests/data/erg-gold-2025.jsonl.gz) stand in for parses: N pairs whose
premises repeat three times each (as SNLI's do) and whose hypotheses are all distinct (a
shuffle of the gold sentences), with random labels, each reading carrying a UDX derivation recorded on the rig (SNLI dev, cycled; gold data has
none), are written to a fresh parse cache first. The timed run is a child process that reads
every parse back from the cache, computes every candidate (derivation and MRS fragments,
alignment, hand-made features, n-grams) and ranks them (FDR, groups, n-gram comparison,
bootstrap intervals); its phases (wall), its CPU time and its peak RSS are printed with the
load average. Prints figures, never asserts; take them on a quiet machine.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lit.ace.parsecache import ParseCache
from lit.ace.results import ParseResult, Reading
from lit.status import Status

ROOT = Path(__file__).resolve().parents[1]

GOLD = ROOT / "tests/data/erg-gold-2025.jsonl.gz"
DERIVATIONS = ROOT / "tests/data/live/snli200-parses-erg2025-rig.jsonl.gz"
LABELS = ("entailment", "neutral", "contradiction")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def build(work: Path, pairs: int, seed: int) -> tuple[Path, Path, Path]:
    """The stand-in grammar, the parse cache and the dataset of *pairs* pairs."""
    with gzip.open(GOLD, "rt") as f:
        gold = [(r["sentence"], r["mrs"]) for r in map(json.loads, f)]
    with gzip.open(DERIVATIONS, "rt") as f:
        derivations = [r["derivation"] for r in map(json.loads, f) if r.get("derivation")]
    grammar = work / "erg-2025.dat"
    grammar.write_bytes(b"stand-in image: gold MRSs are seeded into the cache\n")
    cache = ParseCache(grammar, {}, work / "parses.sqlite3")
    for k, (sentence, mrs) in enumerate(gold):
        reading = Reading(mrs, derivations[k % len(derivations)])
        cache.put(ParseResult(sentence, Status.OK, None, (reading,), None, 0.0), 1)
    cache.close()
    rnd = random.Random(seed)
    order = rnd.sample(range(len(gold)), len(gold))  # hypotheses all distinct, as SNLI's are
    data = work / "pairs.jsonl"
    with data.open("w") as f:
        for k in range(pairs):
            premise = gold[(k // 3) % len(gold)][0]
            hypothesis = gold[order[k % len(gold)]][0]
            f.write(json.dumps({"pairID": str(k), "sentence1": premise, "sentence2": hypothesis,
                                "gold_label": rnd.choice(LABELS)}) + "\n")
    return grammar, work / "parses.sqlite3", data


def run(grammar: Path, cache_path: Path, data: Path, resamples: int, min_support: int) -> None:
    """The timed child: cache -> rows -> ranking, phase by phase."""
    from lit.analyze.mine import mine, mined_pair_rows
    from lit.tasks.reader import read_nli

    t0, cpu0 = time.perf_counter(), time.process_time()
    items = list(read_nli(data))
    cache = ParseCache(grammar, {}, cache_path)
    parses = {}
    for s in dict.fromkeys(x for it in items for x in (it.premise, it.hypothesis)):
        parses[s] = cache.get(s, 1)
    t1 = time.perf_counter()
    rows = mined_pair_rows(items, parses, "2025")
    t2 = time.perf_counter()
    result = mine(rows, min_support=min_support, resamples=resamples)
    t3, cpu = time.perf_counter(), time.process_time() - cpu0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(items)} pairs, {len(parses)} distinct sentences, {len(rows)} rows; "
          f"{result['candidates']} candidates, {result['tested']} tested, "
          f"{result['significant']} significant (random labels: expect 0)")
    print(f"read parse cache {t1 - t0:.1f} s | candidates {t2 - t1:.1f} s | "
          f"ranking {t3 - t2:.1f} s | total {t3 - t0:.1f} s (CPU {cpu:.1f} s) | "
          f"peak RSS {peak:.0f} MiB | load average {load()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=10_000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--min-support", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--child", nargs=3, metavar=("GRAMMAR", "CACHE", "DATA"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        run(*map(Path, args.child), args.resamples, args.min_support)
        return
    with tempfile.TemporaryDirectory() as tmp:
        print(f"building {args.pairs} pairs in a fresh parse cache (untimed) "
              f"| load average {load()}")
        paths = build(Path(tmp), args.pairs, args.seed)
        subprocess.run([sys.executable, "-m", "tools.bench_mine", "--resamples",
                        str(args.resamples), "--min-support", str(args.min_support),
                        "--child", *map(str, paths)], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
