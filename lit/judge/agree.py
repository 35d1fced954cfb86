"""How far the judges agree with LIT (`lit judge agree`): per spec and per label rule, the
share of items whose rule label is the judges' majority label (the LIT paper's 79% / 92% /
76%), with 95% Wilson intervals; the share of judgements that call the output fluent and the
intended change made; agreement between the annotators; and the rules judges reject most.

Only complete judgements (all three questions answered) count. An item's majority label is
the label most of its judges chose; a tie gives no majority, and the item is left out of the
label agreement (and counted under `ties`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lit.evaluate.metrics import wilson_interval
from lit.judge.answers import Judgements, complete
from lit.judge.stats import inter_annotator

DEFINITIONS: dict[str, str] = {
    "items": "sample items with at least one complete judgement",
    "label": "items whose rule label is the judges' majority label, of the items with a rule "
    "label and a majority (a tie has none)",
    "fluent": "judgements that call the output fluent English, of all judgements",
    "change": "judgements that say the intended change happened, of all judgements",
    "label kept / label changed": "items whose rule label equals / differs from the original "
    "pair's label (the LIT paper's label-preserving and label-changing transformations)",
    "kappa": "Cohen's kappa for two annotators, Fleiss' kappa for more, over the items every "
    "annotator judged",
}


def _rate(hits: int, n: int) -> dict:
    rate = hits / n if n else None
    return {"hits": hits, "n": n, "rate": rate, "ci": wilson_interval(rate, n)}


def majority(labels: Sequence[str]) -> str | None:
    """The label most judges chose; None for no labels or a tie."""
    top = Counter(labels).most_common(2)
    if not top or (len(top) == 2 and top[0][1] == top[1][1]):
        return None
    return top[0][0]


def _views(items: Sequence[dict], judgements: Judgements) -> list[dict]:
    """Each judged item with its complete judgements, by annotator."""
    by_item: dict[str, dict[str, dict]] = {}
    for (who, item), answers in judgements.items():
        if complete(answers):
            by_item.setdefault(item, {})[who] = answers
    return [{"item": it, "judges": by_item[it["item"]]} for it in items if it["item"] in by_item]


def _row(group: str, views: Sequence[dict]) -> dict:
    agree = with_majority = ties = 0
    fluent = change = total = 0
    for v in views:
        answers = list(v["judges"].values())
        total += len(answers)
        fluent += sum(a["fluent"] == "yes" for a in answers)
        change += sum(a["change"] == "yes" for a in answers)
        top = majority([a["label"] for a in answers])
        if top is None:
            ties += 1
        elif v["item"]["label"] is not None:
            with_majority += 1
            agree += top == v["item"]["label"]
    return {"group": group, "items": len(views), "judgements": total, "ties": ties,
            "label": _rate(agree, with_majority), "fluent": _rate(fluent, total),
            "change": _rate(change, total)}


def _rejected(views: Sequence[dict], limit: int, examples: int) -> list[dict]:
    """The label rules whose labels judges overrule most, each with example items."""
    by_rule: dict[str, list[dict]] = {}
    for v in views:
        top = majority([a["label"] for a in v["judges"].values()])
        if v["item"]["label"] is not None and top is not None:
            by_rule.setdefault(str(v["item"]["label_rule"]), []).append(dict(v, majority=top))
    out = []
    for rule, vs in by_rule.items():
        wrong = [v for v in vs if v["majority"] != v["item"]["label"]]
        if wrong:
            out.append({
                "label_rule": rule, "rejected": len(wrong), "n": len(vs),
                "rate": len(wrong) / len(vs),
                "examples": [{
                    "item": v["item"]["item"], "spec": v["item"]["spec"],
                    "rule_label": v["item"]["label"], "majority": v["majority"],
                    "sides": [{k: s[k] for k in ("role", "original", "output")}
                              for s in v["item"]["sides"]],
                    "judges": {who: {q: a.get(q) for q in ("fluent", "change", "label", "notes")}
                               for who, a in sorted(v["judges"].items())},
                } for v in wrong[:examples]],
            })
    out.sort(key=lambda r: (-r["rate"], -r["rejected"], r["label_rule"]))
    return out[:limit]


def agreement(items: Sequence[dict], judgements: Judgements, *, limit: int = 5,
              examples: int = 3) -> dict:
    """The agreement figures of *judgements* on the sample *items* (see DEFINITIONS)."""
    views = _views(items, judgements)
    kinds: dict[str, list[dict]] = {}
    specs: dict[str, list[dict]] = {}
    rules: dict[str, list[dict]] = {}
    for v in views:
        it = v["item"]
        if it["label"] is not None and it["original_label"] is not None:
            kind = "label kept" if it["label"] == it["original_label"] else "label changed"
            kinds.setdefault(kind, []).append(v)
        specs.setdefault(it["spec"], []).append(v)
        rules.setdefault(str(it["label_rule"] or "–"), []).append(v)
    annotators = sorted({who for v in views for who in v["judges"]})
    inter = {}
    for question in ("label", "fluent", "change"):
        per = {who: {v["item"]["item"]: v["judges"][who][question] for v in views
                     if who in v["judges"]} for who in annotators}
        inter[question] = inter_annotator(per)
    return {
        "format": "lit-judge-agree",
        "sample_items": len(items),
        "annotators": annotators,
        "overall": _row("all", views),
        "by_kind": [_row(k, kinds[k]) for k in ("label kept", "label changed") if k in kinds],
        "by_spec": [_row(s, vs) for s, vs in sorted(specs.items())],
        "by_rule": [_row(r, vs) for r, vs in sorted(rules.items())],
        "inter_annotator": inter,
        "rejected": _rejected(views, limit, examples),
        "definitions": DEFINITIONS,
    }


def _cell(r: dict) -> str:
    if not r["n"]:
        return "–"
    low, high = r["ci"]
    return f"{r['hits']}/{r['n']} {100 * r['rate']:.1f}% [{100 * low:.1f}–{100 * high:.1f}]"


def format_agreement(result: dict) -> str:
    """The figures as plain-text tables, for the terminal."""
    head = ("group", "items", "rule label = majority", "fluent", "change happened", "ties")
    rows = [head]
    for title, group in (("", [result["overall"]]), ("", result["by_kind"]),
                         ("spec ", result["by_spec"]), ("rule ", result["by_rule"])):
        rows += [(title + r["group"], str(r["items"]), _cell(r["label"]), _cell(r["fluent"]),
                  _cell(r["change"]), str(r["ties"])) for r in group]
    widths = [max(len(row[k]) for row in rows) for k in range(len(head))]
    lines = [f"Judged {result['overall']['items']} of {result['sample_items']} sample items; "
             f"annotators: {', '.join(result['annotators']) or 'none'}. "
             "Counts, % and 95% Wilson interval."]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    lines.append("")
    for question, ia in result["inter_annotator"].items():
        if ia["kappa"] is not None:
            name = "Cohen's" if ia["method"] == "cohen" else "Fleiss'"
            lines.append(f"{question}: {name} kappa {ia['kappa']:.3f} over {ia['items']} items "
                         f"judged by all of {', '.join(ia['annotators'])}")
        else:
            lines.append(f"{question}: no kappa ({ia['note']})")
    if result["rejected"]:
        lines += ["", "Label rules the judges overrule most:"]
    for r in result["rejected"]:
        lines.append(f"  {r['label_rule']}: {r['rejected']} of {r['n']} items")
        for ex in r["examples"]:
            sides = " | ".join(f"{s['role']}: {s['output']}" for s in ex["sides"])
            notes = "; ".join(j["notes"] for j in ex["judges"].values() if j.get("notes"))
            lines.append(f"    {ex['item']}: rule {ex['rule_label']}, judges {ex['majority']}: "
                         f"{sides}" + (f" (notes: {notes})" if notes else ""))
    return "\n".join(lines)
