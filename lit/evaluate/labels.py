"""The three NLI labels and the spellings datasets, label rules and models use for them."""

from __future__ import annotations

LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")

_ALIASES = {
    "entailment": "entailment", "entails": "entailment", "entail": "entailment", "e": "entailment",
    "neutral": "neutral", "n": "neutral",
    "contradiction": "contradiction", "contradicts": "contradiction", "contradict": "contradiction",
    "c": "contradiction",
}
#: Integer labels as in the Hugging Face `snli` / `multi_nli` datasets (-1 = no gold label).
_INT_LABELS = {0: "entailment", 1: "neutral", 2: "contradiction", -1: None}
_MISSING = {"", "-", "none", "null", "hidden"}


def normalize_label(value: object) -> str | None:
    """The canonical label for *value*, None for "no label" markers; ValueError if unknown."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"not an NLI label: {value!r}")
    if isinstance(value, int):
        if value in _INT_LABELS:
            return _INT_LABELS[value]
        raise ValueError(f"not an NLI label: {value!r} (integers 0, 1, 2 = E, N, C)")
    text = str(value).strip().lower()
    if text in _MISSING:
        return None
    if text in _ALIASES:
        return _ALIASES[text]
    raise ValueError(
        f"not an NLI label: {value!r} (use entailment, neutral, contradiction or E/N/C)"
    )
