"""`--resume` with larger limits retries only the records a limit stopped (issue 23)."""

from __future__ import annotations

import json

import pytest

import lit
from lit.pipeline.retry import drop_limited, stopped_by_limit
from tests.conftest import ORACLE, read_jsonl


@pytest.fixture
def pairs_file(tmp_path):
    """Four oracle pairs, and one whose premise makes the fake ACE stop at its time limit."""
    rows = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:4]
    rows.append({**rows[0], "pairID": "slow", "sentence1": "__GIVEUP__ A slow sentence."})
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path, rows


def test_resume_with_a_larger_limit_retries_only_what_a_limit_stopped(
        fake_ace_config, pairs_file, tmp_path, capsys):
    source, rows = pairs_file
    out = tmp_path / "contrast.jsonl"
    config = lit.RunConfig(ace=str(fake_ace_config.ace), grammar=str(fake_ace_config.grammar),
                           grammar_version="2018", scorer="ace", workers=1, timeout=2)
    first = lit.run_nli(source, out, ["f;p", "m;o"], config=config)
    records = read_jsonl(out)
    limited = [r["id"] for r in records if stopped_by_limit(r)]
    assert limited == ["slow"]
    assert {t["status"] for t in records[-1]["transforms"]} == {"timeout"}
    assert first.written == 5 and first.limited == 1
    assert "1 record(s) were stopped by a limit (timeout, resource)" in first.format()

    same = lit.run_nli(source, out, ["f;p", "m;o"], config=config, resume=True)
    assert (same.written, same.resumed) == (0, 5)  # same limits: nothing is retried
    assert "retrying" not in capsys.readouterr().err

    larger = lit.run_nli(source, out, ["f;p", "m;o"], config=config.replace(timeout=3),
                         resume=True)
    err = capsys.readouterr().err
    assert "--resume with changed limits (timeout: was 2.0, now 3.0)" in err
    assert "retrying the 1 record(s) a limit stopped" in err
    assert (larger.written, larger.resumed) == (1, 4)
    again = read_jsonl(out)
    assert sorted(r["id"] for r in again) == sorted(r["id"] for r in records)
    assert [r for r in again if r["id"] != "slow"] == records[:4]  # kept as written

    smaller = lit.run_nli(source, out, ["f;p", "m;o"], config=config.replace(timeout=1),
                          resume=True)
    assert "(timeout: was 3.0, now 1.0): none grew, so nothing is retried" in (
        capsys.readouterr().err)
    assert (smaller.written, smaller.resumed) == (0, 5)

    with pytest.raises(lit.InputError, match="cannot --resume: .*scorer"):
        lit.run_nli(source, out, ["f;p", "m;o"], config=config.replace(scorer="freq"),
                    resume=True)


def test_drop_limited_keeps_every_other_line_and_a_cut_off_tail(tmp_path):
    out = tmp_path / "o.jsonl"
    kept = {"id": "a", "input": {}, "status": None, "transforms": [{"status": "no_generation"}]}
    gone = [{"id": "b", "input": {}, "transforms": [{"status": "ok"}, {"status": "resource"}]},
            {"id": "c", "input": {}, "status": "timeout", "transforms": []}]
    text = "".join(json.dumps(r) + "\n" for r in [kept, *gone]) + '{"id": "d", "sta'
    out.write_text(text)
    assert drop_limited(out) == 2
    assert out.read_text() == json.dumps(kept) + "\n" + '{"id": "d", "sta'
    assert drop_limited(out) == 0
