"""The HTML cells and tables every section of the report is built from, apart from the
report's assembly (lit.report.build) so the sections it includes can share them."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from lit.labels.names import CODES, label_code


def interval_cell(figure: dict) -> str:
    """A rate with its 95% interval and counts (a lit.evaluate Wilson figure: rate, ci, hits,
    n) as a table cell; – when there is nothing to count."""
    if not figure["n"]:
        return "–"
    low, high = figure["ci"]
    return (f'{100 * figure["rate"]:.1f} <span class="small">[{100 * low:.1f}–{100 * high:.1f}]'
            f' {figure["hits"]}/{figure["n"]}</span>')


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f}"


def short(label: object) -> str:
    """E/N/C for a label, – for none (or no consensus), the escaped value if unknown."""
    try:
        code = label_code(label)
    except ValueError:
        return escape(str(label))
    return code if code in CODES else "–"


def table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric: set[int] = frozenset(),
          cls: str = "") -> str:
    """An HTML table; cells are already-escaped HTML."""
    th = "".join(f'<th class="num">{h}</th>' if i in numeric else f"<th>{h}</th>"
                 for i, h in enumerate(head))
    body = "".join(
        "<tr>" + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>"
                         for i, c in enumerate(row)) + "</tr>"
        for row in rows
    )
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'
