"""The one record module (lit.records): typed records that read what `lit nli` wrote and write
it back byte for byte, and the one reader of a record file, whose errors name file and line.
(`lit contrast` records round-trip in tests/commands/test_contrast.py's check_shape.)"""

from __future__ import annotations

import dataclasses
import gzip
import json

import pytest

from lit.errors import InputError
from lit.records import Record, Sentence, Side, Transform, is_record, read_records
from tests.conftest import DATA

#: Real `lit nli` output (tests/pipeline/test_records_unchanged.py), timings left out.
RECORDED = sorted((DATA / "expected").glob("*.jsonl.gz"))


def recorded_lines() -> list[str]:
    return [line.rstrip("\n") for path in RECORDED
            for line in gzip.open(path, "rt", encoding="utf-8") if line.strip()]


def test_recorded_records_write_back_byte_for_byte():
    lines = recorded_lines()
    assert len(lines) >= 40
    for line in lines:
        record = Record.from_json(line, strict=True)
        assert record.to_json() == line
        assert Record.from_json(json.loads(line)) == record  # from the object too
        assert Record.from_json(record.to_json()) == record


def test_a_record_reads_as_typed_fields():
    record = next(r for r in map(Record.from_json, recorded_lines())
                  if any(t.ok for t in r.transforms))
    t = next(t for t in record.transforms if t.ok)
    assert record.task is None and record.status == "ok"
    assert [name for name, _ in t.sides] == ["premise", "hypothesis"]
    side = t.side("premise")
    assert isinstance(side, Side) and side.output == t.output("premise") and side.verified
    assert side.sentence is None  # an NLI side: no sentence fields
    texts, gold = record.original(("premise", "hypothesis"),
                                  {"premise": ("sentence1",), "hypothesis": ("sentence2",),
                                   "label": ("gold_label",)})
    assert texts == (record.input["sentence1"], record.input["sentence2"])
    assert gold == record.input["gold_label"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.status = "error"  # type: ignore[misc]


def test_a_contrast_record_keeps_its_field_order_and_sentence_fields():
    side = {**dict.fromkeys(Side.__dataclass_fields__), "output": "She was praised.",
            "verified": True}
    side.pop("sentence")
    side.update(sentence=0, sentence_input="They praised her.",
                sentence_output="She was praised.")
    data = {"id": "7", "task": "sst2", "input": {"sentence": "They praised her.", "label": 1},
            "texts": {"text": "They praised her."}, "gold": "positive", "status": "ok",
            "reason": None, "transforms": [{"spec": "pass", "status": "ok", "reason": None,
                                            "text": side, "label": "positive",
                                            "label_rule": "voice", "label_rationale": "why"}],
            "timings": {"parse": 0.5}}
    record = Record.from_json(data, strict=True)
    assert record.to_json() == json.dumps(data, ensure_ascii=False)
    assert record.transforms[0].side("text").sentence == Sentence(0, "They praised her.",
                                                                 "She was praised.")
    assert record.original(("text",), {"text": ("sentence",)}) == (("They praised her.",),
                                                                    "positive")


def test_a_partial_record_of_an_older_version_reads_its_missing_fields_as_null():
    record = Record.from_json('{"id": 1, "input": {}, "transforms": [{"spec": "o;n", '
                              '"premise": {"output": "A."}, "hypothesis": null}]}')
    (t,) = record.transforms
    assert record.id == "1" and record.status is None and t.side("hypothesis") is None
    assert t.side("premise") == Side(output="A.") and t.output("hypothesis") is None
    with pytest.raises(InputError, match=r"transforms\[0\] has no 'status', 'label', "
                                         r"'label_rule': not a `lit nli` record"):
        Record.from_json('{"id": 1, "input": {}, "status": "ok", "transforms": '
                         '[{"spec": "o;n"}]}', strict=True)


def test_a_transform_built_in_code_writes_lit_s_shape():
    t = Transform("o;n", "ok", None, (("premise", Side(output="A.")), ("hypothesis", None)),
                  "contradiction", "neg_hyp")
    assert list(t.to_dict()) == ["spec", "status", "reason", "premise", "hypothesis", "label",
                                 "label_rule", "label_rationale"]
    assert t.to_dict()["premise"]["candidates"] is None and t.to_dict()["hypothesis"] is None


@pytest.mark.parametrize("line, message", [
    ("{not json", r"f\.jsonl:2: not JSON"),
    ("[1, 2]", r"f\.jsonl:2: not a `lit nli` record \(a JSON object\)"),
    ('{"sentence1": "A.", "sentence2": "B."}',
     r"f\.jsonl:2: not a `lit nli` record \(nor a `lit contrast` one: needs `id` and `input`"),
    ('{"id": "x", "input": {}, "transforms": {}}', r"f\.jsonl:2: `transforms` is not a list"),
    ('{"id": "x", "input": {}, "transforms": [3]}',
     r"f\.jsonl:2: transforms\[0\] is not an object"),
    ('{"id": "x", "input": {}, "transforms": [{"premise": 3}]}',
     r"f\.jsonl:2: transforms\[0\]\.premise is not an object"),
    ('{"id": "x", "task": "sst2", "input": {}}', r"f\.jsonl:2: a `lit contrast` record needs"),
])
def test_the_reader_names_file_and_line_of_a_bad_record(tmp_path, line, message):
    path = tmp_path / "f.jsonl"
    good = recorded_lines()[0]
    path.write_text(f"{good}\n{line}\n\n{good}\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        list(read_records(path))
    skipped: list[str] = []
    records = list(read_records(path, skipped=skipped))
    assert [r.line for r in records] == [1, 4] and len(skipped) == 1
    assert records[0] == Record.from_json(good)


def test_strict_reading_refuses_a_record_without_this_version_s_fields(tmp_path):
    path = tmp_path / "old.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write('{"id": "x", "input": {}, "status": "ok"}\n')
    assert [r.id for r in read_records(path)] == ["x"]  # gzip by its suffix
    with pytest.raises(InputError, match=r"old\.jsonl\.gz:1: the record has no 'transforms': "
                                         r"not a `lit nli` record of this LIT version"):
        list(read_records(path, strict=True))


def test_is_record_tells_records_from_dataset_rows():
    assert is_record(json.loads(recorded_lines()[0]))
    assert not is_record({"sentence1": "A.", "sentence2": "B.", "gold_label": "neutral"})
    assert not is_record({"id": "x", "input": "A.", "transforms": []})
