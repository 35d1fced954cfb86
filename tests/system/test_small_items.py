"""Regression tests for issue 25's smaller items: the summary keeps quoted values, `lit nli
--help` lists every exit code and exit 1 happens, ACE dies with a SIGKILLed driver, and no
service leaves a directory in the temp dir. (The report's card and lit doctor: in
tests/system/test_failure_records.py and tests/ace/test_doctor.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from lit.ace.service import AceService
from lit.cli import main
from lit.config import RunConfig
from lit.pipeline.summary import Summary
from tests.procs import children

ROOT = Path(__file__).resolve().parents[2]


def test_the_summary_keeps_quoted_values_and_hides_quoted_sentences():
    summary = Summary()
    for reason in ("input: not an NLI label: 'maybe'", "premise: unknown lexeme 'zorp'",
                   "premise: no parse of 'A woman is standing near the water.'"):
        summary.add({"id": "1", "input": {}, "status": "invalid_input", "transforms": [
            {"spec": "f;p", "status": "invalid_input", "reason": reason}]})
    text = summary.format()
    assert "not an NLI label: 'maybe'" in text and "unknown lexeme 'zorp'" in text
    assert "no parse of <sentence>" in text and "standing" not in text
    assert "'maybe'" in json.dumps(summary.to_json())


def test_nli_help_lists_every_exit_code_and_nothing_usable_exits_1(fake_ace_config, tmp_path,
                                                                     capsys):
    with pytest.raises(SystemExit):
        main(["nli", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "Exit 0 when the run completes" in help_text
    assert "1 when no input record could be used" in help_text
    assert "2 on a configuration" in help_text
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["nli", str(empty), "-o", str(tmp_path / "c.jsonl"), "--scorer", "ace",
                 "--no-progress", "--ace", str(fake_ace_config.ace), "--grammar",
                 str(fake_ace_config.grammar), "--grammar-version", "2018"]) == 1


def test_a_service_leaves_nothing_in_the_temp_dir(fake_ace_config):
    before = set(Path(tempfile.gettempdir()).glob("lit-ace-*"))
    with AceService(fake_ace_config, RunConfig(workers=2, timeout=5)) as service:
        assert [r.status.value for r in service.parse(["Bob met Alice.", "The dog barks."])] \
            == ["ok", "ok"]
        assert set(Path(tempfile.gettempdir()).glob("lit-ace-*")) == before
    assert set(Path(tempfile.gettempdir()).glob("lit-ace-*")) == before


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_ace_dies_with_a_sigkilled_driver(fake_ace_config, tmp_path):
    """An ACE process busy with an item (one that hangs) ends within a second of its driver's
    SIGKILL, not when the item would have ended."""
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"pairID": "1", "sentence1": "__HANG__ Bob met Alice.",
                                 "sentence2": "Bob met Alice.", "gold_label": "entailment"})
                     + "\n")
    cmd = [sys.executable, "-m", "lit", "nli", str(pairs), "-o", str(tmp_path / "c.jsonl"),
           "--specs", "m;o", "--workers", "1", "--timeout", "300", "--ace",
           str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
           "--grammar-version", "2018", "--scorer", "ace", "--no-progress"]
    driver = subprocess.Popen(cmd, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    ace: set[int] = set()
    while time.monotonic() < deadline and not ace:
        ace = children(driver.pid)
        time.sleep(0.1)
    assert ace, "no ACE process started"
    time.sleep(1.0)  # ACE is now busy with the hanging item
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(map(_alive, ace)):
        time.sleep(0.05)
    assert not any(map(_alive, ace))
