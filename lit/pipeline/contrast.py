"""Contrast records for any task, made by `lit nli`'s pipeline (docs/tasks.md).

A task record becomes one NLI item per way of choosing a sentence of each side (a single-text
task's text is run as the pair (sentence, sentence) under the spec "spec;o"); the pipeline
parses, transforms, labels (with the task's label rules) and realizes them as it does NLI
pairs, and `ContrastRun.records` folds their records back into one contrast record per task
record: per spec, the first sentence choice that gave a contrast pair, its sentence put back
into the whole text.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import product

from lit.errors import InputError
from lit.labels import IDENTITY_STEPS
from lit.pipeline.records import record_status
from lit.records import NliRecord, Record, Sentence, Side, Transform, as_record
from lit.spec import PairSpec, Spec, parse_pair, parse_text_spec
from lit.status import Status
from lit.tasks.item import TaskItem
from lit.tasks.profile import TaskProfile
from lit.tasks.sentences import split


def parse_task_spec(profile: TaskProfile, text: str) -> PairSpec:
    """A spec of *profile*'s kind: a pair spec "a;b" for a pair task, a single spec for a
    single-text one (run as "spec;o"); InputError says which the task takes."""
    try:
        return parse_pair(text) if profile.is_pair else parse_text_spec(text)
    except InputError as exc:
        kind = ("a pair spec 'a;b' (one per side)" if profile.is_pair
                else "a single spec such as 'neg' or 'tense=past+pass'")
        raise InputError(f"{exc}; task {profile.name} takes {kind}") from None


def task_specs(profile: TaskProfile, specs: Sequence[str] | None) -> list[str]:
    """The specs to run: *specs*, else the profile's; InputError if there are none."""
    chosen = [s.strip() for s in specs or profile.specs if s.strip()]
    if not chosen:
        raise InputError(f"task {profile.name} names no default specs: give some with --specs")
    return chosen


def _changed(spec: Spec) -> bool:
    return any(s.name not in IDENTITY_STEPS for s in spec.steps)


@dataclass(frozen=True)
class _Pending:
    """A task record on its way through the pipeline: its sentence spans per side and the
    sentence choices (one index per side) its NLI items stand for, in order."""

    item: TaskItem
    spans: tuple[tuple[tuple[int, int], ...], ...]
    choices: tuple[tuple[int, ...], ...]


class ContrastRun:
    """Turns task items into the pipeline's items (`items`) and its records back into
    contrast records (`records`); *specs* are (text, PairSpec) as `Engine.nli` names them."""

    def __init__(self, profile: TaskProfile, specs: Sequence[tuple[str, PairSpec]]):
        self.profile = profile
        self.specs = list(specs)
        self._pending: deque[_Pending] = deque()

    def items(self, task_items: Iterable[TaskItem]) -> Iterator[TaskItem]:
        """The NLI items of each task item, in order (one with `error` for an unusable one)."""
        for item in task_items:
            if item.error:
                self._pending.append(_Pending(item, (), ((),)))
                yield TaskItem(item.id, item.line, item.input, (None, None), error=item.error)
                continue
            spans = tuple(split(text) for text in item.texts)
            choices = tuple(product(*(range(len(s)) for s in spans)))
            self._pending.append(_Pending(item, spans, choices))
            for choice in choices:
                yield replace(item, texts=tuple(item.texts[n][slice(*spans[n][i])]
                                                for n, i in enumerate(choice)))

    def records(self, nli_records: Iterable[NliRecord]) -> Iterator[dict]:
        """One contrast record per task item, from the NLI records of its items (in order)."""
        batch: list[Record] = []
        for record in nli_records:
            batch.append(as_record(record))
            if len(batch) == len(self._pending[0].choices):
                yield self._fold(self._pending.popleft(), batch).to_dict()
                batch = []

    def _fold(self, pending: _Pending, nli: list[Record]) -> Record:
        item = pending.item
        timings: Counter = Counter()
        for r in nli:
            timings.update(r.timings or {})
        if item.error:
            transforms = [self._failed(text, Status.INVALID_INPUT, item.error)
                          for text, _ in self.specs]
            status, reason = Status.INVALID_INPUT, item.error
        else:
            transforms = [self._transform(pending, k, [r.transforms[k] for r in nli])
                          for k in range(len(self.specs))]
            status, reason = record_status(transforms)
        return Record(item.id, item.input, str(status), reason, tuple(transforms),
                      dict(timings), self.profile.name,
                      dict(zip(self.profile.sides, item.texts)), item.gold)

    def _nli_sides(self, pair: PairSpec) -> tuple[tuple[str, str, bool], ...]:
        """(contrast side, NLI side, changed?) per side of the task."""
        nli = (("premise", pair.premise), ("hypothesis", pair.hypothesis))
        return tuple((side, name, _changed(spec))
                     for side, (name, spec) in zip(self.profile.sides, nli))

    def _failed(self, text: str, status: Status, reason: str | None) -> Transform:
        kept = Side(sentence=Sentence(None, None, None))
        return Transform(text, str(status), reason,
                         tuple((side, kept) for side in self.profile.sides))

    def _transform(self, pending: _Pending, k: int, tried: list[Transform]) -> Transform:
        """Spec *k*'s transform: the first sentence choice that gave a contrast pair, else
        the first that gave outputs (kept unverified), else the failure of every choice."""
        text, pair = self.specs[k]
        sides = self._nli_sides(pair)
        usable = [j for j, t in enumerate(tried)
                  if all(t.output(name) is not None for _, name, _ in sides)]
        ok = [j for j in usable if tried[j].ok]
        if not (ok or usable):
            return self._failed(text, *self._failure(pending, tried))
        j = (ok or usable)[0]
        t = tried[j]
        new = tuple((side, _side(pending.item.texts[n], pending.spans[n],
                                 pending.choices[j][n] if changed else None, t.side(name)))
                    for n, (side, name, changed) in enumerate(sides))
        return Transform(text, t.status, self._renamed(t.reason), new, t.label, t.label_rule,
                         t.label_rationale)

    def _renamed(self, reason: str | None) -> str | None:
        """A pipeline reason that names an NLI side ("hypothesis: no parse") with the task's
        side name instead ("text2: no parse")."""
        for nli, side in zip(("premise", "hypothesis"), self.profile.sides * 2):
            if reason and reason.startswith(f"{nli}: "):
                return f"{side}: {reason[len(nli) + 2:]}"
        return reason

    def _failure(self, pending: _Pending, tried: list[Transform]
                 ) -> tuple[Status, str | None]:
        """The commonest failure of the sentence choices, and each choice's reason (one
        reason if they all agree)."""
        status = Counter(t.status for t in tried).most_common(1)[0][0]
        reasons = [self._renamed(t.reason) for t in tried]
        if len(set(reasons)) == 1:
            return Status(status), reasons[0]
        word = "sentences" if self.profile.is_pair else "sentence"
        return Status(status), "; ".join(
            f"{word} {'/'.join(str(i + 1) for i in choice)}: {reason}"
            for choice, reason in zip(pending.choices, reasons))


def _side(text: str, spans: tuple[tuple[int, int], ...], index: int | None,
          nli: Side | None) -> Side:
    """A contrast side from an NLI side: `output` the whole new text (sentence *index*
    replaced; None: the side is kept whole)."""
    nli = nli or Side()
    if index is None:
        return replace(nli, output=text, sentence=Sentence(None, None, None))
    start, end = spans[index]
    return replace(nli, output=text[:start] + str(nli.output) + text[end:],
                   sentence=Sentence(index, text[start:end], nli.output))
