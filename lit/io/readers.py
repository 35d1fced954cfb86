"""Dataset rows: every record of a JSONL, CSV, TSV or Parquet file or a `datasets` dataset,
never dropping a malformed one (lit.tasks.reader makes them a task's items).

A line that is no record (bad JSON, not UTF-8) is a row with `error` set, so a batch run still
writes one output record for it (status invalid_input). Problems with the whole file (missing,
unknown format) raise InputError.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from lit.errors import InputError
from lit.files import open_binary

FORMATS = ("jsonl", "csv", "tsv", "parquet", "datasets")
#: A Hugging Face dataset in the hub cache: ``hf:NAME`` or ``hf:NAME:SPLIT``.
HUB_PREFIX = "hf:"
BOM = b"\xef\xbb\xbf"
#: Hugging Face's integer labels, as strings a CSV/TSV holds them.
_INT_LABELS = {"0": 0, "1": 1, "2": 2, "-1": -1}


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    """`jsonl`, `csv`, `tsv`, `parquet` or `datasets`, from *fmt* or the name: a folder saved
    by `datasets` (``DIR`` or ``DIR:SPLIT``) and ``hf:NAME[:SPLIT]`` are `datasets`; .gz is
    ignored."""
    if fmt:
        if fmt not in FORMATS:
            raise InputError(f"unknown input format {fmt!r}: choose one of {', '.join(FORMATS)}")
        return fmt
    if _dataset_source(path) is not None:
        return "datasets"
    name = str(path).lower().removesuffix(".gz")
    for suffix, found in ((".jsonl", "jsonl"), (".json", "jsonl"), (".csv", "csv"),
                          (".tsv", "tsv"), (".txt", "tsv"), (".parquet", "parquet")):
        if name.endswith(suffix):
            return found
    if str(path) == "-":
        return "jsonl"
    raise InputError(f"{path}: cannot tell the format from the name; pass --format "
                     + "|".join(FORMATS))


def _dataset_source(path: str | Path) -> tuple[str, str | None] | None:
    """(folder or hub name, split or None) if *path* names a `datasets` dataset, else None."""
    text = str(path)
    if text.startswith(HUB_PREFIX):
        name, _, split = text[len(HUB_PREFIX):].partition(":")
        return name, split or None
    if Path(text).is_dir():
        return text, None
    head, sep, split = text.rpartition(":")
    if sep and head and Path(head).is_dir():
        return head, split or None
    return None


def _load_dataset(path: str | Path):
    """The `datasets.Dataset` *path* names (a saved folder or a hub-cached name, one split)."""
    source = _dataset_source(path)
    if source is None:
        raise InputError(f"{path}: not a folder saved by `datasets` nor hf:NAME[:SPLIT]")
    name, split = source
    try:
        import datasets
    except ImportError:
        raise InputError(f"{path}: reading a `datasets` dataset needs the datasets package "
                         "(pip install datasets)") from None
    try:
        if str(path).startswith(HUB_PREFIX):
            data = datasets.load_dataset(name, split=split)
        else:
            data = datasets.load_from_disk(name)
    except Exception as exc:  # datasets raises many types for a missing or uncached dataset
        first = " ".join(str(exc).split())[:300]
        raise InputError(f"{path}: cannot load the dataset: {type(exc).__name__}: {first}"
                         + ("; with no network, only datasets already in the Hugging Face "
                            "cache load (HF_DATASETS_OFFLINE=1)" if name == source[0]
                            and str(path).startswith(HUB_PREFIX) else "")) from None
    if isinstance(data, datasets.DatasetDict):
        if split is None:
            raise InputError(f"{path}: a dataset with splits {', '.join(data)}: name one as "
                             f"{name}:SPLIT")
        if split not in data:
            raise InputError(f"{path}: no split {split!r} (splits: {', '.join(data)})")
        data = data[split]
    return data


def _table_rows(path: str | Path, fmt: str) -> Iterator[dict]:
    """The rows of a Parquet file or a `datasets` dataset, as dicts."""
    if fmt == "datasets":
        yield from _load_dataset(path)
        return
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
    try:
        table = pq.ParquetFile(path)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read as Parquet: {exc}") from None
    for batch in table.iter_batches():
        yield from batch.to_pylist()


def open_text(path: str | Path) -> IO[str]:
    """A text stream for a path (gzip by .gz) or `-` (stdin); InputError if it cannot open.

    Lines end at a newline only (a bare CR is data), a leading BOM is dropped, and bytes that
    are not UTF-8 become lone surrogates (surrogateescape), so one bad record is reported as
    that record's problem (`text_problem`), not the whole file's.
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


@dataclass(frozen=True)
class Row:
    """One record of a dataset as read: its line (row) number and fields, or why the line is
    no record (bad JSON; then `fields` is ``{"raw": the line}``, writable as JSON)."""

    line: int
    fields: dict
    error: str | None = None


def iter_rows(path: str | Path, fmt: str,
              header: Callable[[list[str]], None] = lambda columns: None) -> Iterator[Row]:
    """Every record of a JSONL, CSV, TSV or Parquet file or a `datasets` dataset (*fmt* as
    `detect_format` gives it), in order, none dropped; *header* hears a CSV/TSV file's
    column names before its first row (and may raise)."""
    if fmt in ("parquet", "datasets"):
        for number, row in enumerate(_table_rows(path, fmt), 1):
            yield Row(number, dict(row))
        return
    if fmt == "jsonl":
        for line, rec, error in json_objects(path):
            if error:
                raw = line.text if not json_problem(line.text) else ascii(line.text)
                yield Row(line.number, {"raw": raw[:2000]}, error)
            else:
                yield Row(line.number, rec)
        return
    with open_text(path) as f:
        # MNLI's TSV has stray quotes inside sentences: read TSV without quoting.
        reader = (csv.DictReader(f) if fmt == "csv"
                  else csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
        header(list(reader.fieldnames or []))
        for row in reader:
            rec = {k: v for k, v in row.items() if k is not None}
            if None in row:
                rec["_extra"] = row[None]
            yield Row(reader.line_num, rec)


def class_labels(path: str | Path, fmt: str) -> dict[str, tuple[str, ...]]:
    """The label names of each `ClassLabel` field of a `datasets` dataset (field -> names in
    integer order); empty for any other format."""
    if fmt != "datasets":
        return {}
    import datasets

    return {name: tuple(feature.names)
            for name, feature in _load_dataset(path).features.items()
            if isinstance(feature, datasets.ClassLabel)}


def count_records(path: str | Path, fmt: str | None = None) -> int | None:
    """How many records a reader will yield (for the progress bar); None for stdin."""
    if str(path) == "-":
        return None
    fmt = detect_format(path, fmt)
    if fmt == "datasets":
        return len(_load_dataset(path))
    if fmt == "parquet":
        try:
            import pyarrow.parquet as pq

            return pq.ParquetFile(path).metadata.num_rows
        except (ImportError, OSError, ValueError):
            return None  # the reader reports the problem
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


@dataclass(frozen=True)
class LabelConvention:
    """How a dataset spells its labels, so labels LIT writes can go back in the same spelling.

    ``integers``: Hugging Face's 0 entailment, 1 neutral, 2 contradiction, -1 no label;
    otherwise SNLI/MNLI's words (entailment, neutral, contradiction, "-" no label).
    ``field`` is the label field the dataset uses (gold_label, label, or the one named)."""

    field: str
    integers: bool

    def to_input(self, label: str | None) -> object:
        """A LIT label (entailment/neutral/contradiction, None = no label) in this spelling."""
        from lit.labels.names import LABELS

        if self.integers:
            return LABELS.index(label) if label in LABELS else -1
        return label if label in LABELS else NO_LABEL_TEXT

    def from_input(self, value: object) -> str | None:
        """A label in this dataset's spelling as LIT's name (None = no label)."""
        from lit.labels.names import normalize_label

        if isinstance(value, str) and value.strip() in _INT_LABELS:
            value = _INT_LABELS[value.strip()]
        return normalize_label(value)


#: SNLI's gold label for "no consensus", written for an unlabelled pair in the text spelling.
NO_LABEL_TEXT = "-"
