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

FORMATS = ("jsonl", "csv", "tsv")
#: Fields tried, in order, for a record id when no id column is named.
ID_FIELDS = ("pairID", "pair_id", "id", "idx", "guid")


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
    """A text stream for a path (gzip by .gz) or `-` (stdin); InputError if it cannot open."""
    if str(path) == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    path = Path(path)
    try:
        if path.suffix == ".gz":
            return gzip.open(path, "rt", encoding="utf-8", newline="")
        return open(path, encoding="utf-8", newline="")
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from None


def _item(source, line, rec, premise, hypothesis, label, id_field) -> NliItem:
    rid = rec.get(id_field) if id_field else next(
        (rec[k] for k in ID_FIELDS if rec.get(k) not in (None, "")), None
    )
    rid = str(rid) if rid not in (None, "") else str(line)
    p, h = rec.get(premise), rec.get(hypothesis)
    error = None
    for name, value in ((premise, p), (hypothesis, h)):
        if not isinstance(value, str) or not value.strip():
            error = f"{source}:{line}: no sentence in field {name!r}"
            break
    return NliItem(rid, line, rec, p, h, rec.get(label), error)


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
    with open_text(path) as f:
        if fmt == "jsonl":
            for line, text in enumerate(f, 1):
                if not text.strip():
                    continue
                try:
                    rec = json.loads(text)
                except json.JSONDecodeError as exc:
                    yield NliItem(str(line), line, {"raw": text.rstrip("\n")},
                                  error=f"{path}:{line}:{exc.colno}: not JSON: {exc.msg}")
                    continue
                if not isinstance(rec, dict):
                    yield NliItem(str(line), line, {"raw": text.rstrip("\n")},
                                  error=f"{path}:{line}: expected a JSON object")
                    continue
                yield _item(path, line, rec, premise, hypothesis, label, id_field)
            return
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
    with open_text(path) as f:
        if fmt == "jsonl":
            return sum(1 for text in f if text.strip())
        reader = (csv.reader(f) if fmt == "csv"
                  else csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
        return max(0, sum(1 for _ in reader) - 1)


def read_sentences(path: str | Path) -> Iterator[str]:
    """Sentences of a plain text file or stdin (`-`), one per non-blank line."""
    with open_text(path) as f:
        for text in f:
            if text.strip():
                yield text.strip()
