"""`lit parse` end to end through the fake ACE (a real subprocess per worker)."""

from __future__ import annotations

import io
import json

import pytest
from delphin.codecs import simplemrs

from lit.cli import main
from lit.equivalence import equivalent
from tests.conftest import ORACLE, read_jsonl


@pytest.fixture
def fake_args(fake_ace_config):
    return ["--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
            "--workers", "1", "--timeout", "2"]


@pytest.fixture(scope="module")
def recorded() -> dict[str, str]:
    return {s["sentence"]: s["mrs"] for s in read_jsonl(ORACLE / "sources.jsonl.gz") if s["parsed"]}


def test_prints_the_recorded_mrs(fake_args, recorded, capsys):
    # the oracle has no recording of "Alice saw Bob."; this source sentence is recorded
    sentence = "A woman is driving a car."
    assert main(["parse", *fake_args, sentence]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert equivalent(simplemrs.decode(out[0]), simplemrs.decode(recorded[sentence]))


def test_json_from_a_file_with_n_readings_and_failures(fake_args, tmp_path, capsys):
    path = tmp_path / "in.txt"
    path.write_text("A woman is driving a car.\n\nNo such sentence was recorded.\n")
    assert main(["parse", *fake_args, "-i", str(path), "-n", "2", "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["ok", "invalid_input", "no_parse"]
    assert len(records[0]["readings"]) == 2
    assert records[0]["readings"][0]["derivation"].startswith("(")
    assert records[1]["input"] == "" and records[1]["reason"]
    assert records[2]["reason"] == "ACE found no parse"


def test_stdin_and_comment_lines_for_failures(fake_args, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("__CRASH__\nA dog is chasing a cat.\n"))
    assert main(["parse", *fake_args]) == 0  # every input got its answer
    blocks = capsys.readouterr().out.split("\n\n")
    assert blocks[0].startswith("# ace_error: ACE exited with code 134")
    assert "_chase_v_1" in blocks[1]


def test_unreadable_input_file_is_one_clear_message(fake_args, tmp_path, capsys):
    assert main(["parse", *fake_args, "-i", str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot open" in err and "missing.txt" in err


def test_no_grammar_is_one_clear_message(monkeypatch, tmp_path, capsys):
    for var in ("LIT_ACE", "LIT_GRAMMAR", "LIT_GRAMMAR_VERSION"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LIT_CONFIG", str(tmp_path / "config.toml"))
    assert main(["parse", "Bob met Alice."]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "no grammar image found" in err and "lit setup" in err and "LIT_GRAMMAR" in err
