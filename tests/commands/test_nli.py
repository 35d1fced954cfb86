"""`lit nli` and `lit transform` sentence mode through the fake ACE."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from lit.config import DEFAULTS
from lit.cli import main
from lit.commands.transform import transform_sentences
from lit.status import Status
from tests.conftest import DATA, ORACLE, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
SPECS = ["f;p", "p;f", "i;i", "pa;pa", "m;o", "p;f +i", "o;n", "q;q"]
STATUSES = {s.value for s in Status}


def ace_args(config) -> list[str]:
    return ["--ace", str(config.ace), "--grammar", str(config.grammar),
            "--grammar-version", "2018", "--scorer", "ace", "--workers", "2", "--no-progress"]


def check_records(records: list[dict], inputs: list[dict]) -> None:
    """One record per input, in order, each with a status; every non-ok status has a reason."""
    assert [r["id"] for r in records] == [str(i["pairID"]) for i in inputs]
    for r, i in zip(records, inputs):
        assert r["input"] == i
        assert r["status"] in STATUSES and (r["status"] == "ok") == (r["reason"] is None)
        for t in r["transforms"]:
            assert t["status"] in STATUSES and (t["status"] == "ok") == (t["reason"] is None)
        assert set(r["timings"]) == {"parse", "transform", "generate", "rank", "verify",
                                     "label", "total"}


@pytest.fixture(scope="module")
def oracle_run(fake_ace_config, tmp_path_factory):
    out = tmp_path_factory.mktemp("nli") / "contrast.jsonl"
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["nli", str(ORACLE / "nli-pairs.jsonl.gz"), "-o", str(out), "--specs",
                     ",".join(SPECS), *ace_args(fake_ace_config)])
    return code, out, err.getvalue()


def test_oracle_nli_pairs_become_labelled_contrast_pairs(oracle_run):
    code, out, err = oracle_run
    assert code == 0
    inputs = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")
    records = read_jsonl(out)
    check_records(records, inputs)
    ok = Counter(t["spec"] for r in records for t in r["transforms"] if t["status"] == "ok")
    assert ok["m;o"] >= 150 and ok["o;n"] >= 80 and ok["f;p"] >= 30 and ok["p;f"] >= 30
    assert ok["pa;pa"] >= 15 and ok["q;q"] >= 80
    flip = {"entailment": "contradiction", "contradiction": "entailment", "neutral": "neutral"}
    for r in records:
        gold = r["input"]["gold_label"]
        for t in r["transforms"]:
            if t["status"] != "ok":
                continue
            for side in ("premise", "hypothesis"):
                assert t[side]["verified"] is True and t[side]["output"] in t[side]["candidates"]
            expected = {"f;p": "neutral", "p;f": "neutral", "m;o": "neutral", "pa;pa": gold,
                        "o;n": flip[gold], "q;q": None}[t["spec"]]
            assert t["label"] == expected, (r["id"], t["spec"])
            assert t["label_rule"] and t["label_rationale"]
    same = next(r for r in records if r["id"] == "s02:same")
    fp = next(t for t in same["transforms"] if t["spec"] == "f;p")
    assert (fp["premise"]["output"], fp["hypothesis"]["output"]) == (
        "A woman will be driving a car.", "A woman was driving a car.")
    on = next(t for t in same["transforms"] if t["spec"] == "o;n")
    assert on["hypothesis"]["output"] == "A woman is not driving a car."
    assert on["label"] == "contradiction" and on["label_rule"] == "negated_hypothesis"
    # a past-tense original blocks the tense rows: nothing is generated for them
    past = next(r for r in records
                if r["input"]["sentence1"] == "The teacher praised the students.")
    t = next(t for t in past["transforms"] if t["spec"] == "p;f")
    assert t["status"] == "not_applicable" and "both.tense = pres" in t["reason"]
    assert t["premise"]["output"] is None
    for spec in SPECS:
        assert f"\n{spec} " in err
    assert "coverage" in err and "\n        f;p +i" not in err
    # each spec's expansion is echoed, and the whole summary is saved beside the output
    assert "p;f +i  " in err and "= tense=past+cleft ; tense=fut+cleft" in err
    saved = json.loads(out.with_name(out.name + ".summary.json").read_text())
    assert [s["spec"] for s in saved["specs"]] == SPECS and saved["records"] == len(records)
    assert all(r["reason"] in err for s in saved["specs"] for r in s["reasons"])


def test_output_loads_with_datasets(oracle_run, tmp_path):
    datasets = pytest.importorskip("datasets")
    _, out, _ = oracle_run
    ds = datasets.load_dataset("json", data_files=str(out), split="train",
                               cache_dir=str(tmp_path / "hf"))
    assert ds.num_rows == 255
    first = ds[0]["transforms"][0]
    assert set(first) >= {"spec", "status", "premise", "hypothesis", "label", "label_rule"}
    assert ds.features["transforms"].feature["premise"]["candidates"].feature.dtype == "string"
    assert ds.features["transforms"].feature["label"].dtype == "string"


def test_snli_run_killed_midway_then_resumed(fake_ace_config, tmp_path, monkeypatch):
    """1,289 SNLI dev pairs the fake does not know: every one gets a record, once, in order,
    even when the first run is killed with SIGKILL."""
    snli = DATA / "snli-1.0-dev.jsonl.gz"
    inputs = read_jsonl(snli)
    out = tmp_path / "snli.jsonl"
    cmd = [sys.executable, "-m", "lit", "nli", str(snli), "-o", str(out), "--batch-size", "16",
           "--specs", "f;p,m;o", *ace_args(fake_ace_config)]
    env = dict(os.environ, LIT_FAKE_ACE_DELAY="0.01", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 200:
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    first = out.read_bytes()
    assert 200 <= first.count(b"\n") < 1289
    with open(out, "ab") as f:  # as if the kill had cut a line in half
        f.write(b'{"id": "half-writ')
    code = main(["nli", str(snli), "-o", str(out), "--resume", "--specs", "f;p,m;o",
                 *ace_args(fake_ace_config)])
    assert code == 0
    records = read_jsonl(out)
    assert len(records) == 1289
    check_records(records, inputs)
    statuses = Counter(r["status"] for r in records)
    assert statuses == {"no_parse": 1273, "not_applicable": 16}
    for r in records:
        if r["input"]["gold_label"] == "-":
            assert r["reason"].startswith("no_consensus: gold label '-'")
            assert [t["status"] for t in r["transforms"]] == ["not_applicable"] * 2
        else:
            assert r["transforms"][0]["reason"].startswith("premise: ")


def test_csv_input_with_bad_rows(fake_ace_config, tmp_path, capsys):
    data = tmp_path / "pairs.csv"
    data.write_text("premise,hypothesis,label\n"
                    "A woman is driving a car.,A woman is not driving a car.,contradiction\n"
                    ",A dog is running.,neutral\n")
    out = tmp_path / "out.jsonl"
    code = main(["nli", str(data), "-o", str(out), "--premise-column", "premise",
                 "--hypothesis-column", "hypothesis", "--label-column", "label",
                 "--specs", "o;n,m;o", *ace_args(fake_ace_config)])
    assert code == 0
    good, bad = read_jsonl(out)
    assert (good["id"], bad["id"]) == ("2", "3")  # line numbers
    on = good["transforms"][0]
    assert on["status"] == "not_applicable" and "already negated" in on["reason"]
    mo = good["transforms"][1]
    assert mo["status"] == "ok" and mo["premise"]["output"] == "A woman may be driving a car."
    assert bad["status"] == "invalid_input" and "no sentence in field 'premise'" in bad["reason"]


def test_bad_spec_is_one_line_error(fake_ace_config, tmp_path, capsys):
    code = main(["nli", str(ORACLE / "nli-pairs.jsonl.gz"), "-o", str(tmp_path / "o.jsonl"),
                 "--specs", "f;p,f;zap", *ace_args(fake_ace_config)])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("lit nli: error: pair spec 'f;zap'") and "\n" not in err


def test_transform_sentence_mode(fake_ace_config, capsys, monkeypatch):
    args = argparse.Namespace(
        ace=str(fake_ace_config.ace), grammar=str(fake_ace_config.grammar),
        grammar_version="2018", workers=2, timeout=30.0, spec="tense=past", scorer="ace",
        sentences=["A woman is driving a car.", "Zorbs glimmer.", "A girl is reading a book."],
    )
    assert transform_sentences(args) == 0  # every sentence got its record, one says no_parse
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in lines] == ["ok", "no_parse", "ok"]
    assert lines[0]["output"] == "A woman was driving a car." and lines[0]["verified"] is True
    assert lines[2]["output"] == "A girl was reading a book."
    assert all(r["spec"] == "tense=past" for r in lines)
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"A dog is running.\n")))
    args.sentences, args.spec = ["-"], "tense=fut"
    assert transform_sentences(args) == 0
    (rec,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rec["output"] == "A dog will be running."


def test_transform_several_specs_parses_each_sentence_once(fake_ace_config, capsys):
    from lit.ace import service as service_module

    parsed: list[str] = []
    real = service_module.AceService.parse

    def counting(self, sentences, n=1):
        sentences = list(sentences)
        if n == DEFAULTS.readings:  # a source sentence's parse (re-parses of candidates: 20)
            parsed.extend(sentences)
        return real(self, sentences, n)

    args = argparse.Namespace(
        ace=str(fake_ace_config.ace), grammar=str(fake_ace_config.grammar),
        grammar_version="2018", workers=2, timeout=30.0, scorer="ace",
        spec=["tense=past", "tense=fut"],
        sentences=["A woman is driving a car.", "A girl is reading a book."],
    )
    with pytest.MonkeyPatch.context() as m:
        m.setattr(service_module.AceService, "parse", counting)
        assert transform_sentences(args) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["input"], r["spec"]) for r in lines] == [
        ("A woman is driving a car.", "tense=past"), ("A woman is driving a car.", "tense=fut"),
        ("A girl is reading a book.", "tense=past"), ("A girl is reading a book.", "tense=fut"),
    ]
    assert [r["output"] for r in lines] == [
        "A woman was driving a car.", "A woman will be driving a car.",
        "A girl was reading a book.", "A girl will be reading a book.",
    ]
    assert sorted(parsed) == ["A girl is reading a book.", "A woman is driving a car."]


def test_existing_output_needs_resume_or_overwrite(fake_ace_config, tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    out.write_text('{"id": "earlier work"}\n')
    args = ["nli", str(ORACLE / "nli-pairs.jsonl.gz"), "-o", str(out), "--limit", "3",
            "--specs", "m;o", *ace_args(fake_ace_config)]
    assert main(args) == 2
    assert "pass --resume to continue it or --overwrite" in capsys.readouterr().err
    assert out.read_text() == '{"id": "earlier work"}\n'
    assert main([*args, "--overwrite"]) == 0
    assert [r["id"] for r in read_jsonl(out)] == ["s02:pass", "s02:cleft=ARG1", "s02:neg"]


def test_a_limited_run_says_what_it_left_out_and_resume_adds_it(fake_ace_config, tmp_path,
                                                                 capsys):
    """Issue 55: a sample run (--limit) ends saying how many records it left out and how to
    add them; the command it names, without --limit and with --resume, does."""
    pairs = tmp_path / "pairs.jsonl"
    rows = list(read_jsonl(ORACLE / "nli-pairs.jsonl.gz"))[:5]
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "o.jsonl"
    args = ["nli", str(pairs), "-o", str(out), "--specs", "m;o", "--no-progress",
            *ace_args(fake_ace_config)]
    assert main([*args, "--limit", "3"]) == 0
    assert ("2 more record(s) of the input were left out by --limit: run the same command "
            "without --limit and with --resume to add them") in capsys.readouterr().err
    assert main([*args, "--resume"]) == 0
    assert "left out" not in capsys.readouterr().err
    assert [r["id"] for r in read_jsonl(out)] == [r["pairID"] for r in rows]
