"""The label convention of an input (SNLI-style words or Hugging Face integers), learnt from
every gold label `lit augment` reads, so it writes labels the way the input did.

Spelling and reading one label is lit.io.readers.LabelConvention's job (shared with the
readers); what this module adds is the strict check over a whole input: a value that is no
NLI label, or a second convention in one input, is an error naming file and line.
"""

from __future__ import annotations

from collections.abc import Iterable

from lit.errors import InputError
from lit.io.readers import LabelConvention
from lit.labels.names import CODE_OF_LABEL, LABEL_OF_CODE

#: `--label-format` choices: learn from the input, label names, or HF integers 0/1/2.
LABEL_FORMATS: tuple[str, ...] = ("auto", "text", "int")
_READ = LabelConvention("label", integers=False)  # from_input reads either spelling


def gold_code(value: object) -> str | None:
    """E/N/C for a gold label in either convention, None for none or no consensus;
    ValueError naming the value if it is no NLI label."""
    return CODE_OF_LABEL.get(_READ.from_input(value))


def _kind(value: object) -> str | None:
    """"int" or "text" for a gold label, None for no label; ValueError if it is none."""
    if gold_code(value) is None:
        return None
    integer = isinstance(value, int) or str(value).strip().isdigit()
    return "int" if integer else "text"


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
    return LabelConvention("label", integers=fmt == "int").to_input(LABEL_OF_CODE[code])
