"""Same input, same records (issue 25): `lit nli` over the fake ACE, which like ACE 0.9.30
counts a generator's ``-n`` across inputs and gives a capped item realizations that depend on
the budget left, writes byte-identical records (timings aside) whatever the worker count,
batch size, split point, or a SIGKILL and ``--resume``. The Ray backend's case is in
tests/backend/test_ray.py (one local Ray per module). ``--max-candidates 2`` (a limit of 4
realizations) caps many of the oracle's generations, so history would show: the input is the
oracle pairs of the four sentences whose generations it caps most (28 pairs, 35 capped sides;
the first 96 pairs had 41), so a run is short and still fails when a generator serves more than
one item."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lit.pipeline.engine import Engine
from lit.pipeline.run import run_nli
from tests.conftest import ORACLE, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
GROUPS = ("s02", "s08", "s17", "s26")  # the oracle sentences with the most capped generations
SPECS = ["f;p", "p;f +i", "pa;pa", "m;o"]
MAX_CANDIDATES = 2


def without_timings(path: Path) -> list[str]:
    """The records of *path* as written, each without its `timings` (key order kept)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        del record["timings"]
        out.append(json.dumps(record, ensure_ascii=False))
    return out


def pairs(directory: Path) -> Path:
    """The oracle NLI pairs of `GROUPS`, in the oracle's order, written to *directory*."""
    path = directory / "pairs.jsonl"
    if not path.exists():
        rows = [r for r in read_jsonl(ORACLE / "nli-pairs.jsonl.gz")
                if r["pairID"].split(":")[0] in GROUPS]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run(config, out: Path, *, workers: int, batch_size: int, limit: int | None = None,
        resume: bool = False, **options) -> list[str]:
    """Records of `run_nli` over the first *limit* (default all) of `pairs` (*options*: more
    Engine options, e.g. the Ray backend's)."""
    run_nli(pairs(out.parent), out, SPECS, limit=limit, resume=resume, engine=lambda: Engine(
        config.ace, config.grammar, "2018", scorer="ace", workers=workers,
        batch_size=batch_size, max_candidates=MAX_CANDIDATES, **options))
    return without_timings(out)


@pytest.fixture(scope="module")
def reference(fake_ace_config, tmp_path_factory) -> list[str]:
    """One worker, one batch after another: the records every other way must give."""
    records = run(fake_ace_config, tmp_path_factory.mktemp("ref") / "c.jsonl",
                  workers=1, batch_size=32)
    capped = sum(bool(side.get("capped")) for r in map(json.loads, records)
                 for t in r["transforms"] for side in (t["premise"] or {}, t["hypothesis"] or {}))
    assert capped > 20  # history could show: many generations stop at the limit
    return records


@pytest.mark.parametrize("workers,batch_size", [(2, 32), (2, 5), (1, 7)])
def test_workers_and_batch_sizes_give_the_same_records(fake_ace_config, reference, tmp_path,
                                                       workers, batch_size):
    assert run(fake_ace_config, tmp_path / "c.jsonl", workers=workers,
               batch_size=batch_size) == reference


def test_a_run_split_and_resumed_gives_the_same_records(fake_ace_config, reference, tmp_path):
    out = tmp_path / "c.jsonl"
    run(fake_ace_config, out, workers=2, batch_size=8, limit=13)  # stops inside a batch
    assert run(fake_ace_config, out, workers=2, batch_size=8, resume=True) == reference


def test_a_run_killed_and_resumed_gives_the_same_records(fake_ace_config, reference, tmp_path):
    """`lit nli` SIGKILLed in its first batch (of 16) once records are on disk (they are
    written as their pairs finish, not when the batch ends), then --resume'd."""
    out = tmp_path / "c.jsonl"
    slow = tmp_path / "ace"
    slow.write_text(f"#!/bin/sh\nLIT_FAKE_ACE_DELAY=0.01\nexport LIT_FAKE_ACE_DELAY\n"
                    f'exec {fake_ace_config.ace} "$@"\n')
    slow.chmod(0o755)
    cmd = [sys.executable, "-m", "lit", "nli", str(pairs(tmp_path)), "-o", str(out),
           "--specs", ",".join(SPECS), "--batch-size", "16",
           "--workers", "2", "--max-candidates", str(MAX_CANDIDATES), "--ace", str(slow),
           "--grammar", str(fake_ace_config.grammar), "--grammar-version", "2018",
           "--scorer", "ace", "--no-progress"]
    proc = subprocess.Popen(cmd, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 5:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 5 <= out.read_bytes().count(b"\n") < 16  # the first batch's finished records
    assert run(fake_ace_config, out, workers=1, batch_size=32, resume=True) == reference
