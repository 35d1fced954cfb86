"""Reading `lit nli` and `lit contrast` output (docs/design.md §5, docs/tasks.md) into the
texts a model is scored on: a pair for NLI and pair tasks, one text for single-text tasks.
The records themselves are lit.records' (`Record`, read by `read_records`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lit.errors import InputError
from lit.records import Record, as_records, read_records
from lit.status import Status
from lit.tasks import NLI_TASK, TaskProfile, load_task
from lit.tasks.profile import LABEL_ROLE

#: The `spec` that names a record's original pair in prediction files and results.
ORIGINAL = "original"


@dataclass(frozen=True)
class Item:
    """One text or text pair to classify: a record's original or one of its contrasts;
    `texts` has one entry per side of the task (premise and hypothesis for NLI)."""

    id: str
    spec: str
    texts: tuple[str, ...]
    gold: str | None
    original_gold: str | None = None
    label_rule: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.id, self.spec)

    @property
    def premise(self) -> str:
        """The first text (NLI's premise)."""
        return self.texts[0]

    @property
    def hypothesis(self) -> str:
        """The last text (NLI's hypothesis)."""
        return self.texts[-1]

    @property
    def model_input(self) -> str | tuple[str, ...]:
        """What a classifier is given: the text of a single-text task, else the pair."""
        return self.texts[0] if len(self.texts) == 1 else self.texts


@lru_cache(maxsize=32)
def _builtin(name: str) -> TaskProfile:
    return load_task(name)


def record_task_name(rec: Record) -> str:
    """The task a record was made for: its `task` (`lit contrast`), else nli (`lit nli`
    records have none)."""
    return rec.task or NLI_TASK


def where(rec: Record, path: Path | str = "") -> str:
    """"FILE:LINE" of a record, for messages ("?" for a line it was not read from)."""
    return f"{path}:{rec.line or '?'}"


def task_of(rec: Record, task: TaskProfile | None = None, where: str = "") -> TaskProfile:
    """The profile of a record's task: *task* if given (InputError if the record is another
    task's), else the built-in profile its name says (InputError asking for --task if that is
    not built in: a user's profile is known by its file only)."""
    name = record_task_name(rec)
    if task is not None:
        if task.name != name:
            raise InputError(f"{where}: a record of task {name!r}, not of task {task.name!r} "
                             "(--task)")
        return task
    try:
        return _builtin(name)
    except InputError:
        raise InputError(f"{where}: task {name!r} is not a built-in task: pass --task with "
                         "the profile file `lit contrast` ran with") from None


def failure_counts(records: Iterable[Record]) -> Counter:
    """How many records have each failed record status (``invalid_input``, ``error``, ...):
    `lit nli` writes one record per input, and every command that reads them counts these."""
    return Counter(str(r.status) for r in records
                   if r.status not in (None, Status.OK.value, Status.NOT_APPLICABLE.value))


def failure_note(records: list[Record]) -> str | None:
    """One line on the records that failed, e.g. "2 of 7 records failed (invalid_input 1,
    no_parse 1): no contrast pairs from them; invalid_input ones are not scored at all", or
    None."""
    counts = failure_counts(records)
    if not counts:
        return None
    detail = ", ".join(f"{status} {n}" for status, n in sorted(counts.items()))
    return (f"{sum(counts.values())} of {len(records)} records failed ({detail}): no contrast "
            "pairs from them" + ("; invalid_input ones are not scored at all"
                                 if counts[Status.INVALID_INPUT.value] else ""))


def read_contrast_file(path: Path | str, skipped: list[str] | None = None,
                       task: TaskProfile | None = None) -> list[Record]:
    """All records of a `lit nli` or `lit contrast` output file (lit.records.read_records),
    checked for what evaluation needs: unique ids, one task, labels of the task's label set.
    A bad record is an InputError naming file and line, or, given a *skipped* list, is left
    out and its message appended there (so one bad line costs one record). *task* is the
    profile for a task that is not built in (`--task FILE`)."""
    records: list[Record] = []
    seen: dict[str, int] = {}
    first: Record | None = None
    for rec in read_records(path, skipped=skipped):
        try:
            _check(rec, path, seen, first, task)
        except InputError as exc:
            if skipped is None:
                raise
            skipped.append(str(exc))
            continue
        first = first or rec
        seen[rec.id] = rec.line or 0
        records.append(rec)
    return records


def _check(rec: Record, path: Path | str, seen: dict[str, int], first: Record | None,
           task: TaskProfile | None) -> None:
    """InputError naming file and line if *rec* repeats an id, is of another task than the
    file's *first* record or has a label its task does not have."""
    at = where(rec, path)
    if first is not None and record_task_name(rec) != record_task_name(first):
        raise InputError(f"{at}: a record of task {record_task_name(rec)!r}, but line "
                         f"{first.line} is of task {record_task_name(first)!r}: one file, "
                         "one task")
    if rec.id in seen:
        raise InputError(f"{at}: record id {rec.id!r} occurs more than once "
                         f"(first on line {seen[rec.id]})")
    contrast_items(rec, path, task_of(rec, task, at))  # labels: an InputError naming it


def file_task(records: Iterable[Record], task: TaskProfile | None = None) -> TaskProfile:
    """The task of a file's records (as `read_contrast_file` checked them: one task), nli for
    an empty file; *task* as `task_of`."""
    first = next(iter(as_records(records)), None)
    if first is None:
        return task or _builtin(NLI_TASK)
    return task_of(first, task, f"record {first.id!r}")


def original_item(rec: Record, path: Path | str = "", task: TaskProfile | None = None
                  ) -> Item | None:
    """The record's input text(s), or None if it lacks a text or is an ``invalid_input``
    record (its input, a bad label say, is what `lit nli`/`lit contrast` refused: counted,
    never fatal). *task*: as `task_of` (default: the record's own)."""
    if rec.status == Status.INVALID_INPUT.value:
        return None
    task = task_of(rec, task, where(rec, path))
    texts, gold = rec.original(task.sides, task.fields, LABEL_ROLE)
    if not all(isinstance(t, str) and t for t in texts):
        return None
    code = task.labels.record_code(gold, f"{where(rec, path)}: input")
    name = None if code is None else task.labels.name_of(code)
    return Item(rec.id, ORIGINAL, texts, name, name)  # type: ignore[arg-type]


def contrast_items(rec: Record, path: Path | str = "", task: TaskProfile | None = None
                   ) -> list[Item]:
    """The record's ok transforms labelled by the label rules. A side whose `output` is
    missing (an `o` side a pipeline left unrealised) keeps the original text."""
    task = task_of(rec, task, where(rec, path))
    orig = original_item(rec, path, task)
    if orig is None:
        return []
    items = []
    for k, t in enumerate(rec.transforms):
        if not t.ok:
            continue
        code = task.labels.record_code(t.label, f"{where(rec, path)}: transforms[{k}]")
        texts = tuple(t.output(side) or text for side, text in zip(task.sides, orig.texts))
        items.append(Item(rec.id, str(t.spec), texts,
                          None if code is None else task.labels.name_of(code), orig.gold,
                          t.label_rule))
    return items
