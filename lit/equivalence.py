"""The one MRS equivalence used by the fake ACE, the oracle tests and pipeline verification.

Two MRSs are equivalent when a bijection between their EPs and variables preserves:
predicates (normalized; an unknown verb's by its lemma, below) and constant arguments, every
role, HCONS, ICONS, which variable is TOP and which is INDEX, and the values of TENSE, PROG,
PERF, SF and MOOD on every event variable (so on the index event, and on the verb's own event
in an ERG 2025 it-cleft, whose INDEX is a bare event).

Ignored: variable names, character spans (LNK), surface strings, EP order, and the properties
of non-event variables (PERS, NUM, IND, PT, GEND): a change of agreement alone is not a
transformation LIT makes, and re-parses of a realization differ in them harmlessly (e.g.
``sheep``). The one exception is a pronoun's GEND, compared as part of its EP: *she* and *he*
are different words, and the gender module (issue 14) changes nothing else in "I saw her."

An unknown verb (the ERG's generic predicate for a word outside its lexicon, with a verb tag:
``_dressed/vbd_u_unknown``) spells its form and tag, so a realization that inflects it otherwise
re-parses to another predicate (*dressed* -> *will dress*: ``_dress/vb_u_unknown``). Two unknown
verbs are the same predicate when their lemmas agree (lit.morphology.verb_forms, the regular
analysis the stand-ins of lit.pipeline.standins inflect by; the word itself where there is
none); their tense and aspect are compared on their events as for any verb
(lit.mrs.graph.predicate_label).
"""

from __future__ import annotations

import warnings

import networkx as nx
from delphin.mrs import MRS
from networkx.algorithms.isomorphism import DiGraphMatcher

from lit.mrs.graph import EVENT_PROPERTIES, labelled_graph, same_graph

__all__ = ["EVENT_PROPERTIES", "EquivalenceIndex", "equivalent", "fingerprint", "to_graph"]


def to_graph(m: MRS) -> nx.DiGraph:
    """The labelled graph whose isomorphism classes are the equivalence classes
    (lit.mrs.graph.labelled_graph as a networkx graph)."""
    nodes, edges = labelled_graph(m)
    g = nx.DiGraph()
    for node, label in nodes.items():
        g.add_node(node, label=label)
    for (u, v), label in edges.items():
        g.add_edge(u, v, label=label)
    return g


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
    """True if *a* and *b* are equivalent in the sense of this module's docstring.
    lit.mrs.graph.same_graph decides almost every pair (different labels or refined colours;
    an isomorphism found by pairing the EPs in order); only a pair it leaves open gets
    networkx's isomorphism search."""
    if len(a.rels) != len(b.rels) or len(a.hcons) != len(b.hcons) or len(a.icons) != len(b.icons):
        return False
    decided = same_graph(a, b)
    if decided is not None:
        return decided
    ga, gb = to_graph(a), to_graph(b)
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
