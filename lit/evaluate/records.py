"""Reading `lit nli` and `lit contrast` output (docs/design.md §5, docs/tasks.md) into the
texts a model is scored on: a pair for NLI and pair tasks, one text for single-text tasks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lit.errors import InputError
from lit.io.jsonl import iter_jsonl
from lit.labels.names import NLI, LabelSet
from lit.status import Status
from lit.tasks import NLI_TASK, TaskProfile, load_task

#: The `spec` that names a record's original pair in prediction files and results.
ORIGINAL = "original"

_PREMISE_KEYS = ("sentence1", "premise")
_HYPOTHESIS_KEYS = ("sentence2", "hypothesis")
_LABEL_KEYS = ("gold_label", "label")


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


def record_task_name(rec: dict) -> str:
    """The task a record was made for: its `task` (`lit contrast`), else nli (`lit nli`
    records have none)."""
    return str(rec.get("task") or NLI_TASK)


def task_of(rec: dict, task: TaskProfile | None = None, where: str = "") -> TaskProfile:
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


def labels_of(task: TaskProfile) -> LabelSet:
    """The label set records of *task* are read with (NLI's own for nli, whose spellings and
    messages `lit nli` records have always been read with)."""
    return NLI if task.name == NLI_TASK else task.labels


def failure_counts(records: Iterable[dict]) -> Counter:
    """How many records have each failed record status (``invalid_input``, ``error``, ...):
    `lit nli` writes one record per input, and every command that reads them counts these."""
    return Counter(str(r.get("status")) for r in records
                   if r.get("status") not in (None, Status.OK.value,
                                              Status.NOT_APPLICABLE.value))


def failure_note(records: list[dict]) -> str | None:
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


def read_contrast_file(path: Path, skipped: list[str] | None = None,
                       task: TaskProfile | None = None) -> list[dict]:
    """All records of a `lit nli` or `lit contrast` output file, checked for the fields
    evaluation needs (and their labels, read with the task's label set). A bad record is an
    InputError naming file and line, or, given a *skipped* list, is left out and its message
    appended there (so one bad line costs one record). One file holds one task's records;
    *task* is the profile for a task that is not built in (`--task FILE`)."""
    records: list[dict] = []
    seen: dict[str, int] = {}
    first: tuple[str, int] | None = None  # (task name, line) of the first record
    for lineno, rec in iter_jsonl(Path(path), skipped):
        try:
            checked = _checked(rec, lineno, path, seen, task)
            name = record_task_name(checked)
            if first is not None and name != first[0]:
                raise InputError(f"{path}:{lineno}: a record of task {name!r}, but line "
                                 f"{first[1]} is of task {first[0]!r}: one file, one task")
            first = first or (name, lineno)
            records.append(checked)
        except InputError as exc:
            if skipped is None:
                raise
            skipped.append(str(exc))
    return records


def file_task(records: Iterable[dict], task: TaskProfile | None = None) -> TaskProfile:
    """The task of a file's records (as `read_contrast_file` checked them: one task), nli for
    an empty file; *task* as `task_of`."""
    first = next(iter(records), None)
    if first is None:
        return task or _builtin(NLI_TASK)
    return task_of(first, task, f"record {first['id']!r}")


def _checked(rec: dict, lineno: int, path: Path, seen: dict[str, int],
             task: TaskProfile | None) -> dict:
    where = f"{path}:{lineno}"
    if "id" not in rec or not isinstance(rec.get("input"), dict):
        raise InputError(f"{where}: not a `lit nli` record (nor a `lit contrast` one: needs "
                         "`id` and `input`)")
    if not isinstance(rec.get("transforms", []), list):
        raise InputError(f"{where}: `transforms` must be a list")
    if not all(isinstance(t, dict) for t in rec.get("transforms", [])):
        raise InputError(f"{where}: every entry of `transforms` must be an object")
    if "task" in rec and not isinstance(rec.get("texts"), dict):
        raise InputError(f"{where}: a `lit contrast` record needs `texts` (an object)")
    rec = dict(rec, id=str(rec["id"]), _line=lineno)
    if rec["id"] in seen:
        raise InputError(f"{where}: record id {rec['id']!r} occurs more than once "
                         f"(first on line {seen[rec['id']]})")
    contrast_items(rec, path, task_of(rec, task, where))  # labels: an InputError naming it
    seen[rec["id"]] = lineno
    return rec


def _field(d: dict, keys: tuple[str, ...]):
    return next((d[k] for k in keys if k in d), None)


def _label(value: object, where: str, labels: LabelSet) -> str | None:
    try:
        return labels.name(value)
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None


def _original_texts(rec: dict, task: TaskProfile) -> tuple[tuple, object]:
    """(texts per side, gold label as written) of a record's input: `lit contrast` records
    carry them (`texts`, `gold`), `lit nli` records have them in their input fields."""
    if "task" in rec:
        texts = rec.get("texts") or {}
        return tuple(texts.get(side) for side in task.sides), rec.get("gold")
    inp = rec["input"]
    return ((_field(inp, _PREMISE_KEYS), _field(inp, _HYPOTHESIS_KEYS)),
            _field(inp, _LABEL_KEYS))


def original_item(rec: dict, path: Path | str = "", task: TaskProfile | None = None
                  ) -> Item | None:
    """The record's input text(s), or None if it lacks a text or is an ``invalid_input``
    record (its input, a bad label say, is what `lit nli`/`lit contrast` refused: counted,
    never fatal). *task*: as `task_of` (default: the record's own)."""
    if rec.get("status") == Status.INVALID_INPUT.value:
        return None
    where = f"{path}:{rec.get('_line', '?')}"
    task = task_of(rec, task, where)
    texts, gold = _original_texts(rec, task)
    if not all(isinstance(t, str) and t for t in texts):
        return None
    gold = _label(gold, f"{where}: input", labels_of(task))
    return Item(rec["id"], ORIGINAL, texts, gold, gold)


def contrast_items(rec: dict, path: Path | str = "", task: TaskProfile | None = None
                   ) -> list[Item]:
    """The record's ok transforms labelled by the label rules. A side whose `output` is
    missing (an `o` side a pipeline left unrealised) keeps the original text."""
    task = task_of(rec, task, f"{path}:{rec.get('_line', '?')}")
    orig = original_item(rec, path, task)
    if orig is None:
        return []
    labels = labels_of(task)
    items = []
    for k, t in enumerate(rec.get("transforms", [])):
        if t.get("status") != Status.OK.value:
            continue
        where = f"{path}:{rec.get('_line', '?')}: transforms[{k}]"
        texts = tuple((t.get(side) or {}).get("output") or text
                      for side, text in zip(task.sides, orig.texts))
        items.append(Item(rec["id"], str(t.get("spec")), texts, _label(t.get("label"), where,
                                                                         labels),
                          orig.gold, t.get("label_rule")))
    return items
