"""`lit judge sample`: stratified by (spec, label rule, status), seeded, a file."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from lit.cli import main
from lit.errors import InputError
from lit.io.meta import read_meta
from lit.judge.sample import read_sample, stratified_sample, stratum
from lit.records import Record
from tests.judge.fixtures import FAILED, RECORDS, _record, write_contrast


def _many() -> list[Record]:
    """60 records of f;p (rule tense_decoupled), 30 of i;i (cleft_both), 10 of m;o."""
    out = []
    for k in range(100):
        spec, rule, label = (("f;p", "tense_decoupled", "neutral") if k < 60 else
                             ("i;i", "cleft_both", "entailment") if k < 90 else
                             ("m;o", "modal_premise", "neutral"))
        out.append(_record(f"x{k}", f"A man {k} sleeps.", "A man sleeps.", "entailment", spec,
                           f"A man {k} slept.", "A man slept.", label, rule))
    return out


def test_every_stratum_first_then_in_proportion():
    items, counts = stratified_sample(_many(), 20, seed=1)
    per = Counter(it["spec"] for it in items)
    # one each, then the other 17 shared 59:29:9 -> 10.3, 5.1, 1.6 -> 10, 5, 2 (largest rest)
    assert per == {"f;p": 11, "i;i": 6, "m;o": 3}
    assert counts["sampled"] == 20
    assert {(s["spec"], s["sampled"]) for s in counts["strata"]} == {
        ("f;p", 11), ("i;i", 6), ("m;o", 3)}
    assert len({it["item"] for it in items}) == 20


def test_small_strata_are_not_drowned():
    items, _ = stratified_sample(_many(), 3, seed=0)
    assert Counter(it["spec"] for it in items) == {"f;p": 1, "i;i": 1, "m;o": 1}
    items, _ = stratified_sample(_many(), 3, seed=0, min_per_stratum=0)
    assert Counter(it["spec"] for it in items) == {"f;p": 2, "i;i": 1}


def test_seeded_and_shuffled():
    first, _ = stratified_sample(_many(), 20, seed=7)
    again, _ = stratified_sample(_many(), 20, seed=7)
    other, _ = stratified_sample(_many(), 20, seed=8)
    assert first == again
    assert [it["item"] for it in first] != [it["item"] for it in other]
    # not in strata blocks: the specs alternate somewhere in the first ten
    assert len({it["spec"] for it in first[:10]}) > 1


def test_a_sample_larger_than_the_run_takes_everything_judgeable():
    items, counts = stratified_sample(RECORDS + [FAILED], 50, seed=0)
    assert sorted(it["id"] for it in items) == ["r1", "r2", "r3", "r4"]
    assert counts["left_out"] == {"no_generation": 1}
    assert {stratum(it) for it in items} == {
        ("i;i", "cleft_both", "ok"), ("f;p", "tense_decoupled", "ok"),
        ("pa;pa", "passive_both", "ok"), ("m;o", "modal_premise", "ok")}


def test_items_carry_what_a_judge_needs():
    items, _ = stratified_sample(RECORDS, 4, seed=0)
    r4 = next(it for it in items if it["id"] == "r4")
    assert r4["intended"] == "premise: modal=may; hypothesis: unchanged"
    assert r4["sides"][1] == {"role": "hypothesis", "original": "A child is eating.",
                              "output": "A child is eating.", "changed": False}
    assert (r4["label"], r4["original_label"], r4["label_rule"]) == (
        "neutral", "entailment", "modal_premise")


def test_sample_command_writes_the_file_and_its_metadata(tmp_path, capsys):
    contrast = write_contrast(tmp_path / "contrast.jsonl", _many())
    sample = tmp_path / "sample.jsonl"
    assert main(["judge", "sample", str(contrast), "-o", str(sample), "-n", "20",
                 "--seed", "1"]) == 0
    assert "20 items from 3 strata" in capsys.readouterr().err
    items = read_sample(sample)
    assert items == stratified_sample(_many(), 20, seed=1)[0]
    meta = read_meta(sample)
    assert meta["command"] == "judge sample" and meta["seed"] == 1
    assert meta["counts"]["sampled"] == 20


def test_bad_sample_lines_name_file_and_line(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"item": "x"}) + "\n")
    with pytest.raises(InputError, match=r"s.jsonl:1: not a `lit judge sample` item"):
        read_sample(path)
    with pytest.raises(InputError, match="no transform in the input has an output"):
        stratified_sample([FAILED], 5)


def test_only_the_statuses_asked_for():
    half = _record("r6", "A cat sleeps.", "An animal sleeps.", "entailment", "f;p",
                   "A cat will sleep.", "An animal slept.", None, None, status="not_applicable")
    items, counts = stratified_sample(RECORDS + [half, FAILED], 50, seed=0)
    assert "r6" not in {it["id"] for it in items}
    assert counts["left_out"] == {"no_generation": 1, "not_applicable": 1}
    items, counts = stratified_sample(RECORDS + [half, FAILED], 50, seed=0, statuses=None)
    assert ("f;p", "–", "not_applicable") in {stratum(it) for it in items}
    assert counts["left_out"] == {"no_generation": 1}


def test_a_lit_contrast_record_of_a_single_text_task(tmp_path, capsys):
    """`lit contrast` records (here SST-2: one side, `text`, labels negative/positive) are
    sampled by their task's sides and labels."""
    side = {"output": "He is brilliant.", "mrs": None, "verified": True, "candidates": []}
    record = {"id": "a", "task": "sst2", "input": {"sentence": "She is brilliant.",
                                                   "label": "positive"},
              "texts": {"text": "She is brilliant."}, "gold": "positive", "status": "ok",
              "reason": None,
              "transforms": [{"spec": "gender=swap", "status": "ok", "reason": None,
                              "text": side, "label": "positive",
                              "label_rule": "demographic_keeps", "label_rationale": "why"}]}
    contrast = write_contrast(tmp_path / "sst2.jsonl", [Record.from_json(record)])
    sample = tmp_path / "sample.jsonl"
    assert main(["judge", "sample", str(contrast), "-o", str(sample), "-n", "5"]) == 0
    capsys.readouterr()
    (item,) = read_sample(sample)
    assert item["sides"] == [{"role": "text", "original": "She is brilliant.",
                              "output": "He is brilliant.", "changed": True}]
    assert item["labels"] == ["negative", "positive"]
    assert (item["label"], item["original_label"]) == ("positive", "positive")
    assert item["intended"] == "text: gender=swap"
