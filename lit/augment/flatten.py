"""`lit nli` and `lit contrast` records -> slim sources: each input record's text(s) with its
gold label and its contrast candidates (texts, label, spec, rule, status), checked field by
field so a file from another LIT version fails on its first bad line, naming file and line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lit.augment.labels import gold_code
from lit.errors import InputError
from lit.evaluate.records import labels_of, task_of
from lit.io.meta import read_meta
from lit.io.readers import open_binary
from lit.labels.names import NLI, LabelSet
from lit.spec import parse_pair, parse_spec
from lit.status import Status
from lit.tasks import NLI_TASK, TaskProfile, load_task
from lit.tasks.profile import LABEL_ROLE

#: Fields every `lit nli` record and transform of this LIT version has (docs/design.md §5);
#: a `lit contrast` record has `texts` and `gold` too, its transforms a field per side.
RECORD_FIELDS = ("id", "input", "status", "transforms")
TASK_RECORD_FIELDS = (*RECORD_FIELDS, "task", "texts", "gold")
SIDE_FIELDS = ("output", "verified")
#: Input fields tried for each role when no column is named (SNLI/MNLI, then HF names).
DEFAULT_COLUMNS = {role: load_task(NLI_TASK).fields[role]
                   for role in ("premise", "hypothesis", "label")}
#: The columns of an NLI row's texts and label (docs/augment.md).
NLI_COLUMNS = ("premise", "hypothesis", "label")


@dataclass(frozen=True, slots=True)
class Candidate:
    """One transform of a source, reduced to what a training row needs."""

    spec: str
    status: str
    reason: str | None
    texts: tuple[str | None, ...]  # one per side (premise, hypothesis for NLI)
    label: str | None  # the label's code (E/N/C for NLI) from the label rules, None for none
    label_rule: str | None

    @property
    def key(self) -> tuple[str | None, ...]:
        return self.texts


@dataclass(frozen=True, slots=True)
class Source:
    """One input record (an NLI pair, or a text or text pair of another task): its `lit nli`
    or `lit contrast` record, slimmed. `columns` are the input fields its texts and label
    came from (the task's own field names, which its rows are written under)."""

    id: str
    where: str  # "file:line" (or "pair N") for messages
    status: str
    texts: tuple[str | None, ...]
    gold: object  # the gold label as the input wrote it
    code: str | None  # its code (E/N/C for NLI), None when unlabelled (missing, '-', -1)
    candidates: tuple[Candidate, ...] = field(default=())
    task: TaskProfile | None = None  # None: NLI
    columns: tuple[str, ...] = NLI_COLUMNS

    @property
    def key(self) -> tuple[str | None, ...]:
        return self.texts

    @property
    def labels(self) -> LabelSet:
        """The label set of the source's task."""
        return NLI if self.task is None else labels_of(self.task)


def _pick(fields: dict, names: tuple[str, ...]) -> object:
    return next((fields[k] for k in names if k in fields), None)


def _need(obj: object, keys: tuple[str, ...], what: str, where: str, command: str = "lit nli"
          ) -> dict:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: {what} is not an object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise InputError(
            f"{where}: {what} has no {', '.join(repr(k) for k in missing)}: not a `{command}` "
            f"record of this LIT version (written by another version? run `{command}` again)")
    return obj


def _label(value: object, where: str, labels: LabelSet) -> str | None:
    try:
        code = labels.code(value)
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None
    return code if code in labels.codes else None


def _candidates(record: dict, where: str, sides: tuple[str, ...], texts: tuple,
                labels: LabelSet, command: str) -> tuple[Candidate, ...]:
    """A record's transforms as candidates; a missing or null side output is an `o` side a
    pipeline left unrealised: it keeps the original text (as lit evaluate reads it)."""
    if not isinstance(record["transforms"], list):
        raise InputError(f"{where}: `transforms` is not a list")
    keys = ("spec", "status", *sides, "label", "label_rule")
    out = []
    for k, t in enumerate(record["transforms"]):
        at = f"transforms[{k}]"
        _need(t, keys, at, where, command)
        outputs = [None if t[s] is None else _need(t[s], SIDE_FIELDS, f"{at}.{s}", where,
                                                   command)["output"] for s in sides]
        out.append(Candidate(
            str(t["spec"]), str(t["status"]), t.get("reason"),
            tuple(new or old for new, old in zip(outputs, texts)),
            _label(t["label"], f"{where}: {at}.label", labels), t["label_rule"]))
    return tuple(out)


def source_of(record: dict, where: str, columns: dict[str, tuple[str, ...]] | None = None,
              task: TaskProfile | None = None) -> Source:
    """The Source of one `lit nli` or `lit contrast` record; InputError naming *where* if a
    field is missing. *columns* name an NLI record's input fields; *task* is the profile of
    a task that is not built in (lit.evaluate.records.task_of)."""
    if isinstance(record, dict) and record.get("task") not in (None, NLI_TASK):
        return _task_source(record, where, task_of(record, task, where))
    cols = {**DEFAULT_COLUMNS, **(columns or {})}
    _need(record, RECORD_FIELDS, "the record", where)
    fields = _need(record["input"], (), "`input`", where)
    texts = tuple(t if isinstance(t, str) else None
                  for t in (_pick(fields, cols["premise"]), _pick(fields, cols["hypothesis"])))
    candidates = _candidates(record, where, ("premise", "hypothesis"), texts, NLI, "lit nli")
    gold = _pick(fields, cols["label"])
    try:
        code = gold_code(gold)
    except ValueError:
        code = None  # an invalid_input record: lit nli already said why
    return Source(str(record["id"]), where, str(record["status"]), texts, gold, code,
                  candidates)


def _task_source(record: dict, where: str, task: TaskProfile) -> Source:
    """The Source of a `lit contrast` record: texts and gold as the record gives them, the
    raw gold label (for the input's label convention) and the field names from its input."""
    _need(record, TASK_RECORD_FIELDS, "the record", where, "lit contrast")
    fields = _need(record["input"], (), "`input`", where, "lit contrast")
    given = _need(record["texts"], (), "`texts`", where, "lit contrast")
    texts = tuple(t if isinstance(t, str) else None for t in (given.get(s) for s in task.sides))
    labels = labels_of(task)
    label_fields = task.fields[LABEL_ROLE] or ("label",)
    names = tuple(next((f for f in task.fields[side] if f in fields), task.fields[side][0])
                  for side in task.sides)
    label_name = next((f for f in label_fields if f in fields), label_fields[0])
    try:
        code = labels.code(record["gold"])
    except ValueError:
        code = None  # an invalid_input record: lit contrast already said why
    return Source(str(record["id"]), where, str(record["status"]), texts,
                  fields.get(label_name), code if code in labels.codes else None,
                  _candidates(record, where, task.sides, texts, labels, "lit contrast"),
                  task, (*names, label_name))


def read_contrast(path: str | Path, columns: dict[str, tuple[str, ...]] | None = None,
                  task: TaskProfile | None = None) -> Iterator[Source]:
    """The Sources of a `lit nli` or `lit contrast` output file, in order. Its metadata
    sidecar, if any, must be of this LIT's format; a bad line is an InputError naming file
    and line."""
    read_meta(path)
    with open_binary(path) as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:  # plain json.loads: lit.io's strict reader re-encodes every record (slow)
                record = json.loads(raw)
            except ValueError as exc:
                raise InputError(f"{path}:{number}: not JSON: {exc}") from None
            if not isinstance(record, dict):
                raise InputError(f"{path}:{number}: not a `lit nli` record (a JSON object)")
            yield source_of(record, f"{path}:{number}", columns, task)


def sources_of(records: Iterable[dict], columns: dict[str, tuple[str, ...]] | None = None,
               task: TaskProfile | None = None) -> Iterator[Source]:
    """Sources of records made in this process (Engine.nli, Engine.contrast), numbered."""
    for k, record in enumerate(records, 1):
        yield source_of(record, f"pair {k}", columns, task)


@lru_cache(maxsize=256)
def is_question(spec: str) -> bool:
    """The spec (a pair spec, or a single-text task's spec) makes a side a polar question
    (which asserts nothing: never an NLI row)."""
    try:
        sides = ([parse_spec(spec)] if ";" not in spec
                 else [(pair := parse_pair(spec)).premise, pair.hypothesis])
    except InputError:
        return False
    return any(s.name == "ques" for side in sides for s in side.steps)


def usable(c: Candidate) -> bool:
    """Status ok and every side realised (only verified pairs are ok)."""
    return c.status == Status.OK.value and all(c.texts)
