"""lit.run_nli, the one run API behind `lit nli`: a resumable run from Python (docs/api.md)."""

from __future__ import annotations

import json

import pytest

import lit
from tests.conftest import ORACLE, read_jsonl


@pytest.fixture
def pairs_file(tmp_path):
    """Six oracle NLI pairs (the fake ACE knows their sentences) as a JSONL dataset."""
    path = tmp_path / "pairs.jsonl"
    rows = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:6]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path, rows


def test_a_run_stopped_early_is_resumed_from_python(fake_ace_config, pairs_file, tmp_path):
    source, rows = pairs_file
    out = tmp_path / "contrast.jsonl"
    config = lit.RunConfig(ace=str(fake_ace_config.ace), grammar=str(fake_ace_config.grammar),
                           grammar_version="2018", scorer="ace", workers=2)
    first = lit.run_nli(source, out, ["f;p", "m;o"], config=config, limit=2)
    assert (first.written, first.resumed) == (2, 0)
    with pytest.raises(lit.InputError, match="pass --resume to continue it or --overwrite"):
        lit.run_nli(source, out, ["f;p", "m;o"], config=config)
    second = lit.run_nli(source, out, ["f;p", "m;o"], config=config, resume=True)
    assert (second.written, second.resumed) == (4, 2)
    records = read_jsonl(out)
    assert len(records) == len(rows) == second.summary.records
    assert [r["input"]["sentence1"] for r in records] == [r["sentence1"] for r in rows]
    assert "with at least one contrast pair" in second.format()


def test_an_open_engine_is_reused_and_left_open(fake_ace_config, pairs_file, tmp_path):
    source, rows = pairs_file
    with lit.Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", scorer="ace",
                    workers=2) as engine:
        result = lit.run_nli(source, tmp_path / "a.jsonl", ["o;n"], engine=engine, limit=1)
        again = lit.run_nli(source, tmp_path / "a.jsonl", ["o;n"], engine=engine,
                            overwrite=True)
        assert engine.transform("A dog is running.", "neg")["status"] == "ok"
    assert (result.written, again.written) == (1, len(rows))
