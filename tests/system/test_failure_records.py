"""Every LIT file is readable by every LIT command (issue 25): a `lit nli` output holding an
`invalid_input` record (a label 'maybe') is read, counted and shown by `lit evaluate`, `lit
report`, `lit analyze` and `lit augment`, never fatal or dropped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lit.cli import main
from lit.pipeline.engine import Engine
from lit.pipeline.run import run_nli
from tests.conftest import ORACLE, read_jsonl

SPECS = ["m;o"]


@pytest.fixture(scope="module")
def contrast(fake_ace_config, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("failures")
    pairs = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:6]
    bad = dict(pairs[0], pairID="bad", gold_label="maybe")
    source = folder / "pairs.jsonl"
    source.write_text("".join(json.dumps(p) + "\n" for p in [*pairs, bad]))
    out = folder / "c.jsonl"
    run_nli(source, out, SPECS, engine=lambda: Engine(
        fake_ace_config.ace, fake_ace_config.grammar, "2018", scorer="ace", workers=1))
    statuses = [json.loads(line)["status"] for line in out.read_text().splitlines()]
    assert statuses[-1] == "invalid_input" and len(statuses) == 7
    return out


def test_evaluate_counts_an_invalid_input_record(contrast, tmp_path, capsys):
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(
        json.dumps({"id": json.loads(line)["id"], "spec": "original",
                    "prediction": "entailment"}) + "\n"
        for line in contrast.read_text().splitlines()[:6]))
    assert main(["evaluate", str(contrast), "--predictions", str(predictions)]) == 0
    err = capsys.readouterr().err
    assert "of 7 records failed (" in err and "invalid_input 1" in err


def test_report_shows_every_record_and_the_failed_ones(contrast, tmp_path, capsys):
    page = tmp_path / "r.html"
    assert main(["report", str(contrast), "-o", str(page)]) == 0
    err = capsys.readouterr().err
    assert "bad record" not in err
    assert "of 7 records failed (" in err and "invalid_input 1" in err
    html = page.read_text()
    assert '<div class="num">7</div><div class="lbl">input records</div>' in html
    assert "records failed: " in html and "invalid_input 1" in html
    records = [json.loads(line) for line in contrast.read_text().splitlines()]
    parsed = sum(r["status"] not in ("invalid_input", "no_parse") for r in records)
    assert (f'<div class="num">{parsed}</div><div class="lbl">records parsed '
            "(not invalid_input or no_parse)</div>") in html


def test_analyze_and_augment_read_it(contrast, fake_ace_config, tmp_path, capsys):
    analysis = tmp_path / "a.json"
    ace = ["--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
           "--grammar-version", "2018"]
    assert main(["analyze", str(contrast), "-o", str(analysis), *ace]) == 0
    assert json.loads(analysis.read_text())["invalid_records"] == 1
    out = tmp_path / "train.jsonl"
    assert main(["augment", "--from-contrast", str(contrast), "-o", str(out), *ace]) == 0
    assert "invalid input 1" in capsys.readouterr().err
