"""The label convention of an input (words, e.g. SNLI's, or Hugging Face integers), learnt from
every gold label `lit augment` reads, so it writes labels the way the input did, for NLI or
any task's label set (lit.labels.names.LabelSet).

Spelling and reading one label is lit.io.readers.LabelConvention's job (shared with the
readers); what this module adds is the strict check over a whole input: a value that is no
NLI label, or a second convention in one input, is an error naming file and line.
"""

from __future__ import annotations

from collections.abc import Iterable

from lit.errors import InputError
from lit.io.readers import LabelConvention
from lit.labels.names import CODE_OF_LABEL, LABEL_OF_CODE, NLI, LabelSet

#: `--label-format` choices: learn from the input, label names, or HF integers 0/1/2.
LABEL_FORMATS: tuple[str, ...] = ("auto", "text", "int")
_READ = LabelConvention("label", integers=False)  # from_input reads either spelling


def gold_code(value: object, labels: LabelSet = NLI) -> str | None:
    """The code (E/N/C for NLI) of a gold label of *labels* in either convention (an integer
    may be written as digits, as a CSV holds it), None for none or no consensus; ValueError
    naming the value if it is no label of the set."""
    if labels is NLI:
        return CODE_OF_LABEL.get(_READ.from_input(value))
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    code = labels.code(value)
    return code if code in labels.codes else None


def _kind(value: object, labels: LabelSet) -> str | None:
    """"int" or "text" for a gold label, None for no label; ValueError if it is none."""
    if gold_code(value, labels) is None:
        return None
    integer = isinstance(value, int) or str(value).strip().isdigit()
    return "int" if integer else "text"


def learn_convention(golds: Iterable[tuple[str, object]], labels: LabelSet = NLI) -> str:
    """"text" or "int": the one convention of (where, gold label) pairs ("text" if none has a
    label). InputError naming where a label is not one of *labels*, or where a second
    convention starts, since a mixed column cannot be written back faithfully."""
    found: tuple[str, str] | None = None
    for where, value in golds:
        try:
            kind = _kind(value, labels)
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


def output_label(code: str, fmt: str, labels: LabelSet = NLI) -> str | int:
    """A label code as written in the output: a name for "text", its integer (0/1/2 for
    NLI: the position in the task's label names) for "int"."""
    if labels is NLI:
        return LabelConvention("label", integers=fmt == "int").to_input(LABEL_OF_CODE[code])
    return labels.codes.index(code) if fmt == "int" else labels.name_of(code)
