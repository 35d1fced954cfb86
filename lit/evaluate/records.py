"""Reading `lit nli` output (docs/design.md §5) into the sentence pairs a model is scored on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lit.errors import InputError
from lit.io.jsonl import iter_jsonl
from lit.labels.names import normalize_label
from lit.status import Status

#: The `spec` that names a record's original pair in prediction files and results.
ORIGINAL = "original"

_PREMISE_KEYS = ("sentence1", "premise")
_HYPOTHESIS_KEYS = ("sentence2", "hypothesis")
_LABEL_KEYS = ("gold_label", "label")


@dataclass(frozen=True)
class Item:
    """One premise/hypothesis pair to classify: a record's original or one of its contrasts."""

    id: str
    spec: str
    premise: str
    hypothesis: str
    gold: str | None
    original_gold: str | None = None
    label_rule: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.id, self.spec)


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


def read_contrast_file(path: Path, skipped: list[str] | None = None) -> list[dict]:
    """All records of a `lit nli` output file, checked for the fields evaluation needs (and
    their labels). A bad record is an InputError naming file and line, or, given a *skipped*
    list, is left out and its message appended there (so one bad line costs one record)."""
    records: list[dict] = []
    seen: dict[str, int] = {}
    for lineno, rec in iter_jsonl(Path(path), skipped):
        try:
            records.append(_checked(rec, lineno, path, seen))
        except InputError as exc:
            if skipped is None:
                raise
            skipped.append(str(exc))
    return records


def _checked(rec: dict, lineno: int, path: Path, seen: dict[str, int]) -> dict:
    where = f"{path}:{lineno}"
    if "id" not in rec or not isinstance(rec.get("input"), dict):
        raise InputError(f"{where}: not a `lit nli` record (needs `id` and `input`)")
    if not isinstance(rec.get("transforms", []), list):
        raise InputError(f"{where}: `transforms` must be a list")
    if not all(isinstance(t, dict) for t in rec.get("transforms", [])):
        raise InputError(f"{where}: every entry of `transforms` must be an object")
    rec = dict(rec, id=str(rec["id"]), _line=lineno)
    if rec["id"] in seen:
        raise InputError(f"{where}: record id {rec['id']!r} occurs more than once "
                         f"(first on line {seen[rec['id']]})")
    contrast_items(rec, path)  # labels: an InputError naming the record
    seen[rec["id"]] = lineno
    return rec


def _field(d: dict, keys: tuple[str, ...]):
    return next((d[k] for k in keys if k in d), None)


def _label(value: object, where: str) -> str | None:
    try:
        return normalize_label(value)
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None


def original_item(rec: dict, path: Path | str = "") -> Item | None:
    """The record's input pair, or None if it lacks a sentence or is an ``invalid_input``
    record (its input, a bad label say, is what `lit nli` refused: counted, never fatal)."""
    if rec.get("status") == Status.INVALID_INPUT.value:
        return None
    inp = rec["input"]
    premise, hypothesis = _field(inp, _PREMISE_KEYS), _field(inp, _HYPOTHESIS_KEYS)
    if not premise or not hypothesis:
        return None
    gold = _label(_field(inp, _LABEL_KEYS), f"{path}:{rec.get('_line', '?')}: input")
    return Item(rec["id"], ORIGINAL, premise, hypothesis, gold, gold)


def contrast_items(rec: dict, path: Path | str = "") -> list[Item]:
    """The record's ok transforms as pairs labelled by the label rules. A side whose `output`
    is missing (an `o` side a pipeline left unrealised) keeps the original sentence."""
    orig = original_item(rec, path)
    if orig is None:
        return []
    items = []
    for k, t in enumerate(rec.get("transforms", [])):
        if t.get("status") != Status.OK.value:
            continue
        where = f"{path}:{rec.get('_line', '?')}: transforms[{k}]"
        premise = (t.get("premise") or {}).get("output") or orig.premise
        hypothesis = (t.get("hypothesis") or {}).get("output") or orig.hypothesis
        label = _label(t.get("label"), where)
        items.append(
            Item(rec["id"], str(t.get("spec")), premise, hypothesis, label, orig.gold,
                 t.get("label_rule"))
        )
    return items
