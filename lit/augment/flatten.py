"""`lit nli` and `lit contrast` records -> slim sources: each input record's text(s) with its
gold label and its contrast candidates (texts, label, spec, rule, status), checked field by
field so a file from another LIT version fails on its first bad line, naming file and line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lit.augment.labels import gold_code
from lit.errors import InputError
from lit.evaluate.records import task_of
from lit.io.meta import read_meta
from lit.labels.names import NLI, LabelSet
from lit.records import Record, read_records
from lit.spec import parse_pair, parse_spec
from lit.status import Status
from lit.tasks import NLI_TASK, TaskProfile, load_task
from lit.tasks.profile import LABEL_ROLE

#: The sides of a `lit nli` record's transforms.
NLI_SIDES = ("premise", "hypothesis")
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
        return NLI if self.task is None else self.task.labels


def _candidates(record: Record, where: str, sides: tuple[str, ...], texts: tuple,
                labels: LabelSet, command: str) -> tuple[Candidate, ...]:
    """A record's transforms as candidates; a missing or null side output is an `o` side a
    pipeline left unrealised: it keeps the original text (as lit evaluate reads it)."""
    out = []
    for k, t in enumerate(record.transforms):
        missing = [s for s in sides if s not in dict(t.sides)]
        if missing:
            raise InputError(
                f"{where}: transforms[{k}] has no {', '.join(repr(s) for s in missing)}: not a "
                f"`{command}` record of this LIT version (written by another version? run "
                f"`{command}` again)")
        out.append(Candidate(
            str(t.spec), str(t.status), t.reason,
            tuple(t.output(s) or old for s, old in zip(sides, texts)),
            labels.record_code(t.label, f"{where}: transforms[{k}].label"), t.label_rule))
    return tuple(out)


def _strings(values: tuple[object, ...]) -> tuple[str | None, ...]:
    return tuple(v if isinstance(v, str) else None for v in values)


def source_of(record: Record, where: str, columns: dict[str, tuple[str, ...]] | None = None,
              task: TaskProfile | None = None) -> Source:
    """The Source of one `lit nli` or `lit contrast` record (read strictly: lit.records).
    *columns* name a `lit nli` record's input fields; *task* is the profile of a task that
    is not built in (lit.evaluate.records.task_of)."""
    if record.task is not None:
        return _task_source(record, where, task_of(record, task, where))
    texts, gold = record.original(NLI_SIDES, {**DEFAULT_COLUMNS, **(columns or {})})
    texts = _strings(texts)
    candidates = _candidates(record, where, NLI_SIDES, texts, NLI, "lit nli")
    try:
        code = gold_code(gold)
    except ValueError:
        code = None  # an invalid_input record: lit nli already said why
    return Source(record.id, where, str(record.status), texts, gold, code, candidates)


def _task_source(record: Record, where: str, task: TaskProfile) -> Source:
    """The Source of a `lit contrast` record: texts and gold as the record gives them, the
    raw gold label (for the input's label convention) and the field names from its input."""
    fields = record.input
    texts = _strings(record.original(task.sides, task.fields)[0])
    label_fields = task.fields[LABEL_ROLE] or ("label",)
    names = tuple(next((f for f in task.fields[side] if f in fields), task.fields[side][0])
                  for side in task.sides)
    label_name = next((f for f in label_fields if f in fields), label_fields[0])
    try:
        code = task.labels.code(record.gold)
    except ValueError:
        code = None  # an invalid_input record: lit contrast already said why
    return Source(record.id, where, str(record.status), texts,
                  fields.get(label_name), code if code in task.labels.codes else None,
                  _candidates(record, where, task.sides, texts, task.labels, "lit contrast"),
                  task, (*names, label_name))


def read_contrast(path: str | Path, columns: dict[str, tuple[str, ...]] | None = None,
                  task: TaskProfile | None = None) -> Iterator[Source]:
    """The Sources of a `lit nli` or `lit contrast` output file, in order. Its metadata
    sidecar, if any, must be of this LIT's format; a bad line is an InputError naming file
    and line."""
    read_meta(path)
    for record in read_records(path, strict=True):
        yield source_of(record, f"{path}:{record.line}", columns, task)


def sources_of(records: Iterable[dict], columns: dict[str, tuple[str, ...]] | None = None,
               task: TaskProfile | None = None) -> Iterator[Source]:
    """Sources of records made in this process (Engine.nli, Engine.contrast), numbered."""
    for k, record in enumerate(records, 1):
        where = f"pair {k}"
        try:
            typed = Record.from_json(record, strict=True)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        yield source_of(typed, where, columns, task)


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
