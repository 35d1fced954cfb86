"""The closing summary of `lit nli`: per spec, its expansion, pairs transformed, coverage, labels
and every failure reason, as a whole table on stderr and as JSON beside the output.

Pair specs differ by one space ("p;f +i" applies +i to both sides, "p;f+i" to the hypothesis
only), so the summary echoes each spec's expansion and `glued_warning` names the other reading.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from lit.errors import InputError
from lit.pipeline.metrics import TailorMetrics
from lit.rank.minimal import REFUSAL_KINDS, refusals
from lit.records import NliRecord, Record, as_record
from lit.spec import parse_pair
from lit.status import Status

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
SUMMARY_SUFFIX = ".summary.json"


def summary_path(output: str | Path) -> Path:
    """Where `lit nli` saves the summary of *output*: ``OUTPUT.summary.json`` beside it."""
    output = Path(output)
    return output.with_name(output.name + SUMMARY_SUFFIX)


def expand_pair(spec: str) -> str:
    """What a pair spec means, both sides spelled out: "p;f +i" -> "tense=past+cleft ;
    tense=fut+cleft" (the text itself if it is not a valid pair spec)."""
    try:
        pair = parse_pair(spec)
    except InputError:
        return spec
    return f"{pair.premise} ; {pair.hypothesis}"


def glued_warning(spec: str) -> str | None:
    """A warning when *spec* glues a '+' to its hypothesis ("p;f+i"), which is valid but reads
    differently from the spaced form ("p;f +i"); None when there is no such '+'."""
    semi = spec.find(";")
    if semi < 0:
        return None
    try:
        meant = parse_pair(spec)
    except InputError:
        return None
    for k in range(semi + 1, len(spec)):
        if spec[k] != "+" or spec[k - 1].isspace():
            continue
        other = spec[:k] + " " + spec[k:]
        try:
            reading = parse_pair(other)
        except InputError:
            continue  # a '+' that is a value (prog=+), not a step separator
        if reading != meant:
            return (f"spec {spec!r} applies {spec[k:].split()[0]!r} to the hypothesis only "
                    f"(= {meant.premise} ; {meant.hypothesis}); with a space, {other!r} applies "
                    f"it to both sides (= {reading.premise} ; {reading.hypothesis})")
    return None


def _reason_key(reason: str | None) -> str:
    """A reason with quoted sentences (three words or more) replaced by <sentence>, so
    failures group by kind; a quoted value (a label 'maybe', a lexeme 'zorp') is kept, or
    the summary could not say which."""
    return " ".join(_QUOTED.sub(_sentence_only, reason or "").split())


def _sentence_only(quoted: re.Match) -> str:
    return "<sentence>" if len(quoted.group().split()) >= 3 else quoted.group()


class Summary:
    """Counts over `lit nli` records; `add` each record, then `format()` or `to_json()`."""

    def __init__(self) -> None:
        self.records = 0
        self.record_status: Counter = Counter()
        self.any_ok = 0
        self.ok: Counter = Counter()
        self.labels: dict[str, Counter] = defaultdict(Counter)
        self.failures: dict[str, Counter] = defaultdict(Counter)
        self.reasons: dict[str, Counter] = defaultdict(Counter)
        #: refused transforms by kind (lit.rank.minimal.refusals): what the minimal-pair
        #: contract and the reading checks kept out
        self.refusals: Counter = Counter()
        self.specs: dict[str, None] = {}
        self.tailor = TailorMetrics()  # closeness, fluency, controllability (issue 15)
        #: this run's ACE retries (lit.ace.service.AceService.retry_counts): a death LIT did
        #: not cause costs an attempt, not a record, so the records cannot show it
        self.ace_retries: dict[str, int] = {}

    def add(self, record: Record | NliRecord) -> None:
        """Count one record of the run (as the pipeline made it, or read back)."""
        record = as_record(record)
        self.records += 1
        self.record_status[str(record.status)] += 1
        ok_here = False
        for t in record.transforms:
            spec = str(t.spec)
            self.specs.setdefault(spec)
            if t.ok:
                self.ok[spec] += 1
                self.labels[spec][t.label or "no label"] += 1
                ok_here = True
            else:
                self.failures[spec][str(t.status)] += 1
                self.reasons[spec][(str(t.status), _reason_key(t.reason))] += 1
                self.refusals.update(refusals(t.status, t.reason))
        self.any_ok += ok_here
        self.tailor.add(record)

    @property
    def nothing_usable(self) -> bool:
        """True when no record could be used at all: none read, or every one invalid_input."""
        return self.record_status[Status.INVALID_INPUT.value] == self.records

    def to_json(self) -> dict[str, Any]:
        """The whole summary as JSON: per spec its expansion, counts, labels and every reason."""
        n = max(1, self.records)
        return {
            "records": self.records,
            "records_with_contrast_pair": self.any_ok,
            "record_status": dict(self.record_status.most_common()),
            "not_fluent": sum(f[Status.NOT_FLUENT.value] for f in self.failures.values()),
            "refusals": {k: self.refusals[k] for k in REFUSAL_KINDS if self.refusals[k]},
            "ace_retries": self.ace_retries,
            "specs": [
                {
                    "spec": spec,
                    "expansion": expand_pair(spec),
                    "transformed": self.ok[spec],
                    "coverage": self.ok[spec] / n,
                    "labels": dict(self.labels[spec].most_common()),
                    "failures": dict(self.failures[spec].most_common()),
                    "reasons": [{"status": status, "reason": reason, "count": count}
                                for (status, reason), count in self.reasons[spec].most_common()],
                    "tailor": self.tailor.to_json().get(spec),
                }
                for spec in self.specs
            ],
        }

    def _not_fluent(self) -> str:
        """The outputs lost because every verified candidate had a defect, if any."""
        n = sum(f[Status.NOT_FLUENT.value] for f in self.failures.values())
        return (f"; {n} transform(s) not_fluent (every verified candidate had a defect; "
                "--allow-defects outputs them)") if n else ""

    def _refused(self) -> str:
        """The refused transforms by kind (unexplained edit, property changed, ...), if any."""
        kinds = [f"{k} {self.refusals[k]}" for k in REFUSAL_KINDS if self.refusals[k]]
        return f"\nrefused transforms by kind: {', '.join(kinds)}" if kinds else ""

    def _retried(self) -> str:
        """This run's ACE retries, if any."""
        counts = self.ace_retries
        failed = counts.get("items_failed_on_every_attempt", 0)
        if not (counts.get("items_retried") or failed):
            return ""
        return (f"\nACE retries this run (ACE died, not by LIT's doing): "
                f"{counts.get('items_retried', 0)} item(s) retried on fresh processes, "
                f"{counts.get('retries', 0)} extra attempt(s); "
                f"{failed} item(s) failed on every attempt (ace_error)")

    def format(self) -> str:
        """A plain-text table: one row per spec, then every failure reason under it, whole."""
        n = max(1, self.records)
        width = max([len(s) for s in self.specs] + [4])
        lines = [
            f"{self.records} records; {self.any_ok} ({100 * self.any_ok / n:.1f}%) with at "
            "least one contrast pair; record status: "
            + ", ".join(f"{k} {v}" for k, v in self.record_status.most_common())
            + self._not_fluent() + self._refused() + self._retried(),
            f"{'spec':<{width}}  {'transformed':>11}  {'coverage':>8}  expansion / labels",
        ]
        for spec in self.specs:
            ok = self.ok[spec]
            labels = ", ".join(f"{k} {v}" for k, v in self.labels[spec].most_common())
            lines.append(f"{spec:<{width}}  {ok:>11}  {100 * ok / n:>7.1f}%  "
                         f"= {expand_pair(spec)}")
            lines.append(f"{'':<{width}}  {'':>11}  {'':>8}  labels: {labels or '-'}")
            if tailor := self.tailor.line(spec):
                lines.append(f"{'':<{width}}  {'':>11}  {'':>8}  {tailor}")
            for (status, reason), count in self.reasons[spec].most_common():
                lines.append(f"{'':<{width}}  {count:>11}  {'':>8}  {status}: {reason}")
        return "\n".join(lines)
