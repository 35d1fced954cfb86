"""Issue 32: chaos for whole `lit nli` runs on the fake ACE with slow items (tools/chaos_run.py
on the rig runs the same functions): the run SIGKILLed mid-item then resumed, its output's
disk filled, and ACE processes killed at random while items are in flight. Each ends with one
valid record per input line, transforms equal to a clean run's, the input untouched, no ACE
process and nothing in the temp dir left."""

from __future__ import annotations

import re
import resource
import signal
from pathlib import Path

import pytest

from tests.conftest import ORACLE, read_jsonl
from tools.chaos_run import BROKEN_LINES, Rig, compare, run, sha256, write_input
from tools.fault_sweep import strict_records

SPECS = ["o;n", "p;f", "pa;pa"]
OPTIONS = ["--workers", "2", "--scorer", "ace", "--timeout", "20", "--batch-size", "4"]
PAIRS = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:12]
LINES = len(PAIRS) + len(BROKEN_LINES)


def rig_in(folder: Path, fake_ace_config) -> Rig:
    return Rig.make(folder, fake_ace_config.ace, fake_ace_config.grammar, "2018")


@pytest.fixture(scope="module")
def clean(tmp_path_factory, fake_ace_config) -> tuple[Path, Path]:
    """The clean run's input and output."""
    folder = tmp_path_factory.mktemp("clean")
    rig = rig_in(folder, fake_ace_config)
    write_input(folder / "in.jsonl", PAIRS)
    out = folder / "out.jsonl"
    done = run(rig, rig.nli_argv(folder / "in.jsonl", out, SPECS, *OPTIONS), folder / "tmp",
               env={"LIT_CACHE_DIR": str(folder / "cache")})
    assert done.code == 0, done.stderr
    return folder / "in.jsonl", out


class Chaos:
    """One test's input, output, rig and the runs made on them."""

    def __init__(self, folder: Path, fake_ace_config):
        self.folder, self.rig = folder, rig_in(folder, fake_ace_config)
        self.inp, self.out = folder / "in.jsonl", folder / "out.jsonl"
        self.digest = write_input(self.inp, PAIRS)
        self.runs = 0

    def run(self, *extra: str, env: dict[str, str] | None = None, **chaos):
        self.runs += 1
        return run(self.rig, self.rig.nli_argv(self.inp, self.out, SPECS, *OPTIONS, *extra),
                   self.folder / f"tmp{self.runs}",
                   env={"LIT_CACHE_DIR": str(self.folder / "cache"), **(env or {})}, **chaos)

    def assert_equal_to(self, clean: tuple[Path, Path]) -> None:
        records = strict_records(self.out)  # every line valid JSON
        assert len(records) == LINES
        c = compare(clean[1], self.out, LINES, inputs=(clean[0], self.inp))
        assert c.equal, c
        assert c.invalid_input == len(BROKEN_LINES)
        assert sha256(self.inp) == self.digest


@pytest.fixture
def chaos(tmp_path, fake_ace_config) -> Chaos:
    return Chaos(tmp_path, fake_ace_config)


def test_a_run_killed_mid_item_resumes_to_the_clean_records(chaos, clean):
    """`lit nli` SIGKILLed while ACE sleeps in the middle of the 7th pair's premise: its ACE
    processes die with it, nothing is left in its temp dir, and --resume completes the output
    to exactly the clean run's records."""
    note = chaos.folder / "sleeping"
    slow = {"LIT_FAKE_ACE_SLEEP": "60", "LIT_FAKE_ACE_SLEEP_NOTE": str(note),
            "LIT_FAKE_ACE_SLEEP_MATCH": re.escape(PAIRS[6]["sentence1"])}
    killed = chaos.run(env=slow, kill_run_when=lambda: note.exists() and note.read_text() != "")
    assert killed.code == -signal.SIGKILL, killed.stderr
    assert killed.left_ace == [] and killed.left_temp == []
    assert len(chaos.out.read_bytes().splitlines()) < LINES
    resumed = chaos.run("--resume")
    assert resumed.code == 0, resumed.stderr
    assert resumed.left_ace == [] and resumed.left_temp == []
    chaos.assert_equal_to(clean)


def test_a_full_disk_names_the_output_and_resume_repairs_it(chaos, clean):
    """The output may not grow past half the clean output's size (RLIMIT_FSIZE; SIGXFSZ
    ignored, so the write fails with EFBIG as on a full disk): the run exits non-zero naming
    the output, and --resume without the limit completes it to the clean run's records."""
    limit = clean[1].stat().st_size // 2

    def full_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    full = chaos.run("--no-parse-cache", preexec_fn=full_disk)
    assert full.code == 2, full.stderr
    assert full.stderr.startswith(f"lit nli: error: cannot write {chaos.out}: File too large"), \
        full.stderr
    assert "Traceback" not in full.stderr, full.stderr
    assert full.left_ace == [] and full.left_temp == []
    assert 0 < chaos.out.stat().st_size <= limit
    resumed = chaos.run("--resume")
    assert resumed.code == 0, resumed.stderr
    chaos.assert_equal_to(clean)


def test_ace_killed_every_250_ms_mid_item_changes_no_record(chaos, clean):
    """Every item sleeps 0.05 s in ACE and a random ACE process of the run is SIGKILLed every
    0.25 s, so kills land in the middle of items: a fault of the machine costs retries, never a
    result. Records equal the clean run's, exit 0, nothing left behind. Three kills: an item
    has 4 attempts, and more kills could (rarely) take all four of one item."""
    done = chaos.run(env={"LIT_FAKE_ACE_SLEEP": "0.05"}, kill_every=0.25, max_kills=3)
    assert done.code == 0, done.stderr
    assert done.kills == 3
    assert done.left_ace == [] and done.left_temp == []
    chaos.assert_equal_to(clean)
