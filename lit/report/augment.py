"""The report's augmentation section: what `lit augment --report JSON` measured — the label
distribution and the shortcut features' mutual information with the label, before and after
augmentation, with bootstrap intervals (lit.augment.report)."""

from __future__ import annotations

from html import escape

from lit.augment.report import verdict
from lit.report.html import table
from lit.report.svg import grouped_bars


def _mi(m: dict) -> str:
    if m.get("mi") is None:
        return "–"
    return f"{m['mi']:.4f} [{m['ci'][0]:.4f}, {m['ci'][1]:.4f}]"


def augmentation_section(report: dict) -> str:
    """HTML for one `lit augment --report` JSON."""
    dist = report["labels"]
    labels = list(dist["before"])
    totals = {w: sum(dist[w].values()) or 1 for w in ("before", "after")}
    chart = grouped_bars(
        "Label distribution before and after augmentation",
        [(label, [dist[w][label] / totals[w] for w in ("before", "after")]) for label in labels],
        ["before", "after"])
    rows = [[escape(s["feature"]), f"{s['before']['count']}", _mi(s["before"]),
             f"{s['after']['count']}", _mi(s["after"]), verdict(s["before"], s["after"])]
            for s in report["shortcuts"]]
    head = ["feature", "pairs before", "MI before (bits) [CI]", "pairs after",
            "MI after (bits) [CI]", "after augmentation"]
    parsed = report["parsed_pairs"]
    note = (f"<p>{report['pairs']['before']} pairs before, {report['pairs']['after']} after "
            f"({parsed['before']} and {parsed['after']} with both sides parsed); "
            f"{100 * report['confidence']:.0f}% percentile bootstrap intervals over "
            f"{report['bootstrap']} resamples. Features: the top shortcut candidates of the "
            "data before augmentation, as <code>lit analyze</code> ranks them.</p>")
    return chart + note + table(head, rows, numeric={1, 2, 3, 4})
