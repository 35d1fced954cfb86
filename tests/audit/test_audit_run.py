"""`lit audit` end to end on Kaushik et al.'s data as released (tests/data/cad), over a stand-in
grammar and a stand-in lit.diff: the reader's alignment, one record per row whatever fails,
resume, the summary's Wilson intervals and the review items `lit judge` takes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lit.ace.options
import lit.diff
from lit.audit.records import audit_records
from lit.audit.rows import RowsOptions, read_rows
from lit.audit.run import review_path, summary_path
from lit.audit.summary import rate, summarize
from lit.cli import main
from lit.errors import InputError
from lit.judge.sample import ITEM_KEYS, read_sample
from lit.tasks import load_task
from tests.audit.fakes import Differ, PresentAce
from tests.conftest import DATA

CAD = DATA / "cad"
ORIGINALS = CAD / "original-dev-3.tsv"
HYPOTHESES = CAD / "revised_hypothesis-dev-3.tsv"
PREMISES = CAD / "revised_premise-dev-3.tsv"
NLI = load_task("nli")


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_revised_rows_align_to_their_original_by_order():
    rows = list(read_rows(HYPOTHESES, NLI, RowsOptions(originals=ORIGINALS)))
    assert [r.original_id for r in rows] == ["2", "2", "3", "3", "4", "4"]
    assert all(r.edited_sides(NLI.sides) == ("hypothesis",) for r in rows)
    assert (rows[0].original_label, rows[0].claimed_label) == ("neutral", "contradiction")
    premise = list(read_rows(PREMISES, NLI, RowsOptions(originals=ORIGINALS)))
    assert {r.edited_sides(NLI.sides) for r in premise} == {("premise",)}


def test_matching_by_text_and_a_row_that_matches_nothing(tmp_path):
    edited = tmp_path / "edited.tsv"
    lines = HYPOTHESES.read_text().splitlines()
    edited.write_text("\n".join([lines[0], lines[3], "Nobody wrote this.\tNor this.\tneutral"])
                      + "\n")
    rows = list(read_rows(edited, NLI, RowsOptions(originals=ORIGINALS, align="auto")))  # 2 of 3: match
    assert rows[0].original_id == "3" and rows[0].error is None
    assert "no record of" in rows[1].error and "shares a text" in rows[1].error
    with pytest.raises(InputError, match="not a whole multiple"):
        next(read_rows(edited, NLI, RowsOptions(originals=ORIGINALS, align="order")))


def test_one_file_with_both_and_a_row_without_its_original(tmp_path):
    path = tmp_path / "both.jsonl"
    path.write_text(json.dumps({
        "id": "a", "premise": "A dog runs.", "hypothesis": "A dog doesn't run.",
        "label": "contradiction", "original_premise": "A dog runs.",
        "original_hypothesis": "A dog runs.", "original_label": "entailment"}) + "\n"
        + json.dumps({"id": "b", "premise": "A cat.", "hypothesis": "A cat.",
                      "label": "entailment"}) + "\n")
    a, b = read_rows(path, NLI)
    assert (a.id, a.original, a.original_label, a.claimed_label) == (
        "a", ("A dog runs.", "A dog runs."), "entailment", "contradiction")
    assert b.error.endswith("no original text (expected original_sentence1, original_premise; "
                            "or give the originals as a second file with --originals)")


def test_records_in_batches_one_per_row():
    differ, ace = Differ(), PresentAce()
    rows = list(read_rows(HYPOTHESES, NLI, RowsOptions(originals=ORIGINALS)))
    records = list(audit_records(rows, ace, NLI, NLI.load_label_rules(),
                                 differ=differ, batch=4))
    # a batch's texts are parsed in one call, each once: its originals and their edits
    assert len(ace.calls) == 2
    for call, batch in zip(ace.calls, (rows[:4], rows[4:])):
        texts = {t for r in batch for t in (*r.original, *r.edited)}
        assert sorted(call) == sorted(texts)
    assert len(differ.pairs) == 6
    assert [r["id"] for r in records] == [str(i) for i in range(2, 8)]  # line numbers
    cricket = records[0]
    assert cricket["kinds"] == ["lexical"] and cricket["named"] is True
    assert cricket["edits"]["hypothesis"]["diff"]["edits"][0]["relation"] == "cohyponym"
    assert cricket["size"] == {"eps": 1, "tokens": 1, "closeness": 0.9}
    # neutral -> contradiction by a sibling: natural logic leaves a neutral pair open
    assert cricket["prediction"]["label"] is None and cricket["agrees"] is None
    negated = records[2]  # "... aren't friends.": neutral stays neutral under negation
    assert (negated["prediction"]["rule"], negated["prediction"]["label"],
            negated["claimed_label"], negated["agrees"]) == (
        "negated_hypothesis", "neutral", "contradiction", False)
    unnamed = records[3]
    assert unnamed["named"] is False and "not fully named" in unnamed["prediction"]["reason"]


def test_a_failing_batch_still_writes_every_record():
    def broken(a, b, parse_a, parse_b, grammar_version="2025"):
        if "cricket" in b:
            raise RuntimeError("the diff broke")
        return Differ()(a, b, parse_a, parse_b)

    rows = list(read_rows(HYPOTHESES, NLI, RowsOptions(originals=ORIGINALS)))
    records = list(audit_records(rows, PresentAce(), NLI, NLI.load_label_rules(),
                                 differ=broken))
    assert len(records) == 6  # the batch failed, then each row alone: only one fails
    assert [(r["status"], r["reason"]) for r in records][:2] == [
        ("error", "RuntimeError: the diff broke"), ("ok", None)]
    assert [r["status"] for r in records[2:]] == ["ok"] * 4


@pytest.fixture
def standins(monkeypatch):
    """`lit audit` with the stand-in grammar and diff."""
    differ = Differ()
    monkeypatch.setattr(lit.ace.options, "service_from_args", lambda args: PresentAce())
    monkeypatch.setattr(lit.diff, "diff_parsed", differ, raising=False)
    return differ


def test_the_command_end_to_end(tmp_path, standins, capsys):
    out = tmp_path / "audit.jsonl"
    edited = tmp_path / "edited.tsv"
    edited.write_text(PREMISES.read_text() + "A boy is unparsable.\tA boy.\tneutral\n"
                      "only one field\n")
    originals = tmp_path / "originals.tsv"
    originals.write_text(ORIGINALS.read_text() + "A boy is here.\tA boy.\tentailment\n")
    code = main(["audit", str(edited), "--originals", str(originals), "--align", "match",
                 "-o", str(out), "--no-progress"])
    assert code == 0
    records = _records(out)
    assert len(records) == 8  # one per edited row, failures included
    assert [r["status"] for r in records[-2:]] == ["no_parse", "invalid_input"]
    assert records[-2]["reason"] == "premise: no parse found"
    garden = records[0]
    # a stronger premise: covered, but SNLI's typical inferences give it no label
    assert (garden["prediction"]["label"], garden["agrees"]) == (None, None)
    assert garden["prediction"]["rule"] == "premise_specialize_up"
    summary = json.loads(summary_path(out).read_text())
    assert summary["rows"] == 8 and summary["status"] == {"ok": 6, "no_parse": 1,
                                                         "invalid_input": 1}
    assert summary["edits_by_kind"] == {"modifier_added": 1}
    assert summary["named"]["hits"] == 1 and summary["named"]["n"] == 6
    err = capsys.readouterr().err
    assert "lit audit: wrote 8 records" in err and "edits named (no residue)" in err
    assert (out.parent / (out.name + ".meta.json")).exists()


def test_resume_writes_only_the_missing_rows(tmp_path, standins):
    out = tmp_path / "audit.jsonl"
    args = ["audit", str(HYPOTHESES), "--originals", str(ORIGINALS), "-o", str(out),
            "--no-progress"]
    assert main([*args, "--limit", "2"]) == 0
    first = out.read_text()
    with out.open("a") as f:
        f.write('{"id": "4", "cut')  # a killed run's half line
    assert main(args) == 2  # an existing OUTPUT needs --resume or --overwrite
    assert main([*args, "--resume"]) == 0
    records = _records(out)
    assert [r["id"] for r in records] == [str(i) for i in range(2, 8)]
    assert out.read_text().startswith(first)
    assert len(standins.pairs) == 6  # 2 then the 4 missing ones
    assert main([*args, "--overwrite"]) == 0 and len(_records(out)) == 6


def test_summary_wilson_intervals_and_review_items(tmp_path, standins):
    out = tmp_path / "audit.jsonl"
    assert main(["audit", str(HYPOTHESES), "--originals", str(ORIGINALS), "-o", str(out),
                 "--no-progress"]) == 0
    summary = json.loads(summary_path(out).read_text())
    # only the negated row is predicted: N -> C claimed, N predicted
    assert summary["agreement"] == rate(summary["agreement"]["hits"], summary["agreement"]["n"])
    neg = summary["agreement_by_kind"]["neg"]
    assert (neg["hits"], neg["n"]) == (0, 1)
    low, high = neg["ci"]
    assert low == 0.0 and high == pytest.approx(0.7935, abs=1e-4)  # Wilson, 0 of 1
    assert summary["disagreements"] == ["4"]
    items = read_sample(review_path(out))
    assert [i["item"] for i in items] == ["4::audit"]
    item = items[0]
    assert set(ITEM_KEYS) <= set(item)
    assert (item["label"], item["claimed_label"], item["label_rule"]) == (
        "neutral", "contradiction", "negated_hypothesis")
    assert item["sides"][1] == {"role": "hypothesis",
                                "original": "people running holding hands because they are "
                                "in love", "output": "The people running hand and hand "
                                "aren't friends.", "changed": True}


def test_rate_is_a_wilson_interval():
    assert rate(0, 0) == {"hits": 0, "n": 0, "rate": None, "ci": None}
    r = rate(17, 20)
    assert r["rate"] == 0.85 and r["ci"] == pytest.approx([0.6396, 0.9476], abs=1e-4)
    s = summarize([])
    assert s["rows"] == 0 and s["agreement"]["n"] == 0


def test_the_report_section(tmp_path, standins):
    out = tmp_path / "audit.jsonl"
    assert main(["audit", str(HYPOTHESES), "--originals", str(ORIGINALS), "-o", str(out),
                 "--no-progress"]) == 0
    page = tmp_path / "audit.html"
    assert main(["report", str(out), "-o", str(page)]) == 0  # an audit output alone
    html = page.read_text()
    assert "<title>LIT counterfactual audit</title>" in html
    assert 'id="audit"' in html and "Agreement per edit kind" in html
    assert "<code>neg</code></td><td>0.0 <span" in html  # 0 of 1, with its interval
    assert "<s>people running holding hands because they are in love</s>" in html
    beside = tmp_path / "both.html"
    contrast = DATA / "eval" / "contrast.jsonl"
    assert main(["report", str(contrast), "--audit", str(out), "-o", str(beside)]) == 0
    assert 'id="audit"' in beside.read_text() and 'id="examples"' in beside.read_text()
    assert main(["report", str(contrast), "--audit", str(contrast), "-o", str(beside)]) == 2


def _summary_record(id_: str, edited: list[str], claimed: str, predicted: str,
                    rule: str) -> dict:
    return {"id": id_, "status": "ok", "edited_sides": edited, "named": True, "kinds": [],
            "claimed_label": claimed, "agrees": claimed == predicted,
            "prediction": {"label": predicted, "rule": rule, "spec": "o;o", "reason": None}}


def test_a_disagreement_on_a_row_nothing_edited_is_told_apart():
    """Kaushik et al.'s data has "revised" rows that repeat the original with a new label; the
    identity rule keeps the label, and the summary says the row's text did not change."""
    from lit.audit.summary import format_summary

    records = [_summary_record("1", [], "neutral", "entailment", "identity"),
               _summary_record("2", ["hypothesis"], "neutral", "contradiction",
                               "edit_sibling_up")]
    summary = summarize(records)
    assert summary["disagreements"] == ["1", "2"]
    assert summary["unedited_disagreements"] == ["1"]
    text = format_summary(summary, records)
    assert "2 rows (1 with nothing edited: the label changed, the text did not)" in text
    assert "1: o;o claims neutral, identity gives entailment; nothing was edited" in text
    assert "2: o;o claims neutral, edit_sibling_up gives contradiction\n" in text + "\n"
