"""ShortcutGrammar-style pair features read off the alignment of a premise MRS with a
hypothesis MRS (lit.mrs.align, `Method.ROLES`; docs/shortcuts.md describes the algorithm, the
features and their limits).
"""

from __future__ import annotations

from delphin import predicate
from delphin.mrs import MRS

from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.lexicon import aligned_relation
from lit.mrs import ROLES, Alignment, Link, Method, align, ep_name, predicate_name, x_arg
from lit.phenomena import Phenomena, describe

EXPLETIVE = "_be_v_there"
#: Determiner classes: a change of class on an aligned entity is a feature ("a" > "the").
DETERMINERS = {
    "definite": {"_the_q", "def_explicit_q", "def_implicit_q", "_this_q_dem", "_that_q_dem",
                 "_those_q_dem", "_these_q_dem", "proper_q", "pronoun_q", "_both_q"},
    "indefinite": {"_a_q", "udef_q", "_some_q", "_some_q_indiv", "number_q", "_another_q",
                   "_any_q", "_several_q", "_many_q", "_few_q", "_a+few_q"},
    "universal": {"_every_q", "_all_q", "_each_q", "_each+and+every_q"},
    "negative": {"_no_q"},
}


NamedLink = tuple[Link, str | None, str | None]


def named_links(premise: MRS, hypothesis: MRS, a: Alignment) -> list[NamedLink]:
    """Each link of *a* with the names (`ep_name`) of its premise and hypothesis EPs."""
    return [(link, None if link.a is None else ep_name(premise.rels[link.a]),
             None if link.b is None else ep_name(hypothesis.rels[link.b])) for link in a.links]


def _determiner(m: MRS, x: str | None) -> str | None:
    q = next((e for e in m.rels if e.iv == x and e.is_quantifier()), None)
    if q is None:
        return None
    pred = predicate_name(q)
    return next((cls for cls, preds in DETERMINERS.items() if pred in preds), pred)


def _determiner_changes(premise: MRS, hypothesis: MRS, a: Alignment) -> set[str]:
    """``ROLE:det=P>H`` for each aligned pair of entities whose determiner class changed."""
    out = set()
    for link in a.links:
        if link.role in (*ROLES, "pp") and link.a is not None and link.b is not None:
            dp = _determiner(premise, premise.rels[link.a].iv)
            dh = _determiner(hypothesis, hypothesis.rels[link.b].iv)
            if dp and dh and dp != dh:
                out.add(f"{link.role}:det={dp}>{dh}")
    return out


def _role_changes(premise: MRS, hypothesis: MRS, a: Alignment) -> set[str]:
    """``ROLE:added`` / ``ROLE:deleted``: an x-argument only one main predication has."""
    verb = next((lk for lk in a.links if lk.role == "verb"), None)
    if verb is None or verb.a is None or verb.b is None:
        return set()
    pm, hm = premise.rels[verb.a], hypothesis.rels[verb.b]
    out = set()
    for role in ROLES:
        xp, xh = x_arg(pm, role), x_arg(hm, role)
        if xp and not xh:
            out.add(f"{role}:deleted")
        elif xh and not xp:
            out.add(f"{role}:added")
    return out


def _phenomena_features(p: Phenomena, h: Phenomena) -> set[str]:
    out: set[str] = set()
    if p.negated != h.negated:
        out.add("negation:added" if h.negated else "negation:removed")
    if p.modal != h.modal:
        out.add("modal:added" if p.modal is None else
                "modal:removed" if h.modal is None else "modal:changed")
    for name in ("tense", "prog", "perf", "voice"):
        a, b = getattr(p, name), getattr(h, name)
        if a != b and a is not None and b is not None:
            out.add(f"{name}:{a}>{b}")
    if p.index_predicate == EXPLETIVE:
        out.add("expletive:premise")
    if h.index_predicate == EXPLETIVE:
        out.add("expletive:hypothesis")
    return out


def _hypothesis_only(h: Phenomena) -> set[str]:
    """Features of the hypothesis alone (the hypothesis-only baseline's cues)."""
    flags = {"negated": h.negated, "modal": h.modal is not None, "passive": h.passive,
             "cleft": h.cleft, "question": h.question, "prog": h.prog == "+"}
    values = {"tense": h.tense, "index": h.index_predicate}
    return ({f"hypothesis:{k}" for k, v in flags.items() if v}
            | {f"hypothesis:{k}={v}" for k, v in values.items() if v})


def _surface(m: MRS) -> set[str]:
    return {ep_name(e) for e in m.rels if predicate.is_surface(predicate_name(e))}


def alignment_features(premise: MRS, hypothesis: MRS, a: Alignment) -> set[str]:
    """Features read off an alignment alone: the relation of each pair linked in a role,
    modifiers and entities one side has, roles and determiner changes."""
    out: set[str] = set()
    for link, p, h in named_links(premise, hypothesis, a):
        if link.role == "mod":
            if p is None:
                out.add(f"added:{link.kind}")
            elif h is None:
                out.add(f"deleted:{link.kind}")
        elif link.role == "other":
            if p is None:
                out.add("added:entity")
        elif p is not None and h is not None:
            out.add(f"{link.role}:{aligned_relation(p, h)}")
    return (out | _role_changes(premise, hypothesis, a)
            | _determiner_changes(premise, hypothesis, a))


def aligned_pair_features(
    premise: MRS, hypothesis: MRS, grammar_version: str = DEFAULT_GRAMMAR_VERSION,
    alignment: Alignment | None = None,
) -> set[str]:
    """Every pair feature of *premise* and *hypothesis*: alignment features, phenomenon
    mismatches, expletives, hypothesis-only features and full lexical overlap. *alignment*:
    `align(premise, hypothesis, Method.ROLES)` when the caller has it already (feature
    mining)."""
    p, h = describe(premise, grammar_version), describe(hypothesis, grammar_version)
    out = alignment_features(premise, hypothesis,
                             alignment or align(premise, hypothesis, Method.ROLES))
    out |= _phenomena_features(p, h) | _hypothesis_only(h)
    if _surface(hypothesis) <= _surface(premise):
        out.add("overlap:hypothesis_words_in_premise")
    return out
