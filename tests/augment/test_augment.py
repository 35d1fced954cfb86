"""`lit augment` on oracle NLI pairs (fake ACE): formats, balance, filter, hygiene, meta,
determinism and bad input."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

import lit
from lit.cli import main
from lit.labels import LabelRules
from lit.labels.names import normalize_label
from tests.augment.conftest import PAIRS, SPECS, ace_args
from tests.conftest import ORACLE, read_jsonl

datasets = pytest.importorskip("datasets")
COLUMNS = ["premise", "hypothesis", "label", "origin", "source_id", "spec", "label_rule"]
LABELS = ["entailment", "neutral", "contradiction"]


def augment(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
        code = main(["augment", *map(str, argv)])
    return code, err.getvalue()


def ok_transforms(contrast: Path):
    """(record, transform) for every ok transform of the contrast file."""
    for r in read_jsonl(contrast):
        for t in r["transforms"]:
            if t["status"] == "ok":
                yield r, t


def tree_bytes(path: Path) -> dict[str, bytes]:
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("name", ["train.jsonl", "train.csv", "train.parquet", "train"])
def test_every_format_loads_with_datasets_in_one_call_and_reruns_byte_identical(
        contrast, tmp_path, name):
    out = tmp_path / name
    code, err = augment("--from-contrast", contrast, "-o", out, "--balance")
    assert code == 0, err
    first = tree_bytes(out)
    cache = str(tmp_path / "hf")
    if out.suffix:
        kind = {".jsonl": "json", ".csv": "csv", ".parquet": "parquet"}[out.suffix]
        ds = datasets.load_dataset(kind, data_files=str(out), split="train", cache_dir=cache)
    else:
        ds = datasets.load_from_disk(str(out))
    assert ds.column_names == COLUMNS
    rows = read_jsonl(out) if out.suffix == ".jsonl" else None
    if out.suffix == "":  # a datasets folder: the label is a ClassLabel
        assert ds.features["label"] == datasets.ClassLabel(names=LABELS)
        labels = [LABELS[k] for k in ds["label"]]
    else:  # SNLI input: label names, as the input wrote them
        assert ds.features["label"].dtype in ("string", "large_string")
        labels = ds["label"]
    assert set(labels) == set(LABELS)
    assert Counter(ds["origin"]) == {"original": PAIRS, "transformed": len(ds) - PAIRS}
    if rows is not None:
        assert [r["label"] for r in rows] == labels
    code, err = augment("--from-contrast", contrast, "-o", out, "--balance", "--overwrite")
    assert code == 0, err
    assert tree_bytes(out) == first
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


def test_integer_labels_follow_the_input_and_give_a_class_label(contrast, tmp_path):
    """A dataset with Hugging Face fields (premise, hypothesis, label 0/1/2) gets integers back;
    --label-format text overrides it."""
    hf = tmp_path / "hf-contrast.jsonl"
    with open(hf, "w") as f:
        for r in read_jsonl(contrast):
            i = r["input"]
            r["input"] = {"premise": i["sentence1"], "hypothesis": i["sentence2"],
                          "label": LABELS.index(i["gold_label"])}
            f.write(json.dumps(r) + "\n")
    code, err = augment("--from-contrast", hf, "-o", tmp_path / "int.parquet")
    assert code == 0, err
    ds = datasets.load_dataset("parquet", data_files=str(tmp_path / "int.parquet"),
                               split="train", cache_dir=str(tmp_path / "c"))
    assert ds.features["label"] == datasets.ClassLabel(names=LABELS)
    text = read_jsonl(Path(augment("--from-contrast", hf, "-o", tmp_path / "t.jsonl",
                                   "--label-format", "text")[0] == 0 and tmp_path / "t.jsonl"))
    ints = [LABELS[k] for k in ds["label"]]
    assert ints == [r["label"] for r in text]
    assert json.loads((tmp_path / "int.parquet.meta.json").read_text())["options"][
        "label_format"] == "int"


def test_balance_reaches_other_labels_where_the_rules_allow(contrast, tmp_path):
    out = tmp_path / "b.jsonl"
    code, err = augment("--from-contrast", contrast, "-o", out, "--balance")
    assert code == 0, err
    rows = read_jsonl(out)
    by_source = defaultdict(list)
    for r in rows:
        by_source[r["source_id"]].append(r)
    originals = {(r["input"]["sentence1"], r["input"]["sentence2"]) for r in read_jsonl(contrast)}
    earlier: set = set()  # transformed pairs written for earlier sources
    reached = 0
    for record in read_jsonl(contrast):
        gold = record["input"]["gold_label"]
        mine = by_source[record["id"]]
        transformed = [r for r in mine if r["origin"] == "transformed"]
        # at most one row per label other than the gold one, never the gold label
        assert len({r["label"] for r in transformed}) == len(transformed)
        assert gold not in {r["label"] for r in transformed}
        eligible = {(t["premise"]["output"], t["hypothesis"]["output"])
                    for t in record["transforms"] if t["status"] == "ok" and t["label"]
                    and t["label"] != gold and not t["spec"].startswith("q")}
        eligible -= originals
        if eligible - earlier:
            assert len({r["label"] for r in mine}) >= 2, record["id"]
            reached += 1
        earlier |= {(r["premise"], r["hypothesis"]) for r in transformed}
    assert reached >= 60
    # a C pair reaches N (tense, modal, negated premise) and E (negated hypothesis)
    c_pairs = [v for v in by_source.values() if v[0]["label"] == "contradiction"]
    assert any({r["label"] for r in v} == set(LABELS) for v in c_pairs)
    assert {r["spec"] for v in c_pairs for r in v if r["label"] == "entailment"} == {"o;n"}
    assert {r["spec"] for v in c_pairs for r in v if r["label"] == "neutral"} <= {
        "f;p", "m;o", "n;o"}
    meta = json.loads((tmp_path / "b.jsonl.meta.json").read_text())
    outcome = meta["counts"]["balance"]
    assert sum(o["reached"] for o in outcome.values()) == len(rows) - PAIRS
    for label, o in outcome.items():
        assert o["reached"] + sum(o["why_not"].values()) == o["aimed"]
    assert outcome["entailment"]["why_not"]["no label rule gives it"] == sum(
        1 for v in by_source.values() if v[0]["label"] == "neutral")
    assert "balance contradiction: reached" in err


def test_max_per_source_caps_transformed_rows(contrast, tmp_path):
    out = tmp_path / "k.jsonl"
    assert augment("--from-contrast", contrast, "-o", out, "--max-per-source", "1")[0] == 0
    per = Counter(r["source_id"] for r in read_jsonl(out) if r["origin"] == "transformed")
    assert max(per.values()) == 1 and len(per) > 50
    base = tmp_path / "base.jsonl"  # 0: the originals alone, the baseline's training set
    assert augment("--from-contrast", contrast, "-o", base, "--max-per-source", "0")[0] == 0
    assert [r["origin"] for r in read_jsonl(base)] == ["original"] * PAIRS


def test_filter_drops_exactly_what_the_classifier_disagrees_with(contrast, tmp_path):
    """A test classifier that agrees with every rule label except on m;o (it says
    contradiction there): exactly the m;o rows go, to --rejected, with its label."""
    preds = tmp_path / "preds.jsonl"
    with open(preds, "w") as f:
        for r, t in ok_transforms(contrast):
            label = "contradiction" if t["spec"] == "m;o" else (t["label"] or "neutral")
            f.write(json.dumps({"id": r["id"], "spec": t["spec"], "prediction": label}) + "\n")
    plain, kept, rejected = tmp_path / "all.jsonl", tmp_path / "kept.jsonl", tmp_path / "rej.jsonl"
    assert augment("--from-contrast", contrast, "-o", plain)[0] == 0
    code, err = augment("--from-contrast", contrast, "-o", kept, "--filter-predictions", preds,
                        "--rejected", rejected)
    assert code == 0, err
    assert read_jsonl(kept) == [r for r in read_jsonl(plain) if r["spec"] != "m;o"]
    dropped = read_jsonl(rejected)
    mo = [(r["id"], t) for r, t in ok_transforms(contrast) if t["spec"] == "m;o"]
    assert sorted(r["source_id"] for r in dropped) == sorted(i for i, _ in mo)
    assert {(r["spec"], r["label"], r["label_rule"], r["classifier_label"]) for r in dropped} == {
        ("m;o", "neutral", "modal_premise", "contradiction")}
    assert f"m;o / modal_premise: {len(mo)}" in err
    meta = json.loads((tmp_path / "kept.jsonl.meta.json").read_text())
    assert meta["counts"]["filtered"] == {"m;o / modal_premise": len(mo)}
    assert meta["inputs"]["filter_predictions"]["sha256"]


def test_hygiene_no_duplicates_questions_or_unlabelled_pairs(contrast, tmp_path):
    edited = tmp_path / "edited.jsonl"
    records = read_jsonl(contrast)
    records[0]["input"]["gold_label"] = "-"  # no consensus: neither it nor its contrasts
    edited.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "h.jsonl"
    code, err = augment("--from-contrast", edited, "-o", out)
    assert code == 0, err
    rows = read_jsonl(out)
    keys = [(r["premise"], r["hypothesis"]) for r in rows]
    assert len(keys) == len(set(keys))
    assert records[0]["id"] not in {r["source_id"] for r in rows}
    assert not [r for r in rows if r["spec"] == "q;q" or r["premise"].endswith("?")
                or r["hypothesis"].endswith("?")]
    gold = {(r["input"]["sentence1"], r["input"]["sentence2"]): r["input"]["gold_label"]
            for r in records[1:]}
    assert all(gold.get((r["premise"], r["hypothesis"]), r["label"]) == r["label"] for r in rows)
    dropped = json.loads((tmp_path / "h.jsonl.meta.json").read_text())["counts"]["dropped"]
    questions = sum(1 for r, t in ok_transforms(edited) if t["spec"] == "q;q" and r is not
                    records[0])
    assert dropped["unlabelled"] == 1 and dropped["question"] == questions
    assert dropped["conflicts with an original"] > 0  # negating "not P" gives back a C pair


def test_meta_sidecar_is_complete(contrast, fake_ace_config, tmp_path):
    src = tmp_path / "pairs.jsonl"
    src.write_bytes(b"".join(
        (json.dumps(r) + "\n").encode() for r in read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:20]))
    out = tmp_path / "in.jsonl"
    code, err = augment(src, "-o", out, "--specs", ",".join(SPECS), "--seed", "7", "--balance",
                        "--no-progress", *ace_args(fake_ace_config))
    assert code == 0, err
    meta = json.loads((tmp_path / "in.jsonl.meta.json").read_text())
    assert meta["command"] == "augment" and meta["lit_version"] == lit.__version__
    assert meta["grammar"]["version"] == "2018" and len(meta["grammar"]["sha256"]) == 64
    assert meta["ace"]["version"] == "0.9.30" and meta["scorer"]["name"] == "ace"
    assert meta["specs"] == SPECS and meta["seed"] == 7 and meta["options"]["balance"]
    assert meta["label_rules"]["source"].endswith("default.labels")
    assert len(meta["label_rules"]["sha256"]) == 64
    assert len(meta["inputs"]["input"]["sha256"]) == 64
    assert meta["counts"]["rows"] == len(read_jsonl(out)) and meta["started"] <= meta["ended"]
    # the pipeline run gives what --from-contrast gives on the same pairs
    again = tmp_path / "again.jsonl"
    assert augment("--from-contrast", contrast, "-o", again, "--limit", "20", "--balance",
                   "--seed", "7")[0] == 0
    assert again.read_bytes() == out.read_bytes()


def test_api_returns_a_dataset(contrast, fake_ace_config):
    ds = lit.augment(from_contrast=contrast, balance=True)
    assert isinstance(ds, datasets.Dataset) and ds.column_names == COLUMNS
    pairs = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:5]
    with lit.Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", scorer="ace",
                    workers=2) as engine:
        mine = lit.augment(pairs, specs=["m;o", "o;n"], engine=engine)
    assert mine["source_id"][0] == pairs[0]["pairID"] and set(mine["origin"]) == {
        "original", "transformed"}
    assert all(normalize_label(x) for x in mine["label"])


def test_run_augment_takes_input_output_and_one_options_object(contrast, tmp_path):
    """The documented call (docs/augment.md) writes what the CLI writes with the same flags."""
    cli, api = tmp_path / "cli.jsonl", tmp_path / "api.jsonl"
    assert augment("--from-contrast", contrast, "-o", cli, "--balance", "--seed", "3")[0] == 0
    options = lit.augment.AugmentOptions(from_contrast=contrast, balance=True, seed=3)
    result = lit.augment.run_augment(None, api, options)
    assert result.output == api and result.counts["rows"] == len(read_jsonl(api))
    assert api.read_bytes() == cli.read_bytes()
    assert set(result.balance) == set(LABELS)


@pytest.mark.parametrize("edit, message", [
    (lambda r: r["transforms"][0].pop("label_rule"), r"contrast\.jsonl:3: transforms\[0\] has "
     r"no 'label_rule': not a `lit nli` record of this LIT version"),
    (lambda r: r.pop("transforms"), r"contrast\.jsonl:3: the record has no 'transforms'"),
    (lambda r: r["input"].update(gold_label="maybe"),
     r"contrast\.jsonl:3: unknown label convention: not an NLI label: 'maybe'"),
    (lambda r: r["input"].update(gold_label=2),
     r"contrast\.jsonl:3: label 2 is int, but .*contrast\.jsonl:1 used text labels"),
])
def test_bad_contrast_files_name_file_and_line_and_write_nothing(contrast, tmp_path, edit,
                                                                 message):
    bad = tmp_path / "contrast.jsonl"
    records = read_jsonl(contrast)[:5]
    edit(records[2])
    bad.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "out" / "x.parquet"
    out.parent.mkdir()
    code, err = augment("--from-contrast", bad, "-o", out)
    assert code == 2 and __import__("re").search(message, err), err
    assert list(out.parent.iterdir()) == []


def test_contrast_from_another_version_and_existing_output_are_refused(contrast, tmp_path):
    copy = tmp_path / "c.jsonl"
    copy.write_bytes(contrast.read_bytes())
    Path(str(copy) + ".meta.json").write_text(json.dumps({"meta_format": 0}))
    code, err = augment("--from-contrast", copy, "-o", tmp_path / "x.jsonl")
    assert code == 2 and "c.jsonl.meta.json: metadata format 0" in err
    out = tmp_path / "exists.jsonl"
    out.write_text("keep me\n")
    code, err = augment("--from-contrast", contrast, "-o", out)
    assert code == 2 and f"{out} exists: pass --overwrite" in err
    assert out.read_text() == "keep me\n" and not Path(str(out) + ".meta.json").exists()


def test_default_balance_specs_come_from_the_label_rules():
    from lit.augment.balance import balance_specs, producers

    specs = balance_specs(LabelRules.load())
    table = producers(LabelRules.load(), specs)
    # negating the hypothesis, or removing its negation (aff, issue 27), swaps E and C
    assert table[("E", "C")] == ("o;n", "o;aff") and table[("C", "E")] == ("o;n", "o;aff")
    assert "m;o" in table[("E", "N")] and "f;p" in table[("C", "N")]
    assert ("N", "E") not in table and ("N", "C") not in table
    assert "i;i" not in specs and "q;q" not in specs  # they never change a label
