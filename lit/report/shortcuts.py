"""The report's pair-shortcut sections: ShortcutGrammar's Table 4 for `lit analyze --pairs`
(each aligned pair feature with its count, majority label and share, MI with its bootstrap
interval, the label counts and an example pair), and the mined shortcuts of `lit analyze
--mine` (significant groups, the hand-made features' ranks, the n-gram baseline)."""

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
    if "sentence" in ex:
        return f'{escape(ex["sentence"])} ({short(ex["label"])})'
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


def _ngram(row: dict) -> str:
    ng = row.get("ngram")
    if not ng:
        return ""
    explains = ", explains it" if ng["explained"] else ""
    return f'{escape(ng["feature"])} ({ng["jaccard"]:.2f}{explains})'


def _mined_row(r: dict) -> list[str]:
    same, covers = r.get("same_items"), r.get("covers")
    name = escape(r["feature"]) + (f'<br><small>same items: {escape(", ".join(same))}</small>'
                                   if same else "") + (
        f'<br><small>covers: {escape(", ".join(covers))}</small>' if covers else "")
    return [str(r["rank"]), name, str(r["count"]), escape(r["majority_label"]),
            pct(r["majority_share"]), _mi(r), f'{r["q"]:.2g}', _ngram(r), _example(r)]


def mined_section(analysis: dict) -> str:
    """The mined shortcuts: each significant group's best features, then the hand-made
    features' ranks and the n-gram baseline (empty without `lit analyze --mine`)."""
    mined = analysis.get("mined")
    if not mined:
        return ""
    head = ["rank", "feature", "items", "majority label", "majority %", "MI (bits)", "q",
            "closest n-gram (Jaccard)", "example"]
    rows = []
    for g in mined["groups"]:
        rows.append([f'<b>{escape(g["group"])}</b>', escape(g["family"]),
                     f'{g["significant"]} significant', "", "", "", "", "", ""])
        rows += [_mined_row(r) for r in g["members"]]
    intro = (f'<p>{mined["items"]} labelled items; {mined["tested"]} of {mined["candidates"]} '
             f'candidates found in at least {mined["min_support"]} items were tested, '
             f'{mined["significant"]} are significant at a false-discovery rate of '
             f'{mined["alpha"]} (docs/mining.md).</p>')
    handmade = table(["feature", "rank", "MI (bits)", "q", "significant"],
                     [[escape(h["feature"]), str(h["rank"]), f'{h["mi"]:.4f}', f'{h["q"]:.2g}',
                       "yes" if h["significant"] else "no"] for h in mined["handmade"]],
                     numeric={1})
    ngrams = table(head[:-2] + ["example"],
                   [_mined_row(r)[:7] + [_example(r)] for r in mined["ngrams"]["top"]],
                   numeric={0, 2, 4})
    leading = ""
    if len(mined["top"]) < 10 and mined.get("leading"):
        leading = ("<h3>Best mined candidates, significant or not</h3>"
                   + table(head, [_mined_row(r) for r in mined["leading"]], numeric={0, 2, 4}))
    return (intro + table(head, rows, numeric={0, 2, 4}) + leading
            + "<h3>Hand-made features</h3>"
            + handmade + f'<h3>n-gram baseline ({mined["ngrams"]["significant"]} of '
            f'{mined["ngrams"]["tested"]} significant)</h3>' + ngrams)
