"""The one reader of a task's inputs: one TaskItem per input record of any dataset, never
dropping one, and per record given in Python (`as_item`). The profile (lit.tasks.profile) names
the fields and the shape of the records; a record that cannot be used (a missing field, an
empty text, a label outside the task's set, bad JSON) is an item with `error` set, which becomes
that record's invalid_input record (docs/tasks.md)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from itertools import islice
from pathlib import Path

from lit.errors import InputError
from lit.io.readers import (
    LabelConvention,
    class_labels,
    detect_format,
    iter_rows,
    json_problem,
    text_problem,
)
from lit.records import Record, is_record
from lit.tasks.item import TaskItem
from lit.tasks.profile import ID_ROLE, LABEL_ROLE, NLI_TASK, TaskProfile, load_task

_INTEGER = re.compile(r"-?\d+")
#: What a tuple given in Python holds after its texts: the label, then the id.
_TUPLE_EXTRAS = 2


def field_lists(profile: TaskProfile, columns: Mapping[str, str] | None = None,
                label: str | None = None, id_field: str | None = None
                ) -> dict[str, tuple[str, ...]]:
    """Per role (each side, label, id), the fields to try: the profile's, or the one named
    (`--column SIDE=FIELD`, `--label-column`, `--id-column`); InputError for a side the
    task does not have."""
    columns = dict(columns or {})
    unknown = sorted(set(columns) - set(profile.sides))
    if unknown:
        raise InputError(f"--column {unknown[0]}=...: task {profile.name} has no side "
                         f"{unknown[0]!r} (its sides: {', '.join(profile.sides)})")
    named = {**columns, **({LABEL_ROLE: label} if label else {}),
             **({ID_ROLE: id_field} if id_field else {})}
    return {role: (named[role],) if role in named else tried
            for role, tried in profile.fields.items()}


def _present(names: Mapping | list[str], tried: tuple[str, ...]) -> str:
    """The field to read: the first of *tried* present, else the first (so that the
    record's error names it)."""
    return next((f for f in tried if f in names), tried[0])


def _record_id(rec: Mapping, fields: Mapping[str, tuple[str, ...]], line: int,
               rid: object = None) -> object:
    """The record's id: *rid* if given, else the first non-empty id field, else its line."""
    if rid not in (None, ""):
        return rid
    return next((rec[f] for f in fields[ID_ROLE] if rec.get(f) not in (None, "")), line)


def _writable(rec: object) -> dict:
    """*rec* as an item's input: the dict itself, or its `ascii` text under "raw" when it is
    not a dict JSON can write (so its invalid_input record can still be written)."""
    if isinstance(rec, dict) and not json_problem(rec):
        return rec
    return {"raw": ascii(rec)[:2000]}


def _integer(value: object) -> object:
    """A CSV/TSV's integer label (Hugging Face's, held as text) as an int; else *value*."""
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value)
    return value


def task_item(rec: dict, line: int, profile: TaskProfile, fields: Mapping[str, tuple[str, ...]],
              where: str, class_names: Mapping[str, tuple[str, ...]] | None = None,
              rid: object = None) -> TaskItem:
    """The TaskItem of one record *rec* (shared by files and the Python API); *class_names*
    are a `datasets` dataset's ClassLabel names per field; *rid* overrides the id fields."""
    rid = _record_id(rec, fields, line, rid)
    rid = str(line) if json_problem(str(rid)) else str(rid)
    texts = tuple(_text(rec, fields[side]) for side in profile.sides)
    gold, bad_label = _gold(rec, profile, fields[LABEL_ROLE], class_names or {})
    error = next((_side_problem(side, why, rec, fields[side])
                  for side, (_, why) in zip(profile.sides, texts) if why),
                 None) or bad_label or json_problem(rec)
    if error:
        rec = _writable(rec)
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
    value = _integer(rec[name])
    shown = ""
    if isinstance(value, int) and not isinstance(value, bool) and name in class_names \
            and 0 <= value < len(class_names[name]):
        shown = f"ClassLabel name {class_names[name][value]!r} (integer {value}): "
        value = class_names[name][value]
    try:
        return profile.labels.name(value), None
    except ValueError as exc:
        return None, f"field {name!r}: {shown}{exc}"


def pair_item(rec: dict, line: int, profile: TaskProfile,
              fields: Mapping[str, tuple[str, ...]], where: str, rid: object = None) -> TaskItem:
    """The TaskItem of one record of a pair-records task (`lit nli`'s): its texts and its gold
    as read, checked as `lit nli` checks them (a side without text, a gold outside the task's
    labels, fields not writable as JSON); *rid* overrides the id fields."""
    names = {role: _present(rec, tried) for role, tried in fields.items() if tried}
    rid = _record_id(rec, fields, line, rid)
    texts = tuple(rec.get(names[side]) for side in profile.sides)
    gold = _integer(rec.get(names[LABEL_ROLE])) if LABEL_ROLE in names else None
    error = next((f"no sentence in field {names[side]!r}" for side, text in
                  zip(profile.sides, texts) if not isinstance(text, str) or not text.strip()),
                 None) or _label_problem(profile, gold, names.get(LABEL_ROLE)) \
        or json_problem(rec)
    if error:
        rid = line if json_problem(str(rid)) else rid
        rec = _writable(rec)
        return TaskItem(str(rid), line, rec, texts, gold, f"{where}: {error}")
    return TaskItem(str(rid), line, rec, texts, gold)


def _label_problem(profile: TaskProfile, gold: object, name: str | None) -> str | None:
    """Why *gold* is not one of the task's labels (naming its field), or None."""
    try:
        profile.labels.code(gold)
    except ValueError as exc:
        return f"field {name!r}: {exc}"
    return None


def as_item(record: object, line: int, task: str | Path | TaskProfile = NLI_TASK) -> TaskItem:
    """The TaskItem of record *line* of *task* given in Python: a dict in the task's fields,
    a tuple (its texts in side order[, label[, id]]) or a TaskItem (as it is); anything else
    is an item with `error` set (that record's invalid_input record)."""
    if isinstance(record, TaskItem):
        return record
    profile = load_task(task)
    n, rid = len(profile.sides), None
    noun = "pair" if profile.pair_records else "record"
    if isinstance(record, (tuple, list)) and n <= len(record) <= n + _TUPLE_EXTRAS:
        rid = record[n + 1] if len(record) > n + 1 else None
        record = _tuple_fields(record, profile)
    elif not isinstance(record, dict):
        return TaskItem(str(line), line, _writable(record), (None,) * n, None,
                        f"{noun} {line}: expected a dict of the task's fields or a "
                        f"({', '.join(profile.sides)}, label) tuple, not "
                        f"{type(record).__name__}")
    make = pair_item if profile.pair_records else task_item
    return make(dict(record), line, profile, field_lists(profile), f"{noun} {line}", rid=rid)


def _tuple_fields(values: tuple | list, profile: TaskProfile) -> dict:
    """A tuple's texts (and label) under the profile's first field names, as its input."""
    fields = {profile.fields[side][0]: text for side, text in zip(profile.sides, values)}
    if profile.fields[LABEL_ROLE]:
        fields[profile.fields[LABEL_ROLE][0]] = values[len(profile.sides)] \
            if len(values) > len(profile.sides) else None
    return fields


def read_task(path: str | Path, profile: TaskProfile, fmt: str | None = None, *,
              columns: Mapping[str, str] | None = None, label: str | None = None,
              id_field: str | None = None) -> Iterator[TaskItem]:
    """The task's records from JSONL, CSV, TSV, Parquet or a `datasets` dataset (a saved
    folder, ``DIR:SPLIT``, ``hf:NAME[:SPLIT]``), one TaskItem per record, in order; *columns*
    maps a side to the field that holds it, *label* and *id_field* name those fields. A
    `lit contrast` (or `lit nli`) output gives its records' inputs again, ids kept."""
    fmt = detect_format(path, fmt)
    fields = field_lists(profile, columns, label, id_field)
    names = class_labels(path, fmt)
    header = _header_check(path, profile, fields, id_field) if profile.pair_records \
        else lambda columns: None
    for row in iter_rows(path, fmt, header=header):
        where = f"{path}:{row.line}"
        if row.error:
            yield TaskItem(str(row.line), row.line, row.fields,
                           (None,) * len(profile.sides), None, f"{where}: {row.error}")
            continue
        rec, rid = row.fields, None
        if fmt == "jsonl" and is_record(rec):
            rec, rid = _written_input(Record.from_json(rec), profile)
        if profile.pair_records:
            yield pair_item(rec, row.line, profile, fields, where, rid)
        else:
            yield task_item(rec, row.line, profile, fields, where, names, rid)


def _written_input(record: Record, profile: TaskProfile) -> tuple[dict, object]:
    """The input fields of a record LIT wrote and the id to give them: a pair record's id goes
    back under the profile's first id field (unless its input has one)."""
    if profile.pair_records and profile.fields[ID_ROLE]:
        return {profile.fields[ID_ROLE][0]: record.id, **record.input}, None
    return dict(record.input), record.id


def _header_check(path: str | Path, profile: TaskProfile, fields: Mapping[str, tuple[str, ...]],
                  id_field: str | None) -> Callable[[list[str]], None]:
    """What hears a CSV/TSV header of a pair-records task: InputError for a column it lacks
    (each side's, and the id column named)."""
    def check(columns: list[str]) -> None:
        wanted = [_present(columns, fields[side]) for side in profile.sides]
        missing = [c for c in [*wanted, *([id_field] if id_field else [])] if c not in columns]
        if missing:
            flags = "/".join([*(f"--{side}-column" for side in profile.sides), "--label-column"])
            raise InputError(f"{path}: no column {missing[0]!r} (columns: "
                             f"{', '.join(columns) or 'none'}); name the columns with {flags}")
    return check


def read_nli(path: str | Path, fmt: str | None = None, *, premise: str | None = None,
             hypothesis: str | None = None, label: str | None = None,
             id_field: str | None = None) -> Iterator[TaskItem]:
    """NLI pairs: `read_task` with the built-in nli profile (one line into the one reader,
    kept for the documented API); *premise*, *hypothesis* name those fields."""
    return read_task(path, load_task(NLI_TASK), fmt, label=label, id_field=id_field, columns={
        side: name for side, name in (("premise", premise), ("hypothesis", hypothesis)) if name})


def label_convention(path: str | Path, fmt: str | None = None, *, label: str | None = None,
                     sample: int = 1000) -> LabelConvention:
    """The label convention of an NLI dataset (any input `read_nli` reads): integers if the
    first labelled records of *sample* hold integers (or integer strings), else words.

    Code that writes labels back beside a user's data (e.g. `lit augment`) calls this and
    `LabelConvention.to_input`, so HF-style data gets 0/1/2/-1 and SNLI-style data words."""
    tried = (label,) if label else load_task(NLI_TASK).fields[LABEL_ROLE]
    for item in islice(read_nli(path, fmt, label=label), sample):
        value = None if item.error else item.input.get(_present(item.input, tried))
        if value in (None, ""):
            continue
        integer = isinstance(value, int) and not isinstance(value, bool)
        return LabelConvention(_present(item.input, tried),
                               integer or _INTEGER.fullmatch(str(value).strip()) is not None)
    return LabelConvention(tried[0], False)
