#!/usr/bin/env python3
"""Benchmark the `lit nli` pipeline and print a table of figures (never asserts).

    python tools/bench_pipeline.py                 # fake ACE (replayed ERG 2018 answers)
    LIT_ACE=... LIT_GRAMMAR=... python tools/bench_pipeline.py --real   # also a real grammar

Rows: sentences/s; seconds per stage (parse, transform, generate, rank, verify, label) and the
share spent waiting for ACE; time outside ACE and the scorer per sentence (target <= 10 ms with
the fake, for the paper's pair specs); GPT-2 batching (forward passes vs sentences scored);
peak memory (RSS of `lit nli` and its ACE processes) with 2 workers and a randomly initialised
GPT-2-small-sized model (target <= 2 GiB). Rows that need a real grammar print "not measured"
unless --real is given with LIT_ACE and LIT_GRAMMAR set.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lit.io import read_nli  # noqa: E402
from lit.pipeline import PAPER_SPECS, STAGES  # noqa: E402

ORACLE_PAIRS = ROOT / "tests" / "data" / "oracle" / "nli-pairs.jsonl.gz"


def fake_config(tmp: Path):
    from lit.ace.config import AceConfig
    from tests.fake_ace.fixtures import write_fake_ace

    exe = write_fake_ace(tmp / "fake-ace")
    grammar = tmp / "fake-ace" / "erg-2018.dat"
    grammar.write_bytes(b"fake grammar image\n")
    return AceConfig(ace=exe, grammar=grammar, grammar_version="2018")


def run_engine(config, items, specs, workers, scorer, repeat=1, in_flight=2):
    """Run Engine.nli over *items*; (wall seconds, stage times, records, scorer)."""
    from lit.ace.service import AceService
    from lit.api import Engine

    with AceService(config, workers=workers, timeout=60) as service:
        engine = Engine(service=service, scorer=scorer, grammar_version=config.grammar_version,
                        batches_in_flight=in_flight)
        list(engine.nli(items[:8], specs))  # warm up: start ACE processes, compile rules
        before = engine.times.copy()
        start = time.perf_counter()
        records = []
        for _ in range(repeat):
            records = list(engine.nli(items, specs))
        wall = time.perf_counter() - start
        return wall, engine.times - before, records, engine.scorer


def stage_rows(label, wall, times, n_sentences, n_candidates=None):
    rank = times.seconds["rank"]
    ace = times.ace_total()
    # stage time not spent waiting for ACE, without the scorer: LIT's own work (summed over
    # batches running in parallel, so never flattered by the overlap)
    outside = times.total() - ace - rank
    print(f"\n== {label}")
    print(f"  sentences/s                         {n_sentences / wall:10.1f}"
          f"   ({n_sentences} sentences in {wall:.2f} s)")
    for s in STAGES:
        print(f"  {s:<10} s (of which in ACE)        {times.seconds[s]:10.3f}   "
              f"({times.ace[s]:.3f})")
    print(f"  share of stage time inside ACE      {100 * ace / times.total():9.1f}%")
    print(f"  scorer (rank) share                 {100 * rank / times.total():9.1f}%")
    print(f"  outside ACE and scorer, ms/sentence {1000 * outside / n_sentences:10.2f}"
          "   (target <= 10 with the fake)")
    if n_candidates is not None:
        print(f"  candidate sentences ranked          {n_candidates:10d}")


def count_candidates(records):
    return sum(
        len(t[side]["candidates"] or [])
        for r in records for t in r["transforms"] for side in ("premise", "hypothesis")
    )


def build_gpt2_small(path: Path, sentences: list[str]) -> Path:
    """A randomly initialised model of GPT-2 small's size (124M parameters, vocab 50257)."""
    from tests.test_rank import build_tiny_gpt2

    return build_tiny_gpt2(path, sentences, n_layer=12, n_embd=768, n_head=12,
                           vocab_size=2000, model_vocab_size=50257)


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (from /proc)."""
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return total


def peak_memory(cmd: list[str], env: dict) -> tuple[int, float, int]:
    """(peak tree RSS in bytes, seconds, exit code) of a command."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    stop = threading.Event()

    def poll():
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.05)

    t = threading.Thread(target=poll, daemon=True)
    start = time.perf_counter()
    t.start()
    _, err = proc.communicate()
    stop.set()
    t.join()
    if proc.returncode:
        sys.stderr.write(err.decode()[-2000:])
    return peak, time.perf_counter() - start, proc.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", default=str(ORACLE_PAIRS), help="NLI JSONL to run (oracle pairs)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="passes over the pairs")
    ap.add_argument("--real", action="store_true", help="also measure LIT_ACE/LIT_GRAMMAR")
    ap.add_argument("--no-gpt2", action="store_true", help="skip the GPT-2 rows")
    args = ap.parse_args()

    items = list(read_nli(args.pairs))
    specs = list(PAPER_SPECS)
    n_sentences = 2 * len(items) * args.repeat
    print(f"bench_pipeline: {len(items)} pairs x {args.repeat} from {args.pairs}; "
          f"specs {' '.join(specs)}; {args.workers} workers; {os.cpu_count()} cores")
    tmp = Path(tempfile.mkdtemp(prefix="lit-bench-"))
    config = fake_config(tmp)

    wall, times, records, _ = run_engine(config, items, specs, args.workers, "ace", args.repeat,
                                         in_flight=1)
    stage_rows("fake ACE, --scorer ace (no model), one batch at a time", wall, times,
               n_sentences)
    wall, times, records, _ = run_engine(config, items, specs, args.workers, "ace", args.repeat)
    stage_rows("fake ACE, --scorer ace (no model), 2 batches in flight (default)", wall, times,
               n_sentences, count_candidates(records))
    ok = sum(t["status"] == "ok" for r in records for t in r["transforms"])
    print(f"  contrast pairs produced             {ok:10d}")

    if not args.no_gpt2:
        try:
            import torch  # noqa: F401
            import transformers  # noqa: F401
        except ImportError:
            print("\n== GPT-2 rows: not measured (pip install 'lit-contrast[rank]')")
        else:
            sents = [s for it in items for s in (it.premise, it.hypothesis)]
            model = build_gpt2_small(tmp / "gpt2-small-random", sents)
            from lit.rank import get_scorer

            scorer = get_scorer("gpt2", model=str(model), batch_size=32)
            wall, times, records, scorer = run_engine(config, items, specs, args.workers, scorer)
            n_scored = len({c for r in records for t in r["transforms"]
                            for side in ("premise", "hypothesis")
                            for c in (t[side]["candidates"] or [])})
            stage_rows("fake ACE, --scorer gpt2 (GPT-2-small-sized, random weights, CPU)",
                       wall, times, n_sentences)
            print(f"  GPT-2 forward passes                {scorer.forward_calls:10d}"
                  f"   for >= {n_scored} distinct candidates (batch size 32)")
            out = tmp / "mem.jsonl"
            cmd = [sys.executable, "-m", "lit", "nli", args.pairs, "-o", str(out),
                   "--ace", str(config.ace), "--grammar", str(config.grammar),
                   "--grammar-version", "2018", "--workers", "2", "--scorer", "gpt2",
                   "--model", str(model), "--no-progress"]
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            peak, secs, code = peak_memory(cmd, env)
            print("\n== peak memory of `lit nli`, 2 workers, GPT-2-small-sized model")
            print(f"  peak RSS (lit + ACE processes)      {peak / 2**30:10.2f} GiB"
                  f"   (target <= 2 GiB; {secs:.1f} s, exit {code})")

    print("\n== real grammar")
    if args.real and os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR"):
        from lit.ace.config import resolve_config

        real = resolve_config()
        wall, times, records, _ = run_engine(real, items, specs, args.workers, "ace", 1)
        stage_rows(f"real ACE {real.ace} + {real.grammar}", wall, times, 2 * len(items))
    else:
        for row in ("sentences/s", "time by stage", "share inside ACE"):
            print(f"  {row:<35} not measured (run with --real and LIT_ACE, LIT_GRAMMAR set)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
