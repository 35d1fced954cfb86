#!/usr/bin/env python3
"""Pairs/s of `lit nli` on the local backend and on Ray, on the same input; Ray's overhead.

    python -m tools.bench_scale                    # fake ACE (replayed ERG 2018 answers)
    python -m tools.bench_scale --stream 20000     # + driver RSS while 20,000 pairs stream
    LIT_ACE=... LIT_GRAMMAR=... python -m tools.bench_scale --real   # + the real grammar

Rows (issue 18; prints figures, never asserts):

- oracle: the 255 oracle NLI pairs (tests/data/oracle) with five pair specs through the fake
  ACE: local backend (--workers W) and Ray (--actors A x 1 ACE worker, a local Ray with W
  CPUs), same input, same records. Ray start-up (actors, rule engines) is printed apart.
- no-parse stream: N pairs the fake does not know (one fast no_parse each): almost all the
  per-pair cost is moving batches, so the difference is Ray's own overhead per pair.
- real (--real, with LIT_ACE/LIT_GRAMMAR): the first --real-pairs SNLI dev pairs with the
  paper's specs and --scorer freq, local vs Ray.
- --stream N: N no-parse pairs through Ray; peak driver RSS (VmHWM) against RSS after start-up,
  and the most input pairs read ahead of the records written (bounded by in-flight batches).

Ray overhead per pair = (Ray's wall - local wall) / pairs, start-up excluded (target <= 5 ms
on 2 cores). Record `uptime` with any figure: on a shared machine the load moves them a lot.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from lit.config import PAPER_SPECS
from lit.pipeline.engine import Engine
from tests.conftest import DATA, ORACLE, read_jsonl

ORACLE_SPECS = ["f;p", "p;f +i", "pa;pa", "o;n", "m;o"]


def fake_ace(tmp: Path) -> tuple[Path, Path]:
    from tests.fake_ace.fixtures import write_fake_ace

    exe = write_fake_ace(tmp / "fake-ace")
    grammar = exe.parent / "erg-2018.dat"
    grammar.write_bytes(b"fake grammar image\n")
    return exe, grammar


def unknown_pairs(n: int):
    for k in range(n):
        yield {"pairID": str(k), "sentence1": f"Pair {k} has a premise.",
               "sentence2": f"Pair {k} has a hypothesis.", "gold_label": "neutral"}


def timed(make, pairs, specs) -> tuple[float, float, int]:
    """(start-up seconds, run seconds, records) of one Engine over *pairs*."""
    start = time.perf_counter()
    with make() as engine:
        ready = time.perf_counter()
        n = sum(1 for _ in engine.nli(pairs, specs))
        done = time.perf_counter()
    return ready - start, done - ready, n


def compare(name: str, local, ray_, pairs: list, specs: list[str]) -> None:
    _, lw, n = timed(local, pairs, specs)
    rs, rw, m = timed(ray_, pairs, specs)
    assert n == m == len(pairs)
    print(f"{name:<16} {n:>6} pairs  local {n / lw:8.1f} pairs/s  ray {n / rw:8.1f} pairs/s  "
          f"(ray start-up {rs:.1f} s)  overhead {1000 * (rw - lw) / n:+7.2f} ms/pair")


def _rss_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))


def stream(make, n: int) -> None:
    drawn = 0

    def pairs():
        nonlocal drawn
        for p in unknown_pairs(n):
            drawn += 1
            yield p

    with make() as engine:
        base = _rss_kb("VmRSS")
        lag = got = 0
        start = time.perf_counter()
        for _ in engine.nli(pairs(), ["f;p"]):
            got += 1
            lag = max(lag, drawn - got)
        wall = time.perf_counter() - start
        bound = (engine.backend.in_flight + 1) * engine.batch_size
    print(f"stream {n} pairs on Ray: {n / wall:.1f} pairs/s; driver RSS after start-up "
          f"{base / 1024:.0f} MiB, peak {_rss_kb('VmHWM') / 1024:.0f} MiB; most pairs read "
          f"ahead of records {lag} (bound {bound})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2, help="CPUs: local ACE workers, Ray CPUs")
    ap.add_argument("--unknown", type=int, default=2000, help="no-parse pairs to compare")
    ap.add_argument("--stream", type=int, default=0, metavar="N",
                    help="also stream N no-parse pairs through Ray and report the driver RSS")
    ap.add_argument("--real", action="store_true", help="also the real grammar (LIT_ACE/...)")
    ap.add_argument("--real-pairs", type=int, default=40)
    ap.add_argument("--no-fake", action="store_true", help="skip the fake-ACE rows")
    args = ap.parse_args()
    import ray

    print(f"load average: {os.getloadavg()}")
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    w = args.workers
    with tempfile.TemporaryDirectory() as tmp:
        exe, grammar = fake_ace(Path(tmp))

        def local(**kw):
            return lambda: Engine(exe, grammar, "2018", scorer="ace", workers=w, **kw)

        def on_ray(**kw):
            return lambda: Engine(exe, grammar, "2018", scorer="ace", backend="ray",
                                  actors=w, **kw)

        if not args.no_fake:
            compare("oracle (fake)", local(), on_ray(),
                    read_jsonl(ORACLE / "nli-pairs.jsonl.gz"), ORACLE_SPECS)
            compare("no-parse (fake)", local(), on_ray(), list(unknown_pairs(args.unknown)),
                    ["f;p"])
        if args.stream:
            stream(on_ray(), args.stream)
    if args.real:
        if not (os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR")):
            print("real: not measured (set LIT_ACE and LIT_GRAMMAR)")
        else:
            pairs = read_jsonl(DATA / "snli-1.0-dev.jsonl.gz")[: args.real_pairs]
            compare("snli (real ERG)", lambda: Engine(scorer="freq", workers=w),
                    lambda: Engine(scorer="freq", backend="ray", actors=w), pairs,
                    list(PAPER_SPECS))
    print(f"load average: {os.getloadavg()}")
    ray.shutdown()


if __name__ == "__main__":
    main()
