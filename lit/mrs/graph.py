"""The labelled graph of an MRS that lit.equivalence compares, and a canonical form of it, both
without networkx: the fake ACE answers a recorded MRS by its form in a fresh process per
generation, and importing networkx there would cost more than everything else it does.

The graph has a node per EP and per variable and an edge per role, HCONS and ICONS; its labels
carry exactly what lit.equivalence's docstring says equivalent MRSs share.
"""

from __future__ import annotations

import hashlib

from delphin import predicate, variable
from delphin.mrs import EP, MRS

from lit.morphology import UNKNOWN_WORD, VERB_TAGS, verb_forms
from lit.mrs.parts import properties

#: Event properties that must agree between equivalent MRSs.
EVENT_PROPERTIES: tuple[str, ...] = ("TENSE", "PROG", "PERF", "SF", "MOOD")

Node = tuple[str, object]
#: An MRS's labelled graph: node labels, edge labels (`labelled_graph`).
Graph = tuple[dict[Node, str], dict[tuple[Node, Node], str]]


def _event_signature(m: MRS, var: str) -> str:
    props = properties(m, var)
    return "|".join(f"{p}={props.get(p, '')}" for p in EVENT_PROPERTIES)


def _gend(m: MRS, var: str) -> str:
    return properties(m, var).get("GEND", "")


def _variable_label(m: MRS, var: str) -> str:
    vtype = variable.type(var)
    label = f"var:{vtype}"
    if vtype == "e":
        label += "{" + _event_signature(m, var) + "}"
    if var == m.top:
        label += ":TOP"
    if var == m.index:
        label += ":INDEX"
    return label


def span(ep: EP) -> tuple[int, int] | None:
    """The characters of the sentence *ep* stands for, or None when it has no span."""
    return (ep.cfrom, ep.cto) if ep.lnk is not None and ep.cfrom >= 0 else None


def is_verb(ep: EP) -> bool:
    """Whether *ep*'s predicate is a surface verb (``_sit_v_1``)."""
    return predicate.is_surface(ep.predicate) and predicate.split(ep.predicate)[1] == "v"


def predicate_label(pred: str) -> str:
    """*pred* as lit.equivalence compares it: normalized, and an unknown verb's predicate by
    its lemma (lit.morphology.verb_forms), whatever its form and tag: ``_dressed/vbd_u_unknown``
    and ``_dress/vb_u_unknown`` are both ``_dress/v_u_unknown``."""
    pred = predicate.normalize(pred)
    m = UNKNOWN_WORD.match(pred) if pred.endswith("_u_unknown") else None
    if m is None or m["tag"].lower() not in VERB_TAGS:
        return pred
    forms = verb_forms(m["word"], m["tag"])
    return f"_{forms['vb'] if forms else m['word']}/v_u_unknown"


def _ascii(label: str) -> str:
    """An injective ASCII spelling: networkx hashes labels as ASCII, and CARGs need not be."""
    return label.encode("unicode_escape").decode("ascii")


def labelled_graph(m: MRS) -> Graph:
    """Node labels and edge labels of *m*'s graph (nodes ``("v", var)`` and ``("ep", i)``):
    its isomorphism classes are the equivalence classes."""
    variables = set(m.variables)
    for ep in m.rels:
        variables.add(ep.label)
        variables.update(v for r, v in ep.args.items() if r != "CARG")
    for hc in m.hcons:
        variables.update((hc.hi, hc.lo))
    for ic in m.icons:
        variables.update((ic.left, ic.right))
    for extra in (m.top, m.index):
        if extra:
            variables.add(extra)
    nodes: dict[Node, str] = {("v", var): _variable_label(m, var) for var in variables}
    edges: dict[tuple[Node, Node], str] = {}
    for i, ep in enumerate(m.rels):
        node = ("ep", i)
        pred = predicate_label(ep.predicate)
        if ep.carg is not None:
            pred += f"({ep.carg})"
        if pred == "pron":  # a pronoun's GEND is its word: she and he differ (gender=swap)
            pred += "{" + _gend(m, ep.args.get("ARG0", "")) + "}"
        nodes[node] = f"ep:{pred}"
        edges[node, ("v", ep.label)] = "LBL"
        for role, value in ep.args.items():
            if role != "CARG":
                edges[node, ("v", value)] = role.upper()
    for hc in m.hcons:
        edges[("v", hc.hi), ("v", hc.lo)] = f"hcons:{hc.relation}"
    icons: dict[tuple[Node, Node], list[str]] = {}
    for ic in m.icons:
        icons.setdefault((("v", ic.left), ("v", ic.right)), []).append(f"icons:{ic.relation}")
    for pair, relations in icons.items():
        # a variable pair may also carry an HCONS edge, and several ICONS (focus and topic)
        old = [edges[pair]] if pair in edges else []
        edges[pair] = ",".join(old + sorted(relations))
    return {node: _ascii(label) for node, label in nodes.items()}, edges


def _colours(nodes: dict[Node, str], edges: dict[tuple[Node, Node], str]) -> dict[Node, str]:
    """Colour refinement (Weisfeiler-Leman) until the classes stop splitting: a node's colour
    is a hash of its label and, round by round, of its edges' labels and neighbours' colours,
    so isomorphic graphs get the same colours."""
    out: dict[Node, list[tuple[str, Node]]] = {n: [] for n in nodes}
    into: dict[Node, list[tuple[str, Node]]] = {n: [] for n in nodes}
    for (u, v), label in edges.items():
        out[u].append((label, v))
        into[v].append((label, u))
    colour = dict(nodes)
    classes = len(set(colour.values()))
    while True:
        refined = {n: hashlib.sha1(repr((colour[n], sorted((lb, colour[v]) for lb, v in out[n]),
                                         sorted((lb, colour[u]) for lb, u in into[n])))
                                   .encode("utf-8")).hexdigest() for n in nodes}
        if len(set(refined.values())) == classes:
            return refined
        colour, classes = refined, len(set(refined.values()))


def canonical_form(m: MRS) -> str:
    """A spelling of *m*'s labelled graph with its nodes numbered by colour, ties broken by
    EP and variable order. Equal forms mean equivalent MRSs (the numbering is a label- and
    edge-preserving bijection); equivalent MRSs almost always have equal forms, but not always
    (a tie broken differently), so a different form proves nothing."""
    nodes, edges = labelled_graph(m)
    colour = _colours(nodes, edges)
    order = sorted(nodes, key=lambda n: (colour[n], n[0], str(n[1])))
    number = {n: i for i, n in enumerate(order)}
    spelled = sorted((number[u], number[v], label) for (u, v), label in edges.items())
    return repr((len(m.rels), len(m.hcons), len(m.icons), [nodes[n] for n in order], spelled))


def invariant(m: MRS) -> str:
    """A hash of *m*'s refined colours: equal for equivalent MRSs, so a different one proves
    two MRSs are not equivalent."""
    nodes, edges = labelled_graph(m)
    colours = sorted(_colours(nodes, edges).values())
    spelled = repr((len(m.rels), len(m.hcons), len(m.icons), colours))
    return hashlib.sha256(spelled.encode("utf-8")).hexdigest()


def _in_order(ga: Graph, gb: Graph) -> bool:
    """Does pairing *ga*'s EPs with *gb*'s in list order, and each variable through the edges
    that reach it, give a label- and edge-preserving bijection? Rewriting an MRS (a rule, a
    re-parse) mostly keeps its EP order, so this finds the isomorphism of most equivalent
    pairs at once."""
    nodes_a, edges_a = ga
    nodes_b, edges_b = gb
    out_b: dict[Node, dict[str, list[Node]]] = {}
    into_b: dict[Node, dict[str, list[Node]]] = {}
    for (u, v), label in edges_b.items():
        out_b.setdefault(u, {}).setdefault(label, []).append(v)
        into_b.setdefault(v, {}).setdefault(label, []).append(u)
    mapping = {n: n for n in nodes_a if n[0] == "ep"}
    grown = True
    while grown and len(mapping) < len(nodes_a):
        grown = False
        for (u, v), label in edges_a.items():
            if u in mapping and v not in mapping:
                found = out_b.get(mapping[u], {}).get(label, ())
                if len(found) == 1:
                    mapping[v], grown = found[0], True
            elif v in mapping and u not in mapping:
                found = into_b.get(mapping[v], {}).get(label, ())
                if len(found) == 1:
                    mapping[u], grown = found[0], True
    return (len(mapping) == len(nodes_a) and len(set(mapping.values())) == len(mapping)
            and all(nodes_b.get(mapping[n]) == label for n, label in nodes_a.items())
            and all(edges_b.get((mapping[u], mapping[v])) == label
                    for (u, v), label in edges_a.items()))


def same_graph(a: MRS, b: MRS) -> bool | None:
    """What *a* and *b* show without a search: False if their graphs' labels or refined
    colours differ (not equivalent), True if pairing their EPs in order extends to an
    isomorphism (equivalent), None if only an isomorphism search can tell."""
    ga, gb = labelled_graph(a), labelled_graph(b)
    if sorted(ga[0].values()) != sorted(gb[0].values()) or (
            sorted(ga[1].values()) != sorted(gb[1].values())):
        return False  # another label (a changed property, predicate or role) or count
    if _in_order(ga, gb):
        return True
    ca, cb = _colours(*ga), _colours(*gb)
    if sorted(ca.values()) != sorted(cb.values()):
        return False
    return None
