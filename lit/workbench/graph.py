"""An MRS drawn as its DMRS graph (PyDelphin's conversion) in inline SVG: nodes in sentence
order, links as labelled arcs above them, the nodes and links a rule changed highlighted
(class ``changed``). No JavaScript, no fonts or files from elsewhere."""

from __future__ import annotations

from collections.abc import Collection
from html import escape

from delphin import dmrs
from delphin.mrs import MRS

#: A link between two EPs (their indexes in the MRS), with DMRS's role and post-slash label.
LinkKey = tuple[int, str, str, int]

_CHAR_W, _PAD, _GAP, _NODE_H, _LEVEL_H = 7.0, 8.0, 14.0, 24.0, 16.0


def convert(m: MRS) -> dmrs.DMRS | None:
    """The DMRS of *m*, or None for an MRS PyDelphin cannot convert (no intrinsic variable
    property)."""
    try:
        return dmrs.from_mrs(m)
    except Exception:  # PyDelphin raises several types for MRSs it cannot convert
        return None


def links(d: dmrs.DMRS) -> set[LinkKey]:
    """The links of *d*, keyed by EP index (node ids are FIRST_NODE_ID + EP index)."""
    first = dmrs.FIRST_NODE_ID
    return {(lk.start - first, lk.role, lk.post, lk.end - first) for lk in d.links}


def _order(d: dmrs.DMRS) -> list[dmrs.Node]:
    """Nodes by character position; a node without one (a rule added it) next to a node it
    is linked to, else at the end."""
    by_id = {n.id: n for n in d.nodes}
    neighbours: dict[int, list[int]] = {}
    for lk in d.links:
        neighbours.setdefault(lk.start, []).append(lk.end)
        neighbours.setdefault(lk.end, []).append(lk.start)

    def key(n: dmrs.Node) -> tuple[float, int, int]:
        if n.cfrom >= 0:
            return (n.cfrom, 0, n.id)
        placed = [by_id[k].cfrom for k in neighbours.get(n.id, ()) if by_id[k].cfrom >= 0]
        return (min(placed), 1, n.id) if placed else (float("inf"), 1, n.id)

    return sorted(d.nodes, key=key)


def _node_text(n: dmrs.Node) -> str:
    return f'{n.predicate}("{n.carg}")' if n.carg is not None else n.predicate


def draw(d: dmrs.DMRS | None, changed_nodes: Collection[int], changed_links: Collection[LinkKey],
         title: str, ident: str) -> str:
    """*d* as an SVG figure; *changed_nodes* (EP indexes) and *changed_links* highlighted;
    *ident* makes the arrowhead's id unique in the page."""
    if d is None:
        return f'<p class="nograph">{escape(title)}: PyDelphin cannot convert this MRS to DMRS</p>'
    first = dmrs.FIRST_NODE_ID
    nodes = _order(d)
    x, boxes = 0.0, {}
    for n in nodes:
        w = len(_node_text(n)) * _CHAR_W + 2 * _PAD
        boxes[n.id] = (x, w)
        x += w + _GAP
    position = {n.id: k for k, n in enumerate(nodes)}
    spans = [abs(position[lk.start] - position[lk.end]) for lk in d.links]
    top = _LEVEL_H * (max(spans, default=0) + 1) + 12
    height, width = top + _NODE_H + 8, max(x - _GAP, 1)
    marker = f"arrow-{ident}"
    parts = [f'<svg class="dmrs" role="img" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'width="{width:.0f}" height="{height:.0f}" xmlns="http://www.w3.org/2000/svg">'
             f"<title>{escape(title)}</title><defs><marker id=\"{marker}\" viewBox=\"0 0 8 8\" "
             'refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
             '<path d="M0,0 L8,4 L0,8 z"/></marker></defs>']
    for lk, span in zip(d.links, spans):
        (x1, w1), (x2, w2) = boxes[lk.start], boxes[lk.end]
        a, b = x1 + w1 / 2, x2 + w2 / 2
        lift = _LEVEL_H * (span + 1)
        cls = "link changed" if (lk.start - first, lk.role, lk.post, lk.end - first) \
            in changed_links else "link"
        label = f"{lk.role}/{lk.post}" if lk.role else lk.post
        parts.append(f'<g class="{cls}"><path d="M{a:.1f},{top:.1f} C{a:.1f},{top - lift:.1f} '
                     f'{b:.1f},{top - lift:.1f} {b:.1f},{top:.1f}" marker-end="url(#{marker})"/>'
                     f'<text x="{(a + b) / 2:.1f}" y="{top - 0.75 * lift - 2:.1f}" '
                     f'text-anchor="middle">{escape(label)}</text></g>')
    for n in nodes:
        x1, w = boxes[n.id]
        cls = "node changed" if n.id - first in changed_nodes else "node"
        marks = "".join(f" {name}" for name, nid in (("TOP", d.top), ("INDEX", d.index))
                        if nid == n.id)
        props = " ".join(f"{k}: {v}" for k, v in (n.properties or {}).items())
        parts.append(f'<g class="{cls}"><title>{escape(_node_text(n) + marks)}'
                     f'{escape(" [" + props + "]") if props else ""}</title>'
                     f'<rect x="{x1:.1f}" y="{top:.1f}" width="{w:.1f}" height="{_NODE_H}" '
                     f'rx="4"/><text x="{x1 + w / 2:.1f}" y="{top + 16:.1f}" '
                     f'text-anchor="middle">{escape(_node_text(n))}</text></g>')
    parts.append("</svg>")
    return (f'<figure class="graph"><figcaption>{escape(title)}</figcaption>{"".join(parts)}'
            "</figure>")
