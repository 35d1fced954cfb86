"""`lit rules try --html OUT`: one self-contained page (no script, no network) with the counts,
and per example the source and result MRS, both as DMRS graphs with what the rule changed
highlighted, the edits, the sentences realized and the rule blocks that fired."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit import __version__
from lit.io.output import atomic_text
from lit.mrs import Method, align
from lit.workbench.graph import convert, draw, links
from lit.workbench.mrsdiff import changed_eps, edits
from lit.workbench.render import SpecRun
from lit.workbench.trial import APPLIED, Outcome

_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 2em 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { border-bottom: 1px solid #ccc; } h3 { margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; }
td, th { border: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; }
article { border: 1px solid #ddd; border-radius: 6px; padding: .2em 1em 1em; margin: 1em 0; }
article.refusal { border-color: #e0c070; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; font-size: 12px; }
pre.edits { background: #f2f8ee; }
.fired, .realized { margin: .2em 0; } .meta { color: #666; }
.mrs { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.mrs > div { min-width: 0; }
figure.graph { margin: .5em 0; overflow-x: auto; }
figcaption { font-weight: 600; font-size: 12px; color: #555; }
svg.dmrs { font: 11px sans-serif; }
svg.dmrs .node rect { fill: #fff; stroke: #666; }
svg.dmrs .node.changed rect { fill: #ffe08a; stroke: #b35c00; stroke-width: 2; }
svg.dmrs .link path { fill: none; stroke: #888; }
svg.dmrs .link text { fill: #555; font-size: 10px; }
svg.dmrs .link.changed path { stroke: #c0392b; stroke-width: 2; }
svg.dmrs .link.changed text { fill: #c0392b; font-weight: 600; }
svg.dmrs marker path { fill: #888; }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header><h1>{title}</h1><p class="meta">{meta}</p></header>
<main>
{body}
</main>
<footer class="meta">lit {version}. Highlighted in the graphs: in the source, the nodes and links
the rule removed or rewrote; in the result, those it added or rewrote.</footer>
</body>
</html>
"""


def _label(o: Outcome) -> str:
    sentence = f" — {escape(o.item.sentence)}" if o.item.sentence else ""
    return f"{escape(o.item.id)}{sentence}"


def _mrs(m: MRS) -> str:
    return escape(simplemrs.encode(m, indent=True))


def _graphs(source: MRS, result: MRS, ident: str) -> str:
    """The source and result DMRS, with what changed highlighted on each side."""
    alignment = align(source, result, Method.COPY)
    before, after = changed_eps(source, result, alignment)
    a, b = convert(source), convert(result)
    la = links(a) if a is not None else set()
    lb = links(b) if b is not None else set()
    back = {j: i for i, j in alignment.pairs.items()}
    gone = {lk for lk in la if (alignment.pairs.get(lk[0]), lk[1], lk[2],
                                alignment.pairs.get(lk[3])) not in lb}
    new = {lk for lk in lb if (back.get(lk[0]), lk[1], lk[2], back.get(lk[3])) not in la}
    return (draw(a, before, gone, "source DMRS", f"{ident}-s")
            + draw(b, after, new, "result DMRS", f"{ident}-r"))


def _applied(o: Outcome, run: SpecRun, ident: str) -> str:
    result = o.results[0]
    fired = "".join(f'<p class="fired">fired: <code>{escape(f)}</code></p>' for f in o.fired)
    side = run.realized.get(o.item.id)
    realized = ""
    if side is not None:
        shown = (f"{escape(side.output)} ({'verified' if side.verified else 'not verified'})"
                 if side.output is not None else f"{side.status}: {escape(side.reason or '')}")
        others = ", ".join(escape(c) for c in side.candidates or ())
        realized = (f'<p class="realized">realized: <strong>{shown}</strong>'
                    f'{"; candidates: " + others if others else ""}</p>')
    more = (f"<p>and {len(o.results) - 1} other output(s) (table values)</p>"
            if len(o.results) > 1 else "")
    return (f'<article class="example applied" id="{ident}"><h4>{_label(o)}</h4>{fired}'
            f'{realized}<pre class="edits">{escape(chr(10).join(edits(o.item.mrs, result)))}'
            f"</pre>{more}{_graphs(o.item.mrs, result, ident)}"
            f'<div class="mrs"><div><h5>source MRS</h5><pre>{_mrs(o.item.mrs)}</pre></div>'
            f"<div><h5>result MRS</h5><pre>{_mrs(result)}</pre></div></div></article>")


def _refused(o: Outcome, ident: str) -> str:
    fired = "".join(f'<p class="fired">fired: <code>{escape(f)}</code></p>' for f in o.fired)
    graph = draw(convert(o.item.mrs), (), (), "source DMRS", ident) if o.item.mrs else ""
    source = f"<h5>source MRS</h5><pre>{_mrs(o.item.mrs)}</pre>" if o.item.mrs else ""
    return (f'<article class="example refusal" id="{ident}"><h4>{_label(o)}</h4>'
            f"<p>{escape(o.kind)}: {escape(o.reason or '')}</p>{fired}{graph}{source}</article>")


def _summary(runs: Sequence[SpecRun]) -> str:
    rows = []
    for r in runs:
        s = r.summary
        for kind, tally in s.kinds.items():
            reasons = s.reasons.get(kind, {})
            rows.append(f"<tr><td>{escape(s.spec)}</td><td>{escape(kind)}</td>"
                        f'<td class="num">{tally.count:,}</td><td></td><td></td></tr>')
            rows += [f"<tr><td></td><td></td><td></td><td>{escape(reason)}</td>"
                     f'<td class="num">{t.count:,}</td></tr>' for reason, t in reasons.items()]
    return ('<section id="summary"><h2>Summary</h2><table class="counts"><thead><tr>'
            '<th>spec</th><th>outcome</th><th class="num">inputs</th><th>reason</th>'
            f'<th class="num">inputs</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
            "</section>")


def _changes(run: SpecRun) -> str:
    if run.changes is None:
        return ""
    rows = "".join(f"<tr><td>{escape(c.item.id)}</td><td>{escape(c.item.sentence or '')}</td>"
                   f"<td>{escape(c.how)}</td><td>{escape(c.detail)}</td></tr>"
                   for c in run.changes)
    return (f'<h4>changed against the old module: {len(run.changes):,}</h4><table class="changes">'
            "<thead><tr><th>input</th><th>sentence</th><th>change</th><th>detail</th></tr>"
            f"</thead><tbody>{rows}</tbody></table>")


def write(path: str | Path, title: str, meta: str, runs: Sequence[SpecRun], examples: int) -> None:
    """The page: the summary, then per spec its first *examples* applied inputs, one example
    per refusal reason, and the inputs changed against an older module."""
    parts = [_summary(runs), '<section id="examples"><h2>Examples</h2>']
    for k, run in enumerate(runs):
        parts.append(f"<h3>{escape(run.summary.spec)}</h3>")
        parts += [_applied(o, run, f"s{k}-a{n}") for n, o in enumerate(run.applied(examples))]
        parts += [_refused(t.example, f"s{k}-r{n}") for n, t in enumerate(
            t for kind, reasons in run.summary.reasons.items() for t in reasons.values()
            if t.example is not None and t.example.kind != APPLIED)]
        parts.append(_changes(run))
    parts.append("</section>")
    with atomic_text(path) as out:
        out.write(_PAGE.format(title=escape(title), meta=escape(meta), css=_CSS,
                               body="\n".join(parts), version=__version__))
