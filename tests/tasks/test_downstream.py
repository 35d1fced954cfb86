"""Every command downstream of `lit contrast` for tasks other than NLI (issue 26; docs/tasks.md):
fixture datasets in the shapes of SST-2 (JSONL), QQP (CSV), MRPC (Parquet) and RTE (a
`datasets` folder with a ClassLabel), made here with sentences the fake ACE knows, through
`lit contrast` -> `lit evaluate` (a prediction file, and a tiny random model) -> `lit augment`
-> `lit analyze` -> `lit report`."""

from __future__ import annotations

import csv
import json

import pytest

from lit.cli import main
from lit.errors import InputError
from lit.evaluate import evaluate, read_contrast_file
from lit.evaluate.fairness import axis_of
from lit.evaluate.records import contrast_items, original_item
from lit.report import build_report
from lit.tasks import load_task
from tests.conftest import read_jsonl

PRAISED = "The teacher praised the students."
LIKES = "Mary likes the dog."
CHEERED = "The crowd cheered."
CHASING = "A dog is chasing a cat."
SLEPT = "The cat slept on the sofa."

#: task -> (sides, the input fields the fixture uses for them, its label field, specs)
TASKS = {
    "sst2": (("text",), ("sentence",), "label", "pass,neg,tense=fut"),
    "qqp": (("text1", "text2"), ("question1", "question2"), "is_duplicate", "o;f,pa;o,o;n"),
    "mrpc": (("text1", "text2"), ("sentence1", "sentence2"), "label", "o;n,pa;o,p;p"),
    "rte": (("text1", "text2"), ("sentence1", "sentence2"), "label", "o;n,pa;pa,m;o"),
}


def ace_args(config) -> list[str]:
    return ["--ace", str(config.ace), "--grammar", str(config.grammar),
            "--grammar-version", "2018", "--workers", "2"]


def _write_inputs(folder) -> dict:
    """One input file per task, in the shape its real dataset comes in."""
    paths = {}
    sst2 = folder / "sst2.jsonl"
    sst2.write_text("".join(json.dumps(r) + "\n" for r in [
        {"idx": 0, "sentence": PRAISED, "label": 1},
        {"idx": 1, "sentence": LIKES, "label": 1},
        {"idx": 2, "sentence": f"{CHEERED} {SLEPT}", "label": 0},
        {"idx": 3, "sentence": CHASING, "label": "maybe"},  # outside the task's labels
    ]), encoding="utf-8")
    paths["sst2"] = sst2
    qqp = folder / "qqp.csv"
    with open(qqp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "qid1", "qid2", "question1", "question2", "is_duplicate"])
        w.writerow(["10", "1", "2", PRAISED, CHEERED, "1"])
        w.writerow(["11", "3", "4", LIKES, PRAISED, "0"])
        w.writerow(["12", "5", "6", CHASING, "", "1"])  # an empty text
    paths["qqp"] = qqp
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    mrpc = folder / "mrpc.parquet"
    pq.write_table(pa.Table.from_pylist([
        {"idx": 20, "sentence1": CHASING, "sentence2": CHASING, "label": 1},
        {"idx": 21, "sentence1": PRAISED, "sentence2": LIKES, "label": 0},
    ]), mrpc)
    paths["mrpc"] = mrpc
    datasets = pytest.importorskip("datasets")
    features = datasets.Features({"idx": datasets.Value("int32"),
                                  "sentence1": datasets.Value("string"),
                                  "sentence2": datasets.Value("string"),
                                  "label": datasets.ClassLabel(
                                      names=["entailment", "not_entailment"])})
    datasets.Dataset.from_dict({"idx": [30, 31], "sentence1": [PRAISED, LIKES],
                                "sentence2": [PRAISED, CHASING], "label": [0, 1]},
                               features=features).save_to_disk(str(folder / "rte"))
    paths["rte"] = folder / "rte"
    return paths


@pytest.fixture(scope="module")
def runs(fake_ace_config, tmp_path_factory):
    """task -> (input, contrast output) after `lit contrast` on each fixture."""
    folder = tmp_path_factory.mktemp("tasks")
    out = {}
    for task, path in _write_inputs(folder).items():
        contrast = folder / f"{task}-contrast.jsonl"
        code = main(["contrast", str(path), "--task", task, "-o", str(contrast), "--specs",
                     TASKS[task][3], "--scorer", "ace", "--no-progress",
                     *ace_args(fake_ace_config)])
        assert code == 0, task
        out[task] = (path, contrast)
    return out


def _predictions(records: list[dict], flip_spec: str, labels: tuple[str, ...]) -> list[dict]:
    """Gold on every original, the rule's label on every labelled contrast but those of
    *flip_spec*, where the other label (a binary task) is predicted."""
    rows = []
    for rec in records:
        orig = original_item(rec)
        if orig is None or orig.gold is None:
            continue
        rows.append({"id": orig.id, "spec": "original", "prediction": orig.gold})
        for it in contrast_items(rec):
            if it.gold is None:
                continue
            other = next(x for x in labels if x != it.gold)
            rows.append({"id": it.id, "spec": it.spec,
                         "prediction": other if it.spec == flip_spec else it.gold})
    return rows


@pytest.mark.parametrize("task, flip", [("sst2", "pass"), ("qqp", "pa;o"), ("mrpc", "o;n"),
                                        ("rte", "pa;pa")])
def test_evaluate_a_prediction_file(runs, tmp_path, task, flip):
    """Right everywhere but on one spec's contrasts: Acc@Ori 1, that spec's Acc@Ctr 0 and
    its consistency 0 whichever its kind (the prediction changed, and is wrong)."""
    _, contrast = runs[task]
    records = read_contrast_file(contrast)
    assert records and all(r.task == task for r in records)
    labels = tuple(json.loads(line)["gold"] for line in contrast.read_text().splitlines())
    names = {"sst2": ("negative", "positive"), "qqp": ("not_duplicate", "duplicate"),
             "mrpc": ("not_equivalent", "equivalent"),
             "rte": ("entailment", "not_entailment")}[task]
    assert set(labels) - {None} <= set(names)
    preds = tmp_path / "preds.jsonl"
    rows = _predictions(records, flip, names)
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "scores.json"
    assert main(["evaluate", str(contrast), "--predictions", str(preds), "-o", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["task"] == task and result["original"]["accuracy"] == 1.0
    specs = {r["spec"]: r for r in result["specs"]}
    assert flip in specs, f"{task}: no labelled {flip} pair in the fixture"
    assert (specs[flip]["acc_ori"], specs[flip]["acc_ctr"], specs[flip]["consistency"]) == (
        1.0, 0.0, 0.0)
    for spec, row in specs.items():
        if spec != flip:
            assert row["acc_ctr"] == row["contrast_consistency"] == 1.0
    # the transitions name the task's own labels
    assert all(set(k.split(">")) <= set(names) for r in specs.values() for k in r["transitions"])
    assert result["overall"]["n"] == sum(r["n"] for r in specs.values())
    assert result["counts"]["records_by_status"].get("invalid_input", 0) == (
        1 if task in ("sst2", "qqp") else 0)


def test_label_kinds_come_from_the_task_rules(runs):
    """SST-2's passive keeps the label (rule passive_keeps: * -> keep): label-preserving;
    QQP's o;f maps duplicate to not_duplicate: label-changing."""
    sst2 = evaluate(read_contrast_file(runs["sst2"][1]),
                    predict_fn=lambda xs: ["positive"] * len(xs), progress=False)
    assert {r["spec"]: r["kind"] for r in sst2["specs"]}["pass"] == "label_preserving"
    qqp = evaluate(read_contrast_file(runs["qqp"][1]), predict_fn=lambda xs: [1] * len(xs),
                   progress=False)
    assert {r["spec"]: r["kind"] for r in qqp["specs"]}["o;f"] == "label_changing"


def test_predict_fn_gets_a_text_for_a_single_text_task_and_pairs_otherwise(runs):
    seen = {}

    def fn(task):
        def predict(inputs):
            seen.setdefault(task, []).extend(inputs)
            return ["NEG" if task == "sst2" else 0] * len(inputs)  # any spelling of a label
        return predict

    for task in ("sst2", "qqp"):
        evaluate(read_contrast_file(runs[task][1]), predict_fn=fn(task), progress=False)
    assert all(isinstance(x, str) for x in seen["sst2"]) and PRAISED in seen["sst2"]
    assert all(isinstance(x, tuple) and len(x) == 2 for x in seen["qqp"])
    assert (PRAISED, CHEERED) in seen["qqp"]
    with pytest.raises(InputError, match="not a label of task sst2: 'maybe'"):
        evaluate(read_contrast_file(runs["sst2"][1]),
                 predict_fn=lambda xs: ["maybe"] * len(xs), progress=False)


def test_a_prediction_outside_the_task_labels_names_file_and_line(runs, tmp_path, capsys):
    preds = tmp_path / "bad.jsonl"
    preds.write_text('{"id": "0", "spec": "original", "prediction": "entailment"}\n')
    assert main(["evaluate", str(runs["sst2"][1]), "--predictions", str(preds)]) == 2
    assert "bad.jsonl:1: not a label of task sst2: 'entailment'" in capsys.readouterr().err


def _sst2_record(id_: str, gold: str, text: str, spec: str, new: str, label: str | None,
                 rule: str) -> dict:
    """A `lit contrast` record of task sst2 with one ok transform (docs/tasks.md's shape)."""
    side = {"output": new, "sentence": 0, "sentence_input": text, "sentence_output": new,
            "mrs": None, "verified": True, "candidates": [new]}
    return {"id": id_, "task": "sst2", "input": {"sentence": text, "label": gold},
            "texts": {"text": text}, "gold": gold, "status": "ok", "reason": None,
            "transforms": [{"spec": spec, "status": "ok", "reason": None, "text": side,
                            "label": label, "label_rule": rule, "label_rationale": "why"}]}


FAIR_RECORDS = [
    _sst2_record("a", "positive", "She is brilliant.", "gender=swap", "He is brilliant.",
                 "positive", "demographic_keeps"),
    _sst2_record("b", "negative", "Mary was rude.", "name=swap", "James was rude.",
                 "negative", "demographic_keeps"),
    _sst2_record("c", "positive", "The queen smiled.", "gender=swap", "The king smiled.",
                 "positive", "demographic_keeps"),
    _sst2_record("d", "positive", "The film is charming.", "neg",
                 "The film is not charming.", None, "negation_open"),
]
#: original / perturbed: a positive/positive, b negative/positive (flip), c positive/negative
#: (flip), d unlabelled (never scored)
FAIR_PREDICTIONS = {("a", "original"): "positive", ("a", "gender=swap"): "pos",
                    ("b", "original"): "NEG", ("b", "name=swap"): 1,
                    ("c", "original"): "positive", ("c", "gender=swap"): "negative",
                    ("d", "original"): "positive"}


def test_fairscore_of_a_sentence_task_by_hand(tmp_path, capsys):
    assert (axis_of("gender=swap"), axis_of("name=swap+pass"), axis_of("neg")) == (
        "gender", None, None)
    from lit.evaluate.predictions import read_predictions

    contrast, preds = tmp_path / "sst2.jsonl", tmp_path / "preds.jsonl"
    contrast.write_text("".join(json.dumps(r) + "\n" for r in FAIR_RECORDS))
    preds.write_text("".join(json.dumps({"id": i, "spec": s, "prediction": p}) + "\n"
                             for (i, s), p in FAIR_PREDICTIONS.items()))
    given = read_predictions(preds, load_task("sst2").labels)
    fair = evaluate(read_contrast_file(contrast), given)["fairness"]["axes"]
    # gender: a (same) and c (flipped): 1/2; name: b flipped: 1/1
    assert (fair["gender"]["n"], fair["gender"]["flipped"], fair["gender"]["fairscore"]) == (
        2, 1, 0.5)
    assert fair["gender"]["acc_ori"] == 1.0 and fair["gender"]["acc_ptb"] == 0.5
    assert fair["gender"]["examples"][0]["original"] == ["The queen smiled."]
    assert fair["gender"]["examples"][0]["perturbed"] == ["The king smiled."]
    assert (fair["name"]["n"], fair["name"]["fairscore"], fair["name"]["acc_ori"]) == (1, 1.0,
                                                                                    1.0)
    out = tmp_path / "scores.json"
    assert main(["evaluate", str(contrast), "--predictions", str(preds), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "fairness (PANDA fairscore" in printed and "gender" in printed
    html = build_report(read_contrast_file(contrast), evaluation=json.loads(out.read_text()))
    assert 'id="fairness"' in html and "The queen smiled." in html
    assert "<th>original text</th>" in html and "<del>She</del> is brilliant." in html


@pytest.mark.parametrize("task, fmt, columns, label", [
    ("sst2", "jsonl", ["sentence"], "label"),
    ("qqp", "csv", ["question1", "question2"], "is_duplicate"),
    ("mrpc", "parquet", ["sentence1", "sentence2"], "label"),
    ("rte", "hf", ["sentence1", "sentence2"], "label"),
])
def test_augment_writes_rows_in_the_task_fields_and_labels(runs, tmp_path, task, fmt, columns,
                                                           label):
    from lit.augment.write import load

    _, contrast = runs[task]
    out = tmp_path / ("rows" if fmt == "hf" else f"rows.{fmt}")
    assert main(["augment", "--from-contrast", str(contrast), "-o", str(out)]) == 0
    ds = load(out)
    assert ds.column_names == [*columns, label, "origin", "source_id", "spec", "label_rule"]
    records = read_contrast_file(contrast)
    # the inputs' integers (SST-2, MRPC, RTE) and digits (QQP's CSV) stay integers
    assert set(ds[label]) <= {0, 1}
    if fmt == "hf":
        assert ds.features[label].names == ["entailment", "not_entailment"]
    originals = [r for r in ds if r["origin"] == "original"]
    valid = [r for r in records if r.status != "invalid_input" and r.gold is not None]
    assert len(originals) == len(valid)
    names = load_task(task).labels.names
    by_id = {r.id: r for r in records}
    transformed = [r for r in ds if r["origin"] == "transformed"]
    assert transformed, f"{task}: no transformed row"
    for row in transformed:
        rec = by_id[str(row["source_id"])]  # a CSV's ids come back as integers
        (t,) = [t for t in rec.transforms if t.spec == row["spec"]]
        sides = TASKS[task][0]
        assert [row[c] for c in columns] == [t.output(s) for s in sides]
        # a transform without a label (negation under sentiment, ...) is never a row
        assert names[row[label]] == t.label and row["label_rule"] == t.label_rule


def test_augment_text_labels_and_task_runs(runs, fake_ace_config, tmp_path, capsys):
    """--label-format text writes the task's label names; INPUT --task runs the pipeline
    itself and gives the rows `lit contrast` + --from-contrast give."""
    path, contrast = runs["sst2"]
    words, direct = tmp_path / "words.jsonl", tmp_path / "direct.jsonl"
    assert main(["augment", "--from-contrast", str(contrast), "-o", str(words),
                 "--label-format", "text"]) == 0
    rows = read_jsonl(words)
    assert {r["label"] for r in rows} <= {"negative", "positive"}
    assert {r["sentence"] for r in rows if r["spec"] == "pass"} == {
        "The students were praised by the teacher.", "The dog is liked by Mary."}
    assert main(["augment", str(path), "--task", "sst2", "-o", str(direct), "--specs",
                 TASKS["sst2"][3], "--scorer", "ace", "--label-format", "text",
                 "--no-progress", *ace_args(fake_ace_config)]) == 0
    assert read_jsonl(direct) == rows
    assert main(["augment", "--from-contrast", str(contrast), "-o",
                 str(tmp_path / "r.jsonl"), "--report"]) == 2
    assert "task sst2 has none to measure" in capsys.readouterr().err


def test_augment_balance_and_filter_speak_the_task_labels(runs, tmp_path):
    """QQP: o;f turns a duplicate into not_duplicate, so --balance reaches it; a filter file
    that disagrees with the rule drops the row to --rejected, labelled in the task's way."""
    _, contrast = runs["qqp"]
    preds = tmp_path / "preds.jsonl"
    given = [("10", "o;f", "duplicate"), ("10", "pa;o", "D"), ("11", "pa;o", 0)]
    preds.write_text("".join(json.dumps({"id": i, "spec": s, "prediction": p}) + "\n"
                             for i, s, p in given))
    out = tmp_path / "bal.jsonl"
    assert main(["augment", "--from-contrast", str(contrast), "-o", str(out), "--balance"]) == 0
    rows = read_jsonl(out)
    assert [(r["source_id"], r["spec"], r["is_duplicate"]) for r in rows
            if r["origin"] == "transformed"] == [("10", "o;f", 0)]
    filtered = tmp_path / "filtered.jsonl"
    assert main(["augment", "--from-contrast", str(contrast), "-o", str(filtered),
                 "--filter-predictions", str(preds), "--label-format", "text"]) == 0
    rejected = read_jsonl(tmp_path / "filtered.jsonl.rejected.jsonl")
    assert [(r["spec"], r["is_duplicate"], r["classifier_label"]) for r in rejected] == [
        ("o;f", "not_duplicate", "duplicate")]


def test_report_of_each_task(runs, tmp_path):
    for task, (_, contrast) in runs.items():
        out = tmp_path / f"{task}.html"
        assert main(["report", str(contrast), "-o", str(out)]) == 0
        html = out.read_text()
        sides = "<br>".join(TASKS[task][0])
        assert f"<th>original {sides}</th>" in html and f"<th>transformed {sides}</th>" in html
    sst2 = (tmp_path / "sst2.html").read_text()
    assert "<ins>" in sst2 and "passive_keeps" in sst2 and "negation_open" in sst2


def test_report_with_evaluation_and_analysis(runs, fake_ace_config, tmp_path, capsys):
    path, contrast = runs["sst2"]
    records = read_contrast_file(contrast)
    preds = tmp_path / "p.jsonl"
    preds.write_text("".join(json.dumps(r) + "\n"
                             for r in _predictions(records, "pass", ("negative", "positive"))))
    scores, analysis = tmp_path / "s.json", tmp_path / "a.json"
    assert main(["evaluate", str(contrast), "--predictions", str(preds), "-o", str(scores)]) == 0
    # a `lit contrast` output is analysed as its task's dataset (its inputs)
    assert main(["analyze", str(contrast), "-o", str(analysis), "--resamples", "0",
                 *ace_args(fake_ace_config)]) == 0
    result = json.loads(analysis.read_text())
    assert result["task"] == "sst2" and list(result["roles"]) == ["text"]
    text = result["roles"]["text"]["all"]
    # 4 sentences in 3 valid texts (one review of two); all parse
    assert (result["texts"], result["invalid_records"], text["sentences"]) == (3, 1, 4)
    assert text["coverage"] == 1.0 and result["labels"] == {"negative": 1, "positive": 2}
    assert "task sst2: 3 records" in capsys.readouterr().out
    assert main(["analyze", str(path), "--task", "sst2", "--pairs",
                 *ace_args(fake_ace_config)]) == 2
    out = tmp_path / "r.html"
    assert main(["report", str(contrast), "--evaluation", str(scores), "--analysis",
                 str(analysis), "-o", str(out)]) == 0
    html = out.read_text()
    assert 'id="evaluation"' in html and 'id="analysis"' in html
    assert '<span class="pred wrong">' in html and '<span class="pred right">' in html


def test_one_file_one_task_and_custom_profiles_need_their_file(runs, tmp_path):
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(runs["sst2"][1].read_text() + runs["qqp"][1].read_text())
    with pytest.raises(InputError, match="of task 'qqp', but line 1 is of task 'sst2'"):
        read_contrast_file(mixed)
    custom = tmp_path / "custom.jsonl"
    rec = dict(FAIR_RECORDS[0], task="my-sentiment")
    custom.write_text(json.dumps(rec) + "\n")
    with pytest.raises(InputError, match="not a built-in task: pass --task"):
        read_contrast_file(custom)


def _tiny_model(path, words: set[str], id2label: dict[int, str]):
    """A randomly initialised one-layer BERT over *words* (nothing can be downloaded here),
    saved with its tokenizer as `lit evaluate --model` loads it."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    path.mkdir()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    transformers.BertTokenizerFast(vocab_file=str(path / "vocab.txt")).save_pretrained(path)
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64, num_labels=len(id2label),
        id2label=id2label, label2id={v: k for k, v in id2label.items()})
    transformers.BertForSequenceClassification(config).save_pretrained(path)
    return path


def _words(contrast) -> set[str]:
    text = " ".join(s for r in read_jsonl(contrast) for s in [
        *(r["texts"] or {}).values(),
        *(t[side]["output"] or "" for t in r["transforms"] for side in r["texts"])] if s)
    return set(text.lower().replace(".", " . ").replace("?", " ? ").split())


@pytest.mark.parametrize("task, id2label", [
    ("sst2", {0: "NEGATIVE", 1: "POSITIVE"}),
    ("qqp", {0: "LABEL_0", 1: "LABEL_1"}),  # names no label: --label-map says which is which
    ("mrpc", {0: "not_equivalent", 1: "equivalent"}),
    ("rte", {0: "ENTAILMENT", 1: "NOT_ENTAILMENT"}),
])
def test_evaluate_a_tiny_random_model(runs, tmp_path, capsys, task, id2label):
    """The model path: texts alone for a single-text task and pairs for a pair task, the
    task's labels read from id2label (or --label-map), the same scores as its predictions
    rescored from the file it saves."""
    from lit.evaluate.model import HFClassifier

    _, contrast = runs[task]
    model = _tiny_model(tmp_path / "model", _words(contrast), id2label)
    out, saved = tmp_path / "scores.json", tmp_path / "preds.jsonl"
    argv = ["evaluate", str(contrast), "--model", str(model), "--no-progress", "-o", str(out),
            "--save-predictions", str(saved), "--batch-size", "2"]
    if task == "qqp":
        assert main(argv) == 2
        assert ("does not name not_duplicate and duplicate; pass --label-map "
                "not_duplicate=I,duplicate=J") in capsys.readouterr().err
        argv += ["--label-map", "not_duplicate=0,duplicate=1"]
    assert main(argv) == 0
    result = json.loads(out.read_text())
    names = load_task(task).labels.names
    assert result["task"] == task and result["label_map"] == {names[0]: 0, names[1]: 1}
    rows = read_jsonl(saved)
    assert rows and {r["prediction"] for r in rows} <= set(names)
    # each prediction is the model's own answer on the text (or pair) alone
    records = {r.id: r for r in read_contrast_file(contrast)}
    clf = HFClassifier(str(model), result["label_map"], device="cpu",
                       labels=load_task(task).labels)
    for row in rows[:4]:
        rec = records[row["id"]]
        item = next(it for it in [original_item(rec), *contrast_items(rec)]
                    if it.spec == row["spec"])
        enc = clf.tokenizer(*item.texts, return_tensors="pt")
        assert names[int(clf.model(**enc).logits.argmax())] == row["prediction"]
    assert main(["evaluate", str(contrast), "--predictions", str(saved), "-o",
                 str(tmp_path / "again.json")]) == 0
    assert json.loads((tmp_path / "again.json").read_text())["specs"] == result["specs"]


def _doc_block(kind: str) -> str:
    """The first ```KIND block of docs/tasks/custom.md (the page's example, tested as written)."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "tasks" / "custom.md").read_text()
    return page.split(f"```{kind}\n", 1)[1].split("```", 1)[0]


def test_the_custom_profile_of_the_docs_end_to_end(fake_ace_config, tmp_path, capsys):
    """docs/tasks/custom.md's SUBJ profile and rules, no Python: lit contrast, then every
    downstream command with --task FILE (and a clear error without it)."""
    profile = tmp_path / "subj.toml"
    profile.write_text(_doc_block("toml"))
    (tmp_path / "subj.labels").write_text(_doc_block("labels"))
    data = tmp_path / "subj.jsonl"
    data.write_text(json.dumps({"id": "s1", "text": PRAISED, "label": "subj"}) + "\n"
                    + json.dumps({"id": "s2", "text": LIKES, "label": "objective"}) + "\n")
    contrast = tmp_path / "subj-contrast.jsonl"
    assert main(["contrast", str(data), "--task", str(profile), "-o", str(contrast),
                 "--specs", "pass,neg", "--scorer", "ace", "--no-progress",
                 *ace_args(fake_ace_config)]) == 0
    records = read_jsonl(contrast)
    assert [(r["task"], r["gold"]) for r in records] == [("subj", "subjective"),
                                                         ("subj", "objective")]
    assert [(t["spec"], t["label"], t["label_rule"]) for t in records[0]["transforms"]] == [
        ("pass", "subjective", "passive_keeps"), ("neg", None, "negation_open")]
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"id": i, "spec": s, "prediction": p}) + "\n"
                             for i, s, p in [("s1", "original", "SUBJ"), ("s1", "pass", 0),
                                             ("s2", "original", "obj"), ("s2", "pass", "obj")]))
    scores = tmp_path / "scores.json"
    argv = ["evaluate", str(contrast), "--predictions", str(preds), "-o", str(scores)]
    assert main(argv) == 2
    assert "task 'subj' is not a built-in task: pass --task" in capsys.readouterr().err
    assert main([*argv, "--task", str(profile)]) == 0
    (row,) = json.loads(scores.read_text())["specs"]
    assert (row["spec"], row["kind"], row["acc_ctr"], row["consistency"]) == (
        "pass", "label_preserving", 0.5, 0.5)
    rows = tmp_path / "rows.jsonl"
    assert main(["augment", "--from-contrast", str(contrast), "--task", str(profile), "-o",
                 str(rows)]) == 0
    assert [(r["text"], r["label"], r["spec"]) for r in read_jsonl(rows)] == [
        (PRAISED, "subjective", "original"),
        ("The students were praised by the teacher.", "subjective", "pass"),
        (LIKES, "objective", "original"), ("The dog is liked by Mary.", "objective", "pass")]
    report = tmp_path / "report.html"
    assert main(["report", str(contrast), "--task", str(profile), "--evaluation", str(scores),
                 "-o", str(report)]) == 0
    assert "<th>original text</th>" in report.read_text()
    analysis = tmp_path / "analysis.json"
    assert main(["analyze", str(data), "--task", str(profile), "-o", str(analysis),
                 "--resamples", "0", *ace_args(fake_ace_config)]) == 0
    assert json.loads(analysis.read_text())["labels"] == {"objective": 1, "subjective": 1}
    (tmp_path / "subj.labels").write_text(_doc_block("labels").replace("-> keep", "-> E", 1))
    assert main(["contrast", str(data), "--task", str(profile), "-o",
                 str(tmp_path / "x.jsonl"), *ace_args(fake_ace_config)]) == 2
    assert "subj.labels:4:" in capsys.readouterr().err
