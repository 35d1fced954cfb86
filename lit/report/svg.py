"""Inline SVG charts (no JavaScript, no network): horizontal grouped and stacked bars.

Colours come from the report's stylesheet through the classes s0, s1, ... so charts and
legends match."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

_LABEL_W, _BAR_W, _ROW_GAP, _BAR_H = 150, 420, 10, 14


def _legend(series: Sequence[str], classes: Sequence[str] | None = None) -> str:
    classes = classes or [f"s{k}" for k in range(len(series))]
    items = "".join(
        f'<span class="key"><span class="swatch {c}"></span>{escape(name)}</span>'
        for c, name in zip(classes, series)
    )
    return f'<div class="legend">{items}</div>'


def _figure(title: str, legend: str, svg_parts: Sequence[str]) -> str:
    return f"<figure><figcaption>{escape(title)}</figcaption>{legend}{''.join(svg_parts)}</figure>"


def _svg_open(title: str, height: float) -> str:
    width = _LABEL_W + _BAR_W + 70
    return (
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
    )


def _row_label(name: str, y: float) -> str:
    return f'<text class="axis" x="{_LABEL_W - 8}" y="{y}" text-anchor="end">{escape(name)}</text>'


def grouped_bars(
    title: str,
    rows: Sequence[tuple[str, Sequence[float | None]]],
    series: Sequence[str],
    percent: bool = True,
) -> str:
    """One group of bars per row, one bar per series; values are fractions when *percent*."""
    top = max([v for _, vals in rows for v in vals if v is not None] + [1e-9])
    scale = 1.0 if percent else top
    group_h = len(series) * _BAR_H + _ROW_GAP
    parts = [_svg_open(title, len(rows) * group_h + 10)]
    for r, (name, values) in enumerate(rows):
        y0 = 5 + r * group_h
        parts.append(_row_label(name, y0 + len(series) * _BAR_H / 2 + 4))
        for k, value in enumerate(values):
            y = y0 + k * _BAR_H
            text = "n/a" if value is None else (
                f"{100 * value:.1f}%" if percent else f"{value:g}"
            )
            w = 0 if value is None else max(_BAR_W * value / scale, 1)
            parts.append(
                f'<rect class="s{k}" x="{_LABEL_W}" y="{y + 1}" width="{w:.1f}" '
                f'height="{_BAR_H - 2}"><title>{escape(name)} · {escape(series[k])}: {text}'
                f'</title></rect><text class="value" x="{_LABEL_W + w + 4:.1f}" '
                f'y="{y + _BAR_H - 3}">{text}</text>'
            )
    parts.append("</svg>")
    return _figure(title, _legend(series), parts)


def stacked_bars(
    title: str,
    rows: Sequence[tuple[str, dict[str, int]]],
    categories: Sequence[str],
    classes: Sequence[str] | None = None,
) -> str:
    """One bar per row split by category counts, scaled to the largest row total; *classes*
    are the CSS classes colouring each category (default s0, s1, ...)."""
    classes = classes or [f"s{k}" for k in range(len(categories))]
    top = max([sum(c.values()) for _, c in rows] + [1])
    row_h = _BAR_H + _ROW_GAP
    parts = [_svg_open(title, len(rows) * row_h + 10)]
    for r, (name, counts) in enumerate(rows):
        y = 5 + r * row_h
        parts.append(_row_label(name, y + _BAR_H - 3))
        x = float(_LABEL_W)
        for k, cat in enumerate(categories):
            n = counts.get(cat, 0)
            if not n:
                continue
            w = _BAR_W * n / top
            parts.append(
                f'<rect class="{classes[k]}" x="{x:.1f}" y="{y}" width="{w:.1f}" height="{_BAR_H}">'
                f"<title>{escape(name)} · {escape(cat)}: {n}</title></rect>"
            )
            x += w
        total = sum(counts.values())
        parts.append(f'<text class="value" x="{x + 4:.1f}" y="{y + _BAR_H - 3}">{total}</text>')
    parts.append("</svg>")
    return _figure(title, _legend(categories, classes), parts)
