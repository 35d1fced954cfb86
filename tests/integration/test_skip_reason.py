"""Without a live grammar the integration tests are skipped, and the skip says why and how to get
one (runs in CI, needs no ACE: not marked integration)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import INTEGRATION_SKIP_REASON

ROOT = Path(__file__).resolve().parents[2]


def test_skip_reason_names_the_variables_and_the_rig_script():
    for needle in ("LIT_ACE", "LIT_GRAMMAR", "../shared/tools/rig/build_rig.sh"):
        assert needle in INTEGRATION_SKIP_REASON


def test_integration_tests_are_skipped_with_the_reason_without_a_grammar():
    env = {k: v for k, v in os.environ.items() if k not in ("LIT_ACE", "LIT_GRAMMAR")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         "tests/integration/test_question_preference.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "passed" not in done.stdout and "skipped" in done.stdout
    assert "LIT_ACE and LIT_GRAMMAR" in done.stdout and "build_rig.sh" in done.stdout
