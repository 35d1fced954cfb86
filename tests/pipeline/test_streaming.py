"""Records reach the disk as they finish (issue 25): `lit nli` writes a pair's record once it and
every pair before it are done, not when its batch ends, so a slow pair late in a batch holds
back only the records after it. (A SIGKILL mid-batch and --resume:
tests/system/test_determinism.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from lit.pipeline.engine import Engine
from lit.pipeline.run import run_nli
from tests.conftest import ORACLE, read_jsonl
from tests.system.test_determinism import without_timings

ROOT = Path(__file__).resolve().parents[2]
SPECS = ["f;p", "m;o"]
SLOW = 6  # the pair whose premise ACE never finishes parsing, late in the first batch


def write_pairs(path: Path, pairs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in pairs))
    return path


def test_records_before_a_slow_pair_reach_the_disk_while_it_runs(fake_ace_config, tmp_path):
    pairs = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:8]
    pairs[SLOW] = {**pairs[SLOW], "sentence1": "__HANG__ " + pairs[SLOW]["sentence1"]}
    out = tmp_path / "c.jsonl"
    cmd = [sys.executable, "-m", "lit", "nli", str(write_pairs(tmp_path / "in.jsonl", pairs)),
           "-o", str(out), "--specs", ",".join(SPECS), "--batch-size", "8", "--workers", "2",
           "--timeout", "120", "--ace", str(fake_ace_config.ace), "--grammar",
           str(fake_ace_config.grammar), "--grammar-version", "2018", "--scorer", "ace",
           "--no-progress"]
    proc = subprocess.Popen(cmd, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 100  # the slow pair takes 120 s (--timeout)
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= SLOW:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read()[-2000:]
        time.sleep(0.5)  # nothing after the slow pair may be written before it
        written = [json.loads(line)["id"] for line in out.read_text().splitlines()]
        assert written == [p["pairID"] for p in pairs[:SLOW]]
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
    whole = tmp_path / "whole.jsonl"  # the same pairs in a run of their own
    run_nli(write_pairs(tmp_path / "first.jsonl", pairs[:SLOW]), whole, SPECS,
            engine=lambda: Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018",
                                  scorer="ace", workers=1))
    assert without_timings(out) == without_timings(whole)
