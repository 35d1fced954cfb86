"""Label Studio interchange: tasks and labelling config out, the JSON export of the
annotations back in, in Label Studio's documented formats (labelstud.io/guide/task_format)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from lit.cli import main
from lit.errors import InputError
from lit.judge.labelstudio import labeling_config, read_export, tasks
from lit.judge.sample import read_sample
from tests.judge.fixtures import PLAN, write_contrast
from tests.judge.test_agree import expected_by_hand


@pytest.fixture
def sample(tmp_path):
    contrast = write_contrast(tmp_path / "contrast.jsonl")
    path = tmp_path / "sample.jsonl"
    assert main(["judge", "sample", str(contrast), "-o", str(path), "-n", "4"]) == 0
    return path


def test_tasks_and_config_match_and_stay_blind(sample):
    items = read_sample(sample)
    task_list = tasks(items)
    assert len(task_list) == 4
    for task in task_list:
        assert set(task) == {"data"}
        assert not {"label", "label_rule", "original_label"} & set(task["data"])
    root = ET.fromstring(labeling_config(items))
    assert root.tag == "View"
    # every $variable of the config is a field of every task
    variables = set(re.findall(r"\$(\w+)", labeling_config(items)))
    assert variables == {"intended", "premise_original", "premise_output",
                         "hypothesis_original", "hypothesis_output"}
    assert all(variables <= set(t["data"]) for t in task_list)
    choices = {c.get("name"): [x.get("value") for x in c] for c in root.iter("Choices")}
    assert choices == {"fluent": ["yes", "no"], "change": ["yes", "no"],
                       "label": ["entailment", "neutral", "contradiction"]}
    names = {e.get("name") for e in root.iter() if e.get("name")}
    assert all(c.get("toName") in names for c in root.iter("Choices"))
    assert [t.get("name") for t in root.iter("TextArea")] == ["notes"]


def _export(task_list: list[dict]) -> list[dict]:
    """What Label Studio's JSON export gives after annotating *task_list* by PLAN: alice as
    user 10 (an id, as current Label Studio writes), bob as a user object (older exports),
    plus a cancelled annotation that must be ignored."""
    out = []
    for k, task in enumerate(task_list, 1):
        rid = task["data"]["item"].split("::")[0]
        annotations = []
        for who, user in (("alice", 10), ("bob", {"id": 11, "email": "bob@example.org"})):
            fluent, change, label = PLAN[who][rid]
            result = [{"id": f"{who}{k}{q}", "from_name": q, "to_name": "premise_output",
                       "type": "choices", "value": {"choices": [a]}}
                      for q, a in (("fluent", fluent), ("change", change), ("label", label))]
            if who == "alice" and rid == "r3":
                result.append({"id": "n1", "from_name": "notes", "to_name": "premise_output",
                               "type": "textarea", "value": {"text": ["odd <b>markup</b>"]}})
            annotations.append({"id": len(annotations) + 100 * k, "result": result,
                                "was_cancelled": False, "ground_truth": False,
                                "created_at": "2026-11-25T13:00:00Z", "lead_time": 4.2,
                                "task": k, "completed_by": user})
        annotations.append({"id": 999 + k, "result": [
            {"from_name": "label", "to_name": "premise_output", "type": "choices",
             "value": {"choices": ["contradiction"]}}], "was_cancelled": True,
            "task": k, "completed_by": 12})
        out.append({"id": k, "data": task["data"], "annotations": annotations,
                    "predictions": [], "project": 1})
    return out


def test_round_trip_through_label_studio(sample, tmp_path, capsys):
    folder = tmp_path / "ls"
    assert main(["judge", "labelstudio", str(sample), "-o", str(folder)]) == 0
    exported = _export(json.loads((folder / "tasks.json").read_text()))
    ET.fromstring((folder / "config.xml").read_text())
    export = tmp_path / "export.json"
    export.write_text(json.dumps(exported))
    answers = read_export(export, read_sample(sample))
    assert {a["annotator"] for a in answers} == {"labelstudio-10", "bob@example.org"}
    assert {"annotator": "labelstudio-10", "item": "r3::pa;pa", "question": "notes",
            "answer": "odd <b>markup</b>"} in answers
    out = tmp_path / "agree.json"
    assert main(["judge", "agree", str(sample), "--label-studio", str(export),
                 "-o", str(out)]) == 0
    capsys.readouterr()
    expected_by_hand(json.loads(out.read_text()))


def test_an_export_of_another_sample_is_refused(sample, tmp_path):
    export = tmp_path / "export.json"
    export.write_text(json.dumps([{"id": 5, "data": {"item": "zz::i;i"}, "annotations": []}]))
    with pytest.raises(InputError, match=r"export.json: task 5: data.item 'zz::i;i' is not"):
        read_export(export, read_sample(sample))
    export.write_text(json.dumps([{"id": 6, "data": {"item": "r1::i;i"}, "annotations": [
        {"completed_by": 1, "result": [{"from_name": "label", "type": "choices",
                                        "value": {"choices": ["maybe"]}}]}]}]))
    with pytest.raises(InputError, match="task 6: label: one of entailment"):
        read_export(export, read_sample(sample))
