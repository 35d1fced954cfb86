"""Polarity (monotonicity) of every EP's position, from an MRS's scopal structure.

Natural logic (MacCartney & Manning 2007) needs to know whether a position is *upward*
monotone (replacing a word by a more general one keeps truth: "A dog runs" -> "An animal
runs"), *downward* ("Every dog runs" -> "Every puppy runs") or neither. The polarity of a
position is the product of the monotonicity of every operator that outscopes it: the
restrictor of *every* and both arguments of *no* and *few* are downward, *a*/*some* and the
definites upward, ``neg`` and *never* downward, modals and conjunctions upward, anything else
with a scopal argument (*believe*, *probably*) neither.

An MRS leaves quantifier scope open, so this module fixes one reading, the *surface* one: a
quantifier outscopes a negation or modal of its own clause when it comes first in the
sentence ("A dog did not bark": some dog is a non-barker) and is outscoped when it comes after
("Abrams did not hire a programmer": no programmer was hired); quantifiers of one clause scope
in their surface order. Definites, proper names and pronouns refer, so they always take
their clause's widest scope. A quantifier never leaves the restrictor or the clausal argument
it occurs in. Character spans (``<from:to>``) give the order; without spans quantifiers take
narrow scope.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from delphin.mrs import MRS, EP

Polarity = Literal["up", "down", "none"]
UP: Polarity = "up"
DOWN: Polarity = "down"
NONE: Polarity = "none"

_EXISTENTIAL = ("_a_q", "_some_q", "_some_q_indiv", "some_q", "udef_q", "number_q",
                "_another_q", "_any_q", "_both_q", "idiom_q_i", "_such+a_q", "_a+little_q",
                "_enough_q", "_such_q")
_REFERENTIAL = ("_the_q", "proper_q", "pronoun_q", "def_explicit_q", "def_implicit_q",
                "_this_q_dem", "_that_q_dem", "_these_q_dem", "_those_q_dem")
#: (restrictor, body) monotonicity of the ERG's quantifiers; unknown ones are neither.
QUANTIFIERS: dict[str, tuple[Polarity, Polarity]] = {
    **{q: (UP, UP) for q in _EXISTENTIAL + _REFERENTIAL},
    "_every_q": (DOWN, UP), "every_q": (DOWN, UP), "_all_q": (DOWN, UP), "_each_q": (DOWN, UP),
    "_no_q": (DOWN, DOWN), "_neither_q": (DOWN, DOWN), "_little+or+no_q": (DOWN, DOWN),
    "_most_q": (NONE, UP),
}
#: Adjectives in a bare plural's restrictor that make its udef_q another determiner: the ERG
#: 2025 analyses "few dogs" as udef_q + little-few_a, "many dogs" as udef_q + much-many_a
#: (the rig's older lexicon: _few_a_1, _many_a_1).
DETERMINER_ADJECTIVES: dict[str, tuple[Polarity, Polarity]] = {
    "little-few_a": (DOWN, DOWN), "_few_a_1": (DOWN, DOWN),  # older grammars: _few_a_1
    "much-many_a": (NONE, UP), "_many_a_1": (NONE, UP),
}
#: "each other": the ERG's _each_q whose restrictor is `_other_n_1` is the reciprocal pronoun
#: (its other analysis is recip_pro), which refers; it is no universal over "other".
RECIPROCAL = ("_each_q", "_other_n_1")
#: `_not_x_deg` in a quantifier's label negates it ("Not every manager ..."); any other
#: degree word there ("nearly every", "almost no") makes it neither up nor down.
QUANTIFIER_NEGATION = "_not_x_deg"
_DEGREE = re.compile(r"_x_deg$")
#: Scopal operators' monotonicity in their scopal roles (a regex over the predicate).
OPERATORS: tuple[tuple[re.Pattern, str, Polarity], ...] = tuple(
    (re.compile(p), role, pol) for p, role, pol in (
        (r"^neg$", "ARG1", DOWN),
        (r"^_never_a_1$", "ARG1", DOWN),
        (r"^_[a-z+]+_v_q?modal$", "ARG1", UP),
        (r"^_if_x_then$", "ARG1", UP),     # the consequent
        (r"^_if_x_then$", "ARG2", DOWN),   # the antecedent
        (r"^(_and_c|_or_c|_but_c|implicit_conj)$", "L-HNDL", UP),
        (r"^(_and_c|_or_c|_but_c|implicit_conj)$", "R-HNDL", UP),
        (r"^subord$", "ARG1", UP),
        (r"^subord$", "ARG2", UP),
    )
)
#: Operators a quantifier of their clause may scope over (the rest are barriers).
_RAISABLE = re.compile(r"^(neg|_never_a_1|_[a-z+]+_v_q?modal)$")


def compose(a: Polarity, b: Polarity) -> Polarity:
    """The polarity of a position of polarity *b* inside a context of polarity *a*: signs
    multiply (down in down is up); neither absorbs."""
    if NONE in (a, b):
        return NONE
    return UP if a == b else DOWN


def flip(p: Polarity) -> Polarity:
    return {UP: DOWN, DOWN: UP, NONE: NONE}[p]


def downward(pred: str) -> bool:
    """True for a predicate that makes a position under it downward: a quantifier like *no*
    or *every* (in either argument), or an operator like ``neg`` or *never*. Material that
    brings one in says something negative, not something more specific."""
    if pred in QUANTIFIERS:
        return DOWN in QUANTIFIERS[pred]
    return pred in DETERMINER_ADJECTIVES and DOWN in DETERMINER_ADJECTIVES[pred] or any(
        pol == DOWN and pattern.match(pred) for pattern, _, pol in OPERATORS)


def operator_polarity(pred: str, role: str) -> Polarity:
    """Monotonicity of a non-quantifier EP in one of its scopal roles."""
    for pattern, r, pol in OPERATORS:
        if r == role and pattern.match(pred):
            return pol
    return NONE


@dataclass(frozen=True)
class _Scope:
    """The MRS's scope skeleton: which (EP, role) holds each label, and where each quantifier
    was placed (the label of the region it outscopes, and its rank there)."""

    holder: dict[str, tuple[int, str]]
    placed: dict[int, tuple[str, int]]
    monotonicity: dict[int, tuple[Polarity, Polarity]]


def _slots(mrs: MRS) -> dict[str, tuple[int, str]]:
    """label -> (EP index, role) of the handle argument it fills (through qeq); quantifier
    bodies are left open by the ERG and hold nothing."""
    qeq = {hc.hi: hc.lo for hc in mrs.hcons}
    labels = {ep.label for ep in mrs.rels}
    out: dict[str, tuple[int, str]] = {}
    for i, ep in enumerate(mrs.rels):
        for role, value in ep.args.items():
            if role == "BODY" or not isinstance(value, str):
                continue
            target = qeq.get(value, value)
            if target in labels and target != ep.label:
                out.setdefault(target, (i, role))
    return out


def _quantifier_monotonicity(mrs: MRS, i: int, rstr: str | None) -> tuple[Polarity, Polarity]:
    ep = mrs.rels[i]
    mono = QUANTIFIERS.get(ep.predicate, (NONE, NONE))
    if ep.predicate == "udef_q" and rstr is not None:
        for other in mrs.rels:
            if (other.label == rstr and other.predicate in DETERMINER_ADJECTIVES
                    and other.args.get("ARG1") == ep.iv):
                mono = DETERMINER_ADJECTIVES[other.predicate]
    if ep.predicate == RECIPROCAL[0] and any(
            o.label == rstr and o.predicate == RECIPROCAL[1] for o in mrs.rels):
        mono = (UP, UP)
    degrees = {o.predicate for o in mrs.rels if o.label == ep.label and _DEGREE.search(o.predicate)}
    if degrees == {QUANTIFIER_NEGATION}:
        mono = (flip(mono[0]), flip(mono[1]))
    elif degrees:
        mono = (NONE, NONE)
    return mono


def _scope(mrs: MRS) -> _Scope:
    holder = _slots(mrs)
    qeq = {hc.hi: hc.lo for hc in mrs.hcons}
    labels = [ep.label for ep in mrs.rels]
    quantifiers = [i for i, ep in enumerate(mrs.rels) if ep.is_quantifier()]
    rstr_of = {i: qeq.get(mrs.rels[i].args.get("RSTR"), mrs.rels[i].args.get("RSTR"))
               for i in quantifiers}
    mono = {i: _quantifier_monotonicity(mrs, i, rstr_of[i]) for i in quantifiers}

    def path(label: str) -> list[str]:
        """Labels from *label* up through its holders, stopping below a barrier."""
        out = [label]
        while label in holder:
            j, _ = holder[label]
            if mrs.rels[j].is_quantifier():
                break
            label = labels[j]
            out.append(label)
        return out

    placed: dict[int, tuple[str, int]] = {}
    ranks: dict[str, int] = {}
    root = qeq.get(mrs.top, mrs.top)
    for i in sorted(quantifiers, key=lambda k: (mrs.rels[k].cfrom, k)):
        q = mrs.rels[i]
        uses = [path(ep.label) for j, ep in enumerate(mrs.rels)
                if j != i and not ep.is_quantifier() and ep.label != rstr_of[i]
                and q.iv in ep.args.values()]
        uses = [p for p in uses if rstr_of[i] not in p]
        if uses:
            common = [lab for lab in uses[0] if all(lab in p for p in uses[1:])]
            region = common[0] if common else uses[0][-1]
        else:
            region = root
        referential = q.predicate in _REFERENTIAL
        while region in holder:
            j, _ = holder[region]
            op = mrs.rels[j]
            if not _RAISABLE.match(op.predicate):
                break
            if not (referential or (0 <= q.cfrom < op.cfrom)):
                break
            region = labels[j]
        ranks[region] = ranks.get(region, 0) + 1
        placed[i] = (region, ranks[region])
    return _Scope(holder, placed, mono)


def _context(mrs: MRS, scope: _Scope, region: str, below_rank: int | None) -> Polarity:
    """Polarity of what sits in *region*, under the quantifiers placed there (only those
    ranked before *below_rank* when coming from a quantifier of that rank) and every operator
    above. A reading whose quantifiers outscope each other in a ring (each placed in the
    other's restrictor) has no polarity there: NONE."""
    pol: Polarity = UP
    seen: set[tuple[str, int | None]] = set()
    while True:
        if (region, below_rank) in seen:
            return NONE
        seen.add((region, below_rank))
        for q, (lab, rank) in scope.placed.items():
            if lab == region and (below_rank is None or rank < below_rank):
                pol = compose(pol, scope.monotonicity[q][1])
        if region not in scope.holder:
            return pol
        j, role = scope.holder[region]
        ep = mrs.rels[j]
        if ep.is_quantifier():
            pol = compose(pol, scope.monotonicity[j][0] if role == "RSTR" else NONE)
            region, below_rank = scope.placed[j]
        else:
            pol = compose(pol, operator_polarity(ep.predicate, role))
            region, below_rank = ep.label, None


def polarities(mrs: MRS) -> list[Polarity]:
    """The polarity of each EP's position, in the order of ``mrs.rels``: for a noun, its
    restrictor position (what replacing it by a hypernym does); for a verb or modifier, its
    clause position; for a quantifier, the position of the quantifier itself."""
    scope = _scope(mrs)
    out: list[Polarity] = []
    for i, ep in enumerate(mrs.rels):
        if i in scope.placed:
            region, rank = scope.placed[i]
            out.append(_context(mrs, scope, region, rank))
        else:
            out.append(_context(mrs, scope, ep.label, None))
    return out


def polarity_of(mrs: MRS, ep: EP | int) -> Polarity:
    """The polarity of one EP's position (an EP of *mrs* or its index in ``mrs.rels``)."""
    index = ep if isinstance(ep, int) else next(i for i, e in enumerate(mrs.rels) if e is ep)
    return polarities(mrs)[index]
