"""Pytest fixtures for the fake ACE (exported to every test by tests/conftest.py).

- ``fake_ace_executable`` (session): path of an executable that runs the fake ACE with this
  test interpreter (``sys.executable``), so it works without any venv on PATH.
- ``fake_ace_config`` (session): ``AceConfig(ace=<the fake>, grammar=<a dummy erg-2018.dat>,
  grammar_version="2018")`` — the oracle was recorded with ERG 2018 conventions.
- ``fake_ace_service`` (function): a started-on-demand ``AceService`` over the fake with 2
  workers and a 2-second timeout, closed after the test.

Faults on command: put ``__HANG__`` (busy), ``__STALL__`` (asleep), ``__CRASH__``,
``__ERROR__``, ``__EXIT__``, ``__GIVEUP__``, ``__RAM__``, ``__SIGKILL__`` or ``__SIGSTOP__`` in
a sentence (or a CARG of an MRS); slow items (``LIT_FAKE_ACE_SLEEP``) let a test signal ACE
mid-item. See lit/demo/replay.py.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lit.ace.config import AceConfig
from lit.ace.service import AceService
from lit.config import RunConfig
from tests.fake_ace.fake import build_index, default_index_path

FAKE = Path(__file__).with_name("fake.py")
#: The oracle's answer index, in the user's LIT cache (as it is when the tests start: tests
#: point LIT_CACHE_DIR at a fresh folder each, and must not rebuild it every time).
INDEX = default_index_path()
#: What a stand-in grammar image holds (its hash goes into run provenance).
GRAMMAR_BYTES = b"fake grammar image: the fake ACE replays recorded answers\n"

__all__ = ["fake_ace_executable", "fake_ace_config", "fake_ace_service", "write_fake_ace"]


def write_fake_ace(directory: Path, index: Path | None = None) -> Path:
    """Write an ``ace`` wrapper that runs the fake with this interpreter (index built if needed)."""
    index = index or INDEX
    if not index.exists():
        build_index(index)
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "ace"
    script.write_text(
        "#!/bin/sh\n"
        f"LIT_FAKE_ACE_INDEX={shlex.quote(str(index))}\n"
        "export LIT_FAKE_ACE_INDEX\n"
        # -S: no `site` at start-up (fake.py runs it if an answer needs an installed package)
        f'exec {shlex.quote(sys.executable)} -S {shlex.quote(str(FAKE))} "$@"\n'
    )
    script.chmod(0o755)
    return script


def replaying(directory: Path, transcripts: Path) -> tuple[Path, Path]:
    """A fake ``ace`` replaying *transcripts* (recorded on the rig) and a stand-in ERG 2025
    image beside it, both in *directory*: for `lit.Engine(ace, grammar, "2025", ...)`."""
    ace = write_fake_ace(directory, build_index(directory / "index.sqlite", transcripts))
    grammar = directory / "erg-2025.dat"
    grammar.write_bytes(GRAMMAR_BYTES)
    return ace, grammar


@pytest.fixture(scope="session")
def fake_ace_executable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fake_ace(tmp_path_factory.mktemp("fake-ace"))


@pytest.fixture(scope="session")
def fake_ace_config(fake_ace_executable: Path) -> AceConfig:
    grammar = fake_ace_executable.parent / "erg-2018.dat"
    grammar.write_bytes(GRAMMAR_BYTES)
    return AceConfig(ace=fake_ace_executable, grammar=grammar, grammar_version="2018")


@pytest.fixture
def fake_ace_service(fake_ace_config: AceConfig) -> Iterator[AceService]:
    with AceService(fake_ace_config, RunConfig(workers=2, timeout=2.0)) as service:
        yield service
