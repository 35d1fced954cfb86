"""Tailor-style metrics per spec (Ross et al. 2022; issue 15), from `lit nli` and `lit contrast`
records (a contrast record's sides are its task's; docs/tasks.md).

For each side a spec changes (not `o`), over the pairs where the rules applied:

* **closeness** — how little changed: the token edit distance between the original sentence
  and the output (lit.rank.closeness), and the MRS edit distance, the number of EPs (predicate
  and constant) in one MRS and not the other. The record holds the original MRS only when the
  other side of the pair is the same sentence unchanged (`lit nli --self-pairs`, "o;hyper"), so
  the MRS figure covers those pairs;
* **fluency** — the scorer's perplexity ratio output / original (above 1: the output reads
  worse). Both sentences are scored here with the model-free word-frequency scorer
  (lit.rank.freq's per-word mean negative log10 frequency: a log10 perplexity), so the ratio is
  ``10 ** (score(output) - score(original))``, comparable across runs whatever ranked them;
* **controllability** — the share of pairs the rules applied to whose changed sides were
  realized *and verified* (re-parsed to the transformed MRS): Tailor's "the output does what
  the control code asked".
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

from delphin.codecs import simplemrs

from lit.errors import InputError
from lit.labels import IDENTITY_STEPS
from lit.rank.closeness import edit_distance, tokens
from lit.records import Record, Side, Transform
from lit.spec import parse_pair, parse_text_spec
from lit.status import Status
from lit.tasks.profile import NLI_TASK, load_task

#: Statuses of a pair whose sides the rules transformed (generation was attempted).
APPLIED = frozenset({Status.OK.value, Status.NOT_VERIFIED.value, Status.NO_GENERATION.value,
                     Status.NOT_FLUENT.value})
#: The profile of a `lit nli` record: its sides and the input fields that may hold each.
_NLI = load_task(NLI_TASK)


def mrs_distance(a: str, b: str) -> int:
    """EPs (predicate and CARG) in one SimpleMRS and not the other, as multisets."""
    def eps(text: str) -> Counter:
        return Counter((ep.predicate, ep.carg) for ep in simplemrs.decode(text).rels)
    x, y = eps(a), eps(b)
    return sum(((x - y) + (y - x)).values())


def _fluency_scorer():
    from lit.rank.freq import FrequencyScorer

    return FrequencyScorer()


@dataclass
class _Figures:
    tokens: list[int] = field(default_factory=list)
    mrs: list[int] = field(default_factory=list)
    fluency: list[float] = field(default_factory=list)
    applied: int = 0
    verified: int = 0


def _sides(record: Record) -> tuple[str, ...]:
    """A record's side keys: a contrast record's texts (docs/tasks.md), else NLI's."""
    return tuple(record.texts or ()) if record.task is not None else _NLI.sides


def _changed_sides(record: Record, spec: str) -> tuple[str, ...]:
    sides = _sides(record)
    try:
        pair = parse_pair(spec) if len(sides) == 2 else parse_text_spec(spec)
    except InputError:
        return ()
    return tuple(side for side, spec in zip(sides, (pair.premise, pair.hypothesis))
                 if any(s.name not in IDENTITY_STEPS for s in spec.steps))


def _original(record: Record, side: str) -> str | None:
    text = record.original((side,), _NLI.fields)[0][0]
    return text if isinstance(text, str) else None


def _side(t: Transform, name: str) -> Side:
    """Side *name* of an applied transform (every applied transform has its sides)."""
    side = t.side(name)
    if side is None:
        raise InputError(f"transform {t.spec!r} has no side {name!r}")
    return side


class TailorMetrics:
    """Accumulates the metrics per spec; `add` each `lit nli` record, then `to_json()`."""

    def __init__(self) -> None:
        self.specs: dict[str, _Figures] = defaultdict(_Figures)
        self._scorer = None

    def _score(self, text: str) -> float:
        if self._scorer is None:
            self._scorer = _fluency_scorer()
        return self._scorer.per_word(text)

    def add(self, record: Record) -> None:
        for t in record.transforms:
            if t.status not in APPLIED:
                continue
            figures = self.specs[str(t.spec)]
            changed = _changed_sides(record, str(t.spec))
            figures.applied += 1
            figures.verified += t.ok and all(_side(t, side).verified for side in changed)
            if not t.ok:
                continue
            for side in changed:
                original, output = _original(record, side), t.output(side)
                if original is None or output is None:
                    continue
                figures.tokens.append(edit_distance(tokens(original), tokens(output)))
                figures.fluency.append(10 ** (self._score(output) - self._score(original)))
                other = next((s for s in _sides(record) if s != side), None)
                if (other is not None and other not in changed and _side(t, other).mrs
                        and _side(t, side).mrs and _original(record, other) == original):
                    figures.mrs.append(mrs_distance(_side(t, other).mrs, _side(t, side).mrs))

    def to_json(self) -> dict[str, dict[str, Any]]:
        """Per spec: mean token and MRS edit distance, mean fluency ratio, share verified,
        and how many pairs each figure is over (null where there are none)."""
        def avg(xs: list) -> float | None:
            return round(mean(xs), 4) if xs else None
        return {
            spec: {
                "closeness_tokens": avg(f.tokens), "closeness_mrs": avg(f.mrs),
                "fluency_ratio": avg(f.fluency),
                "controllability": round(f.verified / f.applied, 4) if f.applied else None,
                "pairs": {"applied": f.applied, "tokens": len(f.tokens), "mrs": len(f.mrs)},
            }
            for spec, f in self.specs.items()
        }

    def line(self, spec: str) -> str | None:
        """One summary line for *spec*, or None if the rules applied to none of its pairs."""
        m = self.to_json().get(spec)
        if m is None:
            return None

        def fmt(key: str, pattern: str) -> str:
            return "-" if m[key] is None else pattern.format(m[key])
        return (f"tailor: closeness {fmt('closeness_tokens', '{:.2f}')} tokens, "
                f"{fmt('closeness_mrs', '{:.2f}')} EPs; fluency x{fmt('fluency_ratio', '{:.2f}')}; "
                f"verified {fmt('controllability', '{:.0%}')} of {m['pairs']['applied']}")
