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
from collections.abc import Callable, Iterator
from itertools import islice
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from lit.errors import InputError
from lit.files import open_binary
from lit.labels.names import label_code
from lit.records import Record, is_record

FORMATS = ("jsonl", "csv", "tsv", "parquet", "datasets")
#: Fields tried, in order, for a record id when no id column is named.
ID_FIELDS = ("pairID", "pair_id", "id", "idx", "guid")
#: Fields tried, in order, when no column is named: SNLI/MNLI's, then Hugging Face's.
PREMISE_FIELDS = ("sentence1", "premise")
HYPOTHESIS_FIELDS = ("sentence2", "hypothesis")
LABEL_FIELDS = ("gold_label", "label")
#: A Hugging Face dataset in the hub cache: ``hf:NAME`` or ``hf:NAME:SPLIT``.
HUB_PREFIX = "hf:"
BOM = b"\xef\xbb\xbf"
#: Hugging Face's integer labels, as strings a CSV/TSV holds them.
_INT_LABELS = {"0": 0, "1": 1, "2": 2, "-1": -1}


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


def _pick(given: str | None, names: tuple[str, ...], present) -> str:
    """The field to read: the one named, else the first of *names* that is *present*, else
    the first of *names* (so the record's error names it)."""
    if given:
        return given
    return next((n for n in names if n in present), names[0])


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
    """One record's item; fields not named are found by `_pick` (SNLI's, then HF's names)."""
    premise = _pick(premise, PREMISE_FIELDS, rec)
    hypothesis = _pick(hypothesis, HYPOTHESIS_FIELDS, rec)
    label = _pick(label, LABEL_FIELDS, rec)
    rid = rec.get(id_field) if id_field else next(
        (rec[k] for k in ID_FIELDS if rec.get(k) not in (None, "")), None
    )
    rid = str(rid) if rid not in (None, "") else str(line)
    gold = rec.get(label)
    if isinstance(gold, str) and gold.strip() in _INT_LABELS:  # HF integers in a CSV/TSV
        gold = _INT_LABELS[gold.strip()]
    return checked_item(rid, line, rec, rec.get(premise), rec.get(hypothesis), gold,
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
    premise: str | None = None,
    hypothesis: str | None = None,
    label: str | None = None,
    id_field: str | None = None,
) -> Iterator[NliItem]:
    """NLI pairs from JSONL, CSV, TSV, Parquet or a `datasets` dataset (a saved folder,
    ``DIR:SPLIT``, or ``hf:NAME[:SPLIT]`` from the hub cache); ids from *id_field*,
    pairID/id, or the line (row) number.

    Fields not named are found by name: sentence1/premise, sentence2/hypothesis,
    gold_label/label; labels may be SNLI's words or Hugging Face's integers (0 entailment,
    1 neutral, 2 contradiction, -1 none), see `label_convention`. A `lit nli` output gives
    its records' input pairs (an invalid_input record is an item with its error again)."""
    fmt = detect_format(path, fmt)
    names = [premise, hypothesis, label]

    def check_columns(columns: list[str]) -> None:
        names[:] = [_pick(premise, PREMISE_FIELDS, columns),
                    _pick(hypothesis, HYPOTHESIS_FIELDS, columns),
                    _pick(label, LABEL_FIELDS, columns)]
        wanted = names[:2] + ([id_field] if id_field else [])
        missing = [c for c in wanted if c not in columns]
        if missing:
            raise InputError(
                f"{path}: no column {missing[0]!r} (columns: {', '.join(columns) or 'none'}); "
                "name the columns with --premise-column/--hypothesis-column/--label-column"
            )

    for row in iter_rows(path, fmt, header=check_columns):
        if row.error:
            yield NliItem(str(row.line), row.line, row.fields,
                          error=f"{path}:{row.line}: {row.error}")
            continue
        rec = row.fields
        if fmt == "jsonl" and is_record(rec):  # a `lit nli` output: its input pairs
            record = Record.from_json(rec)
            rec = {"pairID": record.id, **record.input}
        yield _item(path, row.line, rec, *names, id_field)


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
    """How many records `read_nli` will yield (for the progress bar); None for stdin."""
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
            return None  # read_nli reports the problem
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


def label_convention(path: str | Path, fmt: str | None = None, *, label: str | None = None,
                     sample: int = 1000) -> LabelConvention:
    """The label convention of an NLI dataset (any input `read_nli` reads): integers if the
    first labelled records of *sample* hold integers (or integer strings), else words.

    Code that writes labels back beside a user's data (e.g. `lit augment`) calls this and
    `LabelConvention.to_input`, so HF-style data gets 0/1/2/-1 and SNLI-style data words."""
    field_name = label
    for item in islice(read_nli(path, fmt, label=label), sample):
        if item.error:
            continue
        field_name = field_name or _pick(None, LABEL_FIELDS, item.input)
        value = item.input.get(field_name)
        if value in (None, ""):
            continue
        integer = isinstance(value, int) and not isinstance(value, bool)
        return LabelConvention(field_name, integer or str(value).strip() in _INT_LABELS)
    return LabelConvention(field_name or LABEL_FIELDS[0], False)
