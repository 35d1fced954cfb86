"""The report's "Counterfactual audit" section, from `lit audit`'s records (docs/audit.md): the
edits by kind, the share named, agreement of the claimed labels with the rules' predictions
with 95% Wilson intervals per edit kind, side and rule, and the rows to review."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from lit.audit.summary import summarize
from lit.report.html import interval_cell, table

#: Rows to review listed in the section (all are in OUTPUT.review.jsonl).
LISTED = 50


def is_audit_record(record: dict) -> bool:
    """True for a record `lit audit` wrote."""
    return isinstance(record, dict) and "claimed_label" in record and "prediction" in record


def _agreement(title: str, groups: dict[str, dict]) -> str:
    rows = [[f"<code>{escape(str(g))}</code>", interval_cell(f)] for g, f in groups.items()]
    return (f"<h3>{escape(title)}</h3>"
            + (table(["group", "claimed = predicted %"], rows) if rows else "<p>–</p>"))


def _texts(record: dict) -> str:
    parts = []
    for side, text in record["edited"].items():
        old = (record["original"] or {}).get(side)
        shown = escape(text or "")
        if old is not None and old != text:
            shown = f"<s>{escape(old)}</s><br>{shown}"
        parts.append(f"{escape(side)}: {shown}")
    return "<br>".join(parts)


def _predicted(prediction: dict) -> str:
    return (f"{escape(str(prediction['label']))} "
            f"<code>{escape(str(prediction['rule']))}</code>")


def _review(records: Sequence[dict], ids: Sequence[str]) -> str:
    by_id = {r["id"]: r for r in records}
    shown = [by_id[i] for i in ids[:LISTED] if i in by_id]
    if not shown:
        return "<p>No claimed label contradicts the rules' prediction.</p>"
    rows = [[escape(r["id"]), _texts(r), escape(", ".join(r["kinds"]) or "–"),
             escape(str(r["original_label"])), escape(str(r["claimed_label"])),
             _predicted(r["prediction"]), escape(r["prediction"]["rationale"] or "")]
            for r in shown]
    more = (f"<p>The first {len(shown)} of {len(ids)}; all are in the run's "
            "<code>OUTPUT.review.jsonl</code>.</p>" if len(ids) > len(shown) else "")
    return (more + table(["id", "original → edited", "edits", "original", "claimed",
                          "predicted (rule)", "why"], rows))


def audit_section(records: Sequence[dict]) -> str:
    """HTML for a `lit audit` run's records."""
    s = summarize(records)
    kinds = [[f"<code>{escape(k)}</code>", str(n), str(s["rows_by_kind"].get(k, 0))]
             for k, n in s["edits_by_kind"].items()]
    head = (f"<p>{s['rows']} edited rows, {s['audited']} audited "
            f"({escape(', '.join(f'{k} {v}' for k, v in s['status'].items()))}). "
            f"Edits named with no residue: {interval_cell(s['named'])}; a label predicted: "
            f"{interval_cell(s['predicted'])}; the claimed label agrees with it: "
            f"{interval_cell(s['agreement'])} (percentages with their 95% Wilson interval and "
            "counts).</p>")
    no_label = [[escape(k), str(v)] for k, v in s["no_label"].items()]
    return (head + "<h3>Edits by kind</h3>"
            + table(["kind", "edits", "rows"], kinds, numeric={1, 2})
            + _agreement("Agreement per edit kind", s["agreement_by_kind"])
            + _agreement("Agreement per edited side", s["agreement_by_side"])
            + _agreement("Agreement per label rule", s["agreement_by_rule"])
            + "<h3>Why no label</h3>" + table(["reason", "rows"], no_label, numeric={1})
            + "<h3>Claimed labels that contradict the edit, to review</h3>"
            + "<p>For a second opinion: <code>lit judge serve OUTPUT.review.jsonl</code>.</p>"
            + _review(records, s["disagreements"]))
