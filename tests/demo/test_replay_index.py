"""The fake ACE (lit.demo.replay) answers a generation input by its canonical form or, if the
index shows no recorded input could be equivalent, empty, without importing networkx (a fresh
generator process per item pays for every import); otherwise lit.equivalence decides. Either
way the answer is the one the equivalence lookup gives. A recorded input's own text is
answered without decoding it, so without PyDelphin, and the same."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

from tests.conftest import ORACLE, read_jsonl
from tests.fake_ace.fixtures import FAKE, INDEX
from tests.test_equivalence import renamed_copy


def generate(config, index, inputs: list[str], module: str = "networkx",
             python: tuple[str, ...] = ()) -> tuple[list[str], bool]:
    """The fake's answer lines to *inputs* (one generator, run with the *python* options) and
    whether it imported *module*."""
    out = subprocess.run(
        [sys.executable, *python, "-X", "importtime", str(FAKE), "-g", str(config.grammar),
         "-e", "--tsdb-stdout"],
        input="".join(f"{line}\n" for line in inputs), capture_output=True, text=True,
        env=dict(os.environ, LIT_FAKE_ACE_INDEX=str(index)))
    assert out.returncode == 0, out.stderr[-2000:]
    answers = [line for line in out.stdout.split("\n") if line.startswith("(:results")]
    return answers, any(line.split("|")[-1].strip() == module
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


def test_a_recorded_text_is_answered_as_its_form_is_without_pydelphin(fake_ace_config, tmp_path):
    """The text LIT sends for a recorded MRS is looked up as it is (`by_text`): the answer its
    form gives, with no PyDelphin imported, under ``python -S`` as the tests' wrapper runs it
    (`site` only when an input needs it: an unknown text still gets its answer by form)."""
    recorded = [r["input"] for r in read_jsonl(ORACLE / "ace-transcripts.jsonl.gz")
                if r["mode"] == "generate"][::50]
    by_form, _ = generate(fake_ace_config, INDEX, [renamed_copy(text) for text in recorded])
    assert sum(not a.startswith("(:results . ())") for a in by_form) >= 10
    assert generate(fake_ace_config, INDEX, recorded, "delphin", ("-S",)) == (by_form, False)
    assert generate(fake_ace_config, INDEX, [renamed_copy(recorded[0])], "delphin",
                    ("-S",)) == (by_form[:1], True)
    no_texts = tmp_path / "index.sqlite"
    shutil.copy(INDEX, no_texts)
    with sqlite3.connect(no_texts) as db:
        db.execute("DELETE FROM by_text")
    assert generate(fake_ace_config, no_texts, recorded, "delphin") == (by_form, True)
