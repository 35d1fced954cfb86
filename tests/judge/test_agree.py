"""`lit judge agree`: Wilson intervals, kappa and the agreement table against figures computed
by hand (or published), and the answers file that feeds them."""

from __future__ import annotations

import json

import pytest

from lit.cli import main
from lit.errors import InputError
from lit.evaluate.metrics import wilson_interval
from lit.judge.agree import agreement, format_agreement, majority
from lit.judge.answers import AnswerLog, answers_path, latest, read_answers
from lit.judge.sample import items_of
from lit.judge.stats import cohen_kappa, fleiss_kappa, inter_annotator
from lit.report.build import build_report
from tests.judge.fixtures import PLAN, RECORDS, SCRIPT, write_contrast


@pytest.mark.parametrize("hits, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_published_values(hits, n, low, high):
    lo, hi = wilson_interval(hits / n, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_cohen_kappa_by_hand():
    # 10 items. Agreements: items 1, 2, 4, 5, 6, 7, 9 -> p_o = 7/10.
    # a: E 4, N 3, C 3; b: E 3, N 4, C 3 (of 10) -> p_e = .12 + .12 + .09 = .33
    # kappa = (.7 - .33) / (1 - .33) = .37 / .67 = 0.5522...
    a = list("EENNNCCCEE")
    b = list("EECNNCCNEN")
    assert sum(x == y for x, y in zip(a, b)) == 7
    assert cohen_kappa(a, b) == pytest.approx(0.37 / 0.67)
    assert cohen_kappa(list("EEE"), list("EEE")) is None  # one category: undefined
    assert cohen_kappa(list("EN"), list("NE")) == pytest.approx(-1.0)


def test_fleiss_kappa_matches_the_textbook_example():
    # Fleiss (1971) as worked in Wikipedia's "Fleiss' kappa": 10 subjects, 14 raters,
    # 5 categories; P-bar = 0.378, P_e = 0.213, kappa = 0.210.
    counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
              [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
              [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    ratings = [[str(c + 1) for c, k in enumerate(row) for _ in range(k)] for row in counts]
    assert fleiss_kappa(ratings) == pytest.approx(0.210, abs=0.0005)


def test_inter_annotator_uses_items_every_annotator_answered():
    answers = {"a": {"1": "E", "2": "N", "3": "C"}, "b": {"1": "E", "2": "E"}}
    result = inter_annotator(answers)
    # items 1 and 2: a E,N  b E,E -> p_o = 1/2; p_e = (1/2)(1) + (1/2)(0) = 1/2 -> kappa 0
    assert (result["method"], result["items"], result["kappa"]) == ("cohen", 2, 0.0)
    three = inter_annotator({**answers, "c": {"1": "E", "2": "N"}})
    assert three["method"] == "fleiss" and three["items"] == 2
    assert inter_annotator({"a": {"1": "E"}})["kappa"] is None


def test_majority_needs_a_single_top_label():
    assert majority(["E", "E", "N"]) == "E"
    assert majority(["E", "N"]) is None
    assert majority([]) is None


def _judgements(plan=PLAN) -> dict:
    out = {}
    for who, answers in plan.items():
        for rid, (fluent, change, label) in answers.items():
            out[(who, f"{rid}::{RECORDS[int(rid[1]) - 1].transforms[0].spec}")] = {
                "fluent": fluent, "change": change, "label": label}
    return out


def _items() -> list[dict]:
    return [it for r in RECORDS for it in items_of(r)]


def test_agreement_matches_hand_computed_figures():
    result = agreement(_items(), _judgements())
    expected_by_hand(result)


def expected_by_hand(result: dict) -> None:
    """The figures of tests.judge.fixtures.PLAN, worked out by hand:
    majorities r1 E (rule E), r2 N (rule N), r3 a tie (C/N), r4 E (rule N) -> 2 of 3;
    fluent yes: alice 3 + bob 2 of 8; change yes: alice 3 + bob 3 of 8.
    Cohen's kappa, label: p_o 3/4; alice E .5 N .25 C .25, bob E .5 N .5 -> p_e .375 ->
    (.75 - .375) / .625 = 0.6. fluent: p_o 3/4; alice yes .75, bob yes .5 -> p_e .5 -> 0.5.
    change: p_o 2/4; both yes .75 -> p_e .625 -> (.5 - .625) / .375 = -1/3.
    Label kept (rule = original label): r1, r3 (a tie) -> 1 of 1; changed: r2, r4 -> 1 of 2."""
    overall = result["overall"]
    assert (overall["items"], overall["judgements"], overall["ties"]) == (4, 8, 1)
    assert (overall["label"]["hits"], overall["label"]["n"]) == (2, 3)
    assert list(overall["label"]["ci"]) == pytest.approx(list(wilson_interval(2 / 3, 3)))
    assert (overall["fluent"]["hits"], overall["fluent"]["n"]) == (5, 8)
    assert (overall["change"]["hits"], overall["change"]["n"]) == (6, 8)
    inter = result["inter_annotator"]
    assert inter["label"]["method"] == "cohen" and inter["label"]["items"] == 4
    assert inter["label"]["kappa"] == pytest.approx(0.6)
    assert inter["fluent"]["kappa"] == pytest.approx(0.5)
    assert inter["change"]["kappa"] == pytest.approx(-1 / 3)
    kinds = {r["group"]: r for r in result["by_kind"]}
    assert (kinds["label kept"]["label"]["hits"], kinds["label kept"]["label"]["n"]) == (1, 1)
    assert kinds["label kept"]["ties"] == 1
    assert (kinds["label changed"]["label"]["hits"], kinds["label changed"]["label"]["n"]) \
        == (1, 2)
    assert {r["group"] for r in result["by_spec"]} == {"i;i", "f;p", "pa;pa", "m;o"}
    rules = {r["group"]: r for r in result["by_rule"]}
    assert rules["modal_premise"]["label"]["rate"] == 0.0
    assert rules["cleft_both"]["label"]["rate"] == 1.0
    (rejected,) = result["rejected"]
    assert (rejected["label_rule"], rejected["rejected"], rejected["n"]) == ("modal_premise", 1, 1)
    assert rejected["examples"][0]["item"] == "r4::m;o"
    assert rejected["examples"][0]["majority"] == "entailment"


def test_incomplete_judgements_do_not_count():
    judgements = _judgements()
    judgements[("carol", "r1::i;i")] = {"fluent": "no"}  # stopped after one question
    result = agreement(_items(), judgements)
    assert result["annotators"] == ["alice", "bob"]
    assert result["overall"]["judgements"] == 8


def test_format_agreement_prints_the_table():
    text = format_agreement(agreement(_items(), _judgements()))
    assert "2/3 66.7%" in text and "5/8 62.5%" in text
    assert "label: Cohen's kappa 0.600 over 4 items" in text
    assert "modal_premise: 1 of 1 items" in text


def test_answer_log_appends_at_once_and_resumes(tmp_path):
    path = tmp_path / "a.answers.jsonl"
    log = AnswerLog(path)
    log.append("alice", "r1::i;i", "label", "neutral")
    # on the disk before close: another reader sees it
    assert [a["answer"] for a in read_answers(path)] == ["neutral"]
    log.append("alice", "r1::i;i", "label", "entailment")  # a changed mind: the last wins
    log.close()
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"annotator": "alice", "item": "r2')  # a write killed midway
    assert len(read_answers(path)) == 2
    AnswerLog(path).close()  # reopening cuts the half line off, so appends start clean
    assert path.read_text().endswith("}\n")
    assert latest(read_answers(path)) == {("alice", "r1::i;i"): {"label": "entailment"}}
    path.write_text(path.read_text() + "not json\n")
    with pytest.raises(InputError, match=r"a.answers.jsonl:3: not an answer line"):
        read_answers(path)


def test_agree_command_prints_and_writes_json(tmp_path, capsys):
    contrast = write_contrast(tmp_path / "contrast.jsonl")
    sample = tmp_path / "sample.jsonl"
    assert main(["judge", "sample", str(contrast), "-o", str(sample), "-n", "10"]) == 0
    log = AnswerLog(answers_path(sample))
    for (who, item), answers in _judgements().items():
        for question, answer in answers.items():
            log.append(who, item, question, answer)
    log.close()
    out = tmp_path / "agree.json"
    assert main(["judge", "agree", str(sample), "-o", str(out)]) == 0
    assert "rule label = majority" in capsys.readouterr().out
    result = json.loads(out.read_text())
    expected_by_hand(result)
    html = build_report(RECORDS, judging=result)
    assert '<section id="judging">' in html
    assert SCRIPT not in html  # the example sentences are escaped
    other = tmp_path / "other.answers.jsonl"
    other.write_text(json.dumps({"annotator": "x", "item": "nope", "question": "label",
                                 "answer": "neutral"}) + "\n")
    assert main(["judge", "agree", str(sample), "--answers", str(other)]) == 2
    assert "not in the sample" in capsys.readouterr().err
