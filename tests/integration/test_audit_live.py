"""`lit audit` on the live grammar (issue 42): a few real dev rows of Kaushik et al.'s
counterfactually-augmented NLI data (tests/data/cad), diffed by lit.diff on ACE and the ERG."""

from __future__ import annotations

import json

import pytest

from lit.cli import main
from tests.conftest import DATA

pytestmark = pytest.mark.integration

CAD = DATA / "cad"


@pytest.mark.parametrize("side", ["hypothesis", "premise"])
def test_cad_dev_rows_one_record_each(tmp_path, side):
    out = tmp_path / f"{side}.jsonl"
    code = main(["audit", str(CAD / f"revised_{side}-dev-3.tsv"),
                 "--originals", str(CAD / "original-dev-3.tsv"), "-o", str(out),
                 "--no-progress", "--workers", "2", "--grammar-version", "2025"])
    assert code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in records] == [str(i) for i in range(2, 8)]
    for r in records:
        assert r["edited_sides"] == [side]
        assert r["status"] != "ok" or r["edits"][side]["diff"] is not None
        assert r["status"] == "ok" or r["reason"]
        p = r["prediction"]
        assert (p["label"] is None) == (r["agrees"] is None or r["claimed_label"] is None)
        assert p["label"] is not None or p["reason"]
    assert sum(r["status"] == "ok" for r in records) >= 4
    summary = json.loads((tmp_path / f"{side}.jsonl.summary.json").read_text())
    assert summary["rows"] == 6


def test_a_negated_hypothesis_is_named_and_labelled(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({
        "id": "neg", "premise": "A dog is barking.", "hypothesis": "A dog is not barking.",
        "label": "contradiction", "original_premise": "A dog is barking.",
        "original_hypothesis": "A dog is barking.", "original_label": "entailment"}) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["audit", str(rows), "-o", str(out), "--no-progress", "--workers", "1",
                 "--grammar-version", "2025"]) == 0
    record = json.loads(out.read_text())
    assert record["kinds"] == ["neg"] and record["named"] is True
    assert (record["prediction"]["rule"], record["prediction"]["label"], record["agrees"]) == (
        "negated_hypothesis", "contradiction", True)


def _audit_one(tmp_path, row: dict) -> dict:
    rows = tmp_path / f"{row['id']}.jsonl"
    rows.write_text(json.dumps(row) + "\n")
    out = tmp_path / f"{row['id']}.out.jsonl"
    assert main(["audit", str(rows), "-o", str(out), "--no-progress", "--workers", "1",
                 "--grammar-version", "2025"]) == 0
    return json.loads(out.read_text())


def test_the_premises_stand_labels_an_added_detail_and_a_premise_edit(tmp_path):
    """Kaushik et al.'s train row 1007 (an added detail the premise says nothing of: E -> N)
    and dev row 26 (the premise now states the hypothesis's coffee: N -> E), on the grammar."""
    band = "A band is performing in front of an audience."
    jazz = _audit_one(tmp_path, {
        "id": "jazz", "premise": band, "hypothesis": "The people are playing jazz music.",
        "label": "neutral", "original_premise": band,
        "original_hypothesis": "The people are playing music.",
        "original_label": "entailment"})
    assert (jazz["prediction"]["rule"], jazz["prediction"]["label"], jazz["agrees"]) == (
        "edit_specialize_up_silent", "neutral", True)
    coffee = _audit_one(tmp_path, {
        "id": "coffee", "premise": "An Asian young man is drinking coffee out of a metal cup.",
        "hypothesis": "The young man is drinking coffee.", "label": "entailment",
        "original_premise": "An Asian young man is drinking out of a metal cup.",
        "original_hypothesis": "The young man is drinking coffee.",
        "original_label": "neutral"})
    assert (coffee["prediction"]["rule"], coffee["prediction"]["label"], coffee["agrees"]) == (
        "premise_now_supports", "entailment", True)
