"""Feedback filter (FAST step 3): keep a transformed pair only if a classifier gives the label
its rule gave (FAST's "predicted attribute matches the control code"). Predictions come from a
prediction file (`lit evaluate`'s format: id, spec, prediction) or a Hugging Face model."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from lit.augment.flatten import Candidate, Source
from lit.errors import InputError
from lit.evaluate.predictions import read_predictions
from lit.labels.names import NLI, LabelSet

Predictions = Mapping[tuple[str, str], str]  # (source id, spec) -> canonical label


def file_predictions(path: str | Path, labels: LabelSet = NLI) -> dict[tuple[str, str], str]:
    """A prediction file, as `lit evaluate --predictions` reads it."""
    return read_predictions(Path(path), labels)


def model_predictions(model: str, pairs: Iterable[tuple[Source, Candidate]],
                      device: str | None = None, labels: LabelSet = NLI
                      ) -> dict[tuple[str, str], str]:
    """A Hugging Face classifier's label for each (source, candidate), each text (pair)
    once."""
    from lit.evaluate.model import HFClassifier

    keyed = [((s.id, c.spec), c.key) for s, c in pairs]
    texts = list(dict.fromkeys(text for _, text in keyed))
    clf = HFClassifier(model, device=device, labels=labels)
    by_text = dict(zip(texts, clf.predict(texts)))
    return {key: by_text[text] for key, text in keyed}


def disagrees(source: Source, c: Candidate, predictions: Predictions, where: str) -> str | None:
    """The classifier's label code if it differs from the rule's label, else None;
    InputError naming the prediction source if it has no prediction for this pair."""
    label = predictions.get((source.id, c.spec))
    if label is None:
        raise InputError(f"{where}: no prediction for id {source.id!r}, spec {c.spec!r} "
                         f"({source.where})")
    code = source.labels.code(label)
    return code if code != c.label else None
