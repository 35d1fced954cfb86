"""The three NLI labels and every spelling of them LIT reads: dataset gold labels (SNLI/MNLI
text, Hugging Face integers), label-rule codes, model `id2label` names and prediction files.

Kept free of heavy imports: the evaluation, analysis and report code read labels without
parsing any rule file.
"""

from __future__ import annotations

#: Canonical label names, as written in records and prediction files.
LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")
#: Their one-letter codes, as written in label-rule files.
CODES: tuple[str, ...] = ("E", "N", "C")
LABEL_OF_CODE: dict[str, str] = dict(zip(CODES, LABELS))
CODE_OF_LABEL: dict[str, str] = dict(zip(LABELS, CODES))
#: The SNLI/MNLI gold label of a pair whose annotators reached no consensus.
NO_CONSENSUS = "-"

_ALIASES: dict[str, str] = {
    **CODE_OF_LABEL,
    **{code.lower(): code for code in CODES},
    "entails": "E", "entail": "E",
    "contradicts": "C", "contradict": "C",
    NO_CONSENSUS: NO_CONSENSUS, "-1": NO_CONSENSUS,
}
#: Integer labels of the Hugging Face `snli` / `multi_nli` datasets (-1 = no gold label).
_INT_CODES: dict[int, str] = {0: "E", 1: "N", 2: "C", -1: NO_CONSENSUS}
#: Spellings of "this pair has no label at all" (MNLI test sets say "hidden").
_MISSING = frozenset({"", "none", "null", "hidden"})


def label_code(value: object) -> str | None:
    """`E`/`N`/`C` for a label in any spelling above, `-` for no consensus (SNLI "-", -1),
    None for a missing label; ValueError naming the value if it is not an NLI label."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"not an NLI label: {value!r}")
    if isinstance(value, int):
        if value in _INT_CODES:
            return _INT_CODES[value]
        raise ValueError(f"not an NLI label: {value!r} (integers 0, 1, 2 = E, N, C; -1 = none)")
    text = str(value).strip().lower()
    if text in _MISSING:
        return None
    if text in _ALIASES:
        return _ALIASES[text]
    raise ValueError(
        f"not an NLI label: {value!r} (use entailment, neutral, contradiction or E/N/C)"
    )


def normalize_label(value: object) -> str | None:
    """The canonical label for *value*; None for no label (missing or no consensus);
    ValueError if *value* is not an NLI label."""
    return LABEL_OF_CODE.get(label_code(value))
