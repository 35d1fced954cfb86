"""Dataset readers: one NliItem per input record, never dropping a malformed one.

A record that cannot be used (bad JSON, a missing sentence) becomes an item with `error` set,
so a batch run still writes one output record for it (status invalid_input). Problems with the
whole file (missing, unknown format, a CSV header without the named columns) raise InputError.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from lit.errors import InputError
from lit.labels.names import label_code

FORMATS = ("jsonl", "csv", "tsv")
#: Fields tried, in order, for a record id when no id column is named.
ID_FIELDS = ("pairID", "pair_id", "id", "idx", "guid")
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class NliItem:
    """One input pair; `input` holds the original fields as read."""

    id: str
    line: int
    input: dict = field(default_factory=dict)
    premise: str | None = None
    hypothesis: str | None = None
    gold: object = None
    error: str | None = None  # why the record cannot be processed (-> invalid_input)


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    """`jsonl`, `csv` or `tsv`, from *fmt* or the file name (.gz ignored)."""
    if fmt:
        if fmt not in FORMATS:
            raise InputError(f"unknown input format {fmt!r}: choose one of {', '.join(FORMATS)}")
        return fmt
    name = str(path).lower().removesuffix(".gz")
    for suffix, found in ((".jsonl", "jsonl"), (".json", "jsonl"), (".csv", "csv"),
                          (".tsv", "tsv"), (".txt", "tsv")):
        if name.endswith(suffix):
            return found
    if str(path) == "-":
        return "jsonl"
    raise InputError(f"{path}: cannot tell the format from the name; pass --format jsonl|csv|tsv")


def open_text(path: str | Path) -> IO[str]:
    """A text stream for a path (gzip by .gz) or `-` (stdin); InputError if it cannot open.

    Lines end at a newline only (a bare CR is data), a leading BOM is dropped, and bytes that
    are not UTF-8 become lone surrogates (surrogateescape), so one bad record is reported as
    that record's problem (`item_problem`, `text_problem`), not the whole file's.
    """
    if str(path) == "-":
        if not hasattr(sys.stdin, "buffer"):  # already text (a test's StringIO)
            return sys.stdin
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="surrogateescape",
                                newline="\n")
    path = Path(path)
    try:
        if path.suffix == ".gz":
            return gzip.open(path, "rt", encoding="utf-8-sig", errors="surrogateescape",
                             newline="\n")
        return open(path, encoding="utf-8-sig", errors="surrogateescape", newline="\n")
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from None


def open_binary(path: str | Path) -> IO[bytes]:
    """A byte stream for a path (gzip by .gz) or `-` (stdin); InputError if it cannot open."""
    if str(path) == "-":
        return sys.stdin.buffer
    path = Path(path)
    try:
        return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from None


@dataclass(frozen=True)
class Line:
    """One line of a file split on newlines only (a bare CR is data, not a line break)."""

    number: int
    text: str  # without its line ending
    error: str | None  # "not UTF-8 at byte offset N" if the raw bytes did not decode


def iter_lines(path: str | Path) -> Iterator[Line]:
    """Every line of *path* (or stdin), numbered from 1; a leading BOM is dropped, a line
    that is not UTF-8 comes with an error naming the byte offset in the file."""
    stream = open_binary(path)
    start = 0  # byte offset of the current line in the file
    try:
        for number, raw in enumerate(stream, 1):
            body = raw.removesuffix(b"\n").removesuffix(b"\r")
            skip = len(BOM) if number == 1 and body.startswith(BOM) else 0
            try:
                yield Line(number, body[skip:].decode("utf-8"), None)
            except UnicodeDecodeError as exc:
                text = body[skip:].decode("utf-8", errors="replace")
                yield Line(number, text, f"not UTF-8 at byte offset {start + skip + exc.start}")
            start += len(raw)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def json_objects(path: str | Path) -> Iterator[tuple[Line, dict | None, str | None]]:
    """(line, object, None) or (line, None, why not) for each non-blank line of a JSONL file."""
    for line in iter_lines(path):
        if not line.text.strip() and not line.error:
            continue
        obj, error = (None, line.error) if line.error else parse_json(line.text)
        if error is None and not isinstance(obj, dict):
            obj, error = None, "expected a JSON object"
        yield line, obj, error


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str) -> tuple[object, str | None]:
    """(value, None) or (None, why not) for one JSON text: strict JSON only (no NaN or
    Infinity), no nesting too deep for Python, no integer too long to convert, and nothing
    that cannot be written back as UTF-8 JSON (a lone surrogate)."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc.msg} (column {exc.colno})"
    except RecursionError:
        return None, "not usable JSON: nested too deeply"
    except ValueError as exc:  # NaN, or an integer over Python's digit limit
        return None, f"not usable JSON: {' '.join(str(exc).split())[:200]}"
    problem = json_problem(value)
    return (None, problem) if problem else (value, None)


def json_problem(value: object) -> str | None:
    """Why *value* cannot be written as strict UTF-8 JSON, or None if it can."""
    try:
        json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError:
        return "text that is not UTF-8 (a lone surrogate or an undecodable byte)"
    except RecursionError:
        return "nested too deeply"
    except (ValueError, TypeError) as exc:
        return f"not writable as JSON: {exc}"
    return None


def text_problem(text: str) -> str | None:
    """Why *text* is not clean Unicode text (bytes that were not UTF-8, lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"not UTF-8 text at character {exc.start + 1}"
    return None


def printable(text: str) -> str:
    """*text* with anything that is not UTF-8 (lone surrogates) replaced, for output."""
    return text.encode("utf-8", "replace").decode("utf-8")


def item_problem(premise: object, hypothesis: object, gold: object, fields: dict,
                 names: tuple[str, str, str] = ("sentence1", "sentence2", "gold_label"),
                 ) -> str | None:
    """Why an NLI pair cannot be processed (a missing sentence, a label that is not an NLI
    label, text that cannot be written back), or None; shared by files and the Python API."""
    for name, value in zip(names, (premise, hypothesis)):
        if not isinstance(value, str) or not value.strip():
            return f"no sentence in field {name!r}"
    try:
        label_code(gold)
    except ValueError as exc:
        return f"field {names[2]!r}: {exc}"
    return json_problem(fields)


def _item(source, line, rec, premise, hypothesis, label, id_field) -> NliItem:
    rid = rec.get(id_field) if id_field else next(
        (rec[k] for k in ID_FIELDS if rec.get(k) not in (None, "")), None
    )
    rid = str(rid) if rid not in (None, "") else str(line)
    return checked_item(rid, line, rec, rec.get(premise), rec.get(hypothesis), rec.get(label),
                        f"{source}:{line}", (premise, hypothesis, label))


def checked_item(rid: object, line: int, fields: dict, premise: object, hypothesis: object,
                 gold: object, where: str,
                 names: tuple[str, str, str] = ("sentence1", "sentence2", "gold_label"),
                 ) -> NliItem:
    """An NliItem, with `error` ("WHERE: why") if the pair cannot be processed; an id or
    fields that cannot be written as JSON are replaced (line number, escaped text) so that
    the pair's invalid_input record can be."""
    error = item_problem(premise, hypothesis, gold, fields, names)
    if error:
        rid = line if json_problem(str(rid)) else rid
        fields = {"raw": ascii(fields)[:2000]} if json_problem(fields) else fields
        error = f"{where}: {error}"
    return NliItem(str(rid), line, fields, premise, hypothesis, gold, error)


def read_nli(
    path: str | Path,
    fmt: str | None = None,
    *,
    premise: str = "sentence1",
    hypothesis: str = "sentence2",
    label: str = "gold_label",
    id_field: str | None = None,
) -> Iterator[NliItem]:
    """NLI pairs from JSONL (SNLI/MNLI), CSV or TSV; ids from *id_field*, pairID/id, or the line."""
    fmt = detect_format(path, fmt)
    if fmt == "jsonl":
        for line, rec, error in json_objects(path):
            if error:
                raw = line.text if not json_problem(line.text) else ascii(line.text)
                yield NliItem(str(line.number), line.number, {"raw": raw[:2000]},
                              error=f"{path}:{line.number}: {error}")
                continue
            yield _item(path, line.number, rec, premise, hypothesis, label, id_field)
        return
    with open_text(path) as f:
        # MNLI's TSV has stray quotes inside sentences: read TSV without quoting.
        reader = (csv.DictReader(f) if fmt == "csv"
                  else csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
        columns = reader.fieldnames or []
        wanted = [premise, hypothesis] + ([id_field] if id_field else [])
        missing = [c for c in wanted if c not in columns]
        if missing:
            raise InputError(
                f"{path}: no column {missing[0]!r} (columns: {', '.join(columns) or 'none'}); "
                "name the columns with --premise-column/--hypothesis-column/--label-column"
            )
        for row in reader:
            line = reader.line_num
            rec = {k: v for k, v in row.items() if k is not None}
            if None in row:
                rec["_extra"] = row[None]
            yield _item(path, line, rec, premise, hypothesis, label, id_field)


def count_records(path: str | Path, fmt: str | None = None) -> int | None:
    """How many records `read_nli` will yield (for the progress bar); None for stdin."""
    if str(path) == "-":
        return None
    fmt = detect_format(path, fmt)
    if fmt == "jsonl":
        return sum(1 for line in iter_lines(path) if line.text.strip() or line.error)
    with open_text(path) as f:
        reader = (csv.reader(f) if fmt == "csv"
                  else csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
        return max(0, sum(1 for _ in reader) - 1)


def read_sentences(path: str | Path) -> Iterator[str]:
    """Every line of a plain text file or stdin (`-`), blank ones included, so that a batch
    writes one record per input line; bytes that are not UTF-8 survive as lone surrogates
    for the ACE service to report as that line's invalid_input."""
    with open_text(path) as f:
        for text in f:
            yield text.removesuffix("\n").removesuffix("\r").strip()
