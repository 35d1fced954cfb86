"""`lit nli` records -> slim sources: each input pair with its gold label and its contrast
candidates (premise, hypothesis, label, spec, rule, status), checked field by field so a file
from another LIT version fails on its first bad line, naming file and line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lit.augment.labels import gold_code
from lit.errors import InputError
from lit.io.readers import HYPOTHESIS_FIELDS, LABEL_FIELDS, PREMISE_FIELDS, open_binary
from lit.io.meta import read_meta
from lit.labels.names import label_code
from lit.spec import parse_pair
from lit.status import Status

#: Fields every `lit nli` record and transform of this LIT version has (docs/design.md §5).
RECORD_FIELDS = ("id", "input", "status", "transforms")
TRANSFORM_FIELDS = ("spec", "status", "premise", "hypothesis", "label", "label_rule")
SIDE_FIELDS = ("output", "verified")
#: Input fields tried for each role when no column is named (SNLI/MNLI, then HF names).
DEFAULT_COLUMNS = {"premise": PREMISE_FIELDS, "hypothesis": HYPOTHESIS_FIELDS,
                   "label": LABEL_FIELDS}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One transform of a source pair, reduced to what a training row needs."""

    spec: str
    status: str
    reason: str | None
    premise: str | None
    hypothesis: str | None
    label: str | None  # E/N/C from the label rules, None for no label
    label_rule: str | None

    @property
    def key(self) -> tuple[str | None, str | None]:
        return (self.premise, self.hypothesis)


@dataclass(frozen=True, slots=True)
class Source:
    """One input pair: its `lit nli` record, slimmed."""

    id: str
    where: str  # "file:line" (or "pair N") for messages
    status: str
    premise: str | None
    hypothesis: str | None
    gold: object  # the gold label as the input wrote it
    code: str | None  # E/N/C, None when unlabelled (missing, '-', -1)
    candidates: tuple[Candidate, ...] = field(default=())

    @property
    def key(self) -> tuple[str | None, str | None]:
        return (self.premise, self.hypothesis)


def _pick(fields: dict, names: tuple[str, ...]) -> object:
    return next((fields[k] for k in names if k in fields), None)


def _need(obj: object, keys: tuple[str, ...], what: str, where: str) -> dict:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: {what} is not an object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise InputError(
            f"{where}: {what} has no {', '.join(repr(k) for k in missing)}: not a `lit nli` "
            "record of this LIT version (written by another version? run `lit nli` again)")
    return obj


def _label(value: object, where: str) -> str | None:
    try:
        code = label_code(value)
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None
    return code if code in ("E", "N", "C") else None


def source_of(record: dict, where: str, columns: dict[str, tuple[str, ...]] | None = None
              ) -> Source:
    """The Source of one `lit nli` record; InputError naming *where* if a field is missing."""
    cols = {**DEFAULT_COLUMNS, **(columns or {})}
    _need(record, RECORD_FIELDS, "the record", where)
    fields = _need(record["input"], (), "`input`", where)
    if not isinstance(record["transforms"], list):
        raise InputError(f"{where}: `transforms` is not a list")
    premise, hypothesis = _pick(fields, cols["premise"]), _pick(fields, cols["hypothesis"])
    premise = premise if isinstance(premise, str) else None
    hypothesis = hypothesis if isinstance(hypothesis, str) else None
    candidates = []
    for k, t in enumerate(record["transforms"]):
        at = f"transforms[{k}]"
        _need(t, TRANSFORM_FIELDS, at, where)
        # a null side is an unrealised `o` side (as lit evaluate reads it)
        sides = [{"output": None} if t[s] is None else _need(t[s], SIDE_FIELDS, f"{at}.{s}", where)
                 for s in ("premise", "hypothesis")]
        # an `o` side a pipeline left unrealised keeps the original (as lit evaluate reads it)
        candidates.append(Candidate(
            str(t["spec"]), str(t["status"]), t.get("reason"), sides[0]["output"] or premise,
            sides[1]["output"] or hypothesis, _label(t["label"], f"{where}: {at}.label"),
            t["label_rule"]))
    gold = _pick(fields, cols["label"])
    try:
        code = gold_code(gold)
    except ValueError:
        code = None  # an invalid_input record: lit nli already said why
    return Source(str(record["id"]), where, str(record["status"]), premise, hypothesis, gold,
                  code, tuple(candidates))


def read_contrast(path: str | Path, columns: dict[str, tuple[str, ...]] | None = None
                  ) -> Iterator[Source]:
    """The Sources of a `lit nli` output file, in order. Its metadata sidecar, if any, must be
    of this LIT's format; a bad line is an InputError naming file and line."""
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
            yield source_of(record, f"{path}:{number}", columns)


def sources_of(records: Iterable[dict], columns: dict[str, tuple[str, ...]] | None = None
               ) -> Iterator[Source]:
    """Sources of records made in this process (Engine.nli), numbered as pairs."""
    for k, record in enumerate(records, 1):
        yield source_of(record, f"pair {k}", columns)


@lru_cache(maxsize=256)
def is_question(spec: str) -> bool:
    """The spec makes a side a polar question (which asserts nothing: never an NLI row)."""
    try:
        pair = parse_pair(spec)
    except InputError:
        return False
    return any(s.name == "ques" for side in (pair.premise, pair.hypothesis) for s in side.steps)


def usable(c: Candidate) -> bool:
    """Status ok and both sides realised (only verified pairs are ok)."""
    return c.status == Status.OK.value and bool(c.premise) and bool(c.hypothesis)
