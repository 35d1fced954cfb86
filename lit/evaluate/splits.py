"""Shortcut splits (ShortcutGrammar §4): for each top pair feature, the pairs that follow the
shortcut (their gold label is the feature's majority label) and the counterexamples that go
against it. A model that learned the shortcut scores high on the first and low on the second.

`lit analyze --pairs --splits DIR` writes ``DIR/splits.json`` (the manifest) and, per
feature, ``DIR/NN-<feature>/follow.jsonl`` and ``counter.jsonl`` as `lit nli` records with no
transforms, so `lit evaluate` reads each file like any contrast set; ``lit evaluate DIR``
scores every split and prints the accuracies side by side.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from lit.errors import InputError
from lit.evaluate.records import ORIGINAL, original_item, read_contrast_file
from lit.io.output import atomic_text, slug, write_text_atomic
from lit.records import Record
from lit.status import Status

MANIFEST = "splits.json"
SIDES = ("follow", "counter")


def write_splits(directory: Path, rows: Sequence, shortcuts: Sequence[dict]) -> list[dict]:
    """Write the follow/counter split of each shortcut in *shortcuts* (ranked pair features)
    over *rows* (`lit.analyze.analysis.PairRow`); return the manifest entries."""
    directory.mkdir(parents=True, exist_ok=True)
    manifest = []
    for k, s in enumerate(shortcuts, 1):
        folder = f"{k:02d}-{slug(s['feature'])}"
        (directory / folder).mkdir(exist_ok=True)
        entry = {"feature": s["feature"], "majority_label": s["majority_label"]}
        for side in SIDES:
            chosen = [r for r in rows if s["feature"] in r.features
                      and (r.label == s["majority_label"]) == (side == "follow")]
            path = f"{folder}/{side}.jsonl"
            with atomic_text(directory / path) as f:
                for r in chosen:
                    fields = dict(r.item.input, sentence1=r.item.premise,
                                  sentence2=r.item.hypothesis, gold_label=r.label)
                    record = Record(r.item.id, fields, Status.OK.value)
                    f.write(json.dumps(record.to_dict()) + "\n")
            entry[side] = path
            entry[f"{side}_count"] = len(chosen)
        manifest.append(entry)
    write_text_atomic(directory / MANIFEST, json.dumps(manifest, indent=1) + "\n")
    return manifest


def is_splits_dir(path: Path) -> bool:
    return Path(path).is_dir() and (Path(path) / MANIFEST).is_file()


def read_manifest(directory: Path) -> list[dict]:
    try:
        return json.loads((directory / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{directory / MANIFEST}: not a splits manifest: {exc}") from None


def split_pairs(directory: Path) -> list[tuple[str, str, str]]:
    """Every (id, premise, hypothesis) in the splits (to classify once)."""
    out = {}
    for entry in read_manifest(directory):
        for side in SIDES:
            for rec in read_contrast_file(directory / entry[side]):
                item = original_item(rec)
                if item is not None:
                    out[item.id] = (item.id, item.premise, item.hypothesis)
    return list(out.values())


def evaluate_splits(directory: Path, predictions: Mapping[tuple[str, str], str]) -> list[dict]:
    """Accuracy on each split's follow and counter side (None for an empty side); a pair with
    no prediction is an InputError naming the file."""
    results = []
    for entry in read_manifest(directory):
        row = {"feature": entry["feature"], "majority_label": entry["majority_label"]}
        for side in SIDES:
            path = directory / entry[side]
            items = [it for rec in read_contrast_file(path)
                     if (it := original_item(rec, path)) is not None]
            missing = [it.id for it in items if (it.id, ORIGINAL) not in predictions]
            if missing:
                raise InputError(f"{path}: no prediction for id {missing[0]!r} "
                                 f"(and {len(missing) - 1} more)")
            right = sum(predictions[(it.id, ORIGINAL)] == it.gold for it in items)
            row[side] = {"count": len(items),
                         "accuracy": right / len(items) if items else None}
        results.append(row)
    return results


def format_splits(results: Sequence[dict]) -> str:
    """Accuracy on the follow side and the counter side, one feature per line."""
    def acc(side: dict) -> str:
        return "-" if side["accuracy"] is None else f"{100 * side['accuracy']:.1f}"

    rows = [["feature", "majority", "n follow", "acc follow", "n counter", "acc counter"]]
    rows += [[r["feature"], r["majority_label"], str(r["follow"]["count"]), acc(r["follow"]),
              str(r["counter"]["count"]), acc(r["counter"])] for r in results]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
