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
    # and the report of it says it was replayed
    assert main(["report", str(out), "-o", str(tmp_path / "r.html")]) == 0
    assert "<b>REPLAYED:</b> made by <code>lit demo</code>" in (tmp_path / "r.html").read_text()


def test_demo_data_ships_in_the_package():
    from importlib import resources

    demo = resources.files("lit.demo")
    assert demo.joinpath("pairs.jsonl").is_file()
    assert demo.joinpath("transcripts.jsonl.gz").is_file()
    toml = (Path(__file__).parents[2] / "pyproject.toml").read_text()
    assert '"*.jsonl", "*.jsonl.gz"]' in toml


# --- item 6 and 7: an unambiguous command line, spec expansions and the glued '+' ----------


def test_specs_is_one_comma_separated_value_and_spec_repeats():
    from lit.commands.options import split_specs

    assert split_specs("f;p,p;f,i;i,pa;pa,m;o,p;f +i") == ["f;p", "p;f", "i;i", "pa;pa", "m;o",
                                                           "p;f +i"]
    # commas inside a value (swap=ARG1,ARG3) stay inside it, on either side of the ';'
    assert split_specs("f;p,swap=ARG1,ARG3;o") == ["f;p", "swap=ARG1,ARG3;o"]
    assert split_specs("f;swap=ARG1,ARG3,p;f") == ["f;swap=ARG1,ARG3", "p;f"]
    args = build_nli_args(["x.jsonl", "-o", "o.jsonl", "--specs", "f;p,m;o", "--spec", "p;f +i"])
    from lit.commands.options import pair_specs_from_args
    from lit.config import PAPER_SPECS

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
    summary.add({"id": "1", "input": {}, "status": "no_generation", "transforms": [
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
    from lit.tasks.reader import label_convention, read_nli

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
    from lit.tasks.reader import label_convention
    from tests.conftest import DATA

    convention = label_convention(DATA / "snli-1.0-dev.jsonl.gz")
    assert not convention.integers and convention.field == "gold_label"
    assert convention.to_input("neutral") == "neutral" and convention.to_input(None) == "-"


def test_a_dataset_with_splits_needs_one_named(tmp_path):
    from lit.errors import InputError
    from lit.tasks.reader import read_nli

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


# --- item 5: help text ------------------------------------------------------------------------


def test_every_option_has_help_and_a_metavar_and_lit_help_is_whole(capsys):
    import argparse

    from lit.cli import build_parser

    parser = build_parser()
    commands = parser._subparsers._group_actions[0]
    problems = []
    for name, sub in commands.choices.items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            where = f"lit {name} {'/'.join(action.option_strings) or action.dest}"
            if not action.help:
                problems.append(f"{where}: no help")
            if action.nargs != 0 and not (action.metavar or action.choices):
                problems.append(f"{where}: no metavar (argparse would show {action.dest.upper()})")
    assert problems == []
    with pytest.raises(SystemExit):
        main(["--help"])
    listing = " ".join(capsys.readouterr().out.split())
    for choice in commands._choices_actions:  # each summary is a whole sentence
        assert choice.help.endswith((".", ")")), choice.help
        assert " ".join(choice.help.split()) in listing


# --- item 2: GPT-2 with no network fails fast and says what to do -----------------------------


def test_hub_probe_names_what_cannot_be_reached(monkeypatch):
    from lit.rank.gpt2 import hub_unreachable

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    for var in ("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:1")  # nothing listens on port 1
    assert hub_unreachable().startswith("127.0.0.1:1: ")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # already offline: nothing to probe
    assert hub_unreachable() is None


def test_gpt2_offline_and_uncached_loads_from_the_cache_only_and_says_what_to_do(
        monkeypatch, tmp_path):
    transformers = pytest.importorskip("transformers")
    from lit.errors import ConfigurationError
    from lit.rank import gpt2

    monkeypatch.setattr(gpt2, "hub_unreachable", lambda: "huggingface.co:443: no route")
    calls = []

    def from_pretrained(name, **kwargs):
        calls.append(kwargs)
        raise OSError("not in the cache")

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", from_pretrained)
    with pytest.raises(ConfigurationError) as exc:
        gpt2.PerplexityScorer("gpt2").load()
    assert calls == [{"local_files_only": True}]  # no Hub retries
    message = str(exc.value)
    for advice in ("huggingface.co:443: no route", "--scorer ace", "HF_HUB_OFFLINE=1",
                   "--model with a local directory"):
        assert advice in message


def test_gpt2_from_a_local_directory_never_probes(monkeypatch, tmp_path):
    transformers = pytest.importorskip("transformers")
    from lit.rank import gpt2

    def probe():
        raise AssertionError("a local model needs no network check")

    monkeypatch.setattr(gpt2, "hub_unreachable", probe)
    config = transformers.GPT2Config(n_layer=1, n_head=2, n_embd=8, vocab_size=300,
                                     n_positions=32)
    transformers.GPT2LMHeadModel(config).save_pretrained(tmp_path)
    seen = []
    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained",
                        lambda name, **kw: seen.append(kw) or (_ for _ in ()).throw(OSError("x")))
    with pytest.raises(Exception):
        gpt2.PerplexityScorer(str(tmp_path)).load()
    assert seen == [{"local_files_only": False}]


# --- items 3 and 4: the platform doctor matched, and the `lit` name clash ---------------------


def test_doctor_prints_the_platform_it_matched_and_apple_silicon_runs_rosetta(monkeypatch):
    import platform

    from lit.ace.doctor import platform_check

    monkeypatch.setattr(platform, "system", lambda: "Darwin")
    monkeypatch.setattr(platform, "machine", lambda: "arm64")
    check = platform_check()
    assert check.ok is None and check.detail.startswith("darwin-arm64: matches")
    assert "ace-0.9.34-osx.tar.gz" in check.detail and "Rosetta 2" in check.detail
    monkeypatch.setattr(platform, "system", lambda: "Linux")
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    check = platform_check()
    assert check.ok is False and "linux-aarch64: no ACE" in check.detail
    assert "--ace or LIT_ACE" in check.fix


def test_doctor_detects_llvm_lit_and_names_lit_contrast(monkeypatch):
    from importlib import metadata

    from lit.ace.doctor import name_clash_check

    assert name_clash_check().ok is True
    real_version = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "18.1.8" if name == "lit"
                        else real_version(name))
    check = name_clash_check()
    assert check.ok is False and "PyPI `lit` 18.1.8 (LLVM's test runner)" in check.detail
    assert "lit-contrast" in check.fix


def test_lit_contrast_is_installed_next_to_lit():
    tomllib = pytest.importorskip("tomllib")

    with open(Path(__file__).parents[2] / "pyproject.toml", "rb") as f:
        scripts = tomllib.load(f)["project"]["scripts"]
    assert scripts["lit"] == scripts["lit-contrast"] == "lit.cli:main"


# --- items 12 and 13: run metadata, and what a transform record says --------------------------


def test_transform_records_carry_input_candidates_scores_and_null_mrs(fake_ace_config, tmp_path):
    from lit.pipeline.records import SideResult, transform_record
    from lit.status import Status

    out = tmp_path / "t.jsonl"
    code = main(["transform", "--spec", "neg", "A dog is chasing a cat.", "Bob xyzzy.",
                 "-o", str(out), "--ace", str(fake_ace_config.ace), "--grammar",
                 str(fake_ace_config.grammar), "--grammar-version", "2018", "--scorer", "ace"])
    assert code == 0
    ok, failed = [json.loads(line) for line in out.read_text().splitlines()]
    assert ok["input"] == "A dog is chasing a cat." and ok["output"] == "A dog is not chasing a cat."
    assert ok["candidates"] and [r["surface"] for r in ok["ranking"]] == ok["candidates"]
    assert all(isinstance(r["score"], float) for r in ok["ranking"]) and ok["chosen_because"]
    assert failed["input"] == "Bob xyzzy." and failed["mrs"] is None
    assert transform_record("neg", SideResult(Status.NO_PARSE, "x", ""))["mrs"] is None
    meta = json.loads((tmp_path / "t.jsonl.meta.json").read_text())
    assert meta["command"] == "transform" and meta["specs"] == ["neg"]
    assert meta["ace"]["version"] == "0.9.30" and meta["grammar"]["sha256"]
    assert meta["scorer"]["name"] == "ace" and meta["started"] <= meta["ended"]


def test_nli_writes_run_metadata_beside_its_output(fake_ace_config, tmp_path):
    path = _write_hf(tmp_path, "jsonl")
    out = tmp_path / "out.jsonl"
    assert main(["nli", str(path), "-o", str(out), "--specs", "m;o,p;f +i",
                 "--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
                 "--grammar-version", "2018", "--scorer", "ace", "--no-progress"]) == 0
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["command"] == "nli" and meta["specs"] == ["m;o", "p;f +i"]
    assert meta["inputs"]["input"]["sha256"] and meta["label_rules"]["sha256"]
    assert meta["grammar"]["version"] == "2018" and meta["options"]["scorer"] == "ace"


def test_evaluate_writes_run_metadata(tmp_path):
    from tests.conftest import DATA

    out = tmp_path / "scores.json"
    assert main(["evaluate", str(DATA / "eval" / "contrast.jsonl"), "--predictions",
                 str(DATA / "eval" / "predictions.jsonl"), "-o", str(out)]) == 0
    meta = json.loads((tmp_path / "scores.json.meta.json").read_text())
    assert meta["command"] == "evaluate" and meta["inputs"]["contrast"]["sha256"]
    assert meta["inputs"]["predictions"]["sha256"] and meta["options"]["strict"] is False


def test_spec_errors_name_no_internal_function(capsys):
    assert main(["transform", "--mrs", "-", "--spec", "f;p"]) == 2
    err = capsys.readouterr().err
    assert "pair spec, which `lit nli` takes" in err and "parse_pair" not in err


def test_parse_writes_a_file_with_run_metadata(fake_ace_config, tmp_path, capsys):
    out = tmp_path / "parses.jsonl"
    assert main(["parse", "A dog is chasing a cat.", "--format", "json", "-o", str(out),
                 "--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
                 "--grammar-version", "2018"]) == 0
    assert capsys.readouterr().out == ""
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["status"] == "ok" and record["readings"]
    meta = json.loads((tmp_path / "parses.jsonl.meta.json").read_text())
    assert meta["command"] == "parse" and meta["ace"]["version"] == "0.9.30"
    assert meta["grammar"]["version"] == "2018" and meta["grammar"]["sha256"]


# --- items 10 and 16: progress in a log file and in notebooks ---------------------------------


def test_progress_off_a_terminal_is_plain_periodic_lines(monkeypatch):
    import io

    from lit import progress

    log = io.StringIO()  # not a TTY, like stderr redirected to a file
    monkeypatch.setenv("LIT_PROGRESS_SECONDS", "0")
    with progress.progress_bar(4, "lit nli", "pair", True, file=log) as bar:
        assert isinstance(bar, progress.PlainProgress)
        for _ in range(4):
            bar.update(1)
    lines = log.getvalue().splitlines()
    assert len(lines) == 5 and "\r" not in log.getvalue()  # one per item, one at the end
    assert lines[1].startswith("lit nli:  50%") and "2/4" in lines[1] and "pair/s" in lines[1]
    assert "<" in lines[1]  # elapsed<remaining: the ETA
    quiet = io.StringIO()
    with progress.progress_bar(4, "lit nli", "pair", False, file=quiet) as bar:
        bar.update(4)
    assert quiet.getvalue() == ""


def test_progress_in_a_notebook_is_tqdm_auto(monkeypatch):
    from tqdm.auto import tqdm as auto_tqdm

    from lit import progress

    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    bar = progress.progress_bar(3, "lit evaluate", "pair")
    try:
        assert isinstance(bar, auto_tqdm)
    finally:
        bar.close()


def test_evaluate_with_a_model_shows_per_pair_progress(monkeypatch, capsys):
    from lit.evaluate import read_contrast_file
    from lit.evaluate.metrics import needed_items, predict
    from tests.conftest import DATA

    monkeypatch.setenv("LIT_PROGRESS_SECONDS", "0")
    items = needed_items(read_contrast_file(DATA / "eval" / "contrast.jsonl"))
    predict(items, lambda pairs: ["neutral"] * len(pairs), batch_size=10)
    err = capsys.readouterr().err.splitlines()
    pairs = len({(it.premise, it.hypothesis) for it in items})
    assert err[-1].startswith("lit evaluate: 100%") and f"{pairs}/{pairs}" in err[-1]


def test_analyze_writes_run_metadata(fake_ace_config, tmp_path):
    path = _write_hf(tmp_path, "jsonl")
    out = tmp_path / "analysis.json"
    assert main(["analyze", str(path), "--ace", str(fake_ace_config.ace), "--grammar",
                 str(fake_ace_config.grammar), "--grammar-version", "2018", "--resamples", "0",
                 "-o", str(out)]) == 0
    meta = json.loads((tmp_path / "analysis.json.meta.json").read_text())
    assert meta["command"] == "analyze" and meta["inputs"]["dataset"]["sha256"]
    assert meta["ace"]["version"] == "0.9.30" and meta["grammar"]["version"] == "2018"
