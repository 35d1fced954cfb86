"""Dataset readers and the resumable JSONL writer."""

from __future__ import annotations

import gzip
import json

import pytest

from lit.errors import InputError
from lit.io import RecordWriter, count_records, read_sentences, written_ids
from lit.tasks.reader import read_nli
from tests.conftest import DATA, ORACLE


def test_snli_jsonl_keeps_fields_ids_and_labels():
    items = list(read_nli(DATA / "snli-1.0-dev.jsonl.gz"))
    assert len(items) == count_records(DATA / "snli-1.0-dev.jsonl.gz") == 1289
    first = items[0]
    assert first.id == "4705552913.jpg#2r1n" and first.gold == "neutral" and first.error is None
    assert first.premise == "Two women are embracing while holding to go packages."
    assert first.input["annotator_labels"] == ["neutral", "entailment", "neutral", "neutral",
                                               "neutral"]
    assert sum(it.gold == "-" for it in items) == 16


def test_bad_jsonl_lines_become_invalid_items_not_lost(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text(
        '{"sentence1": "A.", "sentence2": "B.", "gold_label": "neutral"}\n'
        "\n"
        '{"sentence1": "A.", "sentence2": \n'
        '["a list"]\n'
        '{"id": 7, "sentence1": "A.", "gold_label": "neutral"}\n'
    )
    items = list(read_nli(path))
    assert [it.id for it in items] == ["1", "3", "4", "7"]  # line numbers, or the id field
    assert items[0].error is None
    assert items[1].error.startswith(f"{path}:3:") and "not JSON" in items[1].error
    assert items[1].input == {"raw": '{"sentence1": "A.", "sentence2": '}
    assert "expected a JSON object" in items[2].error
    assert items[3].error == f"{path}:5: no sentence in field 'sentence2'"
    assert count_records(path) == 4


def test_csv_with_named_columns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text('uid,premise,hypothesis,label\nx1,"Alice saw Bob, twice.",Bob saw.,0\n'
                    "x2,,Empty premise.,1\n")
    items = list(read_nli(path, premise="premise", hypothesis="hypothesis", label="label",
                          id_field="uid"))
    assert [it.id for it in items] == ["x1", "x2"]
    assert items[0].premise == "Alice saw Bob, twice." and items[0].gold == 0  # HF integer
    assert items[0].error is None
    assert items[1].error == f"{path}:3: no sentence in field 'premise'"
    # Hugging Face's field names are found without naming them
    assert [(it.premise, it.gold) for it in read_nli(path)] == [(it.premise, it.gold)
                                                               for it in items]
    other = tmp_path / "o.csv"
    other.write_text("uid,text,claim\nx1,A.,B.\n")
    with pytest.raises(InputError, match=r"o.csv: no column 'sentence1' \(columns: uid, text"):
        list(read_nli(other))


def test_mnli_style_tsv_with_stray_quotes(tmp_path):
    path = tmp_path / "mnli.tsv.gz"
    with gzip.open(path, "wt") as f:
        f.write("gold_label\tsentence1\tsentence2\tpairID\n")
        f.write('entailment\tHe said "hi.\tHe spoke.\t11\n')
        f.write("neutral\tShe ran.\tShe ran fast.\t12\n")
    items = list(read_nli(path))
    assert [(it.id, it.premise, it.gold) for it in items] == [
        ("11", 'He said "hi.', "entailment"), ("12", "She ran.", "neutral")
    ]
    assert count_records(path) == 2


def test_unknown_format_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="--format"):
        list(read_nli(tmp_path / "data.xml"))
    with pytest.raises(InputError, match="cannot open"):
        list(read_nli(tmp_path / "missing.jsonl"))


def test_sentence_files_keep_blank_lines_one_record_per_line(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("Alice saw Bob.\n\n  The dog barked.  \n")
    assert list(read_sentences(path)) == ["Alice saw Bob.", "", "The dog barked."]


def test_writer_and_resume_cut_a_half_written_line(tmp_path):
    path = tmp_path / "out.jsonl"
    with RecordWriter(path) as w:
        for rid in ["a", "b", "a"]:
            w.write({"id": rid, "text": "ünïcode"})
    assert written_ids(path) == {"a": 2, "b": 1}
    good = path.read_bytes()
    path.write_bytes(good + b'{"id": "c", "te')  # killed mid-line
    assert written_ids(path) == {"a": 2, "b": 1}
    assert path.read_bytes() == good
    path.write_bytes(good + b'{"id": "c"}')  # complete JSON, newline never written
    assert written_ids(path) == {"a": 2, "b": 1} and path.read_bytes() == good
    with RecordWriter(path, append=True) as w:
        w.write({"id": "c"})
    assert written_ids(path) == {"a": 2, "b": 1, "c": 1}
    assert "ünïcode" in path.read_text(encoding="utf-8")


def test_resume_refuses_a_corrupt_line_in_the_middle(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text('{"id": "a"}\nnot json\n{"id": "b"}\n')
    with pytest.raises(InputError, match=r"out.jsonl:2: not a complete output record"):
        written_ids(path)
    assert path.read_text() == '{"id": "a"}\nnot json\n{"id": "b"}\n'  # untouched


def test_oracle_nli_pairs_read_with_their_ids():
    items = list(read_nli(ORACLE / "nli-pairs.jsonl.gz"))
    assert len(items) == 255 and items[0].id == "s02:pass"
    assert len({it.id for it in items}) == 255
    assert json.dumps(items[0].input)  # original fields pass through unchanged
