"""The label convention of an input (SNLI-style text or Hugging Face integers), learnt from its
gold labels, so `lit augment` writes labels the way the input did."""

from __future__ import annotations

from collections.abc import Iterable

from lit.errors import InputError
from lit.labels.names import CODES, LABEL_OF_CODE, label_code

#: `--label-format` choices: learn from the input, label names, or HF integers 0/1/2.
LABEL_FORMATS: tuple[str, ...] = ("auto", "text", "int")
#: Hugging Face `snli`/`multi_nli` class indices: 0 entailment, 1 neutral, 2 contradiction.
INT_OF_CODE: dict[str, int] = {code: k for k, code in enumerate(CODES)}


def _kind(value: object) -> str | None:
    """"int" for an integer label (also "1" as text, as CSV gives it), "text" for a name,
    None for a missing one; ValueError if it is no NLI label."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if label_code(value) is None:
        return None
    return "int" if isinstance(value, int) else "text"


def gold_code(value: object) -> str | None:
    """E/N/C for a gold label in either convention, None for none or no consensus."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    code = label_code(value)
    return code if code in CODES else None


def learn_convention(golds: Iterable[tuple[str, object]]) -> str:
    """"text" or "int": the one convention of (where, gold label) pairs ("text" if none has a
    label). InputError naming where a label is not an NLI label, or where a second convention
    starts, since a mixed column cannot be written back faithfully."""
    found: tuple[str, str] | None = None
    for where, value in golds:
        try:
            kind = _kind(value)
        except ValueError as exc:
            raise InputError(f"{where}: unknown label convention: {exc}") from None
        if kind is None:
            continue
        if found is None:
            found = (kind, where)
        elif kind != found[0]:
            raise InputError(f"{where}: label {value!r} is {kind}, but {found[1]} used "
                             f"{found[0]} labels; one input must use one convention "
                             "(pass --label-format text|int to choose the output's)")
    return found[0] if found else "text"


def output_label(code: str, fmt: str) -> str | int:
    """A label code as written in the output: a name for "text", 0/1/2 for "int"."""
    return INT_OF_CODE[code] if fmt == "int" else LABEL_OF_CODE[code]
