"""A long `lit nli` run with bad input lines and ACE killed again and again, against a clean run.

    python -m tools.fault_run [--pairs 10000] [--bad 0.01] [--kill-every 500] [--seed 0]

Both runs use the replaying fake ACE (tests/fake_ace) on the oracle pairs, repeated with fresh
ids. The faulty input has a fraction of its lines replaced by bad ones (broken JSON, non-UTF-8
bytes, lone surrogates, NaN or unknown labels, deep nesting, huge integers, missing sentences);
during its run every ACE process is killed each time another KILL_EVERY records are written.
The faulty output must have exactly one record per input line, in input order, the bad lines
`invalid_input` and every other record identical to the clean run's (timings aside).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from tools.fault_sweep import ace_processes, deep_json, fake_ace

ROOT = Path(__file__).resolve().parent.parent

ORACLE = ROOT / "tests" / "data" / "oracle" / "nli-pairs.jsonl.gz"
SPECS = ["o;n", "p;f", "pa;pa"]

#: Bad lines, each a whole input line (bytes).
BAD_LINES: tuple[bytes, ...] = (
    b'{"sentence1": "A dog',
    b'{"sentence1": "A \xff dog.", "sentence2": "A dog."}',
    b'{"sentence1": "A \\ud800 dog.", "sentence2": "A dog."}',
    b'{"sentence1": "A dog.", "sentence2": "A cat.", "gold_label": NaN}',
    b'{"sentence1": "A dog.", "sentence2": "A cat.", "gold_label": "foo"}',
    b'{"sentence1": "A dog.", "n": ' + b"9" * 5000 + b"}",
    b'{"sentence2": "A cat."}',
    b"[1, 2, 3]",
    deep_json(),
)


@dataclass(frozen=True)
class Outcome:
    pairs: int
    bad: int
    kills: int
    records: int
    in_order: bool
    bad_invalid: int
    identical: int
    clean_seconds: float
    faulty_seconds: float

    @property
    def ok(self) -> bool:
        return (self.records == self.pairs and self.in_order and self.bad_invalid == self.bad
                and self.identical == self.pairs - self.bad)

    def format(self) -> str:
        return (f"{self.pairs} pairs, {self.bad} bad lines, ACE killed {self.kills} times: "
                f"{self.records} records written, in input order: {self.in_order}, bad lines "
                f"invalid_input: {self.bad_invalid}/{self.bad}, others identical to the clean "
                f"run: {self.identical}/{self.pairs - self.bad}; clean run "
                f"{self.clean_seconds:.0f} s, faulty run {self.faulty_seconds:.0f} s")


def inputs(pairs: int, bad: float, seed: int) -> tuple[list[bytes], list[bytes], set[int]]:
    """(clean lines, faulty lines, positions of the bad lines)."""
    with gzip.open(ORACLE, "rt", encoding="utf-8") as f:
        oracle = [json.loads(line) for line in f if line.strip()]
    clean = []
    for k in range(pairs):
        rec = dict(oracle[k % len(oracle)], pairID=f"p{k}")
        clean.append(json.dumps(rec, ensure_ascii=False).encode("utf-8"))
    rng = random.Random(seed)
    positions = set(rng.sample(range(pairs), round(pairs * bad)))
    faulty = [rng.choice(BAD_LINES) if k in positions else line for k, line in enumerate(clean)]
    return clean, faulty, positions


def run_nli(ace, data: list[bytes], out: Path, kill_every: int | None) -> tuple[float, int]:
    """Run `lit nli` on *data*; kill every ACE process after each KILL_EVERY more records."""
    inp = out.with_suffix(".in.jsonl")
    inp.write_bytes(b"\n".join(data) + b"\n")
    argv = [sys.executable, "-m", "lit", "nli", str(inp), "-o", str(out), "--ace", str(ace.ace),
            "--grammar", str(ace.grammar), "--grammar-version", "2018", "--workers", "2",
            "--scorer", "ace", "--no-progress", "--timeout", "20", "--specs", ",".join(SPECS)]
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    kills = 0
    done = threading.Event()

    def killer() -> None:
        nonlocal kills
        next_kill = kill_every
        while not done.wait(0.05):
            if next_kill is None or not out.exists():
                continue
            if out.read_bytes().count(b"\n") >= next_kill:
                for pid in ace_processes(str(ace.grammar)):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                kills += 1
                next_kill += kill_every

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    _, err = proc.communicate()
    done.set()
    thread.join()
    if proc.returncode != 0:
        raise SystemExit(f"lit nli failed ({proc.returncode}): {err[-2000:]}")
    return time.monotonic() - start, kills


def without_timings(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timings"}


def sweep(pairs: int, bad: float, kill_every: int, seed: int) -> Outcome:
    clean, faulty, positions = inputs(pairs, bad, seed)
    with tempfile.TemporaryDirectory(prefix="lit-fault-run-") as tmp:
        ace = fake_ace(Path(tmp) / "ace")
        clean_out, faulty_out = Path(tmp) / "clean.jsonl", Path(tmp) / "faulty.jsonl"
        clean_seconds, _ = run_nli(ace, clean, clean_out, None)
        faulty_seconds, kills = run_nli(ace, faulty, faulty_out, kill_every)
        expected = [json.loads(line) for line in clean_out.read_text().splitlines()]
        got = [json.loads(line) for line in faulty_out.read_text().splitlines()]
    ids = [r["id"] for r in got]
    # a bad line's id is its line number (it has no usable pairID)
    in_order = ids == [str(k + 1) if k in positions else f"p{k}" for k in range(pairs)]
    bad_invalid = sum(got[k]["status"] == "invalid_input" for k in positions if k < len(got))
    identical = sum(without_timings(r) == without_timings(e)
                    for k, (r, e) in enumerate(zip(got, expected)) if k not in positions)
    return Outcome(pairs, len(positions), kills, len(got), in_order,
                   bad_invalid, identical, clean_seconds, faulty_seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--bad", type=float, default=0.01, help="fraction of bad lines")
    parser.add_argument("--kill-every", type=int, default=500, metavar="N")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    outcome = sweep(args.pairs, args.bad, args.kill_every, args.seed)
    print(outcome.format())
    print("pass" if outcome.ok else "FAIL")
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main())
