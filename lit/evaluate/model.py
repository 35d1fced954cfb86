"""Classifying texts or text pairs (premise/hypothesis, question pairs, ...) with a Hugging
Face sequence-classification model, into the labels of any task (NLI's by default).

torch and transformers are the optional `rank` extra, imported only when a model is loaded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lit.errors import ConfigurationError, InputError
from lit.labels.names import NLI, LabelSet


def parse_label_map(text: str, labels: LabelSet = NLI) -> dict[str, int]:
    """"entailment=0,neutral=1,contradiction=2" (or E=0,N=1,C=2; a task's own labels for
    *labels*) -> {label: class index}."""
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, index = part.partition("=")
        try:
            label = labels.name(name)
            if not sep or label is None:
                raise ValueError(f"expected LABEL=INDEX, got {part!r}")
            out[label] = int(index)
        except ValueError as exc:
            raise InputError(f"--label-map: {exc}") from None
    if set(out) != set(labels.names):
        raise InputError(f"--label-map must give an index for each of {', '.join(labels.names)}")
    return out


def _listed(names: tuple[str, ...]) -> str:
    """"entailment, neutral and contradiction"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def label_map_from_config(id2label: Mapping[int, str], labels: LabelSet = NLI) -> dict[str, int]:
    """Read {label: index} from a model config's id2label; ConfigurationError if it does not
    name every label of *labels* (then pass --label-map)."""
    out: dict[str, int] = {}
    for index, name in id2label.items():
        try:
            label = labels.name(name)
        except ValueError:
            continue
        if label is not None:
            out[label] = int(index)
    if set(out) != set(labels.names):
        example = ",".join(f"{name}={'IJKLMN'[k % 6]}" for k, name in enumerate(labels.names))
        raise ConfigurationError(
            f"the model's id2label {dict(id2label)} does not name {_listed(labels.names)}; "
            f"pass --label-map {example}"
        )
    return out


class HFClassifier:
    """A classifier of texts or text pairs into *labels* (NLI's by default): AutoTokenizer +
    AutoModelForSequenceClassification, batched, on GPU when one is available."""

    def __init__(
        self,
        name_or_path: str,
        label_map: Mapping[str, int] | None = None,
        batch_size: int = 32,
        device: str | None = None,
        max_length: int = 256,
        labels: LabelSet = NLI,
    ):
        try:
            import torch
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as exc:
            raise ConfigurationError(
                f"model evaluation needs torch and transformers ({exc}); "
                "install them with: pip install 'lit-contrast[rank]'"
            ) from None
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(name_or_path)
            self.model = AutoModelForSequenceClassification.from_pretrained(name_or_path)
        except (OSError, ValueError, KeyError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ConfigurationError(
                f"cannot load model {name_or_path!r}: {first}. Give a local directory holding "
                "config.json, the weights and the tokenizer files, or a Hub name that is "
                "already cached (with HF_HUB_OFFLINE=1 nothing is downloaded)"
            ) from None
        self.torch = torch
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device).eval()
        self.label_map = dict(label_map
                              or label_map_from_config(self.model.config.id2label, labels))
        n_classes = self.model.config.num_labels
        bad = {k: v for k, v in self.label_map.items() if not 0 <= v < n_classes}
        if bad:
            raise ConfigurationError(f"label map {bad} outside the model's {n_classes} classes")
        self.batch_size = batch_size
        self.max_length = max_length

    def predict(self, inputs: Sequence[str | Sequence[str]]) -> list[str]:
        """One label per input, choosing among the mapped classes: an input is a text
        (single-text task) or a (first, second) pair such as (premise, hypothesis). Inputs
        are batched by length (less padding) and returned in input order."""
        labels = list(self.label_map)
        columns = [self.label_map[label] for label in labels]
        texts = [(x,) if isinstance(x, str) else tuple(x) for x in inputs]
        order = sorted(range(len(texts)), key=lambda i: sum(map(len, texts[i])))
        out: list[str] = [""] * len(texts)
        with self.torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                batch = order[start:start + self.batch_size]
                second = [texts[i][1] for i in batch] if len(texts[batch[0]]) > 1 else None
                enc = self.tokenizer(
                    [texts[i][0] for i in batch], second, padding=True,
                    truncation=True, max_length=self.max_length, return_tensors="pt",
                ).to(self.device)
                logits = self.model(**enc).logits[:, columns]
                for i, k in zip(batch, logits.argmax(dim=-1).tolist()):
                    out[i] = labels[k]
        return out
