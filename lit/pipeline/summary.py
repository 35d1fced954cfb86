"""The closing summary of `lit nli`: per spec, pairs transformed, coverage, failures by reason."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from lit.status import Status

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _reason_key(reason: str | None) -> str:
    """A reason with quoted sentences elided, so failures group by kind."""
    return _QUOTED.sub("'…'", reason or "").strip()[:120]


class Summary:
    """Counts over `lit nli` records; `add` each record, then `format()`."""

    def __init__(self) -> None:
        self.records = 0
        self.record_status: Counter = Counter()
        self.any_ok = 0
        self.ok: Counter = Counter()
        self.labels: dict[str, Counter] = defaultdict(Counter)
        self.failures: dict[str, Counter] = defaultdict(Counter)
        self.reasons: dict[str, Counter] = defaultdict(Counter)
        self.specs: dict[str, None] = {}

    def add(self, record: dict) -> None:
        self.records += 1
        self.record_status[record["status"]] += 1
        ok_here = False
        for t in record["transforms"]:
            spec = t["spec"]
            self.specs.setdefault(spec)
            if t["status"] == Status.OK:
                self.ok[spec] += 1
                self.labels[spec][t["label"] or "no label"] += 1
                ok_here = True
            else:
                self.failures[spec][t["status"]] += 1
                self.reasons[spec][(t["status"], _reason_key(t["reason"]))] += 1
        self.any_ok += ok_here

    def format(self, top_reasons: int = 2) -> str:
        n = max(1, self.records)
        width = max([len(s) for s in self.specs] + [4])
        lines = [
            f"{self.records} records; {self.any_ok} ({100 * self.any_ok / n:.1f}%) with at "
            "least one contrast pair; record status: "
            + ", ".join(f"{k} {v}" for k, v in self.record_status.most_common()),
            f"{'spec':<{width}}  transformed  coverage  labels / failures by reason",
        ]
        for spec in self.specs:
            ok = self.ok[spec]
            labels = ", ".join(f"{k} {v}" for k, v in self.labels[spec].most_common())
            lines.append(
                f"{spec:<{width}}  {ok:>11}  {100 * ok / n:>7.1f}%  {labels or '-'}"
            )
            if self.failures[spec]:
                lines.append(
                    f"{'':<{width}}  failures: "
                    + ", ".join(f"{k} {v}" for k, v in self.failures[spec].most_common())
                )
            for (status, reason), count in self.reasons[spec].most_common(top_reasons):
                lines.append(f"{'':<{width}}    {count:>6} {status}: {reason}")
        return "\n".join(lines)
