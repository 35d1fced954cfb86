"""What one meaning-changing step did, and its natural-logic relation (issue 15).

``edit_between(source, target)`` compares a sentence's MRS with its perturbed MRS and finds the
single edit between them: a content predicate replaced by another (``_dog_n_1`` ->
``_animal_n_1``), a determiner replaced (``_a_q`` -> ``_every_q``, or a number's CARG), an
intersective modifier dropped or added. The edit carries the *lexical* relation of the new
material to the old (lit.lexicon's vocabulary: hypernym = more general) and the polarity of its
position in the source (lit.logic.polarity); label rules (docs/labelrules.md, ``edit REL at
POL``) turn the two into an NLI label.

Dropping an intersective modifier makes the modified description more general ("a man in a red
shirt" -> "a man"), so it is a ``hypernym`` edit; adding one is a ``hyponym`` edit. Determiners
are related by what their sentences entail with the same restrictor and body, assuming a
non-empty restrictor (SNLI's premises are about something): *every* entails *some*, *the*
entails *a*, *no* excludes both. Different numbers exclude each other under SNLI's exact
reading ("two dogs" vs "three dogs" describe different scenes).

Co-hyponyms are exclusive (``sibling``) only where the lexicon's notion of a sibling holds:
below *person.n.01* WordNet's co-hyponyms are mostly compatible roles (a man may be a student,
a child may be a boy: lit.lexicon offers no sibling for a person noun), so two person nouns
that are only co-hyponyms are ``unrelated`` for natural logic (``natural_relation``); the
exclusive person pairs (man/woman, boy/girl) are antonyms in the lexicon and stay so.

Two basic colour adjectives (lit/lexicon/data/colours.txt: Berlin & Kay's eleven) are
siblings, exclusive as the colour of one thing: WordNet leaves red and blue unrelated.

Two nouns the lexicon does not relate at all are ``disjoint`` when both name kinds of whole
object (below WordNet's *object.n.01*: things, living things, places) and neither is below
the other (lit.lexicon.disjoint): a bench is not a plane, a street is not a beach, a child is
not a dog. Like siblings they exclude each other about one scene; unlike siblings they meet
only high up, so the lexicon never offers one for the other. Two person nouns are never
disjoint (roles), nor is anything below *abstraction* or *matter* (food, water: a sandwich
may be food), nor a noun that only modifies another in a compound (*rock* in "rock group"
names no rock).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from delphin import variable
from delphin.mrs import MRS, EP

from lit.lexicon import colour, disjoint, person, relation as lexical_relation, sense
from lit.logic.polarity import Polarity, polarities

#: Determiners grouped by what they assert (a and some are the same determiner for this).
_DETERMINER_CLASS = {
    "_a_q": "some", "_some_q": "some", "_some_q_indiv": "some", "some_q": "some",
    "_every_q": "every", "every_q": "every", "_all_q": "every", "_each_q": "every",
    "_no_q": "no", "_the_q": "the", "udef_q": "some",
}
#: relation(new determiner, old determiner) as the relation of the new sentence to the old.
_DETERMINER_RELATION = {
    ("every", "some"): "hypernym", ("some", "every"): "hyponym",
    ("the", "some"): "hypernym", ("some", "the"): "hyponym",
    ("every", "no"): "antonym", ("no", "every"): "antonym",
    ("some", "no"): "antonym", ("no", "some"): "antonym",
    ("the", "no"): "antonym", ("no", "the"): "antonym",
}


@dataclass(frozen=True)
class Edit:
    """One edit: ``old`` -> ``new`` predicates (None for a dropped or added modifier's side),
    where it is (``position``, e.g. "ARG1 of _run_v_1"), its polarity there, and the lexical
    relation of the new material to the old."""

    kind: str  # substitute | determiner | number | drop | add
    old: str | None
    new: str | None
    position: str
    polarity: Polarity
    relation: str
    #: the premise's stand on the new material (lit.logic.support), where a caller that has
    #: the premise read it (`lit audit`); None: not looked at
    premise: str | None = None

    def describe(self) -> str:
        """The edit in words, each predicate with the WordNet sense it was taken in."""
        change = f"{_sensed(self.old)} -> {_sensed(self.new)}"
        stand = f", premise {self.premise}" if self.premise else ""
        return (f"{self.kind} {change} at {self.position} (polarity {self.polarity}, "
                f"relation {self.relation}{stand})")

    def as_dict(self) -> dict[str, str | None]:
        found = {"kind": self.kind, "old": self.old, "new": self.new, "position": self.position,
                 "polarity": self.polarity, "relation": self.relation,
                 "old_sense": sense(self.old) if self.old else None,
                 "new_sense": sense(self.new) if self.new else None}
        return found | ({"premise": self.premise} if self.premise else {})


def _sensed(pred: str | None) -> str:
    """A predicate with its WordNet sense ("_fire_n_1 (fire.n.01)"), ∅ for none."""
    if pred is None:
        return "∅"
    named = sense(pred)
    return f"{pred} ({named})" if named else pred


def natural_relation(old: str, new: str, relation: str | None = None, *,
                     things: bool = True) -> str:
    """How *new* stands to *old* for natural logic: lit.lexicon's *relation* (looked up when
    not given), but two basic colours it does not relate are the same or siblings
    (lit.lexicon.colour: black and white stay WordNet's antonyms), two
    person nouns that are only co-hyponyms are "unrelated", and two kinds of whole object the
    lexicon does not otherwise relate are "disjoint" where both nouns name *things* (see the
    module and ``names_a_thing``)."""
    rel = str(lexical_relation(old, new)) if relation is None else relation
    hues = colour(old), colour(new)
    if rel == "unrelated" and None not in hues:
        return "same" if hues[0] == hues[1] else "sibling"
    if rel == "sibling" and person(old) and person(new):
        return "unrelated"
    if rel == "unrelated" and things and disjoint(old, new):
        return "disjoint"
    return rel


def names_a_thing(mrs: MRS, ep: EP) -> bool:
    """False for a noun that only modifies another in a compound (*rock* in "rock group",
    *well* in one reading of "well-known"): it names no thing of the scene, so being a
    different kind of object than another noun says nothing."""
    return not any(e.predicate == "compound" and e.args.get("ARG2") == ep.iv
                   for e in mrs.rels)


def determiner_relation(old: str, new: str) -> str:
    """How a sentence with determiner *new* stands to the same sentence with *old*."""
    a, b = _DETERMINER_CLASS.get(old), _DETERMINER_CLASS.get(new)
    if a is None or b is None:
        return "unrelated"
    if a == b:
        return "same"
    return _DETERMINER_RELATION.get((a, b), "unrelated")


def position(mrs: MRS, ep: EP) -> str:
    """Where an EP sits, in words a reader can find: for a noun or determiner, the role its
    variable fills ("ARG1 of _run_v_1", the main predication's roles first, modifiers sharing
    its label last); for a verb, its own predicate."""
    var = ep.iv
    if var and var.startswith("x"):
        users = [(e.label == ep.label, e.iv != mrs.index, r, e.predicate) for e in mrs.rels
                 if not e.is_quantifier() and e.iv != var
                 for r, v in e.args.items() if v == var and r != "ARG0"]
        if users:
            _, _, role, pred = min(users)
            return f"{role} of {pred}"
    if var == mrs.index:
        return f"{ep.predicate} (main predication)"
    return ep.predicate


def _pred_counts(mrs: MRS) -> Counter:
    return Counter(ep.predicate for ep in mrs.rels)


def _modifiers(removed: list[EP], kept_vars: set[str]) -> list[EP]:
    """Among removed EPs, the ones that modified something still there (their ARG1) and took
    nothing else still there (a PP's object goes with it; a compound's other noun may not)."""
    return [ep for ep in removed if ep.args.get("ARG1") in kept_vars
            and not any(v in kept_vars for r, v in ep.args.items() if r not in ("ARG0", "ARG1"))]


def edit_between(source: MRS, target: MRS) -> Edit | None:
    """The single edit that turns *source* into *target*, or None if there is no single edit
    of a kind natural logic can relate (several changes, or only form changes)."""
    pol = polarities(source)
    src, tgt = _pred_counts(source), _pred_counts(target)
    gone, new = list((src - tgt).elements()), list((tgt - src).elements())
    index = {id(ep): i for i, ep in enumerate(source.rels)}
    if len(gone) == 1 and len(new) == 1:
        old_ep = next(ep for ep in source.rels if ep.predicate == gone[0])
        p = pol[index[id(old_ep)]]
        if old_ep.is_quantifier():
            return Edit("determiner", gone[0], new[0], position(source, old_ep), p,
                        determiner_relation(gone[0], new[0]))
        new_ep = next(ep for ep in target.rels if ep.predicate == new[0])
        things = names_a_thing(source, old_ep) and names_a_thing(target, new_ep)
        return Edit("substitute", gone[0], new[0], position(source, old_ep), p,
                    natural_relation(gone[0], new[0], things=things))
    if not gone and not new:
        return _number_edit(source, target, pol)
    if gone and not new:
        return _modifier_edit("drop", source, source, target, pol)
    if new and not gone:
        return _modifier_edit("add", source, target, source, pol)
    return None


def _number_edit(source: MRS, target: MRS, pol: list[Polarity]) -> Edit | None:
    cards_s = [(i, ep) for i, ep in enumerate(source.rels) if ep.predicate == "card"]
    cards_t = [ep.carg for ep in target.rels if ep.predicate == "card"]
    changed = [(i, ep) for (i, ep), c in zip(cards_s, cards_t) if ep.carg != c]
    if len(cards_s) != len(cards_t) or len(changed) != 1:
        return None
    i, ep = changed[0]
    new = cards_t[cards_s.index((i, ep))]
    return Edit("number", ep.carg, new, position(source, ep), pol[i], "sibling")


def _orphans(eps: list[EP]) -> set[str]:
    """x-variables introduced in *eps* that no EP there takes as an argument (what a removed
    modifier alone held in place: "garden" in "the garden dog" without its compound EP)."""
    used = {v for ep in eps for r, v in ep.args.items() if r != "ARG0" and not ep.is_quantifier()}
    return {ep.iv for ep in eps if ep.iv and ep.iv.startswith("x") and not ep.is_quantifier()
            and ep.iv not in used}


def _take(counts: Counter, eps: list[EP]) -> list[EP]:
    """The EPs of *eps* whose predicate *counts* still has, using those counts up."""
    taken = []
    for ep in eps:
        if counts[ep.predicate] > 0:
            counts[ep.predicate] -= 1
            taken.append(ep)
    return taken


def _among(ep: EP, eps: list[EP]) -> bool:
    return any(ep is other for other in eps)


def _modifier_edit(kind: str, source: MRS, bigger: MRS, smaller: MRS,
                   pol: list[Polarity]) -> Edit | None:
    """A modifier dropped from (or added to) what *bigger* has and *smaller* lacks; its
    polarity is that of the modified EP in *source*."""
    left = _pred_counts(bigger) - _pred_counts(smaller)
    removed = _take(left, [ep for ep in bigger.rels if not ep.is_quantifier()])
    # a removed quantifier is one whose variable went with its noun (not "the" of "the dog")
    kept_ivs = {ep.iv for ep in bigger.rels if not ep.is_quantifier() and not _among(ep, removed)}
    removed += _take(left, [ep for ep in bigger.rels
                            if ep.is_quantifier() and ep.iv not in kept_ivs])
    kept = [ep for ep in bigger.rels if not _among(ep, removed)]
    kept_vars = {ep.iv for ep in kept if ep.iv}
    mods = _modifiers(removed, kept_vars)
    if not mods and not _orphans(kept):
        return _argument_edit(kind, source, bigger, smaller, pol)
    if len(mods) != 1 or _orphans(kept):
        return None
    mod = mods[0]
    head_var = mod.args["ARG1"]
    heads = [(i, ep) for i, ep in enumerate(source.rels)
             if ep.iv == head_var and not ep.is_quantifier()]
    if not heads:
        return None
    i, head = heads[0]
    where = f"{mod.predicate} on {position(source, head)}"
    old, new_ = (mod.predicate, None) if kind == "drop" else (None, mod.predicate)
    return Edit(kind, old, new_, where, pol[i], "hypernym" if kind == "drop" else "hyponym")


def _argument_edit(kind: str, source: MRS, bigger: MRS, smaller: MRS,
                   pol: list[Polarity]) -> Edit | None:
    """A complement dropped (or added) whole: an EP of *bigger* has a noun phrase in a role
    that its counterpart in *smaller* (same predicate and ARG0: the rule keeps variable names)
    leaves unexpressed ("eating an apple" -> "eating", the verb's ARG2 now an i variable).
    Dropping it says less (what was eaten is left open), so it is a ``hypernym`` edit, adding
    one a ``hyponym``. The polarity is the verb's, not the noun's: the unexpressed role is an
    existential in the verb's position ("Devito did not hire Abrams." does not entail
    "Devito did not hire.", though a name takes wide scope)."""
    small = {(ep.predicate, ep.iv): ep for ep in smaller.rels if ep.iv}
    found = [(ep, role, value) for ep in bigger.rels
             if (twin := small.get((ep.predicate, ep.iv))) is not None
             for role, value in ep.args.items()
             if role not in ("ARG0", "CARG") and variable.type(value) == "x"
             and variable.type(twin.args.get(role, "u0")) in ("i", "u")]
    if len(found) != 1:
        return None
    taker, role, value = found[0]
    head = next((ep for ep in bigger.rels if ep.iv == value and not ep.is_quantifier()), None)
    if head is None:
        return None
    where = f"{role} of {taker.predicate}"
    in_source = taker if kind == "drop" else small[taker.predicate, taker.iv]
    i = next(i for i, ep in enumerate(source.rels) if ep is in_source)
    if kind == "drop":
        return Edit("drop", head.predicate, None, where, pol[i], "hypernym")
    return Edit("add", None, head.predicate, where, pol[i], "hyponym")
