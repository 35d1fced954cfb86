"""The HTML report's content: highlighted changes, escaping, sections, self-containedness."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import escape

import pytest

from lit.cli import main
from lit.evaluate import evaluate, read_contrast_file, read_predictions
from lit.records import Record
from lit.report import build_report
from lit.worddiff import highlight
from tests.conftest import DATA

CONTRAST = DATA / "eval" / "contrast.jsonl"
PREDICTIONS = DATA / "eval" / "predictions.jsonl"


def test_highlight_marks_changed_words_only():
    before, after = highlight("A woman is driving a car.", "A woman will be driving a car.")
    assert before == "A woman <del>is</del> driving a car."
    assert after == "A woman <ins>will be</ins> driving a car."
    same = "Mary likes the dog."
    assert highlight(same, same) == (same, same)


def test_highlight_escapes_html():
    before, after = highlight("a <b> c", "a <i> c")
    assert before == "a <del>&lt;b&gt;</del> c" and after == "a <ins>&lt;i&gt;</ins> c"


@pytest.fixture(scope="module")
def records():
    return read_contrast_file(CONTRAST)


def test_report_without_evaluation_or_analysis(records):
    html = build_report(records)
    assert re.findall(r'<section id="(\w+)"', html) == ["summary", "tailor", "failures",
                                                          "labelrules", "examples"]
    # the f;p example of s02:same with its change highlighted, labels and rule id
    assert "A woman <ins>will be</ins> driving a car." in html
    assert "A woman <ins>was</ins> driving a car." in html
    assert "E → N" in html and "tense_decoupled" in html
    # the failure breakdown names each reason with its count
    reason = "hypothesis: ACE produced no realization of the cleft MRS"
    assert f'<span class="small raw">{reason}</span></td><td class="num">4' in html
    # ... in plain words above the raw reason
    assert "the grammar produced no sentence for the transformed meaning<br>" in html
    assert "premise: ACE found no analysis" in html
    assert "model (ori → ctr)" not in html


def test_report_with_evaluation_shows_scores_and_predictions(records):
    preds = read_predictions(PREDICTIONS)
    result = evaluate(records, preds)
    result["predictions"] = [{"id": i, "spec": s, "prediction": p} for (i, s), p in preds.items()]
    html = build_report(records, evaluation=result)
    assert '<section id="evaluation">' in html
    assert "<td>f;p</td><td>label-changing</td><td class=\"num\">6</td>" in html
    # s07:same f;p: wrong on the original (N for E), right on the contrast (N)
    row = next(r for r in html.split("<tr") if "s07:same" in r and "tense_decoupled" in r)
    assert 'data-error="1"' in row
    assert '<span class="pred wrong">N</span> → <span class="pred right">N</span>' in row


def test_report_is_self_contained(records):
    html = build_report(records, title="<script>alert(1)</script>")
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in html
    urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"'#][^"']*)""", html)
    assert urls == []  # no external scripts, styles, images or links
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"] * html.count(
        'xmlns="http://www.w3.org/2000/svg"')
    assert "Content-Security-Policy" in html and "default-src 'none'" in html


def test_sentences_are_escaped(records):
    rec = records[0].to_dict()
    rec["transforms"][0]["premise"]["output"] = "It is <img src=x onerror=alert(1)> who is driving."
    html = build_report([Record.from_json(rec)])
    assert "<img src=x" not in html and "&lt;img src=x" in html


def test_cli(tmp_path, capsys):
    scores, out = tmp_path / "scores.json", tmp_path / "report.html"
    assert main(["evaluate", str(CONTRAST), "--predictions", str(PREDICTIONS),
                 "-o", str(scores)]) == 0
    assert main(["report", str(CONTRAST), "--evaluation", str(scores), "--examples", "2",
                 "--title", "Fixture", "-o", str(out)]) == 0
    html = out.read_text()
    assert "<title>Fixture</title>" in html
    assert html.count("<details open>") == 4
    # every pair is in the page, 2 rows per page of the m;o table
    assert '<table class="examples" data-page-size="2">' in html
    assert "14</span> of 14 pairs match" in html
    ok = sum(1 for r in read_contrast_file(CONTRAST) for t in r.transforms if t.ok)
    assert html.count("<tr data-error=") == ok


def test_cli_rejects_wrong_json(tmp_path, capsys):
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"hello": 1}')
    assert main(["report", str(CONTRAST), "--evaluation", str(wrong),
                 "-o", str(tmp_path / "r.html")]) == 2
    assert "not the JSON of `lit evaluate -o`" in capsys.readouterr().err


def test_failure_table_lists_the_commonest_reasons_then_the_rest(records):
    rec = records[0]
    many = [replace(rec, id=f"r{k}", transforms=(
        replace(rec.transforms[0], status="no_generation", reason=f"reason {k}"),) * (k + 1))
        for k in range(25)]
    html = build_report(many)
    assert "reason 24</td><td class=\"num\">25" in html  # the commonest first
    assert "reason 4<" not in html  # the 5 rarest are summed up
    assert "<i>… 5 more</i></td><td></td><td></td><td class=\"num\">15" in html  # 1+2+3+4+5


def test_report_lists_label_rules_with_rationales_and_drills_down(records):
    html = build_report(records)
    section = html.split('<section id="labelrules">')[1].split("</section>")[0]
    rationale = next(t.label_rationale for r in records for t in r.transforms
                     if t.label_rule == "tense_decoupled")
    assert "<code>tense_decoupled</code>" in section and escape(rationale) in section
    # each example row: rationale on hover, and its candidates with scores and the MRS
    examples = html.split('<section id="examples">')[1]
    assert f'<span title="{escape(rationale, quote=True)}">tense_decoupled</span>' in examples
    assert examples.count('<details class="drill">') == sum(
        1 for r in records for t in r.transforms if t.ok)


def test_report_accuracies_have_wilson_intervals(records):
    from lit.evaluate.metrics import wilson_interval

    low, high = wilson_interval(5 / 6, 6)
    assert (round(low, 3), round(high, 3)) == (0.436, 0.970)  # Wilson (1927), z = 1.96
    assert wilson_interval(None, 0) is None and wilson_interval(1.0, 10)[1] == 1.0
    result = evaluate(records, read_predictions(PREDICTIONS))
    html = build_report(records, evaluation=result)
    assert '83.33 <span class="small">[43.6–97.0]</span>' in html


def test_report_refuses_an_evaluation_of_another_file(tmp_path, capsys):
    scores = tmp_path / "scores.json"
    assert main(["evaluate", str(CONTRAST), "--predictions", str(PREDICTIONS),
                 "-o", str(scores)]) == 0
    data = json.loads(scores.read_text())
    other = tmp_path / "other.jsonl"
    other.write_text("".join(line + "\n" for line in CONTRAST.read_text().splitlines()
                             if '"s02:' not in line))
    assert main(["report", str(other), "--evaluation", str(scores),
                 "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert f"{scores}: not an evaluation of {other}" in err and "ids not in this file" in err
    data["predictions"] = [p for p in data["predictions"] if not p["id"].startswith("s02:")]
    data["specs"].append(dict(data["specs"][0], spec="q;q"))
    scores.write_text(json.dumps(data))
    assert main(["report", str(other), "--evaluation", str(scores),
                 "-o", str(tmp_path / "r.html")]) == 2
    assert "spec(s) 'q;q' that this file does not have" in capsys.readouterr().err


def test_report_shows_the_run_metadata(tmp_path):
    from lit.io.meta import now, write_meta
    from lit.provenance import Toolchain, build_meta

    contrast = tmp_path / "c.jsonl"
    contrast.write_text(CONTRAST.read_text())
    tools = Toolchain(grammar_version="2025", scorer="gpt2")
    write_meta(contrast, build_meta("nli", started=now(), specs=["f;p", "m;o"], tools=tools,
                                    inputs={"input": CONTRAST}))
    assert main(["report", str(contrast), "-o", str(tmp_path / "r.html")]) == 0
    html = (tmp_path / "r.html").read_text()
    section = html.split('<section id="run">')[1].split("</section>")[0]
    assert "lit nli (LIT" in section and "ERG 2025" in section and "f;p, m;o" in section
    assert "SHA-256" in section and "gpt2" in section
