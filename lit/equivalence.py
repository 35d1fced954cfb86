"""The one MRS equivalence used by the fake ACE, the oracle tests and pipeline verification.

Two MRSs are equivalent when a bijection between their EPs and variables preserves:
predicates (normalized) and constant arguments, every role, HCONS, ICONS, which variable is
TOP and which is INDEX, and the values of TENSE, PROG, PERF, SF and MOOD on every event
variable (so on the index event, and on the verb's own event in an ERG 2025 it-cleft, whose
INDEX is a bare event).

Ignored: variable names, character spans (LNK), surface strings, EP order, and the properties
of non-event variables (PERS, NUM, IND, PT, GEND): a change of agreement alone is not a
transformation LIT makes, and re-parses of a realization differ in them harmlessly (e.g.
``sheep``). The one exception is a pronoun's GEND, compared as part of its EP: *she* and *he*
are different words, and the gender module (issue 14) changes nothing else in "I saw her."
"""

from __future__ import annotations

import warnings

import networkx as nx
from delphin import predicate, variable
from delphin.mrs import MRS
from networkx.algorithms.isomorphism import DiGraphMatcher

#: Event properties that must agree between equivalent MRSs.
EVENT_PROPERTIES: tuple[str, ...] = ("TENSE", "PROG", "PERF", "SF", "MOOD")


def _event_signature(m: MRS, var: str) -> str:
    props = {k.upper(): str(v).lower() for k, v in m.variables.get(var, {}).items()}
    return "|".join(f"{p}={props.get(p, '')}" for p in EVENT_PROPERTIES)


def _gend(m: MRS, var: str) -> str:
    return next((str(v).lower() for k, v in m.variables.get(var, {}).items()
                 if k.upper() == "GEND"), "")


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


def to_graph(m: MRS) -> nx.DiGraph:
    """The labelled graph whose isomorphism classes are the equivalence classes."""
    g = nx.DiGraph()
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
    for var in variables:
        g.add_node(("v", var), label=_variable_label(m, var))
    for i, ep in enumerate(m.rels):
        node = ("ep", i)
        pred = predicate.normalize(ep.predicate)
        if ep.carg is not None:
            pred += f"({ep.carg})"
        if pred == "pron":  # a pronoun's GEND is its word: she and he differ (gender=swap)
            pred += "{" + _gend(m, ep.args.get("ARG0", "")) + "}"
        g.add_node(node, label=f"ep:{pred}")
        g.add_edge(node, ("v", ep.label), label="LBL")
        for role, value in ep.args.items():
            if role == "CARG":
                continue
            g.add_edge(node, ("v", value), label=role.upper())
    for hc in m.hcons:
        g.add_edge(("v", hc.hi), ("v", hc.lo), label=f"hcons:{hc.relation}")
    icons: dict[tuple, list[str]] = {}
    for ic in m.icons:
        icons.setdefault((("v", ic.left), ("v", ic.right)), []).append(f"icons:{ic.relation}")
    for (left, right), relations in icons.items():
        # a variable pair may also carry an HCONS edge, and several ICONS (focus and topic)
        old = [g.edges[left, right]["label"]] if g.has_edge(left, right) else []
        g.add_edge(left, right, label=",".join(old + sorted(relations)))
    for _, data in g.nodes(data=True):
        data["label"] = _ascii(data["label"])
    return g


def _ascii(label: str) -> str:
    """An injective ASCII spelling: networkx hashes labels as ASCII, and CARGs need not be."""
    return label.encode("unicode_escape").decode("ascii")


def _same_label(a: dict, b: dict) -> bool:
    return a.get("label") == b.get("label")


def fingerprint(m: MRS) -> str:
    """A hash equal for all equivalent MRSs (collisions possible: confirm with `equivalent`)."""
    return _graph_hash(to_graph(m))


def _graph_hash(g: nx.DiGraph) -> str:
    with warnings.catch_warnings():  # networkx warns that directed hashes changed in 3.5
        warnings.simplefilter("ignore", UserWarning)
        return nx.weisfeiler_lehman_graph_hash(
            g, node_attr="label", edge_attr="label", iterations=3
        )


def equivalent(a: MRS, b: MRS) -> bool:
    """True if *a* and *b* are equivalent in the sense of this module's docstring."""
    if len(a.rels) != len(b.rels) or len(a.hcons) != len(b.hcons) or len(a.icons) != len(b.icons):
        return False
    ga, gb = to_graph(a), to_graph(b)
    if ga.number_of_nodes() != gb.number_of_nodes() or ga.number_of_edges() != gb.number_of_edges():
        return False
    if _graph_hash(ga) != _graph_hash(gb):
        return False
    return DiGraphMatcher(ga, gb, node_match=_same_label, edge_match=_same_label).is_isomorphic()


class EquivalenceIndex:
    """Look up stored values by an MRS equivalent to the key (used by the fake ACE and dedupe)."""

    def __init__(self) -> None:
        self._buckets: dict[str, list[tuple[MRS, object]]] = {}

    def add(self, key: MRS, value: object) -> None:
        self._buckets.setdefault(fingerprint(key), []).append((key, value))

    def get(self, key: MRS, default: object = None) -> object:
        for stored, value in self._buckets.get(fingerprint(key), ()):
            if equivalent(stored, key):
                return value
        return default

    def __len__(self) -> int:
        return sum(len(b) for b in self._buckets.values())
