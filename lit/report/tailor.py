"""The report's Tailor section (issue 15): per spec, closeness (token and MRS edit distance),
fluency (perplexity ratio output/original) and controllability (share verified), as
lit.pipeline.metrics computes them from the records; shown only when some spec applied."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from lit.pipeline.metrics import TailorMetrics
from lit.records import Record
from lit.report.html import table


def _fmt(x: float | None, pattern: str) -> str:
    return "–" if x is None else pattern.format(x)


def tailor_section(records: Sequence[Record]) -> str | None:
    """HTML for the metrics of *records*, or None if the rules applied to no pair."""
    metrics = TailorMetrics()
    for r in records:
        metrics.add(r)
    figures = metrics.to_json()
    if not figures:
        return None
    rows = [[f"<code>{escape(spec)}</code>", _fmt(m["closeness_tokens"], "{:.2f}"),
             _fmt(m["closeness_mrs"], "{:.2f}"), _fmt(m["fluency_ratio"], "{:.2f}"),
             _fmt(m["controllability"], "{:.1%}"), str(m["pairs"]["applied"])]
            for spec, m in figures.items()]
    head = ["spec", "tokens changed", "EPs changed", "fluency ratio", "verified", "pairs"]
    note = ("<p>Tailor's measures (Ross et al. 2022) over the pairs each spec's rules applied "
            "to: <b>closeness</b>, the mean token edit distance between original and output "
            "and the EPs in one MRS and not the other (only where the record holds the "
            "original MRS, e.g. <code>--self-pairs</code>); <b>fluency</b>, the perplexity "
            "ratio output / original under the word-frequency scorer (above 1 reads worse); "
            "<b>controllability</b>, the share realized and verified.</p>")
    return note + table(head, rows, numeric={1, 2, 3, 4, 5})
