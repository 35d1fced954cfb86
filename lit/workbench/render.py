"""What `lit rules try` prints: a text summary (with --diff, each change as rule-language
edits) and the same as one JSON document (--json) for scripts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from delphin.codecs import simplemrs

from lit.rules.syntax import Example
from lit.workbench.mrsdiff import edits
from lit.workbench.trial import APPLIED, Change, Outcome, Summary

if TYPE_CHECKING:
    from lit.pipeline.records import SideResult


@dataclass
class SpecRun:
    """Everything `try` found for one spec: outcomes in input order, their summary, the
    realizations (input id -> result, with ACE) and the changes against an older module."""

    summary: Summary
    outcomes: list[Outcome]
    realized: dict[str, SideResult] = field(default_factory=dict)
    changes: list[Change] | None = None

    def applied(self, limit: int) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind == APPLIED][:limit]


def _label(o: Outcome) -> str:
    return f"{o.item.id} {o.item.sentence}" if o.item.sentence else o.item.id


def _realized(side: SideResult) -> str:
    if side.output is not None:
        shown = f"{side.output!r} ({'verified' if side.verified else 'not verified'})"
    else:
        shown = f"{side.status}: {side.reason}"
    return shown + "".join(f"\n      {_reading(e)}" for e in side.reading_evidence or ())


def _reading(e: dict) -> str:
    """One reading ACE gave of the sentence, as weighed (lit.pipeline.reading)."""
    score = f"score {e['score']:.2f}" if e.get("score") is not None else "no score"
    marks = [m for m in ("chosen", "gold") if e.get(m)]
    return (f"reading {e['reading']} ({score}{''.join(', ' + m for m in marks)}): "
            f"{e['doubt'] or 'nothing speaks against it'}")


def text(run: SpecRun, examples: int, diff: bool) -> list[str]:
    """The summary of one spec, then (with *diff*) the first *examples* applied inputs with
    the blocks that fired and the edits, then the changes against the old module."""
    s = run.summary
    lines = [f"{s.spec}: {s.total:,} input(s)"]
    for kind, tally in s.kinds.items():
        pct = 100 * tally.count / s.total if s.total else 0.0
        eg = f"  e.g. {_label(tally.example)}" if kind == APPLIED and tally.example else ""
        lines.append(f"  {kind:16} {tally.count:7,} {pct:5.1f}%{eg}")
        for reason, r in s.reasons.get(kind, {}).items():
            lines.append(f"    {r.count:7,}  {reason}")
            lines.append(f"             e.g. {_label(r.example)}")
    if diff:
        for o in run.applied(examples):
            lines += ["", f"  {_label(o)}"]
            lines += [f"    fired: {f}" for f in o.fired]
            if o.item.id in run.realized:
                lines.append(f"    realized: {_realized(run.realized[o.item.id])}")
            lines += [f"    {e}" for e in edits(o.item.mrs, o.results[0])]
            if len(o.results) > 1:
                lines.append(f"    (and {len(o.results) - 1} other output(s))")
    elif run.realized:
        lines.append("")
        lines += [f"  {i}: {_realized(side)}" for i, side in run.realized.items()]
    if run.changes is not None:
        lines += ["", f"  against the old module: {len(run.changes):,} input(s) changed outcome"]
        by_how = Counter(c.how for c in run.changes)
        for how, n in by_how.most_common():
            lines.append(f"    {n:7,}  {how}")
            shown = [c for c in run.changes if c.how == how][:examples]
            for c in shown:
                lines.append(f"             {c.item.id} {c.item.sentence or ''}".rstrip())
                lines.append(f"               {c.detail}")
            if n > len(shown):
                lines.append(f"             ... and {n - len(shown):,} more (--json lists all)")
    return lines


def _item(o: Outcome) -> dict:
    return {"id": o.item.id, "sentence": o.item.sentence}


def _side(side: SideResult) -> dict:
    return {"status": str(side.status), "reason": side.reason, "output": side.output,
            "verified": side.verified, "candidates": list(side.candidates or ()),
            "reading_evidence": list(side.reading_evidence or ())}


def as_json(run: SpecRun, examples: int) -> dict:
    """One spec's findings as plain data: counts per kind, each reason with its count and
    first example, the first *examples* applied inputs (fired blocks, edits, result MRS,
    realization), and every changed input against the old module."""
    s = run.summary
    return {
        "spec": s.spec,
        "inputs": s.total,
        "counts": {kind: t.count for kind, t in s.kinds.items()},
        "reasons": {kind: [{"reason": reason, "count": t.count, "example": _item(t.example)}
                           for reason, t in reasons.items()]
                    for kind, reasons in s.reasons.items()},
        "applied": [{**_item(o), "fired": list(o.fired),
                     "edits": edits(o.item.mrs, o.results[0]),
                     "mrs": [simplemrs.encode(m) for m in o.results],
                     "realization": _side(run.realized[o.item.id])
                     if o.item.id in run.realized else None}
                    for o in run.applied(examples)],
        "changed": None if run.changes is None else [
            {**_item(c.new), "how": c.how, "detail": c.detail, "old": c.old.kind,
             "new": c.new.kind} for c in run.changes],
    }


def example_lines(checked: Sequence[tuple[Example, str | None]]) -> list[str]:
    """``examples: 2 of 3 hold``, then each that does not, with why."""
    if not checked:
        return ["examples: none with MRSs (add source and target MRSs to test the module)"]
    holding = sum(why is None for _, why in checked)
    lines = [f"examples: {holding} of {len(checked)} hold"]
    for ex, why in checked:
        if why is not None:
            lines.append(f"  FAILS {ex.spec}: {ex.source!r} -> {ex.target!r}: {why}")
    return lines


def examples_json(checked: Sequence[tuple[Example, str | None]]) -> list[dict]:
    return [{"spec": ex.spec, "source": ex.source, "target": ex.target, "holds": why is None,
             "why": why} for ex, why in checked]


def header(module: str, file: str, source: str, inputs: int) -> str:
    return f"module {module} ({file}) on {inputs:,} input(s) from {source}"

