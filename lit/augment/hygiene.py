"""Hygiene: what may become a training row. No (premise, hypothesis) — or a task's text(s) —
twice; never a transformed pair equal to an original with another label (a contradiction in the
training data); no NLI question (it asserts nothing; another task's label rules say whether a
question keeps a label) and no pair without a label. Every drop is counted by reason."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from lit.augment.flatten import Candidate, Source, is_question, usable
from lit.status import Status

Key = tuple[str | None, ...]


def original_labels(sources: Iterable[Source]) -> dict[Key, str]:
    """Texts -> gold code of every labelled original (the first wins)."""
    out: dict[Key, str] = {}
    for s in sources:
        if s.code is not None and all(s.texts):
            out.setdefault(s.key, s.code)
    return out


class Hygiene:
    """Screens candidates and admits rows, counting every drop in `counts` (reason -> n)."""

    def __init__(self, originals: dict[Key, str]) -> None:
        self.originals = originals
        self.written: dict[Key, str] = {}
        self.counts: Counter = Counter()

    def source_problem(self, s: Source) -> str | None:
        """Why a source pair gives no rows at all: invalid input, or no gold label."""
        if s.status == Status.INVALID_INPUT.value or not all(s.texts):
            return "invalid input"
        if s.code is None:
            return "unlabelled"
        return None

    def screen(self, s: Source) -> tuple[list[Candidate], dict[str, str]]:
        """(the candidates that may be rows, spec -> why each other one may not)."""
        survivors, fates = [], {}
        for c in s.candidates:
            if not usable(c):
                why = f"transform {c.status}"
            elif s.task is None and is_question(c.spec):
                why = "question"
            elif c.label is None:
                why = "label rule gives none"
            elif self.originals.get(c.key, c.label) != c.label:
                why = "conflicts with an original"
            else:
                survivors.append(c)
                continue
            fates[c.spec] = why
            self.counts[why] += 1
        return survivors, fates

    def admit(self, key: Key, code: str, fates: dict[str, str] | None = None,
              spec: str | None = None) -> bool:
        """True (and remembered) unless *key* is already a row: then counted as a duplicate,
        or as a conflict if that row has another label."""
        if key in self.written:
            why = "duplicate" if self.written[key] == code else "conflicts with a written row"
            self.counts[why] += 1
            if fates is not None and spec is not None:
                fates[spec] = why
            return False
        self.written[key] = code
        return True
