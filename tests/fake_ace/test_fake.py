"""The fake ACE speaks ACE's protocol to PyDelphin itself and replays the recordings faithfully."""

from __future__ import annotations

import subprocess

import pytest
from delphin import ace, util

from tests.conftest import ORACLE, read_jsonl
from tests.fake_ace.fake import join_results, split_results


@pytest.fixture(scope="module")
def transcripts() -> list[dict]:
    return read_jsonl(ORACLE / "ace-transcripts.jsonl.gz")


def test_version(fake_ace_executable, transcripts):
    out = subprocess.run([str(fake_ace_executable), "-V"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == transcripts[0]["stdout"]


def test_unknown_flags_and_missing_grammar_are_refused_like_ace(fake_ace_config):
    bad_flag = subprocess.run([str(fake_ace_config.ace), "-g", str(fake_ace_config.grammar),
                               "--no-such-flag"], capture_output=True, text=True, input="")
    assert bad_flag.returncode != 0
    missing = subprocess.run([str(fake_ace_config.ace), "-g", "/nonexistent.dat"],
                             capture_output=True, text=True, input="")
    assert missing.returncode != 0 and "unable to open grammar" in missing.stderr


def test_pydelphin_gets_recorded_answers_and_the_process_stays_alive(fake_ace_config, transcripts):
    record = next(r for r in transcripts if r["mode"] == "parse" and r["args"][3] == "5"
                  and r["returncode"] == 0)
    with ace.ACEParser(str(fake_ace_config.grammar), executable=str(fake_ace_config.ace),
                       cmdargs=["-n", "5"], stderr=subprocess.DEVNULL) as parser:
        unknown = parser.interact("Nobody ever recorded this sentence.")
        assert unknown["results"] == [] and parser._p.poll() is None
        response = parser.interact(record["input"])
        assert parser.run_info["grammar"] == "ERG (2018)"  # from the start-up header
    recorded, _ = ace._make_response([record["stdout"].split("\n")[1]], {})
    recorded = ace._tsdb_response(recorded, record["stdout"].split("\n")[1])
    assert [r["mrs"] for r in response["results"]] == [r["mrs"] for r in recorded["results"]]
    assert [r["derivation"] for r in response["results"]] == [
        r["derivation"] for r in recorded["results"]]


def test_split_results_agrees_with_pydelphins_reader(transcripts):
    for record in transcripts[1:400:7]:
        body = record["stdout"].split("\n")[1]
        prefix, items, suffix = split_results(body)
        expected = dict(util.SExpr.parse("(" + body + ")").data)[":results"]
        assert len(items) == len(expected)
        if items:
            cut = join_results(prefix, items[:1], suffix)
            assert len(dict(util.SExpr.parse("(" + cut + ")").data)[":results"]) == 1
            assert "(:readings . 1)" in cut


def test_fast_reader_gives_what_pydelphin_gives(transcripts):
    from lit.ace.tsdb import read_response

    for record in transcripts[1::20]:
        body = record["stdout"].split("\n")[1]
        expected, lines = ace._make_response([body], {})
        expected = ace._tsdb_response(expected, " ".join(lines))
        ours, lines = ace._make_response([body], {})
        assert read_response(ours, " ".join(lines)) == expected
    cut, _ = ace._make_response([], {})
    assert read_response(cut, '(:results . ((:result-id . 0) (:mrs . "[ LTOP')["error"]
