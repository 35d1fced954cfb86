"""Writing the rows: JSONL, CSV, Parquet or a Hugging Face `datasets` folder (save_to_disk),
each loadable with `datasets` in one call (docs/augment.md). Files are staged beside their
target and renamed into place only when every output of the run is complete."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lit.augment.labels import output_label
from lit.errors import InputError
from lit.io.output import refuse_input_as_output, temporary_beside
from lit.labels.names import NLI, LabelSet

#: Output formats; by file name: .jsonl/.json, .csv, .parquet; a name without a suffix is a
#: `datasets` folder.
FORMATS: tuple[str, ...] = ("jsonl", "csv", "parquet", "hf")
#: The columns after the texts and the label, for every task.
ROW_FIELDS: tuple[str, ...] = ("origin", "source_id", "spec", "label_rule")


@dataclass(frozen=True)
class Layout:
    """How a task's rows are written: a column per text (the task's own input fields, e.g.
    `sentence` for SST-2, `question1`/`question2` for QQP; `premise`/`hypothesis` for NLI),
    the label column, and the label set its codes are spelled with."""

    texts: tuple[str, ...] = ("premise", "hypothesis")
    label: str = "label"
    labels: LabelSet = NLI

    @property
    def columns(self) -> tuple[str, ...]:
        return (*self.texts, self.label, *ROW_FIELDS)


NLI_LAYOUT = Layout()
_SUFFIXES = {".jsonl": "jsonl", ".json": "jsonl", ".csv": "csv", ".parquet": "parquet"}


def output_format(path: str | Path, fmt: str | None = None) -> str:
    """The format named by *fmt*, else by *path*'s suffix; InputError for an unknown one."""
    if fmt:
        if fmt not in FORMATS:
            raise InputError(f"unknown output format {fmt!r}: choose one of {', '.join(FORMATS)}")
        return fmt
    suffix = Path(path).suffix.lower()
    if not suffix:
        return "hf"
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    raise InputError(f"{path}: cannot tell the output format from {suffix!r}; pass --format "
                     f"{'|'.join(FORMATS)} (a name without a suffix is a datasets folder)")


def check_targets(targets: Sequence[Path], inputs: Sequence[str | Path | None],
                  overwrite: bool) -> None:
    """Refuse to write over an input, or over an existing file without *overwrite*."""
    for path in targets:
        refuse_input_as_output(path, *inputs)
        if path.exists() and not overwrite:
            raise InputError(f"{path} exists: pass --overwrite to replace it")
        if not path.parent.is_dir():
            raise InputError(f"{path}: directory {path.parent} does not exist")


def features(label_format: str, class_label: bool, layout: Layout = NLI_LAYOUT):
    """The `datasets` features of the rows: a ClassLabel of the task's labels (entailment,
    neutral, contradiction for NLI) when *class_label*, else the label as written (a string,
    or an int)."""
    from datasets import ClassLabel, Features, Value

    label = (ClassLabel(names=list(layout.labels.names)) if class_label
             else Value("int64" if label_format == "int" else "string"))
    return Features({c: label if c == layout.label else Value("string")
                     for c in layout.columns})


def to_dataset(rows: Sequence[dict], label_format: str, class_label: bool | None = None,
               layout: Layout = NLI_LAYOUT):
    """The rows (label as a code, E/N/C for NLI) as a `datasets.Dataset`; a ClassLabel by
    default for integer labels."""
    from datasets import Dataset

    class_label = label_format == "int" if class_label is None else class_label
    fmt = "int" if class_label else label_format
    columns = {c: [r[c] for r in rows] for c in layout.columns}
    columns[layout.label] = [output_label(code, fmt, layout.labels)
                             for code in columns[layout.label]]
    return Dataset.from_dict(columns, features=features(label_format, class_label, layout))


def jsonl_text(rows: Sequence[dict], label_format: str, extra: Sequence[str] = (),
               layout: Layout = NLI_LAYOUT) -> str:
    out = io.StringIO()
    for r in rows:
        row = {c: r[c] for c in (*layout.columns, *extra)}
        row[layout.label] = output_label(r[layout.label], label_format, layout.labels)
        for c in extra:
            if c.endswith("_label") and c != "label_rule" and r[c] is not None:
                row[c] = output_label(r[c], label_format, layout.labels)
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return out.getvalue()


def _csv_text(rows: Sequence[dict], label_format: str, layout: Layout) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(layout.columns)
    for r in rows:
        writer.writerow([output_label(r[c], label_format, layout.labels) if c == layout.label
                         else "" if r[c] is None else r[c] for c in layout.columns])
    return out.getvalue()


def stage(rows: Sequence[dict], path: Path, fmt: str, label_format: str,
          layout: Layout = NLI_LAYOUT) -> Path:
    """Write *rows* to a new temporary file or folder beside *path*; its path."""
    if fmt == "hf":
        import datasets

        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
        quiet = datasets.is_progress_bar_enabled()
        datasets.disable_progress_bars()
        try:
            to_dataset(rows, label_format, True, layout).save_to_disk(str(tmp))
        finally:
            if quiet:
                datasets.enable_progress_bars()
        return tmp
    tmp = temporary_beside(path)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(to_dataset(rows, label_format, layout=layout).data.table, tmp)
        return tmp
    text = (jsonl_text(rows, label_format, layout=layout) if fmt == "jsonl"
            else _csv_text(rows, label_format, layout))
    stage_text(text, tmp)
    return tmp


def stage_text(text: str, tmp: Path) -> None:
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def put_in_place(staged: Sequence[tuple[Path, Path]]) -> None:
    """Rename each (temporary, target) into place; a target folder is replaced whole."""
    for tmp, path in staged:
        if path.is_dir() and not path.is_symlink():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.replace(path, old / path.name)
            os.replace(tmp, path)
            shutil.rmtree(old)
        else:
            if tmp.is_dir() and path.exists():  # a folder replaces a file of that name
                path.unlink()
            os.replace(tmp, path)


def discard(staged: Sequence[tuple[Path, Path]]) -> None:
    for tmp, _ in staged:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.unlink(missing_ok=True)


def load(path: str | Path, fmt: str | None = None):
    """What `lit augment` wrote to *path*, as a `datasets.Dataset`: the one call per format
    that docs/augment.md shows (load_dataset for files, load_from_disk for a folder)."""
    import datasets

    fmt = output_format(path, fmt)
    if fmt == "hf":
        return datasets.load_from_disk(str(path))
    kind = {"jsonl": "json", "csv": "csv", "parquet": "parquet"}[fmt]
    return datasets.load_dataset(kind, data_files=str(path), split="train")
