"""Chaos in the ACE layer: ACE killed, stopped or terminated *in the middle of* an item (the
fake ACE sleeps on slow items, lit/demo/replay.py), through the real subprocess path.

A death LIT did not cause is environmental and costs a retry on a fresh process, never a
result; LIT's own time-out and ACE's own caps are the grammar's outcome and are not retried
(lit/ace/service.py). Every test here also checks that nothing is left behind: no ACE process
(a child of this test process) and nothing in the temporary directory.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lit.ace.config import AceConfig
from lit.ace.results import ParseResult
from lit.ace.service import AceService
from lit.config import DEFAULT_ATTEMPTS, RunConfig
from lit.errors import InputError
from lit.io import iter_jsonl
from lit.pipeline.engine import Engine
from lit.pipeline.run import RunResult, run_nli
from lit.status import Status
from tests.conftest import ORACLE
from tests.procs import children
from tools.fault_run import without_timings

SENTENCE = "Bob met Alice."
OTHER = "A dog is chasing a cat."
TIMEOUT = 1.0  # the watchdog fires 1 s later (HARD_TIMEOUT_GRACE)


def _pids(note: Path) -> list[int]:
    return [int(line) for line in note.read_text().split()] if note.exists() else []


def wait_for_pid(note: Path, count: int = 1, seconds: float = 10.0) -> int:
    """The pid of the *count*-th slow item a fake ACE began (it notes it as it begins)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = _pids(note)
        if len(pids) >= count:
            return pids[count - 1]
        time.sleep(0.01)
    raise AssertionError(f"no fake ACE began slow item number {count} within {seconds} s")


def signal_mid_item(note: Path, signum: int, times: int = 1) -> threading.Thread:
    """Send *signum* to the ACE of each of the first *times* slow items while it works."""
    def send() -> None:
        for count in range(1, times + 1):
            os.kill(wait_for_pid(note, count), signum)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary directory of this test's own for LIT and ACE; afterwards it must be
    empty and no ACE process may be left."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setenv("TMPDIR", str(scratch))
    before = children()
    yield scratch
    assert children() <= before, "an ACE process was left behind"
    assert list(scratch.iterdir()) == [], "something was left in the temp dir"


@pytest.fixture
def note(tmp_path: Path) -> Path:
    return tmp_path / "slow-pids"


def slow_env(note: Path, match: str, seconds: float = 0.3) -> dict[str, str]:
    return dict(os.environ, LIT_FAKE_ACE_SLEEP=str(seconds), LIT_FAKE_ACE_SLEEP_MATCH=match,
                LIT_FAKE_ACE_SLEEP_NOTE=str(note))


def recorded(result: ParseResult) -> tuple:
    """What a record keeps of a parse (not its times, not its attempts)."""
    return result.input, result.status, result.reason, result.readings


def clean_parse(config: AceConfig, sentences: list[str]) -> list:
    with AceService(config, RunConfig(workers=1, timeout=TIMEOUT)) as service:
        return list(service.parse(sentences))


def test_fake_ace_sleeps_only_on_matching_items_and_notes_its_pid(fake_ace_config: AceConfig,
                                                                  note: Path, scratch) -> None:
    env = slow_env(note, "Alice")
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=5.0), env=env) as service:
        (fast,) = service.parse([OTHER])
        assert not note.exists()  # not a matching item: no sleep
        began = time.monotonic()
        (slow,) = service.parse([SENTENCE])
        assert time.monotonic() - began >= 0.3
        assert slow.status == fast.status == "ok"
        (pid,) = _pids(note)
        assert b"fake.py" in Path(f"/proc/{pid}/cmdline").read_bytes()  # the live fake ACE


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_ace_killed_mid_item_costs_a_retry_not_the_result(fake_ace_config, note, scratch,
                                                          signum):
    items = [SENTENCE, OTHER]
    with AceService(
        fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT), env=slow_env(note, "Alice")
    ) as service:
        killer = signal_mid_item(note, signum)
        results = list(service.parse(items))
        killer.join()
    assert len(_pids(note)) == 2  # the item was begun twice: killed, then answered
    assert list(map(recorded, results)) == list(map(recorded, clean_parse(fake_ace_config,
                                                                          items)))
    assert [r.attempts for r in results] == [2, 1]
    assert (service.retried_items["parse"], service.retries["parse"]) == (1, 1)
    assert service.exhausted["parse"] == 0


def test_a_generation_killed_mid_item_gives_the_clean_realizations(fake_ace_config, note,
                                                                   scratch, oracle_pairs):
    mrs = next(p for p in oracle_pairs if p["target_realized"])["target_mrs_nolnk"]
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT)) as clean:
        (expected,) = clean.generate([mrs], limit=3)
    with AceService(
        fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT), env=slow_env(note, "RELS")
    ) as service:
        killer = signal_mid_item(note, signal.SIGKILL)
        (result,) = service.generate([mrs], limit=3)
        killer.join()
    assert expected.status is Status.OK
    assert (result.status, result.surfaces, result.capped) == (
        expected.status, expected.surfaces, expected.capped)
    assert result.attempts == 2 and service.retries["generate"] == 1


def test_ace_stopped_mid_item_is_retried_not_a_timeout(fake_ace_config, note, scratch):
    with AceService(
        fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT), env=slow_env(note, "Alice")
    ) as service:
        stopper = signal_mid_item(note, signal.SIGSTOP)
        (result,) = service.parse([SENTENCE])
        stopper.join()
    assert result.status is Status.OK, result.reason
    assert result.attempts == 2 and service.retries["parse"] == 1


def test_an_item_that_kills_ace_on_every_attempt_is_recorded_and_the_run_goes_on(
        fake_ace_config, scratch):
    items = [SENTENCE, f"__SIGKILL__ {SENTENCE}", OTHER, f"__SIGSTOP__ {OTHER}", SENTENCE]
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=0.2)) as service:
        results = list(service.parse(items))
    assert [r.status for r in results] == [Status.OK, Status.ACE_ERROR, Status.OK,
                                           Status.ACE_ERROR, Status.OK]
    assert results[1].reason == (
        f"ACE was killed by signal 9 (SIGKILL) on each of {DEFAULT_ATTEMPTS} attempts")
    assert results[3].reason.startswith("ACE was found stopped (SIGSTOP from outside LIT)")
    assert results[3].reason.endswith(f"on each of {DEFAULT_ATTEMPTS} attempts")
    assert [r.attempts for r in results] == [1, DEFAULT_ATTEMPTS, 1, DEFAULT_ATTEMPTS, 1]
    assert service.exhausted["parse"] == 2
    assert service.retries["parse"] == 2 * (DEFAULT_ATTEMPTS - 1)


def test_attempts_is_an_option(fake_ace_config, scratch):
    with AceService(fake_ace_config, RunConfig(workers=1, attempts=2)) as service:
        (result,) = service.parse([f"__SIGKILL__ {SENTENCE}"])
    assert result.reason == "ACE was killed by signal 9 (SIGKILL) on each of 2 attempts"
    with AceService(fake_ace_config, RunConfig(workers=1, attempts=1)) as service:
        (result,) = service.parse([f"__SIGKILL__ {SENTENCE}"])
    assert result.reason == "ACE was killed by signal 9 (SIGKILL) (1 attempt)"
    with pytest.raises(InputError, match="option attempts: expected at least 1, not 0"):
        RunConfig(attempts=0)


@pytest.mark.parametrize(("item", "status"), [
    ("__RAM__ cap", Status.RESOURCE),  # ACE's memory cap
    ("Colourless green ideas sleep furiously.", Status.NO_PARSE),
])
def test_the_grammars_own_outcomes_are_not_retried(fake_ace_config, scratch, item, status):
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT)) as service:
        (result,) = service.parse([item])
    assert result.status is status, result.reason
    assert result.attempts == 1
    assert service.retries["parse"] == 0 and service.starts["parse"] == 1


@pytest.mark.parametrize("item", [
    "__HANG__ forever",  # LIT's watchdog
    "__GIVEUP__ at once",  # ACE's own --timeout
])
def test_a_time_out_is_retried_once_and_then_said_to_depend_on_time(fake_ace_config, scratch,
                                                                     item):
    """Time is a backstop, not the grammar's outcome: a second try on a fresh process, and
    the record of an item stopped twice says that time decided it."""
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT)) as service:
        (result,) = service.parse([item])
    assert result.status is Status.TIMEOUT
    assert result.attempts == 2
    assert "depended on time, not on the grammar" in result.reason
    assert service.retries["parse"] == 1 and service.starts["parse"] == 2


def test_the_reason_says_how_ace_ended_before_its_warnings(fake_ace_config, tmp_path, scratch):
    """ACE writes many warnings, then is killed: the reason starts with the kill (a tail
    of stderr alone would have only the warnings)."""
    ace = tmp_path / "ace"
    ace.write_text(
        "#!/bin/sh\n"
        "while read line; do\n"
        "  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do\n"
        "    echo \"WARNING: unknown lexeme 'than_p5'! ($i)\" >&2\n"
        "  done\n"
        "  kill -9 $$\n"
        "done\n"
    )
    ace.chmod(0o755)
    config = AceConfig(ace, fake_ace_config.grammar, "2018")
    with AceService(config, RunConfig(workers=1, timeout=TIMEOUT)) as service:
        (result,) = service.parse([SENTENCE])
    assert result.status is Status.ACE_ERROR
    assert result.reason.startswith(
        f"ACE was killed by signal 9 (SIGKILL) on each of {DEFAULT_ATTEMPTS} attempts | "
        "WARNING: unknown lexeme 'than_p5'!"
    )


def test_an_answer_that_is_no_answer_is_not_retried(fake_ace_config, scratch):
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT)) as service:
        (result,) = service.parse(["__GARBAGE__ please"])
    assert result.status is Status.ACE_ERROR
    assert result.reason.startswith("ACE's answer is not a tsdb answer")
    assert result.attempts == 1 and service.retries["parse"] == 0


def test_a_run_with_ace_killed_mid_item_writes_the_clean_runs_records(fake_ace_config, note,
                                                                      tmp_path, scratch):
    """`lit nli` (run_nli) over the fake ACE, ACE killed in the middle of parsing a premise:
    the records equal a clean run's, and the summary counts the retry."""
    def run(out: Path, env: dict[str, str] | None) -> RunResult:
        service = AceService(fake_ace_config, RunConfig(workers=1, timeout=TIMEOUT), env=env)
        with Engine(service=lambda: service, scorer="ace", batch_size=2,
                    grammar_version="2018") as engine:
            return run_nli(ORACLE / "nli-pairs.jsonl.gz", out, ["m;o", "pa;pa"],
                           engine=engine, limit=4)

    clean = run(tmp_path / "clean.jsonl", None)
    killer = signal_mid_item(note, signal.SIGKILL)
    faulted = run(tmp_path / "faulted.jsonl", slow_env(note, r"^A woman is driving a car\.$"))
    killer.join()
    records = [without_timings(r) for _, r in iter_jsonl(tmp_path / "faulted.jsonl")]
    assert records == [without_timings(r) for _, r in iter_jsonl(tmp_path / "clean.jsonl")]
    assert len(records) == 4
    assert clean.summary.to_json()["ace_retries"] == {
        "items_retried": 0, "retries": 0, "items_failed_on_every_attempt": 0}
    assert faulted.summary.to_json()["ace_retries"] == {
        "items_retried": 1, "retries": 1, "items_failed_on_every_attempt": 0}
    assert "1 item(s) retried on fresh processes, 1 extra attempt(s)" in faulted.format()
    assert "retried" not in clean.format()
