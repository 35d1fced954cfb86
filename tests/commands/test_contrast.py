"""`lit contrast` through the fake ACE (issue 26; docs/tasks.md): fixture datasets in the
shapes of SST-2 (Parquet, a `datasets` folder with a ClassLabel), QQP (CSV), MRPC (TSV) and
RTE (JSONL), with the sentences the fake ACE knows (tests/data/oracle, ERG 2018)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from lit.cli import main
from lit.records import Record
from lit.status import Status
from tests.conftest import read_jsonl

STATUSES = {s.value for s in Status}
SIDE_FIELDS = {"output", "mrs", "verified", "candidates", "ranking", "chosen_because", "capped",
               "stand_ins", "reading", "reading_evidence", "alternatives", "route", "sentence",
               "sentence_input", "sentence_output"}
PRAISED = "The teacher praised the students."
PRAISED_PASSIVE = "The students were praised by the teacher."
CHEERED = "The crowd cheered."
CHASING = "A dog is chasing a cat."


def ace_args(config) -> list[str]:
    return ["--ace", str(config.ace), "--grammar", str(config.grammar),
            "--grammar-version", "2018", "--scorer", "ace", "--workers", "2", "--no-progress"]


def contrast(config, *args) -> int:
    return main(["contrast", *map(str, args), *ace_args(config)])


def check_shape(records: list[dict], task: str, sides: tuple[str, ...]) -> None:
    """Every field in every record, one type; every non-ok status with a reason; each record
    read as a lit.records.Record writes the same bytes back."""
    for r in records:
        assert Record.from_json(r, strict=True).to_json() == json.dumps(r, ensure_ascii=False)
        assert set(r) == {"id", "task", "input", "texts", "gold", "status", "reason",
                          "transforms", "timings"}
        assert r["task"] == task and tuple(r["texts"]) == sides
        assert r["status"] in STATUSES and (r["status"] == "ok") == (r["reason"] is None)
        for t in r["transforms"]:
            assert set(t) == {"spec", "status", "reason", *sides, "label", "label_rule",
                              "label_rationale"}
            assert t["status"] in STATUSES and (t["status"] == "ok") == (t["reason"] is None)
            assert all(set(t[side]) == SIDE_FIELDS for side in sides)


@pytest.fixture(scope="module")
def sst2_parquet(tmp_path_factory):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path_factory.mktemp("sst2") / "dev.parquet"
    rows = [
        {"idx": 0, "sentence": PRAISED, "label": 1},
        {"idx": 1, "sentence": f"{CHEERED}  {PRAISED}", "label": 0},  # two sentences
        {"idx": 2, "sentence": CHASING, "label": 1},
        {"idx": 3, "sentence": "", "label": 1},
        {"idx": 4, "sentence": CHASING, "label": 7},
    ]
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


@pytest.fixture(scope="module")
def sst2_run(fake_ace_config, sst2_parquet):
    out = sst2_parquet.with_name("contrast.jsonl")
    code = contrast(fake_ace_config, sst2_parquet, "--task", "sst2", "-o", out,
                    "--specs", "pass,neg,tense=fut")
    return code, read_jsonl(out)


def test_sst2_sentences_get_labelled_contrasts(sst2_run):
    code, records = sst2_run
    assert code == 0
    check_shape(records, "sst2", ("text",))
    assert [r["id"] for r in records] == ["0", "1", "2", "3", "4"]
    first = records[0]
    assert (first["gold"], first["texts"]) == ("positive", {"text": PRAISED})
    passive, neg, fut = first["transforms"]
    assert (passive["spec"], passive["status"], passive["label"], passive["label_rule"]) == (
        "pass", "ok", "positive", "passive_keeps")
    assert passive["text"]["output"] == PRAISED_PASSIVE
    assert (passive["text"]["sentence"], passive["text"]["sentence_input"]) == (0, PRAISED)
    assert passive["text"]["verified"] is True
    # negation may or may not flip sentiment: written, not labelled, and the record says why
    assert (neg["status"], neg["label"], neg["label_rule"]) == ("ok", None, "negation_open")
    assert "not" in neg["text"]["output"] or "n't" in neg["text"]["output"]
    assert "may or may not flip sentiment" in neg["label_rationale"]
    assert (fut["label"], fut["text"]["output"]) == ("positive",
                                                     "The teacher will praise the students.")


def test_a_review_changes_one_sentence_and_keeps_the_rest_verbatim(sst2_run):
    """'The crowd cheered.' has no object to promote: the passive changes the second
    sentence, and the first, with its two spaces, stays as it was."""
    _, records = sst2_run
    review = records[1]
    passive = review["transforms"][0]
    assert (review["gold"], passive["status"], passive["label"]) == ("negative", "ok",
                                                                    "negative")
    assert passive["text"]["output"] == f"{CHEERED}  {PRAISED_PASSIVE}"
    assert (passive["text"]["sentence"], passive["text"]["sentence_input"],
            passive["text"]["sentence_output"]) == (1, PRAISED, PRAISED_PASSIVE)
    fut = review["transforms"][2]
    assert (fut["text"]["sentence"], fut["text"]["output"]) == (
        0, f"The crowd will cheer.  {PRAISED}")


def test_bad_records_are_invalid_input_never_a_crash(sst2_run, sst2_parquet):
    _, records = sst2_run
    empty, bad_label = records[3], records[4]
    assert empty["status"] == bad_label["status"] == "invalid_input"
    assert empty["reason"] == f"{sst2_parquet}:4: no text in field 'sentence'"
    assert bad_label["reason"].startswith(
        f"{sst2_parquet}:5: field 'label': not a label of task sst2: 7")
    assert all(t["status"] == "invalid_input" and t["reason"] == bad_label["reason"]
               for t in bad_label["transforms"])
    assert bad_label["gold"] is None and bad_label["texts"] == {"text": CHASING}


def test_summary_and_metadata_beside_the_output(sst2_run, sst2_parquet):
    out = sst2_parquet.with_name("contrast.jsonl")
    summary = json.loads(out.with_name(out.name + ".summary.json").read_text())
    assert summary["records"] == 5 and summary["record_status"]["invalid_input"] == 2
    by_spec = {s["spec"]: s for s in summary["specs"]}
    assert by_spec["pass"]["labels"]["negative"] == 1 and by_spec["neg"]["expansion"] == "neg"
    assert by_spec["neg"]["labels"].get("no label", 0) >= 1
    assert by_spec["pass"]["tailor"]["pairs"]["tokens"] >= 2
    meta = json.loads(out.with_name(out.name + ".meta.json").read_text())
    assert meta["command"] == "contrast"


def test_sst2_datasets_folder_with_a_class_label(fake_ace_config, tmp_path):
    datasets = pytest.importorskip("datasets")
    features = datasets.Features({"sentence": datasets.Value("string"),
                                  "label": datasets.ClassLabel(names=["negative", "positive"]),
                                  "idx": datasets.Value("int32")})
    datasets.Dataset.from_dict({"sentence": [PRAISED, CHASING], "label": [0, 1], "idx": [5, 6]},
                               features=features).save_to_disk(str(tmp_path / "sst2"))
    out = tmp_path / "out.jsonl"
    assert contrast(fake_ace_config, tmp_path / "sst2", "--task", "sst2", "-o", out,
                    "--spec", "pass") == 0
    records = read_jsonl(out)
    assert [(r["id"], r["gold"]) for r in records] == [("5", "negative"), ("6", "positive")]
    assert records[0]["transforms"][0]["label"] == "negative"


def write_qqp(path: Path) -> Path:
    """Three QQP rows at *path*: a duplicate, a non-duplicate and a row with a bad label."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "qid1", "qid2", "question1", "question2", "is_duplicate"])
        w.writerow(["10", "1", "2", PRAISED, CHEERED, "1"])
        w.writerow(["11", "3", "4", CHASING, PRAISED, "0"])
        w.writerow(["12", "5", "6", CHASING, PRAISED, "maybe"])
    return path


@pytest.fixture(scope="module")
def qqp_csv(tmp_path_factory):
    return write_qqp(tmp_path_factory.mktemp("qqp") / "qqp.csv")


def test_qqp_pairs(fake_ace_config, qqp_csv):
    out = qqp_csv.with_name("out.jsonl")
    assert contrast(fake_ace_config, qqp_csv, "--task", "qqp", "-o", out,
                    "--specs", "o;f,pa;o") == 0
    records = read_jsonl(out)
    check_shape(records, "qqp", ("text1", "text2"))
    dup, other, bad = records
    assert (dup["gold"], other["gold"], bad["status"]) == ("duplicate", "not_duplicate",
                                                           "invalid_input")
    fut, passive = dup["transforms"]
    # a duplicate question moved to another time asks about another time
    assert (fut["status"], fut["label"], fut["label_rule"]) == ("ok", "not_duplicate",
                                                                "tense_one_side")
    assert fut["text1"]["output"] == PRAISED and fut["text1"]["sentence"] is None
    assert (fut["text2"]["output"], fut["text2"]["sentence"]) == ("The crowd will cheer.", 0)
    assert other["transforms"][0]["label"] is None  # not_duplicate -> none, with its why
    assert "different questions" in other["transforms"][0]["label_rationale"]
    assert (passive["label"], passive["label_rule"]) == ("duplicate", "identity+passive_neutral")
    assert passive["text1"]["output"] == PRAISED_PASSIVE


def test_a_missing_column_makes_every_record_invalid_and_exits_1(fake_ace_config, qqp_csv,
                                                                   capsys):
    out = qqp_csv.with_name("missing.jsonl")
    code = contrast(fake_ace_config, qqp_csv, "--task", "qqp", "-o", out, "--spec", "o;f",
                    "--column", "text1=q1")
    assert code == 1
    records = read_jsonl(out)
    assert len(records) == 3 and all(r["status"] == "invalid_input" for r in records)
    assert "no field for text1 (tried q1; fields: id, qid1" in records[0]["reason"]
    assert "--column SIDE=FIELD" in capsys.readouterr().err


def test_mrpc_tsv_in_its_own_columns(fake_ace_config, tmp_path):
    path = tmp_path / "msr_paraphrase_test.txt"
    path.write_text("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
                    f"1\t1\t2\t{CHASING}\t{CHASING}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert contrast(fake_ace_config, path, "--task", "mrpc", "--format", "tsv", "-o", out,
                    "--spec", "o;n") == 0
    (record,) = read_jsonl(out)
    t = record["transforms"][0]
    assert (record["gold"], t["status"], t["label"]) == ("equivalent", "ok", "not_equivalent")
    assert t["text1"]["output"] == CHASING and "not" in t["text2"]["output"]


def test_rte_text_of_several_sentences(fake_ace_config, tmp_path):
    path = tmp_path / "rte.jsonl"
    path.write_text(json.dumps({"idx": 3, "sentence1": f"{CHEERED} {CHASING}",
                                "sentence2": CHASING, "label": 0}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert contrast(fake_ace_config, path, "--task", "rte", "-o", out,
                    "--specs", "o;n,pa;pa") == 0
    (record,) = read_jsonl(out)
    neg, passive = record["transforms"]
    assert (neg["label"], neg["label_rule"]) == ("not_entailment", "negated_hypothesis")
    assert neg["text1"]["output"] == f"{CHEERED} {CHASING}"
    # the premise's first sentence cannot be passivised: the record says so per sentence
    if passive["status"] != "ok":
        assert "sentences 1/1:" in passive["reason"] and "sentences 2/1:" in passive["reason"]


def test_resume_continues_a_limited_run(fake_ace_config, sst2_parquet, sst2_run, tmp_path):
    out = tmp_path / "resumed.jsonl"
    args = [sst2_parquet, "--task", "sst2", "-o", out, "--specs", "pass,neg,tense=fut"]
    assert contrast(fake_ace_config, *args, "--limit", "2") == 0
    assert len(read_jsonl(out)) == 2
    assert contrast(fake_ace_config, *args, "--resume") == 0
    strip = [{k: v for k, v in r.items() if k != "timings"} for r in read_jsonl(out)]
    assert strip == [{k: v for k, v in r.items() if k != "timings"} for r in sst2_run[1]]
    with pytest.raises(SystemExit):
        main(["contrast", str(sst2_parquet), "-o", str(out)])  # --task is required


def test_task_nli_is_lit_nli(fake_ace_config, tmp_path):
    path = tmp_path / "snli.jsonl"
    path.write_text(json.dumps({"pairID": "a", "sentence1": PRAISED, "sentence2": CHEERED,
                                "gold_label": "neutral"}) + "\n", encoding="utf-8")
    nli_out, contrast_out = tmp_path / "nli.jsonl", tmp_path / "contrast.jsonl"
    assert main(["nli", str(path), "-o", str(nli_out), "--specs", "m;o,o;n",
                 *ace_args(fake_ace_config)]) == 0
    assert contrast(fake_ace_config, path, "--task", "nli", "-o", contrast_out,
                    "--specs", "m;o,o;n") == 0
    strip = [{k: v for k, v in r.items() if k != "timings"}
             for path in (nli_out, contrast_out) for r in read_jsonl(path)]
    assert strip[0] == strip[1] and "task" not in strip[0]


def test_wrong_kind_of_spec_and_nli_only_options(fake_ace_config, sst2_parquet, tmp_path,
                                                capsys):
    out = tmp_path / "x.jsonl"
    assert contrast(fake_ace_config, sst2_parquet, "--task", "sst2", "-o", out,
                    "--spec", "o;n") == 2
    assert "task sst2 takes a single spec" in capsys.readouterr().err
    assert contrast(fake_ace_config, sst2_parquet, "--task", "sst2", "-o", out,
                    "--self-pairs") == 2
    assert "--self-pairs is for task nli" in capsys.readouterr().err
    assert not out.exists()


def test_engine_contrast_from_python(fake_ace_config):
    from lit import Engine

    with Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", workers=2,
                scorer="ace") as engine:  # an NLI engine, asked for another task
        records = list(engine.contrast(
            [{"question1": PRAISED, "question2": CHEERED, "label": 1}, "not a dict"],
            task="qqp", specs=["pa;o"]))
    assert [r["status"] for r in records] == ["ok", "invalid_input"]
    assert records[0]["transforms"][0]["label"] == "duplicate"
    assert records[1]["reason"] == ("record 2: expected a dict of the task's fields or a "
                                    "(text1, text2, label) tuple, not str")


def test_a_custom_task_needs_no_python(fake_ace_config, tmp_path):
    """A subjectivity task of one's own: a TOML profile and a rule file, run by name of file."""
    (tmp_path / "subj.labels").write_text(
        'rule voice_keeps {\n    specs "pass"\n    map * -> keep\n'
        '    why "Voice does not make a sentence more or less subjective."\n}\n',
        encoding="utf-8")
    profile = tmp_path / "subj.toml"
    profile.write_text('name = "subj"\nsides = ["text"]\nlabel_rules = "subj.labels"\n'
                       '[fields]\ntext = ["text"]\nlabel = ["label"]\n'
                       '[labels]\nnames = ["objective", "subjective"]\n', encoding="utf-8")
    data = tmp_path / "subj.jsonl"
    data.write_text(json.dumps({"text": PRAISED, "label": "objective"}) + "\n",
                    encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert contrast(fake_ace_config, data, "--task", profile, "-o", out, "--specs",
                    "pass,neg") == 0
    (record,) = read_jsonl(out)
    passive, neg = record["transforms"]
    assert (record["task"], passive["label"], passive["label_rule"]) == (
        "subj", "objective", "voice_keeps")
    assert passive["text"]["output"] == PRAISED_PASSIVE
    assert (neg["status"], neg["reason"]) == ("not_applicable", "no label rule covers neg")
