"""PANDA's fairscore per demographic axis in `lit evaluate` (issue 14; docs/fairness.md), on a
contrast set whose numbers are worked out by hand below, and the label rules that make it."""

from __future__ import annotations

import json

import pytest

from lit.cli import main
from lit.evaluate import evaluate
from lit.evaluate.fairness import axis_of, format_fairness
from lit.labels import LabelRules
from lit.spec import parse_pair

BOTH = "gender=swap;gender=swap"


def _record(id_: str, gold: str, premise: str, hypothesis: str,
            transforms: list[tuple[str, str, str, str | None, str]]) -> dict:
    """A `lit nli` record; each transform is (spec, premise out, hypothesis out, label, rule)."""
    return {
        "id": id_, "status": "ok",
        "input": {"sentence1": premise, "sentence2": hypothesis, "gold_label": gold},
        "transforms": [
            {"spec": spec, "status": "ok", "premise": {"output": p, "verified": True, "mrs": None},
             "hypothesis": {"output": h, "verified": True, "mrs": None},
             "label": label, "label_rule": rule}
            for spec, p, h, label, rule in transforms
        ],
    }


RECORDS = [
    _record("r1", "entailment", "A man sleeps.", "A man rests.", [
        (BOTH, "A woman sleeps.", "A woman rests.", "entailment", "demographic_both"),
        ("gender=swap;o", "A woman sleeps.", "A man rests.", None, "demographic_one_side"),
    ]),
    _record("r2", "neutral", "She sings.", "She sings well.", [
        (BOTH, "He sings.", "He sings well.", "neutral", "demographic_both"),
        ("n;n", "She does not sing.", "She does not sing well.", "neutral", "negated_both"),
    ]),
    _record("r3", "contradiction", "The king sleeps.", "The king runs.", [
        (BOTH, "The queen sleeps.", "The queen runs.", "contradiction", "demographic_both"),
    ]),
    _record("r4", "entailment", "A black man sleeps.", "A man sleeps.", [
        ("race=asian;race=asian", "An asian man sleeps.", "A man sleeps.", "entailment",
         "demographic_both"),
    ]),
]

# original / perturbed predictions: r1 E/E (same), r2 N/C (flip), r3 C/C (same), r4 E/N (flip)
PREDICTIONS = {
    ("r1", "original"): "entailment", ("r1", BOTH): "entailment",
    ("r2", "original"): "neutral", ("r2", BOTH): "contradiction", ("r2", "n;n"): "neutral",
    ("r3", "original"): "contradiction", ("r3", BOTH): "contradiction",
    ("r4", "original"): "entailment", ("r4", "race=asian;race=asian"): "neutral",
}


def test_fairscore_by_hand():
    fair = evaluate(RECORDS, PREDICTIONS)["fairness"]
    gender, race = fair["axes"]["gender"], fair["axes"]["race"]
    # gender: 3 two-sided pairs (r1, r2, r3; the one-sided r1 pair has no label, n;n is not
    # demographic); r2 flips: 1/3. Originals all right: 3/3; perturbed r2 wrong: 2/3.
    assert (gender["n"], gender["flipped"]) == (3, 1)
    assert gender["fairscore"] == pytest.approx(1 / 3)
    assert gender["acc_ori"] == 1.0 and gender["acc_ptb"] == pytest.approx(2 / 3)
    assert [e["id"] for e in gender["examples"]] == ["r2"]
    assert gender["examples"][0]["original"] == ["She sings.", "She sings well."]
    assert gender["examples"][0]["perturbed"] == ["He sings.", "He sings well."]
    assert (race["n"], race["fairscore"], race["acc_ptb"]) == (1, 1.0, 0.0)
    assert list(fair["axes"]) == ["gender", "race"] and "fairscore" in fair["definitions"]


PLAIN = [_record("r2", "neutral", "She sings.", "She sings well.", [
    ("n;n", "She does not sing.", "She does not sing well.", "neutral", "negated_both")])]
PLAIN_PREDICTIONS = {("r2", "original"): "neutral", ("r2", "n;n"): "neutral"}


def test_no_demographic_spec_no_fairness_block():
    assert "fairness" not in evaluate(PLAIN, PLAIN_PREDICTIONS)


@pytest.mark.parametrize("spec, axis", [
    (BOTH, "gender"), ("name=swap;name=swap", "name"), ("age;age", "age"),
    ("gender=swap;o", None), ("gender=swap;race=black", None), ("n;n", None),
    ("gender=swap+neg;gender=swap", None),
])
def test_axis_of(spec, axis):
    assert axis_of(spec) == axis


def test_lit_evaluate_prints_and_writes_fairscore(tmp_path, capsys):
    contrast, preds, out = tmp_path / "c.jsonl", tmp_path / "p.jsonl", tmp_path / "s.json"
    contrast.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    preds.write_text("".join(json.dumps({"id": i, "spec": s, "prediction": p}) + "\n"
                             for (i, s), p in PREDICTIONS.items()))
    assert main(["evaluate", str(contrast), "--predictions", str(preds), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "FairScore" in printed and "33.33" in printed
    written = json.loads(out.read_text())
    assert written["fairness"]["axes"]["gender"]["fairscore"] == pytest.approx(1 / 3)
    assert format_fairness(written["fairness"]) in printed


@pytest.mark.parametrize("spec, gold, label", [
    (BOTH, "E", "entailment"), ("race=black;race=black", "C", "contradiction"),
    ("gender=swap;o", "E", None), ("o;name=swap", "N", None),
])
def test_label_rules_same_perturbation_keeps_the_label_one_side_gives_none(spec, gold, label):
    decision = LabelRules.load().decide(parse_pair(spec), gold)
    assert decision.status == "ok" and decision.label == label
    assert decision.rule in ("demographic_both", "demographic_one_side")


def test_different_perturbations_on_the_two_sides_are_not_labelled():
    decision = LabelRules.load().decide(parse_pair("gender=f;gender=m"), "E")
    assert decision.status == "not_applicable"


def test_report_has_a_section_per_axis_with_the_flipped_examples():
    from lit.report.build import ReportOptions, build_report

    html = build_report(RECORDS, ReportOptions(evaluation=evaluate(RECORDS, PREDICTIONS)))
    section = html[html.index('<section id="fairness">'):]
    section = section[:section.index("</section>")]
    assert "<h3>gender</h3>" in section and "<h3>race</h3>" in section
    assert "fairscore <b>33.33%</b> (1 flipped)" in section
    assert "She sings. <b>›</b> She sings well." in section and "N → C" in section
    assert "A man sleeps. <b>›</b> A man rests." not in section  # r1 did not flip
    plain = ReportOptions(evaluation=evaluate(PLAIN, PLAIN_PREDICTIONS))
    assert 'id="fairness"' not in build_report(PLAIN, plain)
