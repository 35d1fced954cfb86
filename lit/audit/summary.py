"""What a `lit audit` run found, over its records (docs/audit.md, "Summary"): the edits by
kind, the share of rows whose edits LIT names, how often the claimed label agrees with the
label the rules predict (with 95% Wilson intervals, overall, per edit kind, per edited side
and per rule), and the rows whose claimed label contradicts what the edit implies, as items
`lit judge serve` takes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from lit.evaluate.metrics import wilson_interval
from lit.tasks.profile import TaskProfile

#: The kind a row counts under when its edits name nothing (an unchanged MRS).
NO_EDIT = "none"
#: Disagreements the printed summary lists.
SHOWN = 10


def rate(hits: int, n: int) -> dict:
    """{hits, n, rate, ci}: a proportion with its 95% Wilson interval (None when n is 0)."""
    value = hits / n if n else None
    interval = wilson_interval(value, n)
    return {"hits": hits, "n": n, "rate": value, "ci": list(interval) if interval else None}


def _agreement(records: Sequence[dict], key) -> dict[str, dict]:
    """Agreement per group (*key*(record) gives a record's groups) over predicted rows."""
    hits: Counter = Counter()
    total: Counter = Counter()
    for r in records:
        if r["agrees"] is None:
            continue
        for group in key(r):
            total[group] += 1
            hits[group] += bool(r["agrees"])
    return {g: rate(hits[g], total[g]) for g in sorted(total, key=lambda g: (-total[g], g))}


def row_kinds(record: dict) -> list[str]:
    """The distinct edit kinds of a row, in order (`none` for a row whose edits name none)."""
    return list(dict.fromkeys(record["kinds"])) or [NO_EDIT]


def _no_label_reason(record: dict) -> str:
    """A no-label reason's head, for counting: without the side it names, numbers as N, the
    part before the first ': ', ' (' or ' beside '."""
    reason = record["prediction"].get("reason") or "no reason"
    side, sep, rest = reason.partition(": ")
    if sep and side in record["edited_sides"]:
        reason = rest
    reason = re.sub(r"\d+", "N", reason)
    return re.split(r": | \(| beside ", reason, maxsplit=1)[0]


def summarize(records: Iterable[dict]) -> dict:
    """The summary of *records* (lit audit's records, in any order)."""
    records = list(records)
    ok = [r for r in records if r["status"] == "ok"]
    edited = [r for r in ok if r["edited_sides"]]
    named = [r for r in edited if r["named"]]
    predicted = [r for r in ok if r["prediction"]["label"] is not None]
    judged = [r for r in predicted if r["agrees"] is not None]
    disagreements = [r for r in judged if r["agrees"] is False]
    kinds: Counter = Counter(k for r in ok for k in r["kinds"])
    return {
        "rows": len(records),
        "status": dict(Counter(r["status"] for r in records).most_common()),
        "audited": len(ok),
        "edited": len(edited),
        "named": rate(len(named), len(edited)),
        "edits_by_kind": dict(kinds.most_common()),
        "rows_by_kind": dict(Counter(k for r in edited for k in row_kinds(r)).most_common()),
        "predicted": rate(len(predicted), len(ok)),
        "agreement": rate(len(judged) - len(disagreements), len(judged)),
        "agreement_by_kind": _agreement(ok, row_kinds),
        "agreement_by_side": _agreement(ok, lambda r: ["+".join(r["edited_sides"]) or NO_EDIT]),
        "agreement_by_rule": _agreement(ok, lambda r: [r["prediction"]["rule"]]),
        "no_label": dict(Counter(_no_label_reason(r) for r in ok
                                 if r["prediction"]["label"] is None).most_common()),
        "disagreements": [r["id"] for r in disagreements],
        # a claimed change of label on a row whose text is the original's is the data's error
        "unedited_disagreements": [r["id"] for r in disagreements if not r["edited_sides"]],
    }


def _pct(figure: dict) -> str:
    if not figure["n"]:
        return "–"
    low, high = figure["ci"]
    return (f"{100 * figure['rate']:.1f}% [{100 * low:.1f}–{100 * high:.1f}] "
            f"({figure['hits']}/{figure['n']})")


def format_summary(summary: dict, records: Sequence[dict] = ()) -> str:
    """The summary as the lines `lit audit` prints; *records* give the listed disagreements
    their sentences."""
    lines = [f"rows: {summary['rows']} ({', '.join(f'{k} {v}' for k, v in summary['status'].items())})",
             f"edits named (no residue): {_pct(summary['named'])} of edited rows",
             f"label predicted: {_pct(summary['predicted'])} of audited rows",
             f"claimed label agrees with the prediction: {_pct(summary['agreement'])}",
             "edits by kind: " + (", ".join(f"{k} {v}" for k, v in
                                          summary["edits_by_kind"].items()) or "none"),
             "agreement per edit kind (95% Wilson interval):"]
    lines += [f"  {k}: {_pct(v)}" for k, v in summary["agreement_by_kind"].items()] or ["  –"]
    lines.append("agreement per label rule:")
    lines += [f"  {k}: {_pct(v)}" for k, v in summary["agreement_by_rule"].items()] or ["  –"]
    by_id = {r["id"]: r for r in records}
    shown = [by_id[i] for i in summary["disagreements"] if i in by_id][:SHOWN]
    if summary["disagreements"]:
        unedited = summary.get("unedited_disagreements") or []
        note = (f" ({len(unedited)} with nothing edited: the label changed, the text did not)"
                if unedited else "")
        lines.append(f"claimed label contradicts the prediction: {len(summary['disagreements'])} "
                     "rows" + note + (f", first {len(shown)}:" if shown else ""))
        lines += [f"  {r['id']}: {r['prediction']['spec']} claims {r['claimed_label']}, "
                  f"{r['prediction']['rule']} gives {r['prediction']['label']}"
                  + ("; nothing was edited" if not r["edited_sides"] else "")
                  for r in shown]
    return "\n".join(lines)


def _described(record: dict) -> str:
    """What was edited, per side, in the diff's words."""
    parts = []
    for side, sd in record["edits"].items():
        edits = (sd.get("diff") or {}).get("edits") or []
        parts.append(f"{side}: " + ("; ".join(e["detail"] or e["kind"] for e in edits)
                                    or "no named edit"))
    return "; ".join(parts) or "nothing edited"


def review_items(records: Iterable[dict], profile: TaskProfile) -> list[dict]:
    """The rows whose claimed label contradicts the prediction, as `lit judge` sample items
    (lit.judge.sample.ITEM_KEYS): the judge sees the original and edited texts and gives a
    label; the item's rule label is LIT's prediction, `claimed_label` the writer's."""
    items = []
    for r in records:
        if r["agrees"] is not False:
            continue
        sides = [{"role": s, "original": (r["original"] or {}).get(s) or r["edited"][s],
                  "output": r["edited"][s], "changed": s in r["edited_sides"]}
                 for s in profile.sides]
        pred = r["prediction"]
        item = {"item": f"{r['id']}::audit", "id": r["id"], "spec": pred["spec"] or "o",
                "status": r["status"], "label": pred["label"], "label_rule": pred["rule"],
                "label_rationale": pred["rationale"], "original_label": r["original_label"],
                "intended": _described(r), "sides": sides, "labels": list(profile.labels.names),
                "claimed_label": r["claimed_label"]}
        items.append(item)
    return items
