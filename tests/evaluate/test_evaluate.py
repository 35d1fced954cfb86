"""Contrast-set metrics against values computed by hand on tests/data/eval."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from lit.cli import main
from lit.errors import InputError
from lit.evaluate import EvaluateOptions, evaluate, read_contrast_file, read_predictions
from lit.evaluate.metrics import format_table
from tests.conftest import DATA

EVAL = DATA / "eval"
CONTRAST = EVAL / "contrast.jsonl"
PREDICTIONS = EVAL / "predictions.jsonl"


def approx(num: int, den: int):
    return pytest.approx(float(Fraction(num, den)))


def _record(spec: str, gold: str, new: str | None, rule: str = "tense_decoupled",
            id_: str = "p1") -> dict:
    """A record with one ok transform labelled *new* by the default rule *rule*."""
    return {
        "id": id_,
        "input": {"sentence1": "A dog is running.", "sentence2": "A dog is running.",
                  "gold_label": gold},
        "status": "ok", "reason": None,
        "transforms": [{
            "spec": spec, "status": "ok", "reason": None,
            "premise": {"output": "A dog will be running."},
            "hypothesis": {"output": "A dog was running."},
            "label": new, "label_rule": rule, "label_rationale": "",
        }],
    }


def test_worked_example_from_the_issue():
    """f;p, gold E -> N, the model says E on both: right then wrong."""
    preds = {("p1", "original"): "entailment", ("p1", "f;p"): "entailment"}
    row = evaluate([_record("f;p", "entailment", "neutral")], preds)["specs"][0]
    assert row["kind"] == "label_changing"
    assert (row["acc_ori"], row["acc_ctr"]) == (1.0, 0.0)
    assert row["consistency"] == 0.0
    assert row["same_prediction"] == 1.0
    assert row["contrast_consistency"] == 0.0


def test_label_preserving_consistency_is_same_prediction():
    """i;i with gold E -> E and the model wrong on both (N, N): consistent, not right."""
    preds = {("p1", "original"): "neutral", ("p1", "i;i"): "neutral"}
    row = evaluate([_record("i;i", "E", "E", "cleft_both")], preds)["specs"][0]
    assert row["kind"] == "label_preserving"
    assert row["consistency"] == row["same_prediction"] == 1.0
    assert row["contrast_consistency"] == 0.0


def test_kind_comes_from_the_label_rule_not_from_the_labels():
    """f;p whose scored pairs all happen to be N -> N is still label-changing (its rule maps
    E and C to N): consistency is right-on-both, not same-prediction."""
    records = [_record("f;p", "neutral", "neutral", id_="p1"),
               _record("f;p", "neutral", "neutral", id_="p2")]
    preds = {("p1", "original"): "neutral", ("p1", "f;p"): "neutral",  # right on both
             ("p2", "original"): "entailment", ("p2", "f;p"): "entailment"}  # same, wrong
    row = evaluate(records, preds)["specs"][0]
    assert row["transitions"] == {"neutral>neutral": 2}
    assert row["kind"] == "label_changing"
    assert row["same_prediction"] == 1.0
    assert row["consistency"] == row["contrast_consistency"] == 0.5


def test_composed_rule_ids_are_decided_by_their_first_rule():
    """`pa;pa +i` falls back through cleft_neutral to passive_both: label-preserving;
    `f;p +pa` through passive_neutral to tense_decoupled: label-changing."""
    preds = {("p1", "original"): "entailment", ("p1", "pa;pa +i"): "neutral",
             ("p2", "original"): "entailment", ("p2", "f;p +pa"): "neutral"}
    result = evaluate([_record("pa;pa +i", "E", "E", "passive_both+cleft_neutral"),
                       _record("f;p +pa", "E", "N", "tense_decoupled+passive_neutral", "p2")],
                      preds)
    assert [(r["spec"], r["kind"]) for r in result["specs"]] == [
        ("pa;pa +i", "label_preserving"), ("f;p +pa", "label_changing")]


def test_unknown_label_rule_says_to_pass_label_rules(tmp_path, capsys):
    contrast = tmp_path / "contrast.jsonl"
    contrast.write_text(json.dumps(_record("f;p", "E", "N", "my_future_rule")) + "\n")
    preds = tmp_path / "preds.jsonl"
    preds.write_text('{"id": "p1", "spec": "original", "prediction": "E"}\n'
                     '{"id": "p1", "spec": "f;p", "prediction": "N"}\n')
    args = ["evaluate", str(contrast), "--predictions", str(preds)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "contrast.jsonl:1: record 'p1', spec 'f;p': label rule 'my_future_rule'" in err
    assert "--label-rules" in err and "default.labels" in err
    rules = tmp_path / "mine.labels"
    rules.write_text('rule my_future_rule { pairs "f;p" map * -> N why "test" }\n')
    out = tmp_path / "scores.json"
    assert main([*args, "--label-rules", str(rules), "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["label_rules_file"] == str(rules)
    assert data["specs"][0]["kind"] == "label_changing"


def test_labelled_transform_without_rule_id_is_an_error():
    preds = {("p1", "original"): "entailment", ("p1", "f;p"): "neutral"}
    with pytest.raises(InputError, match="record 'p1', spec 'f;p': .* without a `label_rule`"):
        evaluate([_record("f;p", "E", "N", None)], preds)


@pytest.fixture(scope="module")
def result() -> dict:
    return evaluate(read_contrast_file(CONTRAST), read_predictions(PREDICTIONS),
                    EvaluateOptions(CONTRAST))


def test_fixture_metrics_equal_hand_computed_values(result):
    # Predictions (E/N/C; originals first), as written in make_fixtures.py:
    #   same r1..r6: ori E E E E E N | i;i E E E N E N | pa;pa E E C E E E
    #                f;p E N N E N N | m;o N N E E N N        (gold E; i;i, pa;pa E; f;p, m;o N)
    #   neg r7..r10: ori C C C N | m;o N C N N                (gold C; m;o N)
    #   fut r11..14: ori N N E N | m;o N E N N                (gold N; m;o N)
    specs = {r["spec"]: r for r in result["specs"]}
    assert list(specs) == ["i;i", "pa;pa", "f;p", "m;o"]
    expect = {
        # i;i: ori right r1-5; ctr right r1,r2,r3,r5; same all but r4; both r1,r2,r3,r5
        "i;i": ("label_preserving", 6, (5, 6), (4, 6), (5, 6), (5, 6), (4, 6)),
        # pa;pa: ctr wrong r3; same fails r3 (E/C), r6 (N/E); both r1,r2,r4,r5
        "pa;pa": ("label_preserving", 6, (5, 6), (5, 6), (4, 6), (4, 6), (4, 6)),
        # f;p: ctr right r2,r3,r5,r6; same r1,r4,r6; both r2,r3,r5 (r6 wrong on the original)
        "f;p": ("label_changing", 6, (5, 6), (4, 6), (3, 6), (3, 6), (3, 6)),
        # m;o: E part ori 5 ctr 4 same 3 both 3; C part 3/3/2/2; N part 3/3/2/2
        "m;o": ("label_changing", 14, (11, 14), (10, 14), (7, 14), (7, 14), (7, 14)),
    }
    for spec, (kind, n, ori, ctr, cons, same, both) in expect.items():
        row = specs[spec]
        assert row["kind"] == kind and row["n"] == n, spec
        assert row["acc_ori"] == approx(*ori), spec
        assert row["acc_ctr"] == approx(*ctr), spec
        assert row["consistency"] == approx(*cons), spec
        assert row["same_prediction"] == approx(*same), spec
        assert row["contrast_consistency"] == approx(*both), spec
    assert specs["m;o"]["transitions"] == {
        "entailment>neutral": 6, "contradiction>neutral": 4, "neutral>neutral": 4
    }
    assert specs["f;p"]["label_rules"] == {"tense_decoupled": 6}
    assert specs["i;i"]["label_rules"] == {"cleft_both": 6}
    overall = result["overall"]
    assert overall["n"] == 32
    assert overall["acc_ori"] == approx(26, 32)
    assert overall["acc_ctr"] == approx(23, 32)
    assert overall["same_prediction"] == approx(19, 32)
    assert overall["contrast_consistency"] == approx(18, 32)
    assert overall["consistency"] == approx(5 + 4 + 3 + 7, 32)
    # 15 originals, wrong on s07:same (N), s23:neg (N), s10:tense=fut (E)
    assert result["original"] == {"n": 15, "accuracy": approx(12, 15)}


def test_failure_counts(result):
    counts = result["counts"]
    assert counts["records"] == 15
    assert counts["records_by_status"] == {"ok": 14, "no_parse": 1}
    assert counts["transforms_by_status"] == {"ok": 32, "no_generation": 4, "not_applicable": 4}
    assert counts["unlabeled_transforms"] == {}


def test_definitions_are_in_the_output(result):
    defs = result["definitions"]
    for key in ("consistency", "same_prediction", "contrast_consistency", "acc_ori", "acc_ctr"):
        assert defs[key]
    assert "label-changing" in defs["consistency"]
    assert "label rule" in defs["kind"]


def test_table_layout(result):
    lines = format_table(result).splitlines()
    assert lines[0].split()[:5] == ["spec", "kind", "#pairs", "Acc@Ori", "Acc@Ctr"]
    fp = next(line for line in lines if line.startswith("f;p"))
    assert fp.split() == ["f;p", "changes-label", "6", "83.33", "66.67", "50.00", "50.00", "50.00"]
    assert lines[-1] == "accuracy on all 15 original pairs: 80.00"


def test_cli_writes_json(tmp_path, capsys):
    out = tmp_path / "scores.json"
    assert main(["evaluate", str(CONTRAST), "--predictions", str(PREDICTIONS), "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["input"] == str(CONTRAST) and data["model"] is None
    assert {r["spec"] for r in data["specs"]} == {"i;i", "pa;pa", "f;p", "m;o"}
    assert len(data["predictions"]) == 47
    assert "Acc@Ori" in capsys.readouterr().out


def test_missing_prediction_is_a_clear_error(tmp_path, capsys):
    lines = PREDICTIONS.read_text().splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(line for line in lines if '"s09:neg", "spec": "m;o"' not in line))
    assert main(["evaluate", str(CONTRAST), "--predictions", str(short), "--strict"]) == 2
    err = capsys.readouterr().err
    assert "no prediction for 1 of 47 pairs" in err and "s09:neg" in err and "m;o" in err
    # without --strict the pair is skipped, counted and reported; the rest is scored
    out = tmp_path / "scores.json"
    assert main(["evaluate", str(CONTRAST), "--predictions", str(short), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "warning: no prediction for 1 of 47 pairs" in captured.err
    assert "skipped 1 pairs" in captured.out
    data = json.loads(out.read_text())
    assert data["missing_predictions"] == {"count": 1, "needed": 47, "skipped": 1,
                                           "examples": [["s09:neg", "m;o"]]}
    full = evaluate(read_contrast_file(CONTRAST), read_predictions(PREDICTIONS),
                    EvaluateOptions(CONTRAST))
    n_mo = {r["spec"]: r["n"] for r in full["specs"]}["m;o"]
    assert {r["spec"]: r["n"] for r in data["specs"]}["m;o"] == n_mo - 1


def test_a_missing_original_prediction_skips_its_contrasts(tmp_path):
    records = read_contrast_file(CONTRAST)
    preds = {k: v for k, v in read_predictions(PREDICTIONS).items() if k != ("s09:neg", "original")}
    result = evaluate(records, preds, EvaluateOptions(CONTRAST))
    contrasts = sum(1 for k in read_predictions(PREDICTIONS) if k[0] == "s09:neg") - 1
    assert result["missing_predictions"]["skipped"] == 1 + contrasts


def test_predict_fn_hook_scores_any_callable():
    """Any callable from (premise, hypothesis) pairs to labels; the same scores as the file."""
    records = read_contrast_file(CONTRAST)
    given = read_predictions(PREDICTIONS)
    items = {}
    from lit.evaluate import contrast_items
    from lit.evaluate.records import original_item

    for rec in records:
        for it in [original_item(rec, CONTRAST), *contrast_items(rec, CONTRAST)]:
            if it is not None and it.key in given:
                items[(it.premise, it.hypothesis)] = given[it.key]
    calls = []

    def predict_fn(pairs):
        calls.append(len(pairs))
        return [{"entailment": 0, "neutral": 1, "contradiction": 2}[items[p]] for p in pairs]

    by_fn = evaluate(records, options=EvaluateOptions(CONTRAST, batch_size=5, progress=False),
                     predict_fn=predict_fn)
    by_file = evaluate(records, given, EvaluateOptions(CONTRAST))
    assert by_fn["specs"] == by_file["specs"] and max(calls) == 5 and len(calls) > 1


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"id": "a", "spec": "original"}', "lacks prediction"),
        ('{"id": "a", "spec": "original", "prediction": "maybe"}', "not an NLI label"),
        ("{not json", "not JSON"),
    ],
)
def test_bad_prediction_lines_name_file_and_line(tmp_path, line, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "b", "spec": "original", "prediction": "E"}\n' + line + "\n")
    with pytest.raises(InputError, match=rf"bad.jsonl:2: .*{message}"):
        read_predictions(bad)


def test_duplicate_prediction_rejected(tmp_path):
    bad = tmp_path / "dup.jsonl"
    row = '{"id": "b", "spec": "original", "prediction": "E"}\n'
    bad.write_text(row * 2)
    with pytest.raises(InputError, match="dup.jsonl:2: second prediction"):
        read_predictions(bad)


def test_not_a_contrast_file(tmp_path):
    bad = tmp_path / "plain.jsonl"
    bad.write_text('{"sentence1": "A.", "sentence2": "B.", "gold_label": "neutral"}\n')
    with pytest.raises(InputError, match="plain.jsonl:1: not a `lit nli` record"):
        read_contrast_file(bad)


def test_pairs_without_labels_need_no_prediction():
    """A record whose gold label is "-" and a transform without a rule label are counted as
    unlabeled, not scored, and need no prediction."""
    no_gold = _record("f;p", "-", "neutral")
    no_rule = _record("m;o", "entailment", None, "modal_premise", "p2")
    scored = _record("f;p", "entailment", "neutral", id_="p3")
    preds = {("p2", "original"): "entailment", ("p3", "original"): "entailment",
             ("p3", "f;p"): "neutral"}
    result = evaluate([no_gold, no_rule, scored], preds)
    assert result["counts"]["unlabeled_transforms"] == {"f;p": 1, "m;o": 1}
    assert [(r["spec"], r["n"]) for r in result["specs"]] == [("f;p", 1)]
    assert result["specs"][0]["contrast_consistency"] == 1.0
    assert result["original"] == {"n": 2, "accuracy": 1.0}
