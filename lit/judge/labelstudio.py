"""Label Studio interchange: a sample as Label Studio tasks with a matching labelling config,
and Label Studio's JSON export of the annotations read back as answers for `lit judge agree`.

Tasks carry no rule label (judging stays blind); the export is joined to the sample on
``data.item``. The formats are Label Studio's documented ones: tasks are ``[{"data": {...}}]``;
an export is ``[{"id", "data", "annotations": [{"completed_by", "was_cancelled",
"result": [{"from_name", "to_name", "type", "value": {"choices": [...]} | {"text": [...]}}]}]}]``.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from lit.errors import InputError
from lit.judge.answers import NOTES, YES_NO, check_answer

_PROMPTS = {"fluent": "Is the output fluent English?",
            "change": "Did the intended change happen?",
            "label": "Which label is right for the output pair?"}


def _roles(items: Sequence[dict]) -> list[str]:
    return list(dict.fromkeys(s["role"] for it in items for s in it["sides"]))


def tasks(items: Sequence[dict]) -> list[dict]:
    """One Label Studio task per sample item (no rule label, no original label)."""
    out = []
    for it in items:
        data = {"item": it["item"], "spec": it["spec"], "intended": it["intended"]}
        for side in it["sides"]:
            data[f"{side['role']}_original"] = side["original"]
            data[f"{side['role']}_output"] = side["output"]
        out.append({"data": data})
    return out


def labeling_config(items: Sequence[dict]) -> str:
    """The labelling config (XML) for `tasks(items)`: each side's original and output, the
    three questions as single choices, and free notes."""
    roles = _roles(items)
    labels = list(dict.fromkeys(label for it in items for label in it["labels"]))
    view = ET.Element("View")
    ET.SubElement(view, "Header", value="Intended change: $intended")
    for role in roles:
        ET.SubElement(view, "Header", value=f"{role.capitalize()}: original, then output")
        ET.SubElement(view, "Text", name=f"{role}_original", value=f"${role}_original")
        ET.SubElement(view, "Text", name=f"{role}_output", value=f"${role}_output")
    target = f"{roles[0]}_output"
    for question, choices in (("fluent", YES_NO), ("change", YES_NO), ("label", labels)):
        ET.SubElement(view, "Header", value=_PROMPTS[question])
        box = ET.SubElement(view, "Choices", name=question, toName=target, choice="single",
                            required="true", showInline="true")
        for choice in choices:
            ET.SubElement(box, "Choice", value=choice)
    ET.SubElement(view, "Header", value="Notes (optional)")
    ET.SubElement(view, "TextArea", name=NOTES, toName=target, rows="2", maxSubmissions="1",
                  editable="true")
    ET.indent(view)
    return ET.tostring(view, encoding="unicode") + "\n"


def write_project(items: Sequence[dict], folder: Path) -> tuple[Path, Path]:
    """Write ``tasks.json`` and ``config.xml`` into *folder*; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    task_file, config_file = folder / "tasks.json", folder / "config.xml"
    task_file.write_text(json.dumps(tasks(items), ensure_ascii=False, indent=1) + "\n",
                         encoding="utf-8")
    config_file.write_text(labeling_config(items), encoding="utf-8")
    return task_file, config_file


def _annotator(completed_by: object) -> str:
    """Label Studio names the annotator by user id (or, in older exports, a user object)."""
    if isinstance(completed_by, dict):
        completed_by = completed_by.get("email") or completed_by.get("id")
    return completed_by if isinstance(completed_by, str) else f"labelstudio-{completed_by}"


def _value(result: dict) -> str | None:
    value = result.get("value") or {}
    if "choices" in value:
        return (value["choices"] or [None])[0]
    if "text" in value:
        text = value["text"]
        return "\n".join(text) if isinstance(text, list) else str(text)
    return None


def read_export(path: Path, items: Sequence[dict]) -> list[dict]:
    """The answers in a Label Studio JSON export of `tasks(items)`, in the answers file's
    form (annotator, item, question, answer); cancelled annotations are left out. An
    InputError names the task of anything that does not fit the sample."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except ValueError as exc:
        raise InputError(f"{path}: not a Label Studio JSON export ({exc})") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: not a Label Studio JSON export (expected a list of tasks)")
    known = {it["item"]: it for it in items}
    out = []
    for k, task in enumerate(data):
        where = f"{path}: task {task.get('id', k) if isinstance(task, dict) else k}"
        item = (task.get("data") or {}).get("item") if isinstance(task, dict) else None
        if item not in known:
            raise InputError(f"{where}: data.item {item!r} is not an item of the sample")
        for annotation in task.get("annotations") or []:
            if annotation.get("was_cancelled"):
                continue
            who = _annotator(annotation.get("completed_by"))
            for result in annotation.get("result") or []:
                question, answer = result.get("from_name"), _value(result)
                problem = check_answer(who, item, question, answer, known)
                if problem:
                    raise InputError(f"{where}: {problem}")
                out.append({"annotator": who, "item": item, "question": question,
                            "answer": answer})
    return out
