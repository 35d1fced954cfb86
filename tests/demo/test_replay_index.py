"""The fake ACE (lit.demo.replay) answers a generation input by its canonical form or, if the
index shows no recorded input could be equivalent, empty, without importing networkx (a fresh
generator process per item pays for every import); otherwise lit.equivalence decides. Either
way the answer is the one the equivalence lookup gives."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

from tests.conftest import ORACLE, read_jsonl
from tests.fake_ace.fixtures import FAKE, INDEX
from tests.test_equivalence import renamed_copy


def generate(config, index, inputs: list[str]) -> tuple[list[str], bool]:
    """The fake's answer lines to *inputs* (one generator) and whether it imported networkx."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", str(FAKE), "-g", str(config.grammar), "-e",
         "--tsdb-stdout"],
        input="".join(f"{line}\n" for line in inputs), capture_output=True, text=True,
        env=dict(os.environ, LIT_FAKE_ACE_INDEX=str(index)))
    assert out.returncode == 0, out.stderr[-2000:]
    answers = [line for line in out.stdout.split("\n") if line.startswith("(:results")]
    return answers, any(line.split("|")[-1].strip() == "networkx"
                        for line in out.stderr.splitlines() if line.startswith("import time:"))


def test_generation_answers_need_networkx_only_when_equivalence_must_decide(fake_ace_config,
                                                                            tmp_path):
    recorded = [r["input"] for r in read_jsonl(ORACLE / "ace-transcripts.jsonl.gz")
                if r["mode"] == "generate" and "(:results . ())" not in r["stdout"]][::100]
    unknown = recorded[0].replace("_woman_n_1", "_walrus_n_1")
    assert unknown != recorded[0] and len(recorded) >= 6
    inputs = [renamed_copy(text) for text in recorded] + [unknown]
    answers, imported = generate(fake_ace_config, INDEX, inputs)
    assert not imported
    assert len(answers) == len(inputs) and answers[-1].startswith("(:results . ())")
    assert all(not a.startswith("(:results . ())") for a in answers[:-1])
    # without the forms, every input known by its invariant goes to lit.equivalence: same answers
    slow = tmp_path / "index.sqlite"
    shutil.copy(INDEX, slow)
    with sqlite3.connect(slow) as db:
        db.execute("DELETE FROM by_form")
    assert generate(fake_ace_config, slow, inputs) == (answers, True)
