"""Label sets and every spelling of a label LIT reads: dataset gold labels (words, Hugging Face
integers), label-rule codes, model `id2label` names and prediction files.

`LabelSet` is any task's labels (lit.tasks builds one per task profile); `NLI` is the
three-way NLI set, and the module-level names below are NLI's, as every NLI path reads them.
Kept free of heavy imports: the evaluation, analysis and report code read labels without
parsing any rule file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lit.errors import InputError

#: The SNLI/MNLI gold label of a pair whose annotators reached no consensus.
NO_CONSENSUS = "-"
#: Spellings of "this record has no label at all" (MNLI test sets say "hidden").
MISSING = frozenset({"", "none", "null", "hidden"})
#: Words a label-rule `map` gives a meaning of its own, so no label may be spelled so.
RESERVED = frozenset({"none", "keep", "*", "=", NO_CONSENSUS})


@dataclass(frozen=True)
class LabelSet:
    """A task's labels: canonical `names` (written in records), the `codes` label-rule files
    use, and what each spelling of a gold label means.

    `spellings` maps a lower-case spelling to its code (names and codes are spellings too);
    `integers` maps a dataset's integer to a code, or to None for "no label" (-1); a value in
    MISSING is no label; `no_consensus` is a spelling read as its own gold code (NLI's "-",
    which `gold "-" skip` rules match), None if the task has none. `what` names the set in
    messages ("an NLI label")."""

    names: tuple[str, ...]
    codes: tuple[str, ...]
    spellings: Mapping[str, str] = field(default_factory=dict)
    integers: Mapping[int, str | None] = field(default_factory=dict)
    what: str = "a label"
    no_consensus: str | None = None

    @classmethod
    def build(cls, names: tuple[str, ...], codes: tuple[str, ...] | None = None,
              spellings: Mapping[str, tuple[str, ...]] | None = None,
              what: str = "a label", no_consensus: str | None = None) -> LabelSet:
        """A set whose integers are the names' positions (Hugging Face's ClassLabel order;
        -1 = no label, or *no_consensus* if the task has that) and whose extra *spellings*
        are given per name; ValueError if a name, code or spelling is reserved, empty or
        means two labels."""
        codes = tuple(codes or names)
        if len(codes) != len(names) or len(set(names)) != len(names) \
                or len(set(codes)) != len(codes):
            raise ValueError("labels need distinct names and one distinct code per name")
        read: dict[str, str] = {}
        for name, code in zip(names, codes):
            for word in (name, code, *((spellings or {}).get(name, ()))):
                key = str(word).strip().lower()
                if not key or key in RESERVED or key in MISSING:
                    raise ValueError(f"label {name!r}: {word!r} cannot spell a label (it is "
                                     "empty or means 'no label' or a rule keyword)")
                if read.get(key, code) != code:
                    raise ValueError(f"{word!r} spells two labels")
                read[key] = code
        unknown = set(spellings or {}) - set(names)
        if unknown:
            raise ValueError(f"spellings for {sorted(unknown)[0]!r}, which is not a label "
                             f"(labels: {', '.join(names)})")
        integers: dict[int, str | None] = {k: c for k, c in enumerate(codes)}
        integers[-1] = no_consensus
        if no_consensus is not None:
            read["-1"] = no_consensus
        return cls(tuple(names), codes, read, integers, what, no_consensus)

    def code(self, value: object) -> str | None:
        """The code of a label in any spelling, `no_consensus` for that spelling, None for
        no label; ValueError naming the value if it is not one of these labels."""
        if value is None:
            return None
        if isinstance(value, bool):
            raise ValueError(f"not {self.what}: {value!r}")
        if isinstance(value, int):
            if value in self.integers:
                return self.integers[value]
            numbered = sorted(k for k in self.integers if k >= 0)
            raise ValueError(
                f"not {self.what}: {value!r} (integers {', '.join(map(str, numbered))} = "
                f"{', '.join(self.integers[k] for k in numbered)}; -1 = none)")
        text = str(value).strip().lower()
        if text in MISSING:
            return None
        if self.no_consensus is not None and text == self.no_consensus:
            return self.no_consensus
        if text in self.spellings:
            return self.spellings[text]
        raise ValueError(
            f"not {self.what}: {value!r} (use {', '.join(self.names)} or {'/'.join(self.codes)})")

    def name(self, value: object) -> str | None:
        """The canonical name of a label in any spelling; None for no label (missing, or no
        consensus); ValueError if *value* is not one of these labels."""
        code = self.code(value)
        return self.name_of(code) if code in self.codes else None

    def record_code(self, value: object, where: str) -> str | None:
        """The code of a label a record or file gives, None for no label or no consensus (a
        pair nothing can be scored against); an InputError naming *where* if it is not one
        of these labels (the file is wrong, not the program). `name_of` gives its name."""
        try:
            code = self.code(value)
        except ValueError as exc:
            raise InputError(f"{where}: {exc}") from None
        return code if code in self.codes else None

    def name_of(self, code: str) -> str:
        """The canonical name of a code (KeyError if it is not one)."""
        if code not in self.codes:
            raise KeyError(code)
        return self.names[self.codes.index(code)]


#: Canonical NLI label names, as written in records and prediction files.
LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")
#: Their one-letter codes, as written in label-rule files.
CODES: tuple[str, ...] = ("E", "N", "C")
LABEL_OF_CODE: dict[str, str] = dict(zip(CODES, LABELS))
CODE_OF_LABEL: dict[str, str] = dict(zip(LABELS, CODES))

#: The three NLI labels; Hugging Face's `snli` / `multi_nli` integers (-1 = no consensus).
NLI = LabelSet(
    LABELS, CODES,
    spellings={
        **{name: code for name, code in CODE_OF_LABEL.items()},
        **{code.lower(): code for code in CODES},
        "entails": "E", "entail": "E", "contradicts": "C", "contradict": "C",
        "-1": NO_CONSENSUS,
    },
    integers={0: "E", 1: "N", 2: "C", -1: NO_CONSENSUS},
    what="an NLI label",
    no_consensus=NO_CONSENSUS,
)


def label_code(value: object) -> str | None:
    """`E`/`N`/`C` for a label in any spelling above, `-` for no consensus (SNLI "-", -1),
    None for a missing label; ValueError naming the value if it is not an NLI label."""
    return NLI.code(value)


def normalize_label(value: object) -> str | None:
    """The canonical label for *value*; None for no label (missing or no consensus);
    ValueError if *value* is not an NLI label."""
    return NLI.name(value)
