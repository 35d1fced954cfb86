"""LIT's output records (docs/design.md §5): their JSON shapes, the typed records every reader
uses, and the one reader of a record file.

`lit transform`, `lit nli` and `lit contrast` write plain JSON objects (they load with
``datasets``, and `Engine` returns them as dicts); the TypedDicts below name those shapes.
Code that reads records reads them as `Record`s (frozen dataclasses: `Record`, `Transform`,
`Side`), made by `Record.from_json` or `read_records`, and writes them back with
`Record.to_json`, byte for byte what `lit` wrote — as PyDelphin's codecs pair `loads` with
`dumps`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypedDict

from lit.errors import InputError
from lit.files import open_binary
from lit.status import Status


class SideRecord(TypedDict):
    """One side (premise or hypothesis) of a transformed pair."""

    output: str | None
    mrs: str | None
    verified: bool | None
    candidates: list[str] | None
    #: per candidate, same order: {surface, score, distance, fluency, defects, preferences,
    #: repaired}; repaired: {from, changes} when LIT rebuilt another candidate with the
    #: source's surface (lit.rank.surface), else null
    ranking: list[dict] | None
    chosen_because: str | None
    #: ACE stopped at --max-candidates realizations: more may exist
    capped: bool | None
    #: unknown words generated through a known stand-in: {word, predicate, stand_in}
    stand_ins: list[dict] | None
    #: the parse reading transformed (0 = ACE's top reading; see --readings)
    reading: int | None
    #: every reading weighed, in ACE's order: {reading, score (the parse ranker's), margin
    #: (below the top reading's score), doubt (what speaks against it, or null), tried (what
    #: became of this side from it: "ok" or "status: reason", or null), round_trip ({verdict,
    #: realized, example, why} or null)} (lit.pipeline.reading)
    reading_evidence: list[dict] | None
    #: a transformation with several outputs (a table lookup: one per hypernym, ...), realized
    #: in table order until one verified (--max-alternatives): {used: index of the output
    #: realized or null, tried, available, failed: [{index, predicates, status, reason}]};
    #: null when the transformation gave one output
    alternatives: dict | None
    #: the realization route (module.route) whose twin MRS was generated because the grammar
    #: will not generate the transformed MRS itself (docs/rules.md); null: generated directly
    route: str | None


class TransformRecord(SideRecord):
    """What `lit transform` writes per sentence and spec: a side's fields, and these."""

    status: str
    reason: str | None
    spec: str


class PairTransform(TypedDict):
    """One pair spec's result inside a `lit nli` record."""

    spec: str
    status: str
    reason: str | None
    premise: SideRecord
    hypothesis: SideRecord
    label: str | None
    label_rule: str | None
    label_rationale: str | None


class NliRecord(TypedDict):
    """What `lit nli` writes per input pair."""

    id: str
    input: dict[str, Any]
    status: str
    reason: str | None
    transforms: list[PairTransform]
    timings: dict[str, float]


def to_json(record: TransformRecord | NliRecord | dict[str, Any]) -> str:
    """One JSON line (without newline), as `lit transform` and `lit nli` write it."""
    return json.dumps(record, ensure_ascii=False)


#: The fields of a side, in the order `lit nli` writes them (SideRecord).
SIDE_FIELDS = tuple(SideRecord.__annotations__)
#: What a `lit contrast` side adds: which sentence of the side's text was transformed.
SENTENCE_FIELDS = ("sentence", "sentence_input", "sentence_output")
#: A transform's own fields; every other field of it is a side, named as the task names it.
TRANSFORM_HEAD = ("spec", "status", "reason")
TRANSFORM_TAIL = ("label", "label_rule", "label_rationale")
#: The fields a record of this LIT version must have when read strictly (`read_records`).
STRICT_RECORD = ("id", "input", "status", "transforms")
STRICT_CONTRAST = (*STRICT_RECORD, "task", "texts", "gold")
STRICT_TRANSFORM = ("spec", "status", "label", "label_rule")
STRICT_SIDE = ("output", "verified")


def _need(obj: object, keys: tuple[str, ...], what: str, command: str) -> Mapping[str, Any]:
    """*obj* as an object with *keys* (none if not strict); InputError saying what lacks."""
    if not isinstance(obj, Mapping):
        raise InputError(f"{what} is not an object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise InputError(
            f"{what} has no {', '.join(repr(k) for k in missing)}: not a `{command}` record "
            f"of this LIT version (written by another version? run `{command}` again)")
    return obj


def _pick(fields: Mapping[str, Any], names: Sequence[str]) -> object:
    """The value of the first of *names* that *fields* has (None if none)."""
    return next((fields[k] for k in names if k in fields), None)


def _tuple(value: object) -> tuple | None:
    """A JSON array as a tuple (None stays None), so a record cannot be changed in place."""
    return None if value is None else tuple(value)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Sentence:
    """The sentence of a `lit contrast` side's text that was transformed: its index (None:
    the side was kept whole), its text before and after."""

    index: int | None
    input: str | None
    output: str | None


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a transform (SideRecord); `sentence` only on a `lit contrast` side."""

    output: str | None = None
    mrs: str | None = None
    verified: bool | None = None
    candidates: tuple[str, ...] | None = None
    ranking: tuple[dict, ...] | None = None
    chosen_because: str | None = None
    capped: bool | None = None
    stand_ins: tuple[dict, ...] | None = None
    reading: int | None = None
    reading_evidence: tuple[dict, ...] | None = None
    alternatives: dict | None = None
    route: str | None = None
    sentence: Sentence | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any], strict: bool = False, command: str = "lit nli",
                  what: str = "the side") -> Side:
        """A side from its JSON object; a field it lacks is null (older LIT versions) unless
        *strict* (InputError naming *what*)."""
        _need(data, STRICT_SIDE if strict else (), what, command)
        sentence = (Sentence(*(data.get(k) for k in SENTENCE_FIELDS))
                    if any(k in data for k in SENTENCE_FIELDS) else None)
        return cls(data.get("output"), data.get("mrs"), data.get("verified"),
                   _tuple(data.get("candidates")), _tuple(data.get("ranking")),
                   data.get("chosen_because"), data.get("capped"),
                   _tuple(data.get("stand_ins")), data.get("reading"),
                   _tuple(data.get("reading_evidence")), data.get("alternatives"),
                   data.get("route"), sentence)

    def to_dict(self) -> dict[str, Any]:
        """The side's JSON object, fields in `lit`'s order."""
        out: dict[str, Any] = {k: getattr(self, k) for k in SIDE_FIELDS}
        for k in ("candidates", "ranking", "stand_ins", "reading_evidence"):
            out[k] = None if out[k] is None else list(out[k])
        if self.sentence is not None:
            out.update(zip(SENTENCE_FIELDS, (self.sentence.index, self.sentence.input,
                                             self.sentence.output)))
        return out


@dataclass(frozen=True, slots=True)
class Transform:
    """One spec's result in a record (PairTransform): `sides` maps each side the task names
    (premise and hypothesis for NLI) to its Side (None: written as null)."""

    spec: str | None
    status: str | None
    reason: str | None = None
    sides: tuple[tuple[str, Side | None], ...] = ()
    label: str | None = None
    label_rule: str | None = None
    label_rationale: str | None = None

    @classmethod
    def from_json(cls, data: object, strict: bool = False, command: str = "lit nli",
                  what: str = "the transform") -> Transform:
        """A transform from its JSON object: every field that is not the spec's, status,
        reason or label's is a side (an object, or null)."""
        data = _need(data, STRICT_TRANSFORM if strict else (), what, command)
        sides = []
        for name, value in data.items():
            if name in TRANSFORM_HEAD or name in TRANSFORM_TAIL:
                continue
            if value is not None and not isinstance(value, Mapping):
                raise InputError(f"{what}.{name} is not an object")
            sides.append((name, None if value is None
                          else Side.from_json(value, strict, command, f"{what}.{name}")))
        return cls(data.get("spec"), data.get("status"), data.get("reason"), tuple(sides),
                   data.get("label"), data.get("label_rule"), data.get("label_rationale"))

    def side(self, name: str) -> Side | None:
        """The side called *name* (None if the transform has none such)."""
        return dict(self.sides).get(name)

    def output(self, name: str) -> str | None:
        """The new text of side *name* (None: no side, or the side was not realised)."""
        side = self.side(name)
        return None if side is None else side.output

    @property
    def ok(self) -> bool:
        """Status ok: the spec gave a contrast pair."""
        return self.status == Status.OK.value

    def to_dict(self) -> dict[str, Any]:
        """The transform's JSON object, fields in `lit`'s order."""
        return {"spec": self.spec, "status": self.status, "reason": self.reason,
                **{name: None if side is None else side.to_dict() for name, side in self.sides},
                "label": self.label, "label_rule": self.label_rule,
                "label_rationale": self.label_rationale}


@dataclass(frozen=True, slots=True)
class Record:
    """One input record's result: what `lit nli` (NliRecord) or `lit contrast` writes. A
    `lit contrast` record names its `task` and carries its `texts` per side and `gold`; a
    `lit nli` record has none of the three (task None). `timings` None: the record had none
    (`lit` always writes them; a test's expected records leave them out). `line` is where it
    was read."""

    id: str
    input: Mapping[str, Any]
    status: str | None
    reason: str | None = None
    transforms: tuple[Transform, ...] = ()
    timings: Mapping[str, float] | None = None
    task: str | None = None
    texts: Mapping[str, Any] | None = None
    gold: object = None
    line: int | None = field(default=None, compare=False)

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any], strict: bool = False) -> Record:
        """A record from one JSON line or its object. InputError if it is not a record;
        *strict*: also if it lacks a field this LIT version writes (a file from another
        version fails on its first line)."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError as exc:
                raise InputError(f"not JSON: {exc}") from None
        if not isinstance(data, Mapping):
            raise InputError("not a `lit nli` record (a JSON object)")
        contrast = "task" in data
        command = "lit contrast" if contrast else "lit nli"
        if strict:
            _need(data, STRICT_CONTRAST if contrast else STRICT_RECORD, "the record", command)
        if "id" not in data or not isinstance(data.get("input"), Mapping):
            raise InputError("not a `lit nli` record (nor a `lit contrast` one: needs `id` "
                             "and `input`)")
        if not isinstance(data.get("transforms", []), list):
            raise InputError("`transforms` is not a list")
        if contrast and not isinstance(data.get("texts"), Mapping):
            raise InputError("a `lit contrast` record needs `texts` (an object)")
        transforms = tuple(Transform.from_json(t, strict, command, f"transforms[{k}]")
                           for k, t in enumerate(data.get("transforms", [])))
        return cls(str(data["id"]), data["input"], data.get("status"), data.get("reason"),
                   transforms, data.get("timings"), data.get("task"), data.get("texts"),
                   data.get("gold"))

    def original(self, sides: Sequence[str], fields: Mapping[str, Sequence[str]],
                 label: str = "label") -> tuple[tuple[object, ...], object]:
        """(text per side, gold label as written) of the record's input: a `lit contrast`
        record carries them (`texts`, `gold`); a `lit nli` record has them in its input, each
        under the first of its *fields* (a task's field names per role) that the input has."""
        if self.task is not None:
            return tuple((self.texts or {}).get(side) for side in sides), self.gold
        return (tuple(_pick(self.input, fields[side]) for side in sides),
                _pick(self.input, fields.get(label, ())))

    def to_dict(self) -> dict[str, Any]:
        """The record's JSON object, fields in `lit`'s order (NliRecord, or a contrast
        record's `task`, `texts` and `gold` after `id` and `input`)."""
        head: dict[str, Any] = {"id": self.id}
        if self.task is not None:
            head.update(task=self.task, input=self.input, texts=self.texts, gold=self.gold)
        else:
            head["input"] = self.input
        out = {**head, "status": self.status, "reason": self.reason,
               "transforms": [t.to_dict() for t in self.transforms]}
        return out if self.timings is None else {**out, "timings": self.timings}

    def to_json(self) -> str:
        """One JSON line (without newline), byte for byte as `lit` writes the record."""
        return to_json(self.to_dict())


def is_record(data: object) -> bool:
    """Is *data* (an object of some JSONL file) a `lit nli` or `lit contrast` record: an id,
    its input under `input`, its `transforms`? Commands that read datasets read such files
    as their inputs."""
    return (isinstance(data, Mapping) and "id" in data
            and isinstance(data.get("input"), Mapping) and isinstance(data.get("transforms"), list))


def as_record(record: Record | Mapping[str, Any]) -> Record:
    """*record* as a Record: a dict (as `Engine.nli` returns it) is read, a Record kept."""
    return record if isinstance(record, Record) else Record.from_json(record)


def as_records(records: Iterable[Record | Mapping[str, Any]]) -> Iterator[Record]:
    """*records* as Records (`as_record`)."""
    return map(as_record, records)


def read_records(path: str | Path, strict: bool = False, skipped: list[str] | None = None
                 ) -> Iterator[Record]:
    """The Records of a `lit nli` or `lit contrast` output file, in order, each with its
    `line`. A bad line is an InputError naming file and line, or, given a *skipped* list, is
    left out and its message appended there. *strict*: as `Record.from_json`."""
    with open_binary(path) as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                record = Record.from_json(raw, strict)
            except InputError as exc:
                if skipped is None:
                    raise InputError(f"{path}:{number}: {exc}") from None
                skipped.append(f"{path}:{number}: {exc}")
                continue
            yield replace(record, line=number)
