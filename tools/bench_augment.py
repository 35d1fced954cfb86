"""Benchmark `lit augment --from-contrast`: rows/s and peak RSS on N `lit nli` records
(default 10,000; targets: >= 2,000 rows/s, < 500 MiB).

The records are copies of a template contrast file (default tests/data/eval/contrast.jsonl,
real `lit nli` output with MRSs) whose sentences are made distinct per copy, so hygiene
dedupes nothing away; the run is the CLI in a child process, so RSS is its own peak.

    python -m tools.bench_augment [--records 10000] [--template FILE] [--balance]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "tests" / "data" / "eval" / "contrast.jsonl"


def _tagged(text: str | None, k: int) -> str | None:
    """*text* made distinct for copy *k* (a number before the final stop)."""
    if not text:
        return text
    return f"{text.rstrip('.?!')} {k}{text[-1] if text[-1] in '.?!' else ''}"


def make_records(template: Path, n: int, out: Path) -> int:
    """Write *n* records cycled from *template*; their total size in bytes."""
    base = [json.loads(line) for line in template.read_text().splitlines() if line.strip()]
    with open(out, "w", encoding="utf-8") as f:
        for k in range(n):
            r = json.loads(json.dumps(base[k % len(base)]))
            r["id"] = f"{r['id']}#{k}"
            for key in ("sentence1", "sentence2"):
                r["input"][key] = _tagged(r["input"][key], k)
            for t in r["transforms"]:
                for side in ("premise", "hypothesis"):
                    if t[side]:
                        t[side]["output"] = _tagged(t[side]["output"], k)
            f.write(json.dumps(r) + "\n")
    return out.stat().st_size


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=10_000)
    p.add_argument("--template", type=Path, default=TEMPLATE)
    p.add_argument("--balance", action="store_true", help="also --balance")
    p.add_argument("--format", default="jsonl", choices=("jsonl", "csv", "parquet", "hf"))
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        contrast = Path(tmp) / "contrast.jsonl"
        size = make_records(args.template, args.records, contrast)
        out = Path(tmp) / ("train" if args.format == "hf" else f"train.{args.format}")
        cmd = [sys.executable, "-m", "lit", "augment", "--from-contrast", str(contrast),
               "-o", str(out), *(["--balance"] if args.balance else [])]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        seconds = time.perf_counter() - start
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        rows = json.loads(Path(str(out) + ".meta.json").read_text())["counts"]["rows"]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB -> MiB
    print(f"lit augment --from-contrast{' --balance' if args.balance else ''} -> {args.format}: "
          f"{args.records} records ({size / 2**20:.1f} MiB) -> {rows} rows in {seconds:.2f} s "
          f"(whole command, start-up included) = {rows / seconds:.0f} rows/s, "
          f"{args.records / seconds:.0f} records/s; peak RSS {peak:.0f} MiB; "
          f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
