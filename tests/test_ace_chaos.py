"""Chaos in the ACE layer: ACE killed, stopped or terminated *in the middle of* an item (the
fake ACE sleeps on slow items, lit/demo/replay.py), through the real subprocess path.

A death LIT did not cause is environmental and costs a retry on a fresh process, never a
result; LIT's own time-out and ACE's own caps are the grammar's outcome and are not retried
(lit/ace/service.py). Each test also checks that nothing is left behind: no ACE process, no
temporary file.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from lit.ace.config import AceConfig
from lit.ace.service import AceService

SENTENCE = "Bob met Alice."
OTHER = "A dog is chasing a cat."


def _pids(note: Path) -> list[int]:
    return [int(line) for line in note.read_text().split()] if note.exists() else []


def wait_for_pid(note: Path, count: int = 1, seconds: float = 10.0) -> int:
    """The pid of the *count*-th slow item a fake ACE started (it notes it as it begins)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = _pids(note)
        if len(pids) >= count:
            return pids[count - 1]
        time.sleep(0.01)
    raise AssertionError(f"no fake ACE began slow item number {count} within {seconds} s")


def slow_env(note: Path, seconds: float, match: str) -> dict[str, str]:
    return dict(os.environ, LIT_FAKE_ACE_SLEEP=str(seconds), LIT_FAKE_ACE_SLEEP_MATCH=match,
                LIT_FAKE_ACE_SLEEP_NOTE=str(note))


@pytest.fixture
def note(tmp_path: Path) -> Path:
    return tmp_path / "slow-pids"


def test_fake_ace_sleeps_only_on_matching_items_and_notes_its_pid(fake_ace_config: AceConfig,
                                                                  note: Path) -> None:
    env = slow_env(note, 0.3, "Alice")
    with AceService(fake_ace_config, workers=1, timeout=5.0, env=env) as service:
        began = time.monotonic()
        (fast,) = service.parse([OTHER])
        assert time.monotonic() - began < 0.3 and not note.exists()
        (slow,) = service.parse([SENTENCE])
        assert time.monotonic() - began >= 0.3
        assert slow.status == fast.status == "ok"
        (pid,) = _pids(note)
        assert b"fake.py" in Path(f"/proc/{pid}/cmdline").read_bytes()  # the live fake ACE
