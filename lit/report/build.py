"""Assemble the report: one HTML file with inline CSS, JS and SVG, readable offline."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timezone
from html import escape, unescape
from importlib import resources
from pathlib import Path
from string import Template

from lit import __version__
from lit.evaluate.metrics import record_counts, wilson_interval
from lit.evaluate.records import (
    ORIGINAL,
    contrast_items,
    failure_counts,
    file_task,
    original_item,
)
from lit.io.output import write_text_atomic
from lit.records import Record, Side, Transform, as_records
from lit.report.audit import audit_section
from lit.report.augment import augmentation_section
from lit.worddiff import highlight
from lit.report.fairness import fairness_section
from lit.report.html import pct, short, table
from lit.report.judging import judging_section
from lit.report.shortcuts import mined_section, shortcuts_section
from lit.report.svg import grouped_bars, stacked_bars
from lit.report.tailor import tailor_section
from lit.report.wording import human_reason
from lit.status import Status
from lit.tasks import TaskProfile

_STATUS_ORDER = [s.value for s in Status]


def _status_classes(statuses: Sequence[str]) -> list[str]:
    """CSS classes giving each status one colour in every chart (st-other if unknown)."""
    return [f"st-{s}" if s in _STATUS_ORDER else "st-other" for s in statuses]


def _resource(name: str) -> str:
    return resources.files("lit.report").joinpath(name).read_text(encoding="utf-8")


def _section(anchor: str, title: str, html: str) -> tuple[str, str, str]:
    return anchor, title, f'<section id="{anchor}"><h2>{escape(title)}</h2>{html}</section>'


def _specs(records: Sequence[Record]) -> list[str]:
    return list(dict.fromkeys(str(t.spec) for r in records for t in r.transforms))


def _summary(records: Sequence[Record], evaluation: dict | None) -> str:
    counts = record_counts(records)
    n_tr = sum(counts["transforms_by_status"].values())
    by_status = counts["records_by_status"]
    unparsed = sum(by_status.get(s.value, 0) for s in (Status.INVALID_INPUT, Status.NO_PARSE))
    cards = [
        (counts["records"], "input records"),
        (counts["records"] - unparsed, "records parsed (not invalid_input or no_parse)"),
        (f'{counts["transforms_by_status"].get("ok", 0)} / {n_tr}', "transforms ok / requested"),
        (len(_specs(records)), "pair specs"),
        (sum(1 for r in records if any(t.ok for t in r.transforms)),
         "records with ≥ 1 contrast pair"),
    ]
    failed = failure_counts(records)
    if failed:
        cards.append((sum(failed.values()), "records failed: " + ", ".join(
            f"{status} {n}" for status, n in sorted(failed.items()))))
    if evaluation:
        cards.append((pct(evaluation["original"]["accuracy"]), "model accuracy on originals (%)"))
    return '<div class="cards">' + "".join(
        f'<div class="card"><div class="num">{escape(str(v))}</div>'
        f'<div class="lbl">{escape(k)}</div></div>'
        for v, k in cards
    ) + "</div>"


def _outcomes(records: Sequence[Record]) -> str:
    per_spec: dict[str, Counter] = {s: Counter() for s in _specs(records)}
    for r in records:
        for t in r.transforms:
            per_spec[str(t.spec)][str(t.status)] += 1
    if not per_spec:
        return '<p class="empty">No transforms in this file.</p>'
    present = {s for c in per_spec.values() for s in c}
    cats = [s for s in _STATUS_ORDER if s in present] + sorted(present - set(_STATUS_ORDER))
    chart = stacked_bars("Transform outcomes per spec", list(per_spec.items()), cats,
                         _status_classes(cats))
    rows = [[escape(spec), *(str(c.get(s, 0)) for s in cats), str(sum(c.values()))]
            for spec, c in per_spec.items()]
    return chart + table(["spec", *map(escape, cats), "total"], rows,
                         numeric=set(range(1, len(cats) + 2)))


def _evaluation(evaluation: dict) -> str:
    specs = evaluation["specs"]
    head = ["spec", "kind", "#pairs", "Acc@Ori", "Acc@Ctr", "Consistency", "Same prediction",
            "Contrast consistency"]
    rows = [[escape(r["spec"]), escape(r["kind"].replace("_", "-")), str(r["n"]),
             _ci(r["acc_ori"], r["n"]), _ci(r["acc_ctr"], r["n"]), _ci(r["consistency"], r["n"]),
             _ci(r["same_prediction"], r["n"]), _ci(r["contrast_consistency"], r["n"])]
            for r in specs]
    o = evaluation["overall"]
    rows.append(["<b>all</b>", "", str(o["n"]), _ci(o["acc_ori"], o["n"]),
                 _ci(o["acc_ctr"], o["n"]), _ci(o["consistency"], o["n"]),
                 _ci(o["same_prediction"], o["n"]), _ci(o["contrast_consistency"], o["n"])])
    who = evaluation.get("model") or evaluation.get("predictions_file") or "predictions"
    chart = grouped_bars(
        "Accuracy and consistency per spec",
        [(r["spec"], (r["acc_ori"], r["acc_ctr"], r["consistency"])) for r in specs],
        ["Acc@Ori", "Acc@Ctr", "Consistency"],
    )
    defs = "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>"
                   for k, v in evaluation.get("definitions", {}).items())
    return (f'<p>Model: <code>{escape(str(who))}</code>. Percentages, with the 95% Wilson '
            'interval of each in brackets (small n gives wide intervals).</p>'
            + table(head, rows, numeric={2, 3, 4, 5, 6, 7}) + chart
            + f'<details><summary>Definitions</summary><ul class="small">{defs}</ul></details>')


def _ci(rate: float | None, n: int) -> str:
    """A percentage with its 95% Wilson interval: "83.33 <small>[43.6–97.0]</small>"."""
    interval = wilson_interval(rate, n)
    if interval is None:
        return pct(rate)
    low, high = interval
    return f'{pct(rate)} <span class="small">[{100 * low:.1f}–{100 * high:.1f}]</span>'


def _rate_chart(title: str, by_label: dict, keys: Sequence[str]) -> str:
    rows = [(k, tuple(stats.get("rates", {}).get(k) for stats in by_label.values())) for k in keys]
    return grouped_bars(title, rows, list(by_label))


def _analysis(analysis: dict) -> str:
    parts = []
    roles = analysis.get("roles", {})
    cov_rows = []
    for role, block in roles.items():
        for label, stats in {"all": block["all"], **block.get("by_label", {})}.items():
            cov_rows.append([escape(role), escape(label), str(stats["sentences"]),
                             str(stats["parsed"]), pct(stats["coverage"])])
    parts.append("<h3>Parse coverage</h3>" + table(
        ["role", "gold label", "sentences", "parsed", "coverage %"], cov_rows, numeric={2, 3, 4}))
    keys = analysis.get("rate_keys", [])
    for role, block in roles.items():
        groups = {"all": block["all"], **block.get("by_label", {})}
        parts.append(_rate_chart(f"{role.capitalize()} phenomena (share of parsed sentences)",
                                 groups, keys))
        tenses = sorted({t for g in groups.values() for t in g.get("tense", {})})
        parts.append(f"<h3>{escape(role.capitalize())} tense (parsed sentences)</h3>" + table(
            ["tense", *map(escape, groups)],
            [[escape(t), *(str(g.get("tense", {}).get(t, 0)) for g in groups.values())]
             for t in tenses], numeric=set(range(1, len(groups) + 1))))
    pairs = analysis.get("tense_pairs", {})
    if pairs:
        labels = list(pairs.get("by_label", {}))
        combos = sorted(pairs.get("all", {}), key=lambda k: -pairs["all"][k])
        parts.append("<h3>Premise › hypothesis tense pairs</h3>" + table(
            ["premise › hypothesis", "all", *map(escape, labels)],
            [[escape(c), str(pairs["all"][c]),
              *(str(pairs["by_label"][lab].get(c, 0)) for lab in labels)] for c in combos],
            numeric=set(range(1, len(labels) + 2))))
    shortcuts = analysis.get("shortcuts", [])
    if shortcuts:
        rows = [[escape(s["feature"]), f'{s["mi"]:.4f}', str(s["count"]),
                 escape(s["majority_label"]), pct(s["majority_share"]),
                 escape(", ".join(f"{short(k)} {v}" for k, v in s["labels"].items()))]
                for s in shortcuts]
        parts.append("<h3>Label-shortcut candidates (mutual information with the gold label)</h3>"
                     + table(["feature", "MI (bits)", "pairs", "majority label", "majority %",
                              "labels"], rows, numeric={1, 2, 4}))
    return "".join(parts)


def _top_rows(counts: Counter, limit: int, width: int) -> list[list[str]]:
    """Rows for the *limit* commonest keys, then one row summing the rest."""
    rows = [[*map(escape, key), str(n)] for key, n in counts.most_common(limit)]
    rest = counts.most_common()[limit:]
    if rest:
        rows.append([f"<i>… {len(rest)} more</i>", *[""] * (width - 2),
                     str(sum(n for _, n in rest))])
    return rows


def _worded(rows: list[list[str]], column: int) -> list[list[str]]:
    """*rows* with the reason in *column* put in plain words (lit.report.wording) above the
    raw reason, which stays for searching and for reports to the developers."""
    out = []
    for row in rows:
        raw = unescape(row[column])
        words = human_reason(raw)
        cell = row[column] if words is None else (
            f'{escape(words)}<br><span class="small raw">{row[column]}</span>')
        out.append([*row[:column], cell, *row[column + 1:]])
    return out


def _failures(records: Sequence[Record], limit: int = 20) -> str:
    rec = Counter((str(r.status), str(r.reason or "–"))
                  for r in records if r.status != Status.OK.value)
    tr = Counter((str(t.spec), str(t.status), str(t.reason or "–"))
                 for r in records for t in r.transforms if not t.ok)
    if not rec and not tr:
        return '<p class="empty">No failures.</p>'
    out = ""
    if tr:
        by_status: dict[str, Counter] = {}
        for (spec, status, _), n in tr.items():
            by_status.setdefault(spec, Counter())[status] += n
        cats = [s for s in _STATUS_ORDER if any(s in c for c in by_status.values())]
        out += "<h3>Transforms</h3>" + stacked_bars(
            "Failed transforms per spec, by status", list(by_status.items()), cats,
            _status_classes(cats),
        ) + table(["spec", "status", "reason", "transforms"],
                  _worded(_top_rows(tr, limit, 4), 2), numeric={3})
    if rec:
        statuses = Counter()
        for (status, _), n in rec.items():
            statuses[status] += n
        summary = ", ".join(f"{escape(s)} {n}" for s, n in statuses.most_common())
        out += (f"<h3>Records without a contrast pair</h3><p>{summary}</p>"
                "<details><summary>Reasons</summary>"
                + table(["status", "reason", "records"], _worded(_top_rows(rec, limit, 3), 1),
                        numeric={2})
                + "</details>")
    return out


def _prediction_cell(pred: str | None, gold: str | None) -> str:
    if pred is None:
        return "–"
    cls = "right" if pred == gold else "wrong"
    return f'<span class="pred {cls}">{short(pred)}</span>'


def _ranking_table(side: Side) -> str:
    """One side's candidates as the ranking saw them: surface, score, closeness, defects."""
    ranking = side.ranking or ()
    if not ranking:
        cands = side.candidates or ()
        return ("<p class=\"small\">candidates: " + escape(" | ".join(cands)) + "</p>"
                if cands else '<p class="small">no candidates recorded</p>')
    rows = [[("<b>" + escape(r.get("surface", "")) + "</b>" if r.get("surface") ==
              side.output else escape(r.get("surface", ""))),
             escape(f'{r["score"]:.3f}' if isinstance(r.get("score"), float) else
                    str(r.get("score"))),
             escape(str(r.get("distance"))), escape(", ".join(r.get("defects") or []) or "–")]
            for r in ranking]
    return table(["candidate (chosen in bold)", "score", "distance", "defects"], rows,
                 numeric={1, 2})


def _drill_down(t: Transform, sides: Sequence[str]) -> str:
    """Why this pair: each side's candidates, their scores, the reason the chosen one won,
    and the transformed MRS, folded away until asked for."""
    parts = []
    for role in sides:
        side = t.side(role) or Side()
        because = side.chosen_because
        mrs = side.mrs
        parts.append(
            f"<h4>{role}</h4>"
            + (f'<p class="small">chosen because: {escape(because)}</p>' if because else "")
            + _ranking_table(side)
            + (f"<details><summary>MRS</summary><pre>{escape(mrs)}</pre></details>"
               if mrs else "")
        )
    return ('<details class="drill"><summary>candidates</summary>' + "".join(parts)
            + "</details>")


def _examples(records: Sequence[Record], evaluation: dict | None, page: int,
              task: TaskProfile) -> str:
    """Every contrast pair, one table per spec, *page* rows per page (report.js pages them),
    each with its label rule (rationale on hover) and a drill-down to its candidates."""
    preds = {}
    if evaluation:
        preds = {(str(p["id"]), str(p["spec"])): task.labels.name(p["prediction"])
                 for p in evaluation.get("predictions", [])}
    by_spec: dict[str, list] = {}
    for r in records:
        orig = original_item(r, task=task)
        if orig is None:
            continue
        oks = [t for t in r.transforms if t.ok]
        # contrast_items keeps the ok transforms
        for it, t in zip(contrast_items(r, task=task), oks):
            by_spec.setdefault(it.spec, []).append((orig, it, t))
    if not by_spec:
        return '<p class="empty">No transformed pairs.</p>'
    out = []
    for spec, pairs in by_spec.items():
        rows = []
        for orig, it, t in pairs:
            marked = [highlight(old, new) for old, new in zip(orig.texts, it.texts)]
            p_o, p_c = preds.get((it.id, ORIGINAL)), preds.get(it.key)
            error = (p_o is not None and p_o != orig.gold) or (p_c is not None and p_c != it.gold)
            rationale = escape(t.label_rationale or "", quote=True)
            cells = [escape(it.id), "<br>".join(old for old, _ in marked),
                     "<br>".join(new for _, new in marked),
                     f"{short(orig.gold)} → {short(it.gold)}",
                     f'<span title="{rationale}">{escape(it.label_rule or "–")}</span>',
                     _drill_down(t, task.sides)]
            if preds:
                cells.append(
                    f"{_prediction_cell(p_o, orig.gold)} → {_prediction_cell(p_c, it.gold)}"
                )
            rows.append(f'<tr data-error="{int(error)}">' + "".join(f"<td>{c}</td>" for c in cells)
                        + "</tr>")
        sides = "<br>".join(map(escape, task.sides))
        head = ["id", f"original {sides}", f"transformed {sides}",
                "label", "label rule", "why this one"] + (["model (ori → ctr)"] if preds else [])
        controls = ('<div class="controls"><input type="search" placeholder="filter rows">'
                    + ('<label><input type="checkbox"> model errors only</label>' if preds else "")
                    + f'<span class="small"><span class="shown">{len(rows)}</span> of '
                    f"{len(rows)} pairs match</span>"
                    '<span class="pager"><button type="button" class="prev">‹ previous</button> '
                    '<span class="page"></span> '
                    '<button type="button" class="next">next ›</button></span></div>')
        table = (f'<table class="examples" data-page-size="{max(1, page)}"><thead><tr>'
                 + "".join(f"<th>{h}</th>" for h in head)
                 + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
        out.append(f"<details open><summary>{escape(spec)} ({len(pairs)} pairs)</summary>"
                   f"<div>{controls}{table}</div></details>")
    return "".join(out)


def _label_rules(records: Sequence[Record]) -> str:
    """Each label rule that labelled a pair: its rationale, how many pairs, for which specs."""
    used: dict[str, tuple[str, Counter]] = {}
    for r in records:
        for t in r.transforms:
            if t.ok and t.label_rule:
                _, specs = used.setdefault(str(t.label_rule),
                                           (t.label_rationale or "", Counter()))
                specs[str(t.spec)] += 1
    if not used:
        return '<p class="empty">No pair was labelled.</p>'
    rows = [[f"<code>{escape(rule)}</code>", escape(rationale or "–"),
             str(sum(specs.values())), escape(", ".join(f"{k} {v}" for k, v in
                                                        specs.most_common()))]
            for rule, (rationale, specs) in sorted(used.items())]
    return ("<p>Each new pair's label comes from one rule (docs/labelrules.md); its rationale "
            "says why that label follows.</p>"
            + table(["rule", "rationale", "pairs", "per spec"], rows, numeric={2}))


def _run(meta: dict) -> str:
    """What made the file (its ``.meta.json``, lit.io.meta): versions, hashes, options, times."""
    grammar, ace = meta.get("grammar") or {}, meta.get("ace") or {}
    scorer, rules = meta.get("scorer") or {}, meta.get("label_rules") or {}
    rows = [
        ["command", f"lit {escape(str(meta.get('command')))} (LIT "
                    f"{escape(str(meta.get('lit_version')))})"],
        ["grammar", f"ERG {escape(str(grammar.get('version')))} "
                    f"<code>{escape(str(grammar.get('path')))}</code><br>"
                    f"<span class=\"small\">SHA-256 {escape(str(grammar.get('sha256')))}</span>"],
        ["ACE", f"{escape(str(ace.get('version')))} <code>{escape(str(ace.get('path')))}</code>"],
        ["scorer", escape(f"{scorer.get('name')}" + (f" ({scorer['model']})"
                                                     if scorer.get("model") else ""))],
        ["specs", escape(", ".join(meta.get("specs") or []) or "–")],
        ["label rules", f"<code>{escape(str(rules.get('source')))}</code><br><span "
                        f"class=\"small\">SHA-256 {escape(str(rules.get('sha256')))}</span>"],
        ["started / ended", escape(f"{meta.get('started')} / {meta.get('ended')}")],
    ]
    rows += [[escape(name), f"<code>{escape(str(entry.get('path')))}</code><br>"
              f"<span class=\"small\">SHA-256 {escape(str(entry.get('sha256')))}</span>"]
             for name, entry in (meta.get("inputs") or {}).items()]
    options = "".join(f"<li><code>{escape(k)}</code>: {escape(json.dumps(v))}</li>"
                      for k, v in (meta.get("options") or {}).items())
    replayed = ('<p><b>REPLAYED:</b> made by <code>lit demo</code> from recorded ACE answers, '
                "not by a live grammar.</p>" if (meta.get("options") or {}).get("replayed")
                else "")
    return (replayed + table(["", ""], rows)
            + f'<details><summary>Options</summary><ul class="small">{options}</ul></details>')


def evaluation_mismatch(evaluation: dict, records: Sequence[Record]) -> str | None:
    """Why an evaluation (JSON of `lit evaluate -o`) is not of these records, or None: its
    predictions must name ids of these records, and its specs must be theirs."""
    ids = {r.id for r in records}
    foreign = [p for p in evaluation.get("predictions", []) if str(p.get("id")) not in ids]
    if foreign:
        total = len(evaluation.get("predictions", []))
        return (f"{len(foreign)} of its {total} predictions are for ids not in this file "
                f"(e.g. {foreign[0].get('id')!r})")
    specs = set(_specs(records))
    unknown = [r["spec"] for r in evaluation.get("specs", []) if r["spec"] not in specs]
    if unknown:
        return f"it scores spec(s) {', '.join(map(repr, unknown))} that this file does not have"
    return None


def build_report(
    records: Sequence[Record | dict],
    evaluation: dict | None = None,
    analysis: dict | None = None,
    *,
    title: str = "LIT contrast set report",
    source: str | None = None,
    examples: int = 50,
    augmentation: dict | None = None,
    meta: dict | None = None,
    judging: dict | None = None,
    task: TaskProfile | None = None,
    audit: Sequence[dict] | None = None,
) -> str:
    """The report as one HTML string; *augmentation* is the JSON of `lit augment --report`,
    *meta* the records' run metadata (lit.io.meta.read_meta); *examples* rows per page;
    *judging* the JSON of `lit judge agree -o`; *task* the profile of records of a task
    that is not built in (default: the task the records name); *audit* the records of a
    `lit audit` run. *records* are Records (lit.records) or their dicts."""
    records = list(as_records(records))
    sections = [_section("summary", "Summary", _summary(records, evaluation)
                         + _outcomes(records))]
    if meta:
        sections.append(_section("run", "How this file was made", _run(meta)))
    if evaluation:
        sections.append(_section("evaluation", "Model evaluation", _evaluation(evaluation)))
        if fair := fairness_section(evaluation):
            sections.append(_section("fairness", "Fairness per demographic axis", fair))
    if judging:
        sections.append(_section("judging", "Human judgements", judging_section(judging)))
    if analysis:
        sections.append(_section("analysis", "Dataset analysis", _analysis(analysis)))
    if analysis and analysis.get("pair_shortcuts"):
        sections.append(_section("shortcuts", "Pair shortcuts", shortcuts_section(analysis)))
    if analysis and analysis.get("mined"):
        sections.append(_section("mined", "Mined shortcuts", mined_section(analysis)))
    if augmentation:
        sections.append(_section("augmentation", "Augmentation",
                                 augmentation_section(augmentation)))
    if audit:
        sections.append(_section("audit", "Counterfactual audit", audit_section(audit)))
    if tailor := tailor_section(records):
        sections.append(_section("tailor", "Closeness, fluency, controllability", tailor))
    sections.append(_section("failures", "Failure breakdown", _failures(records)))
    sections.append(_section("labelrules", "Label rules", _label_rules(records)))
    sections.append(_section("examples", "Examples per spec", _examples(
        records, evaluation, examples, file_task(records, task))))
    return _page(sections, title, f"{len(records)} records", source)


def build_audit_report(records: Sequence[dict], *, title: str = "LIT counterfactual audit",
                       source: str | None = None) -> str:
    """A report of a `lit audit` run alone: its section, as one HTML page."""
    return _page([_section("audit", "Counterfactual audit", audit_section(records))], title,
                 f"{len(records)} audited rows", source)


def _page(sections: list[tuple[str, str, str]], title: str, count: str,
          source: str | None) -> str:
    nav = "".join(f'<a href="#{a}">{escape(t)}</a>' for a, t, _ in sections)
    meta = count + (f" from <code>{escape(source)}</code>" if source else "")
    return Template(_resource("template.html")).substitute(
        title=escape(title), meta=meta, nav=nav, body="\n".join(h for _, _, h in sections),
        css=_resource("report.css"), js=_resource("report.js"), version=__version__,
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    )


def write_report(path: Path, records: Sequence[Record | dict], **kwargs) -> None:
    """Build the report and replace *path* with it only once it is complete."""
    write_text_atomic(path, build_report(records, **kwargs))
