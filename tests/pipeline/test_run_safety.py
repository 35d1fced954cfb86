"""`lit nli` outputs survive concurrent runs and signals (issue 25): one writer per output, an
--overwrite killed by SIGKILL leaves the old output intact and its work resumable, SIGTERM
says how many records are safe, and --resume on an output without a run identity warns."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lit.errors import InputError
from lit.io.lock import DEAD_HOLDER_SECONDS, OutputLock, lock_path
from lit.io.output import overwrite_temporary
from lit.pipeline.engine import Engine
from lit.pipeline.identity import identity_path
from lit.pipeline.run import run_nli
from tests.conftest import ORACLE, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
PAIRS = ORACLE / "nli-pairs.jsonl.gz"
SPECS = ["m;o", "pa;pa"]
LIMIT = 60


def engine(config):
    return lambda: Engine(config.ace, config.grammar, "2018", scorer="ace", workers=1,
                          batch_size=4)


def ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def expected_ids() -> list[str]:
    return [str(p["pairID"]) for p in read_jsonl(PAIRS)[:LIMIT]]


def start(config, out: Path, tmp_path: Path, *flags: str) -> subprocess.Popen:
    """`lit nli` in a subprocess over a fake ACE slowed to about 20 ms an answer."""
    slow = tmp_path / "ace"
    slow.write_text(f"#!/bin/sh\nLIT_FAKE_ACE_DELAY=0.02\nexport LIT_FAKE_ACE_DELAY\n"
                    f'exec {config.ace} "$@"\n')
    slow.chmod(0o755)
    cmd = [sys.executable, "-m", "lit", "nli", str(PAIRS), "-o", str(out),
           "--specs", ",".join(SPECS), "--limit", str(LIMIT), "--batch-size", "4",
           "--workers", "1", "--ace", str(slow), "--grammar", str(config.grammar),
           "--grammar-version", "2018", "--scorer", "ace", "--no-progress", *flags]
    return subprocess.Popen(cmd, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_for_lines(proc: subprocess.Popen, path: Path, n: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        time.sleep(0.02)
    raise AssertionError(f"{path} never had {n} lines: {proc.stderr.read()[-2000:]}")


def test_a_second_writer_is_refused_naming_the_holder(tmp_path):
    out = tmp_path / "c.jsonl"
    with OutputLock(out, "lit nli"):
        with pytest.raises(InputError, match=rf"being written by another run \(lit nli, pid "
                                             rf"{os.getpid()} "):
            run_nli(PAIRS, out, SPECS, engine=lambda: pytest.fail("must not start"))
    assert not out.exists()
    with OutputLock(out):  # released: the next writer gets it
        pass


def test_a_lock_a_killed_run_left_with_a_child_is_waited_for(tmp_path):
    """A run SIGKILLed while it forks an ACE process: the child holds the lock until its exec
    closes it. The holder the lock file names is gone, so the next run waits, then writes."""
    out = tmp_path / "c.jsonl"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    child = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, socket, sys, time\n"
        f"fd = os.open({str(lock_path(out))!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        f"os.write(fd, f'lit nli, pid {dead.pid} on {{socket.gethostname()}}, since x'.encode())\n"
        "print('locked', flush=True)\n"
        "time.sleep(1)\n")], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "locked\n"
    start = time.monotonic()
    with OutputLock(out):
        waited = time.monotonic() - start
    child.wait()
    assert 0.3 < waited < DEAD_HOLDER_SECONDS


def test_a_second_lit_nli_process_is_refused(fake_ace_config, tmp_path):
    out = tmp_path / "c.jsonl"
    first = start(fake_ace_config, out, tmp_path)
    try:
        wait_for_lines(first, out, 2)
        second = start(fake_ace_config, out, tmp_path, "--resume")
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2
        assert f"being written by another run (lit nli, pid {first.pid} " in err
    finally:
        first.kill()
        first.wait()
        first.stderr.close()


def test_overwrite_killed_keeps_the_old_output_and_resume_adopts_the_new_work(
        fake_ace_config, tmp_path):
    out = tmp_path / "c.jsonl"
    out.write_text('{"id": "old", "status": "ok"}\n')
    old = out.read_bytes()
    proc = start(fake_ace_config, out, tmp_path, "--overwrite")
    pending = overwrite_temporary(out)
    wait_for_lines(proc, pending, 8)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert out.read_bytes() == old  # the old output is intact ...
    assert identity_path(pending).exists()  # ... and the new work resumable
    kept = pending.read_bytes().count(b"\n")
    result = run_nli(PAIRS, out, SPECS, resume=True, limit=LIMIT,
                     engine=engine(fake_ace_config))
    assert ids(out) == expected_ids()
    assert result.resumed >= kept - 1 and result.resumed + result.written == LIMIT
    assert not pending.exists() and not identity_path(pending).exists()


def test_overwrite_after_a_killed_overwrite_removes_its_temporary(fake_ace_config, tmp_path,
                                                                   capsys):
    out = tmp_path / "c.jsonl"
    out.write_text('{"id": "old", "status": "ok"}\n')
    pending = overwrite_temporary(out)
    pending.write_text('{"id": "1", "status": "ok"}\n')
    identity_path(pending).write_text("{}\n")
    run_nli(PAIRS, out, SPECS, overwrite=True, limit=5, engine=engine(fake_ace_config))
    assert "removed" in capsys.readouterr().err
    assert ids(out) == expected_ids()[:5]
    assert not pending.exists() and not identity_path(pending).exists()


def test_sigterm_says_how_many_records_are_safe_and_resume_continues(fake_ace_config,
                                                                      tmp_path):
    out = tmp_path / "c.jsonl"
    proc = start(fake_ace_config, out, tmp_path)
    wait_for_lines(proc, out, 8)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    safe = out.read_bytes().count(b"\n")
    assert f"lit nli: {safe} records are safe in {out}; run the same command with --resume" in err
    run_nli(PAIRS, out, SPECS, resume=True, limit=LIMIT, engine=engine(fake_ace_config))
    assert ids(out) == expected_ids()


def test_resume_without_a_run_identity_warns(fake_ace_config, tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    run_nli(PAIRS, out, SPECS, limit=3, engine=engine(fake_ace_config))
    identity_path(out).unlink()
    run_nli(PAIRS, out, SPECS, resume=True, limit=5, engine=engine(fake_ace_config))
    assert "has no run identity" in capsys.readouterr().err
    assert ids(out) == expected_ids()[:5]
