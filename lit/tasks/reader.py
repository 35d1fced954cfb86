"""A task's records from any dataset `lit nli` reads: one TaskItem per input record, never
dropping one. The profile (lit.tasks.profile) names the fields; a record that cannot be used
(a missing field, an empty text, a label outside the task's set, bad JSON) is an item with
`error` set, which becomes that record's invalid_input record (docs/tasks.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from lit.io.readers import (
    class_labels,
    detect_format,
    iter_rows,
    json_problem,
    text_problem,
)
from lit.records import Record, is_record
from lit.tasks.profile import ID_ROLE, LABEL_ROLE, TaskProfile

_INTEGER = re.compile(r"-?\d+")


@dataclass(frozen=True)
class TaskItem:
    """One input record of a task: its texts (one per side of the profile, None if
    missing) and its gold label's canonical name (None: no label)."""

    id: str
    line: int
    input: dict
    texts: tuple[str | None, ...]
    gold: str | None = None
    error: str | None = None  # why the record cannot be used (-> invalid_input), "WHERE: why"


def field_lists(profile: TaskProfile, columns: Mapping[str, str] | None = None,
                label: str | None = None, id_field: str | None = None
                ) -> dict[str, tuple[str, ...]]:
    """Per role (each side, label, id), the fields to try: the profile's, or the one named
    (`--column SIDE=FIELD`, `--label-column`, `--id-column`); InputError for a side the
    task does not have."""
    from lit.errors import InputError

    columns = dict(columns or {})
    unknown = sorted(set(columns) - set(profile.sides))
    if unknown:
        raise InputError(f"--column {unknown[0]}=...: task {profile.name} has no side "
                         f"{unknown[0]!r} (its sides: {', '.join(profile.sides)})")
    named = {**columns, **({LABEL_ROLE: label} if label else {}),
             **({ID_ROLE: id_field} if id_field else {})}
    return {role: (named[role],) if role in named else tried
            for role, tried in profile.fields.items()}


def task_item(rec: dict, line: int, profile: TaskProfile, fields: Mapping[str, tuple[str, ...]],
              where: str, class_names: Mapping[str, tuple[str, ...]] | None = None,
              rid: object = None) -> TaskItem:
    """The TaskItem of one record *rec* (shared by files and the Python API); *class_names*
    are a `datasets` dataset's ClassLabel names per field; *rid* overrides the id fields."""
    if rid in (None, ""):
        rid = next((rec[f] for f in fields[ID_ROLE] if rec.get(f) not in (None, "")), line)
    rid = str(line) if json_problem(str(rid)) else str(rid)
    texts = tuple(_text(rec, fields[side]) for side in profile.sides)
    gold, bad_label = _gold(rec, profile, fields[LABEL_ROLE], class_names or {})
    error = next((_side_problem(side, why, rec, fields[side])
                  for side, (_, why) in zip(profile.sides, texts) if why),
                 None) or bad_label or json_problem(rec)
    if error:
        rec = {"raw": ascii(rec)[:2000]} if json_problem(rec) else rec
        return TaskItem(rid, line, rec, tuple(t for t, _ in texts), None, f"{where}: {error}")
    return TaskItem(rid, line, rec, tuple(t for t, _ in texts), gold)


def _text(rec: dict, tried: tuple[str, ...]) -> tuple[str | None, str | None]:
    """(text, None) or (None, why not) for one side."""
    name = next((f for f in tried if f in rec), None)
    if name is None:
        return None, "missing"
    value = rec[name]
    if not isinstance(value, str) or not value.strip():
        return None, f"no text in field {name!r}"
    problem = text_problem(value)
    return (None, f"field {name!r}: {problem}") if problem else (value, None)


def _side_problem(side: str, why: str, rec: dict, tried: tuple[str, ...]) -> str:
    if why != "missing":
        return why
    return (f"no field for {side} (tried {', '.join(tried)}; fields: "
            f"{', '.join(map(str, rec)) or 'none'})")


def _gold(rec: dict, profile: TaskProfile, tried: tuple[str, ...],
          class_names: Mapping[str, tuple[str, ...]]) -> tuple[str | None, str | None]:
    """(canonical label or None, None) or (None, why the label is not one of the task's)."""
    name = next((f for f in tried if f in rec), None)
    if name is None:
        return None, None
    value = rec[name]
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        value = int(value)  # a CSV/TSV holds Hugging Face's integers as text
    shown = ""
    if isinstance(value, int) and not isinstance(value, bool) and name in class_names \
            and 0 <= value < len(class_names[name]):
        shown = f"ClassLabel name {class_names[name][value]!r} (integer {value}): "
        value = class_names[name][value]
    try:
        return profile.labels.name(value), None
    except ValueError as exc:
        return None, f"field {name!r}: {shown}{exc}"


def read_task(path: str | Path, profile: TaskProfile, fmt: str | None = None, *,
              columns: Mapping[str, str] | None = None, label: str | None = None,
              id_field: str | None = None) -> Iterator[TaskItem]:
    """The task's records from JSONL, CSV, TSV, Parquet or a `datasets` dataset (a saved
    folder, ``DIR:SPLIT``, ``hf:NAME[:SPLIT]``), one TaskItem per record, in order. A
    `lit contrast` (or `lit nli`) output gives its records' inputs again, ids kept."""
    fmt = detect_format(path, fmt)
    fields = field_lists(profile, columns, label, id_field)
    names = class_labels(path, fmt)
    for row in iter_rows(path, fmt):
        if row.error:
            yield TaskItem(str(row.line), row.line, row.fields,
                           (None,) * len(profile.sides), None, f"{path}:{row.line}: {row.error}")
            continue
        rec, rid = row.fields, None
        if fmt == "jsonl" and is_record(rec):
            record = Record.from_json(rec)
            rec, rid = dict(record.input), record.id
        yield task_item(rec, row.line, profile, fields, f"{path}:{row.line}", names, rid)
