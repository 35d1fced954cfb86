"""Issue 13, a user's first hour: the demo, the command-line grammar, HF-style data, exit
statuses, help texts, the summary, GPT-2 offline, platforms and the `lit` name clash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lit.cli import main


def test_demo_runs_with_no_grammar_and_says_it_replays(env, tmp_path, capsys):
    out = tmp_path / "demo.jsonl"
    assert main(["demo", "-o", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "REPLAYED" in printed and "no grammar is installed" in printed
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 10 and all(r["status"] == "ok" for r in records)
    meta = json.loads((tmp_path / "demo.jsonl.meta.json").read_text())
    assert meta["command"] == "demo" and meta["options"]["replayed"] is True
    summary = json.loads((tmp_path / "demo.jsonl.summary.json").read_text())
    assert summary["records"] == 10 and summary["specs"][0]["expansion"]
    # the examples shown are real contrast pairs of the output
    assert "-> A woman may be driving a car." in printed


def test_demo_data_ships_in_the_package():
    from importlib import resources

    demo = resources.files("lit.demo")
    assert demo.joinpath("pairs.jsonl").is_file()
    assert demo.joinpath("transcripts.jsonl.gz").is_file()
    toml = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert '"*.jsonl", "*.jsonl.gz"]' in toml and 'lit-contrast = "lit.cli:main"' in toml


# --- item 6 and 7: an unambiguous command line, spec expansions and the glued '+' ----------


def test_specs_is_one_comma_separated_value_and_spec_repeats():
    from lit.pipeline.cli import split_specs

    assert split_specs("f;p,p;f,i;i,pa;pa,m;o,p;f +i") == ["f;p", "p;f", "i;i", "pa;pa", "m;o",
                                                           "p;f +i"]
    # commas inside a value (swap=ARG1,ARG3) stay inside it, on either side of the ';'
    assert split_specs("f;p,swap=ARG1,ARG3;o") == ["f;p", "swap=ARG1,ARG3;o"]
    assert split_specs("f;swap=ARG1,ARG3,p;f") == ["f;swap=ARG1,ARG3", "p;f"]
    args = build_nli_args(["x.jsonl", "-o", "o.jsonl", "--specs", "f;p,m;o", "--spec", "p;f +i"])
    from lit.config import PAPER_SPECS
    from lit.pipeline.cli import pair_specs_from_args

    assert pair_specs_from_args(args, PAPER_SPECS) == ["f;p", "m;o", "p;f +i"]
    bare = build_nli_args(["x.jsonl", "-o", "o.jsonl"])
    assert pair_specs_from_args(bare, PAPER_SPECS) == list(PAPER_SPECS)


def build_nli_args(argv: list[str]):
    from lit.cli import build_parser

    return build_parser().parse_args(["nli", *argv])


def test_input_after_specs_is_not_swallowed_and_old_style_gets_a_hint(tmp_path, capsys):
    """`--specs` takes one value, so INPUT may follow it; the old space-separated form is
    refused with what to write instead, and no internal name shows."""
    from lit.cli import build_parser

    args = build_parser().parse_args(["nli", "--specs", "f;p,m;o", "in.jsonl", "-o", "o.jsonl"])
    assert args.input == "in.jsonl" and args.specs == ["f;p,m;o"]
    with pytest.raises(SystemExit) as exc:
        main(["nli", "in.jsonl", "-o", "o.jsonl", "--specs", "f;p", "m;o", "p;f"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: lit nli")
    assert "unrecognized arguments: m;o p;f" in err and "--specs 'f;p,p;f'" in err
    assert "parse_pair" not in err


def test_glued_plus_warns_and_names_the_other_reading():
    from lit.pipeline.summary import expand_pair, glued_warning

    assert expand_pair("p;f +i") == "tense=past+cleft ; tense=fut+cleft"
    assert expand_pair("p;f+i") == "tense=past ; tense=fut+cleft"
    warning = glued_warning("p;f+i")
    assert "to the hypothesis only" in warning and "'p;f +i' applies it to both sides" in warning
    assert glued_warning("p;f +i") is None and glued_warning("p;prog=+") is None


def test_summary_is_whole_and_saved_as_json():
    from lit.pipeline.summary import Summary

    reason = "premise: no candidate re-parses to the intended MRS: 'A dog was running quickly " \
             "through the long grass of the park.' and 9 more candidates " + "x" * 150
    summary = Summary()
    summary.add({"status": "no_generation", "transforms": [
        {"spec": "p;f +i", "status": "not_verified", "reason": reason, "label": None}]})
    text = summary.format()
    assert "= tense=past+cleft ; tense=fut+cleft" in text and "x" * 150 in text
    assert "…" not in text
    saved = summary.to_json()
    assert saved["specs"][0]["reasons"][0]["count"] == 1
    assert saved["specs"][0]["reasons"][0]["reason"].endswith("x" * 150)


# --- item 8 and 9: Hugging Face-style data, and runs where nothing could be used ------------

HF_ROWS = [
    {"premise": "A dog is chasing a cat.", "hypothesis": "A dog is not chasing a cat.",
     "label": 2},
    {"premise": "A woman is driving a car.", "hypothesis": "A car is being driven by a woman.",
     "label": 0},
    {"premise": "A man is climbing a mountain.", "hypothesis": "A man is climbing.",
     "label": -1},
]


def _write_hf(tmp_path: Path, kind: str) -> Path:
    if kind == "jsonl":
        path = tmp_path / "hf.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in HF_ROWS))
    elif kind in ("csv", "tsv"):
        sep = "," if kind == "csv" else "\t"
        path = tmp_path / f"hf.{kind}"
        path.write_text("premise" + sep + "hypothesis" + sep + "label\n" + "".join(
            f"{r['premise']}{sep}{r['hypothesis']}{sep}{r['label']}\n" for r in HF_ROWS))
    elif kind == "parquet":
        pq = pytest.importorskip("pyarrow.parquet")
        pa = pytest.importorskip("pyarrow")
        path = tmp_path / "hf.parquet"
        pq.write_table(pa.Table.from_pylist(HF_ROWS), path)
    else:
        datasets = pytest.importorskip("datasets")
        path = tmp_path / "hf-disk"
        datasets.DatasetDict({"validation": datasets.Dataset.from_list(HF_ROWS)}).save_to_disk(
            str(path))
        path = Path(f"{path}:validation")
    return path


@pytest.mark.parametrize("kind", ["jsonl", "csv", "tsv", "parquet", "datasets"])
def test_hf_field_names_and_integer_labels_are_read_by_default(tmp_path, kind):
    from lit.io.readers import label_convention, read_nli

    path = _write_hf(tmp_path, kind)
    items = list(read_nli(path))
    assert [it.error for it in items] == [None, None, None]
    assert [(it.premise, it.hypothesis) for it in items] == [
        (r["premise"], r["hypothesis"]) for r in HF_ROWS]
    convention = label_convention(path)
    assert convention.integers and convention.field == "label"
    assert [convention.from_input(it.gold) for it in items] == [
        "contradiction", "entailment", None]
    # and back: LIT's labels in the input's spelling
    assert [convention.to_input(x) for x in ("entailment", "neutral", "contradiction", None)] \
        == [0, 1, 2, -1]


def test_snli_words_keep_their_convention():
    from lit.io.readers import label_convention
    from tests.conftest import DATA

    convention = label_convention(DATA / "snli-1.0-dev.jsonl.gz")
    assert not convention.integers and convention.field == "gold_label"
    assert convention.to_input("neutral") == "neutral" and convention.to_input(None) == "-"


def test_a_dataset_with_splits_needs_one_named(tmp_path):
    from lit.errors import InputError
    from lit.io.readers import read_nli

    path = Path(str(_write_hf(tmp_path, "datasets")).rsplit(":", 1)[0])
    with pytest.raises(InputError, match=r"splits validation: name one as .*:SPLIT"):
        list(read_nli(path))


def test_nli_exits_non_zero_when_every_record_is_invalid(fake_ace_config, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps({"text": r["premise"]}) + "\n" for r in HF_ROWS))
    code = main(["nli", str(bad), "-o", str(tmp_path / "out.jsonl"), "--specs", "m;o",
                 "--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
                 "--grammar-version", "2018", "--scorer", "ace", "--no-progress"])
    assert code == 1
    err = capsys.readouterr().err
    assert "no record of" in err and "invalid_input" in err and "--premise-column" in err
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 3  # still one per input


def test_nli_reads_hf_jsonl_through_the_cli(fake_ace_config, tmp_path, capsys):
    path = _write_hf(tmp_path, "jsonl")
    out = tmp_path / "out.jsonl"
    code = main(["nli", str(path), "-o", str(out), "--specs", "m;o",
                 "--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
                 "--grammar-version", "2018", "--scorer", "ace", "--no-progress"])
    assert code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["status"] for r in records] != ["invalid_input"] * 3
    assert all(r["status"] != "invalid_input" for r in records)


def test_analyze_of_unreadable_input_exits_non_zero(fake_ace_config, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "no pair here"}\n')
    code = main(["analyze", str(bad), "--ace", str(fake_ace_config.ace),
                 "--grammar", str(fake_ace_config.grammar)])
    assert code == 2
    err = capsys.readouterr().err
    assert "no usable NLI pair" in err and "no sentence in field 'sentence1'" in err
