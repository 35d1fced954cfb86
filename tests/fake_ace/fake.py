"""The fake ``ace`` of the tests: lit.demo.replay (the replaying ACE `lit demo` ships) over the
whole oracle, tests/data/oracle/ace-transcripts.jsonl.gz. Faults on command and the protocol
are described in lit/demo/replay.py."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script by tests/fake_ace/ace, lit may not be installed

from lit.demo import replay  # noqa: E402
from lit.demo.replay import join_results, split_results  # noqa: E402,F401 (tests use them)

TRANSCRIPTS = ROOT / "tests" / "data" / "oracle" / "ace-transcripts.jsonl.gz"


def build_index(path: Path, transcripts: Path = TRANSCRIPTS) -> Path:
    return replay.build_index(path, transcripts)


def default_index_path(transcripts: Path = TRANSCRIPTS) -> Path:
    return replay.default_index_path(transcripts)


if __name__ == "__main__":
    os.environ.setdefault("LIT_FAKE_ACE_TRANSCRIPTS", str(TRANSCRIPTS))
    sys.exit(replay.main())
