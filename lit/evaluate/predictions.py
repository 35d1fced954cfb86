"""Prediction files: one JSON line `{"id", "spec", "prediction"}` per classified pair, so any
model in any framework can be scored. `spec` is the transform's `spec` string exactly as the
`lit nli` (or `lit contrast`) file writes it, or "original" for the record's input; `prediction`
is a label of the task in any spelling (for NLI entailment / neutral / contradiction, or E / N /
C; for SST-2 negative / positive, NEG / POS or 0 / 1). Other fields are ignored."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from lit.errors import InputError
from lit.io.jsonl import iter_jsonl
from lit.io.output import atomic_text
from lit.labels.names import NLI, LabelSet


def read_predictions(path: Path, labels: LabelSet = NLI) -> dict[tuple[str, str], str]:
    """(id, spec) -> canonical label of *labels* (NLI's by default); InputError naming file
    and line on bad or repeated lines."""
    out: dict[tuple[str, str], str] = {}
    for lineno, obj in iter_jsonl(Path(path)):
        where = f"{path}:{lineno}"
        missing = [k for k in ("id", "spec", "prediction") if k not in obj]
        if missing:
            raise InputError(f"{where}: prediction line lacks {', '.join(missing)}")
        key = (str(obj["id"]), str(obj["spec"]))
        if key in out:
            raise InputError(f"{where}: second prediction for id {key[0]!r}, spec {key[1]!r}")
        try:
            label = labels.name(obj["prediction"])
        except ValueError as exc:
            raise InputError(f"{where}: {exc}") from None
        if label is None:
            raise InputError(f"{where}: empty prediction")
        out[key] = label
    return out


def write_predictions(predictions: Mapping[tuple[str, str], str], path: Path) -> None:
    """Write predictions in the format `read_predictions` reads."""
    with atomic_text(path) as f:
        for (id_, spec), label in predictions.items():
            f.write(json.dumps({"id": id_, "spec": spec, "prediction": label}) + "\n")


def prediction_rows(predictions: Mapping[tuple[str, str], str]) -> Iterable[dict]:
    return ({"id": i, "spec": s, "prediction": p} for (i, s), p in predictions.items())
