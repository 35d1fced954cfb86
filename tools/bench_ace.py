"""Benchmark the ACE service: items/s and LIT's overhead over ACE's own time (prints only).

    python -m tools.bench_ace                 # fake ACE rows + real-grammar rows if configured
    python -m tools.bench_ace --items 5000 --workers 1 2 4

Fake rows run the replaying fake ACE (tests/fake_ace), which answers instantly, so they
measure LIT's own cost per item (target: >= 500 parse results/s per worker). Real rows use
whatever ACE and grammar LIT finds (LIT_ACE/LIT_GRAMMAR, config, cache) on SNLI premises and
compare wall time with the sum of ACE's reported per-item times (targets: 1 worker within 10%
of ACE's time; 2 workers >= 1.8x faster on 2 cores). Without a real grammar those rows say
"not measured".
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from lit.ace.config import AceConfig, resolve_config
from lit.ace.service import AceService
from lit.config import RunConfig
from lit.errors import ConfigurationError
from lit.status import Status

ROOT = Path(__file__).resolve().parents[1]


def _jsonl(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def fake_config(directory: Path) -> AceConfig:
    from tests.fake_ace.fixtures import write_fake_ace

    ace = write_fake_ace(directory)
    grammar = directory / "erg-2018.dat"
    grammar.write_bytes(b"fake")
    return AceConfig(ace, grammar, "2018")


def run(config: AceConfig, sentences: list[str], workers: int, n: int) -> dict:
    with AceService(config, RunConfig(workers=workers, timeout=60)) as service:
        list(service.parse(sentences[: workers * 4], n=n))  # start every worker's ACE
        start = time.perf_counter()
        results = list(service.parse(sentences, n=n))
        wall = time.perf_counter() - start
    ace = sum(r.ace_seconds or 0.0 for r in results)
    ok = sum(r.status is Status.OK for r in results)
    return {"items": len(results), "ok": ok, "wall": wall, "ace": ace}


def row(label: str, workers: int, m: dict | None, base: float | None, fake: bool) -> str:
    if m is None:
        return f"{label:<14} {workers:>3}  {'not measured':>12}"
    rate = m["items"] / m["wall"]
    ace = 0.0 if fake else m["ace"]  # the fake answers at once; its reported times are recorded
    overhead_ms = (m["wall"] * workers - ace) / m["items"] * 1000
    vs_ace = "-" if fake or not ace else f"{m['wall'] / (ace / workers):.2f}x"
    speedup = f"{base / m['wall']:.2f}x" if base else "-"
    return (f"{label:<14} {workers:>3}  {m['items']:>6} {m['ok']:>6} {m['wall']:>8.2f}"
            f" {rate:>9.0f} {rate / workers:>11.0f} {('-' if fake else f'{ace:.2f}'):>9}"
            f" {vs_ace:>9} {overhead_ms:>13.3f} {speedup:>8}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=3000, help="items per fake run (3000)")
    parser.add_argument("--real-items", type=int, default=200, help="items per real run (200)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("-n", type=int, default=1, help="readings per sentence (1)")
    parser.add_argument("--fake-only", action="store_true", help="skip the real-grammar rows")
    args = parser.parse_args()

    oracle = ROOT / "tests" / "data" / "oracle"
    recorded = [r["input"] for r in _jsonl(oracle / "ace-transcripts.jsonl.gz")
                if r["mode"] == "parse" and r["returncode"] == 0]
    fake_sentences = list(itertools.islice(itertools.cycle(recorded), args.items))
    premises = [p["sentence1"] for p in _jsonl(ROOT / "tests" / "data" / "snli-1.0-dev.jsonl.gz")]
    real_sentences = list(dict.fromkeys(premises))[: args.real_items]

    print(f"{os.cpu_count()} cores; n={args.n}")
    print(f"{'ACE':<14} {'W':>3}  {'items':>6} {'ok':>6} {'wall s':>8} {'items/s':>9}"
          f" {'/s/worker':>11} {'ACE s':>9} {'wall/ACE':>9} {'LIT ms/item':>13} {'speedup':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        config = fake_config(Path(tmp))
        base = None
        for w in args.workers:
            m = run(config, fake_sentences, w, args.n)
            print(row("fake (instant)", w, m, base, fake=True))
            base = base or m["wall"]

    real: AceConfig | None = None
    if not args.fake_only:
        try:
            real = resolve_config()
        except ConfigurationError as exc:
            print(f"# no real grammar configured ({str(exc).split(';')[0]}); see `lit doctor`")
    base = None
    for w in args.workers:
        label = f"ERG {real.grammar_version or '?'}" if real else "real grammar"
        m = run(real, real_sentences, w, args.n) if real else None
        print(row(label, w, m, base, fake=False))
        base = base or (m["wall"] if m else None)
    print("wall/ACE: wall time over ACE's own reported time per worker (1.00x = no LIT overhead);")
    print("LIT ms/item: worker time per item not spent inside ACE; speedup: vs the first row.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
