"""Shared test fixtures: paths to the real ERG data copied into tests/data."""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
ORACLE = DATA / "oracle"


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


#: Why integration tests (tests/integration/, marked `integration`) are skipped.
INTEGRATION_SKIP_REASON = (
    "integration test: set LIT_ACE and LIT_GRAMMAR to a real ACE and ERG image, e.g. the rig "
    "built by ../shared/tools/rig/build_rig.sh: "
    'eval "$(MIRROR=DIR bash ../shared/tools/rig/build_rig.sh /tmp/lit-rig)"'
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Integration tests need a real ACE and grammar: skip them unless both are configured."""
    if os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR"):
        return
    skip = pytest.mark.skip(reason=INTEGRATION_SKIP_REASON)
    for item in items:
        if item.get_closest_marker("integration"):  # not keywords: tests/integration/ is one
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _nothing_left_in_temp(tmp_path_factory: pytest.TempPathFactory):
    """The session's temp folder (TMPDIR, so every subprocess's too) is a fresh, empty one;
    anything a test, LIT or a tool it starts leaves there fails the session, named. (With
    pytest-xdist each worker has its own basetemp, so its own folder.)"""
    folder = tmp_path_factory.mktemp("tempdir", numbered=False)
    # torch keeps its compiled-kernel cache in TMPDIR unless told (torchinductor_$USER): the
    # tests that load tiny models point it at pytest's own area, removed with the rest
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR",
                          str(tmp_path_factory.mktemp("torchinductor", numbered=False)))
    saved = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"] = tempfile.tempdir = str(folder)
    yield folder
    if saved[0] is None:
        del os.environ["TMPDIR"]
    else:
        os.environ["TMPDIR"] = saved[0]
    tempfile.tempdir = saved[1]
    left = sorted(p.name for p in folder.iterdir())
    if left:
        pytest.fail(f"the tests left {len(left)} entries in the temp folder {folder}: "
                    f"{', '.join(left[:20])}; whatever made them must remove them", pytrace=False)


@pytest.fixture(autouse=True)
def _own_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """Each test starts with an empty LIT cache (so with no parses cached by another test or
    by the user's own runs: lit.ace.parsecache lives there)."""
    monkeypatch.setenv("LIT_CACHE_DIR", str(tmp_path_factory.mktemp("lit-cache")))


@pytest.fixture(scope="session")
def oracle_pairs() -> list[dict]:
    return read_jsonl(ORACLE / "pairs.jsonl.gz")


@pytest.fixture(scope="session")
def gold_2025() -> list[dict]:
    return read_jsonl(DATA / "erg-gold-2025.jsonl.gz")


# The fake ACE's fixtures (fake_ace_executable, fake_ace_config, fake_ace_service):
# see tests/fake_ace/fixtures.py.
class Reversed:
    """A scorer that likes whatever the generator liked least: ranking must still never pick a
    defective candidate. *scale* as a real scorer's (None: the ranking's own fallback)."""

    name = "reversed"
    model_name = None

    def __init__(self, scale: float | None = None):
        self.scale = scale

    def load(self):
        """Nothing to load."""

    def score(self, groups):
        return [[-float(i) for i in range(len(g))] for g in groups]


def read_recorded(path: Path) -> list[dict]:
    """The candidate lists of a tests/data/live recording, without its metadata line."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [r for r in map(json.loads, f) if "meta" not in r]


from tests.fake_ace.fixtures import *  # noqa: E402,F401,F403


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A user with nothing configured: no LIT_* variables, an empty cache, config file and PATH."""
    for var in ("LIT_ACE", "LIT_GRAMMAR", "LIT_GRAMMAR_VERSION"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LIT_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    return tmp_path
