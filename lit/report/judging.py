"""The report's "Human judgements" section, from the JSON of `lit judge agree -o`."""

from __future__ import annotations

from html import escape

from lit.report.html import interval_cell, table


def _rows(group: list[dict], prefix: str = "") -> list[list[str]]:
    return [[escape(prefix + r["group"]), str(r["items"]), interval_cell(r["label"]),
             interval_cell(r["fluent"]), interval_cell(r["change"]), str(r["ties"])]
            for r in group]


def _kappa(question: str, ia: dict) -> str:
    if ia["kappa"] is None:
        return f"<li>{escape(question)}: no kappa ({escape(str(ia['note']))})</li>"
    name = "Cohen's" if ia["method"] == "cohen" else "Fleiss'"
    return (f"<li>{escape(question)}: {name} κ = {ia['kappa']:.3f} over {ia['items']} items "
            f"judged by all of {escape(', '.join(ia['annotators']))}</li>")


def _rejected(rejected: list[dict]) -> str:
    if not rejected:
        return "<p>The judges' majority overruled no label rule.</p>"
    rows = []
    for r in rejected:
        for ex in r["examples"]:
            sides = "<br>".join(f"{escape(s['role'])}: {escape(s['output'])}" for s in ex["sides"])
            notes = "; ".join(escape(j["notes"]) for j in ex["judges"].values() if j.get("notes"))
            rows.append([f"<code>{escape(r['label_rule'])}</code> ({r['rejected']} of {r['n']})",
                         escape(ex["spec"]), sides, escape(str(ex["rule_label"])),
                         escape(str(ex["majority"])), notes or "–"])
    return ("<h3>Label rules the judges overrule most, with examples</h3>"
            + table(["rule", "spec", "output pair", "rule label", "judges' label", "notes"], rows))


def judging_section(result: dict) -> str:
    """Rule labels against the judges' majority (with 95% Wilson intervals), fluency and
    change rates per spec and label rule, kappa, and the most overruled rules."""
    head = ["group", "items", "rule label = majority %", "fluent %", "change happened %", "ties"]
    rows = (_rows([result["overall"]]) + _rows(result["by_kind"])
            + _rows(result["by_spec"], "spec ") + _rows(result["by_rule"], "rule "))
    kappas = "".join(_kappa(q, ia) for q, ia in result["inter_annotator"].items())
    defs = "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>"
                   for k, v in result.get("definitions", {}).items())
    return (f"<p>{result['overall']['items']} of {result['sample_items']} sample items judged by "
            f"{escape(', '.join(result['annotators']) or 'nobody')}. Percentages with their 95% "
            "Wilson interval and counts.</p>"
            + table(head, rows, numeric={1, 5}) + f"<ul>{kappas}</ul>"
            + _rejected(result["rejected"])
            + f'<details><summary>Definitions</summary><ul class="small">{defs}</ul></details>')
