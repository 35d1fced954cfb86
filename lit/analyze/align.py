"""Align a premise MRS with a hypothesis MRS and read ShortcutGrammar-style pair features off
the alignment (docs/shortcuts.md describes the algorithm and its limits).

Alignment, in three passes:

1. the two *main predications* (the index EPs, seen through modals, clefts and — for a
   subordinating or coordinating index like ``_while_x`` — through its first clause);
2. their same-role x-arguments (ARG1 with ARG1, ...), then, from every aligned pair of
   entities, their modifiers (the EPs that share the head's label: adjectives, PPs,
   compounds, numbers, relative clauses), paired by equal predicate, then by kind in order;
   a paired PP or compound aligns its object too. The main events' modifiers are paired the
   same way;
3. entities left over on both sides, by equal predicate.

Everything is read from PyDelphin MRS objects; nothing is changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from delphin import predicate, variable
from delphin.mrs import EP, MRS

from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.lexicon import aligned_relation
from lit.phenomena import Phenomena, describe, index_ep

ROLES = ("ARG1", "ARG2", "ARG3", "ARG4")
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


def _name(ep: EP) -> str:
    """The predicate, with its CARG for constants (``named(Bob)``, ``card(2)``)."""
    pred = ep.predicate.strip('"')
    return f"{pred}({ep.carg})" if ep.carg is not None else pred


@dataclass(frozen=True)
class Link:
    """One aligned (or unmatched: None on one side) pair of predications."""

    role: str  # "verb", "ARG1".., "mod" (a modifier), "pp" (a PP's object), "other"
    premise: str | None
    hypothesis: str | None
    kind: str | None = None  # modifiers: adj, adv, pp, poss, compound, number, relcl, other

    @property
    def relation(self) -> str | None:
        if self.premise is None or self.hypothesis is None:
            return None
        return aligned_relation(self.premise, self.hypothesis)


@dataclass
class Alignment:
    """The links of a premise/hypothesis pair, and the determiner changes found on the way."""

    links: list[Link] = field(default_factory=list)
    determiners: list[tuple[str, str, str]] = field(default_factory=list)  # role, p, h class
    roles_added: list[str] = field(default_factory=list)
    roles_deleted: list[str] = field(default_factory=list)


def main_ep(m: MRS) -> EP | None:
    """The main predication: `index_ep`; for an index that only joins clauses (its ARG1 a
    handle, no x-argument: ``_while_x``, ``_and_c`` of two VPs) the head of its first clause;
    for an NP fragment (``unknown``) whose noun carries a participle — SNLI's captions, "A
    young boy playing in the grass." — that participle."""
    ep = index_ep(m)
    seen: set[str] = set()
    while ep is not None and _joins_clauses(ep) and ep.label not in seen:
        seen.add(ep.label)
        lo = next((hc.lo for hc in m.hcons if hc.hi == ep.args["ARG1"]), ep.args["ARG1"])
        ep = next((e for e in m.rels if e.label == lo and not e.is_quantifier()
                   and variable.type(e.iv or "u") == "e"
                   and e.args.get("ARG1") not in {x.iv for x in m.rels if x.label == lo}),
                  None)
    x = _x_arg(ep, "ARG") if ep is not None and ep.predicate == "unknown" else None
    head = _entity_head(m, x) if x else None
    participle = next((e for e in _modifiers(m, head) if "_v_" in e.predicate
                       and e.args.get("ARG1") == x), None) if head else None
    return participle or ep


def _joins_clauses(ep: EP) -> bool:
    arg1 = ep.args.get("ARG1", "")
    return bool(arg1) and variable.type(arg1) == "h" and not any(
        variable.type(v) == "x" for r, v in ep.args.items() if r != "ARG0")


def _entity_head(m: MRS, x: str) -> EP | None:
    """The EP that introduces *x* (its noun, name or pronoun)."""
    return next((e for e in m.rels if e.iv == x and not e.is_quantifier()), None)


def _determiner(m: MRS, x: str) -> str | None:
    q = next((e for e in m.rels if e.iv == x and e.is_quantifier()), None)
    if q is None:
        return None
    pred = q.predicate.strip('"')
    return next((cls for cls, preds in DETERMINERS.items() if pred in preds), pred)


def modifier_kind(ep: EP, of_event: bool) -> str:
    pred = ep.predicate.strip('"')
    if pred == "compound":
        return "compound"
    if pred == "card":
        return "number"
    if pred == "poss":
        return "poss"
    if pred.endswith("_p") or "_p_" in pred or pred == "loc_nonsp":
        return "pp"
    if "_a_" in pred or pred.endswith("_a"):
        return "adv" if of_event else "adj"
    if "_v_" in pred:
        return "relcl"
    return "other"


def _modifiers(m: MRS, head: EP) -> list[EP]:
    """The EPs that modify *head* intersectively: they share its label and take its ARG0 as
    an argument."""
    return [e for e in m.rels if e.label == head.label and e is not head
            and not e.is_quantifier() and head.iv in e.args.values() and e.iv != head.iv]


def _object(ep: EP) -> str | None:
    """A PP's or compound's own x-argument (ARG2), which alignment follows."""
    arg2 = ep.args.get("ARG2", "")
    return arg2 if arg2 and variable.type(arg2) == "x" else None


class _Aligner:
    def __init__(self, p: MRS, h: MRS) -> None:
        self.p, self.h = p, h
        self.out = Alignment()
        self.done_p: set[int] = set()
        self.done_h: set[int] = set()

    def run(self) -> Alignment:
        pm, hm = main_ep(self.p), main_ep(self.h)
        if pm is None or hm is None:
            return self.out
        self._link("verb", pm, hm)
        for role in ROLES:
            xp, xh = _x_arg(pm, role), _x_arg(hm, role)
            if xp and xh:
                self._entities(role, xp, xh)
            elif xp:
                self.out.roles_deleted.append(role)
            elif xh:
                self.out.roles_added.append(role)
        self._pair_modifiers(pm, hm, of_event=True)
        self._leftovers()
        return self.out

    def _link(self, role: str, a: EP | None, b: EP | None, kind: str | None = None) -> None:
        for ep, done in ((a, self.done_p), (b, self.done_h)):
            if ep is not None:
                done.add(id(ep))
        self.out.links.append(Link(role, a and _name(a), b and _name(b), kind))

    def _entities(self, role: str, xp: str, xh: str) -> None:
        a, b = _entity_head(self.p, xp), _entity_head(self.h, xh)
        if a is None or b is None or id(a) in self.done_p or id(b) in self.done_h:
            return
        self._link(role, a, b)
        dp, dh = _determiner(self.p, xp), _determiner(self.h, xh)
        if dp and dh and dp != dh:
            self.out.determiners.append((role, dp, dh))
        self._pair_modifiers(a, b, of_event=False)

    def _pair_modifiers(self, a: EP, b: EP, of_event: bool) -> None:
        mp = [e for e in _modifiers(self.p, a) if id(e) not in self.done_p]
        mh = [e for e in _modifiers(self.h, b) if id(e) not in self.done_h]
        pairs = []
        for same_kind_only in (False, True):
            for e in list(mp):
                match = next((f for f in mh if (
                    modifier_kind(f, of_event) == modifier_kind(e, of_event) if same_kind_only
                    else _name(f) == _name(e))), None)
                if match is not None:
                    pairs.append((e, match))
                    mp.remove(e)
                    mh.remove(match)
        for e, f in pairs:
            self._link("mod", e, f, modifier_kind(e, of_event))
        for e, f in pairs:
            op, oh = _object(e), _object(f)
            if op and oh:
                self._entities("pp", op, oh)
        for e in mp:
            self._link("mod", e, None, modifier_kind(e, of_event))
        for f in mh:
            self._link("mod", None, f, modifier_kind(f, of_event))

    def _leftovers(self) -> None:
        rest_h = [e for e in _entities(self.h) if id(e) not in self.done_h]
        for a in (e for e in _entities(self.p) if id(e) not in self.done_p):
            b = next((f for f in rest_h if _name(f) == _name(a)), None)
            if b is not None:
                rest_h.remove(b)
                self._link("other", a, b)
        for b in rest_h:
            self._link("other", None, b)


def _x_arg(ep: EP, role: str) -> str | None:
    """The x-variable in *role*; a fragment's ``unknown`` has its NP as ARG, read as ARG1 so
    that "A man in a blue shirt." aligns its man with a full sentence's subject."""
    v = ep.args.get(role) or (ep.args.get("ARG", "") if role == "ARG1" else "")
    return v if v and variable.type(v) == "x" else None


def _entities(m: MRS) -> list[EP]:
    """EPs introducing an x (nouns, names, pronouns), not quantifiers."""
    return [e for e in m.rels if not e.is_quantifier() and e.iv
            and variable.type(e.iv) == "x"]


def align(premise: MRS, hypothesis: MRS) -> Alignment:
    """Align two MRSs (see the module docstring)."""
    return _Aligner(premise, hypothesis).run()


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
    out = {f"hypothesis:{k}" for k, v in flags.items() if v}
    if h.tense:
        out.add(f"hypothesis:tense={h.tense}")
    if h.index_predicate:
        out.add(f"hypothesis:index={h.index_predicate}")
    return out


def _surface(m: MRS) -> set[str]:
    return {_name(e) for e in m.rels if predicate.is_surface(e.predicate.strip('"'))}


def alignment_features(a: Alignment) -> set[str]:
    """Features read off an alignment alone."""
    out: set[str] = set()
    for link in a.links:
        if link.role == "mod":
            if link.premise is None:
                out.add(f"added:{link.kind}")
            elif link.hypothesis is None:
                out.add(f"deleted:{link.kind}")
        elif link.role == "other":
            if link.premise is None:
                out.add("added:entity")
        else:
            out.add(f"{link.role}:{link.relation}")
    out.update(f"{r}:added" for r in a.roles_added)
    out.update(f"{r}:deleted" for r in a.roles_deleted)
    out.update(f"{role}:det={dp}>{dh}" for role, dp, dh in a.determiners)
    return out


def aligned_pair_features(
    premise: MRS, hypothesis: MRS, grammar_version: str = DEFAULT_GRAMMAR_VERSION,
    alignment: Alignment | None = None,
) -> set[str]:
    """Every pair feature of *premise* and *hypothesis*: alignment features, phenomenon
    mismatches, expletives, hypothesis-only features and full lexical overlap. *alignment*:
    `align(premise, hypothesis)` when the caller has it already (feature mining)."""
    p, h = describe(premise, grammar_version), describe(hypothesis, grammar_version)
    out = alignment_features(alignment or align(premise, hypothesis))
    out |= _phenomena_features(p, h) | _hypothesis_only(h)
    if _surface(hypothesis) <= _surface(premise):
        out.add("overlap:hypothesis_words_in_premise")
    return out
