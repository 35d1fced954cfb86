"""The report's pair-shortcut section: ShortcutGrammar's Table 4 for `lit analyze --pairs`
(each aligned pair feature with its count, majority label and share, MI with its bootstrap
interval, the label counts and an example pair)."""

from __future__ import annotations

from html import escape

from lit.report.html import pct, short, table


def _mi(row: dict) -> str:
    ci = row.get("mi_ci")
    return f'{row["mi"]:.4f}' + (f" [{ci[0]:.4f}, {ci[1]:.4f}]" if ci else "")


def _example(row: dict) -> str:
    ex = (row.get("examples") or [None])[0]
    if ex is None:
        return ""
    return (f'{escape(ex["premise"])} <b>›</b> {escape(ex["hypothesis"])} '
            f'({short(ex["label"])})')


def shortcuts_section(analysis: dict) -> str:
    """The table of ranked pair features (empty if the analysis has none)."""
    rows = [[escape(r["feature"]), str(r["count"]), escape(r["majority_label"]),
             pct(r["majority_share"]), _mi(r),
             escape(", ".join(f"{short(k)} {v}" for k, v in r["labels"].items())), _example(r)]
            for r in analysis.get("pair_shortcuts", [])]
    if not rows:
        return ""
    intro = (f'<p>{analysis.get("pair_shortcut_pairs", 0)} pairs with both sides parsed and a '
             "gold label; features of the premise/hypothesis MRS alignment "
             "(docs/shortcuts.md), by mutual information with the label (95% bootstrap "
             "interval in brackets).</p>")
    return intro + table(["feature", "pairs", "majority label", "majority %", "MI (bits)",
                          "labels", "example"], rows, numeric={1, 3})
