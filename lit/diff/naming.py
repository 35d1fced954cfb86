"""Name what differs between two aligned MRSs structurally, and keep the rest as residue.

After the rule modules' steps (lit.diff.search), what is left of the difference between A (as
the steps left it) and B is named by its shape:

- a paired EP with another predicate: ``quantifier`` for a determiner (or a number's constant),
  else ``lexical``, with the relation of B's predicate to A's for natural logic
  (lit.logic.edits.natural_relation: lit.lexicon's, person co-hyponyms unrelated; determiners
  by lit.logic.edits.determiner_relation) and the polarity of A's position;
- a property of a paired variable changed: TENSE, PROG, PERF, SF and GEND by the module that
  makes that change (``PROPERTY_KINDS``), NUM as ``quantifier`` (number);
- EPs of A (B) with no partner, grouped by the variables they share: a group holding a
  ``neg`` is ``neg``/``aff``, a modal ``modal``; a group that a paired EP's role now points
  into (or no longer does) is ``argument_added``/``argument_dropped``; a group that modifies a
  paired variable is ``modifier_added``/``modifier_dropped``; a number word alone
  (``card``) added or dropped is a ``quantifier`` edit.

Modifier, argument and number edits carry the relation lit.logic.edits gives them (dropped:
``hypernym``, the description gets more general; added: ``hyponym``) and the polarity of the
modified head's position in the source A (for an argument, the taking predicate's: the
unexpressed role is an existential in its position), as lit.logic.edits computes it, so the
``edit REL at POL`` label rules can decide them. A NUM change of a paired noun is a number
edit: a ``sibling`` (one and more than one exclude each other under SNLI's same-scene
reading, as different numbers do in lit.logic.edits) when the noun is the same, ``same``
when the noun was replaced too (the number goes with the new word: "coffee" -> "snacks").

Whatever no rule names (a role pointing elsewhere, an ICONS, a group of another shape) goes to
the residue, with the EPs as text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from delphin import variable
from delphin.mrs import EP, MRS

from lit.diff.difference import Difference, PairChange, ep_text
from lit.diff.model import NamedEdit, Residue
from lit.lexicon import aligned_relation
from lit.logic.edits import determiner_relation, names_a_thing, natural_relation
from lit.logic.polarity import downward, polarity_of

#: A changed property -> (edit kind, step template or None). ``{value}`` is B's value.
PROPERTY_KINDS: dict[str, tuple[str, str | None]] = {
    "TENSE": ("tense", "tense={value}"),
    "PROG": ("prog", "prog={value}"),
    "PERF": ("perf", "perf={value}"),
    "GEND": ("gender", None),
    "NUM": ("quantifier", None),
}
#: Sentence force: B's value -> kind (the module that makes it).
FORCE_KINDS = {"ques": "ques", "prop": "decl"}
#: A predicate that is a rule module's whole edit when it alone is added (or removed).
MARKERS = {"neg": ("neg", "aff")}
MODAL_SUFFIX = "_v_modal"
#: Predicates of a number word ("two dogs"): added or dropped alone, a quantifier edit.
NUMBERS = {"card"}
#: Degree specifiers ("nearly every", "very tall") and modifiers of a number ("at least three")
#: are not intersective: added or dropped they are named, but with no relation ("at least
#: three" -> "three" is not more general).
DEGREE_SUFFIX = "_x_deg"
#: Their adverb readings, which the ERG also attaches to the verb ("There are at least three
#: people": _at+least_a_1 on _be_v_there): scalar and focus adverbs, not intersective either.
SCALAR_ADVERBS = frozenset({"_at+least_a_1", "_at+most_a_1", "_almost_a_1", "_hardly_a_1",
                            "_more+than_a_1", "_less+than_a_1", "_about_a_1"})
#: Values a verb's TENSE takes under a modal (its change follows the modal's).
UNTENSED = "untensed"
#: What a group that brings in (or takes out) a downward word (*no*, *not*, *never*) says of
#: itself: no relation, since "has no source of light" is no more specific than "has a light".
NEGATIVE = " (a negative word: no relation)"
#: Kinds whose polarity is that of the head they modify (or the predicate taking them), not
#: of their own first EP.
HEAD_KINDS = frozenset({"modifier_added", "modifier_dropped", "argument_added",
                        "argument_dropped"})
#: Relation of a NUM change: the same noun (sg <-> pl), or a noun replaced as well.
NUMBER_RELATION = "sibling"
NUMBER_WITH_WORD = "same"


@dataclass(frozen=True)
class Named:
    """The structural edits and the residue of one difference."""

    edits: tuple[NamedEdit, ...]
    residue: Residue


def _name(ep: EP) -> str:
    """A predicate in a human line: the lemma of ``_man_n_1``, a constant as itself."""
    if ep.carg is not None:
        return ep.carg
    parts = ep.predicate.lstrip("_").split("_")
    return parts[0] if ep.predicate.startswith("_") else ep.predicate


def _substitution(a: MRS, b: MRS, change: PairChange) -> NamedEdit:
    x, y = a.rels[change.a], b.rels[change.b]
    if x.is_quantifier() or x.predicate == "card":
        rel = (determiner_relation(x.predicate, y.predicate) if x.is_quantifier()
               else "sibling")
        kind = "quantifier"
    else:
        rel = natural_relation(x.predicate, y.predicate,
                               aligned_relation(_key_text(x), _key_text(y)),
                               things=names_a_thing(a, x) and names_a_thing(b, y))
        kind = "lexical"
    return NamedEdit(kind, None, rel, str(polarity_of(a, change.a)), (ep_text(x),),
                     (ep_text(y),), f"{_name(x)} -> {_name(y)} ({rel})")


def _key_text(ep: EP) -> str:
    return f"{ep.predicate}({ep.carg})" if ep.carg is not None else ep.predicate


def _property_edit(a: MRS, b: MRS, change: PairChange, prop: tuple[str, str, str]
                   ) -> NamedEdit | None:
    name, old, new = prop
    x, y = a.rels[change.a], b.rels[change.b]
    if name == "SF":
        kind = FORCE_KINDS.get(new)
        step = kind
    elif name in PROPERTY_KINDS:
        kind, template = PROPERTY_KINDS[name]
        step = template.format(value=new) if template else None
    else:
        return None
    if kind is None:
        return None
    rel = pol = None
    if name == "NUM":
        rel = NUMBER_WITH_WORD if change.predicate else NUMBER_RELATION
        pol = str(polarity_of(a, change.a))
    return NamedEdit(kind, step, rel, pol, (ep_text(x),), (ep_text(y),),
                     f"{name} {old or '-'} -> {new or '-'} on {_name(x)}")


def _groups(m: MRS, indexes: tuple[int, ...]) -> list[list[int]]:
    """The unpaired EPs *indexes* of *m*, grouped by the variables they share."""
    groups: list[tuple[set[str], list[int]]] = []
    for i in indexes:
        ep = m.rels[i]
        mine = {v for r, v in ep.args.items() if r != "CARG" and variable.type(v) in "xe"}
        mine |= {ep.label}
        joined = [g for g in groups if g[0] & mine]
        merged_vars, merged = set(mine), [i]
        for g in joined:
            merged_vars |= g[0]
            merged += g[1]
            groups.remove(g)
        groups.append((merged_vars, sorted(merged)))
    return [g[1] for g in groups]


def _intrinsic(m: MRS, group: list[int]) -> set[str]:
    """The variables and labels the EPs of *group* introduce."""
    return {m.rels[i].iv for i in group if m.rels[i].iv} | {m.rels[i].label for i in group}


def _group_edit(m: MRS, group: list[int], mapped: set[str], added: bool,
                role_into: dict[str, str], head_polarity: Callable[[str | None], str | None]
                ) -> NamedEdit | None:
    """Name one group of unpaired EPs of *m* (B's if *added*, else A's); *mapped*: *m*'s
    variables that have partners; *role_into*: variables a paired EP's changed role points
    at in *m*, each with that EP's variable; *head_polarity*: the polarity in A of the
    position of a (paired) variable of *m*."""
    eps = [m.rels[i] for i in group]
    texts = tuple(ep_text(ep) for ep in eps)
    preds = [ep.predicate for ep in eps]
    side = (lambda t: ((), t)) if added else (lambda t: (t, ()))
    for pred, (on, off) in MARKERS.items():
        if preds == [pred]:
            kind = on if added else off
            return NamedEdit(kind, kind, None, None, *side(texts),
                             f"{pred} {'added' if added else 'removed'}")
    modal = next((p for p in preds if p.endswith(MODAL_SUFFIX)), None)
    if modal is not None and len(preds) == 1:
        word = modal.lstrip("_").split("_")[0]
        return NamedEdit("modal", f"modal={word}" if added else None, None, None,
                         *side(texts), f"{word} {'added' if added else 'removed'}")
    heads = [ep for ep in eps if not ep.is_quantifier()]
    if preds and set(preds) <= NUMBERS and all(ep.args.get("ARG1") in mapped for ep in eps):
        numbers = " ".join(_name(ep) for ep in eps)
        return NamedEdit("quantifier", None, "hyponym" if added else "hypernym",
                         head_polarity(eps[0].args.get("ARG1")), *side(texts),
                         f"number {numbers} {'added' if added else 'dropped'}")
    negative = any(downward(p) for p in preds)
    into = _intrinsic(m, group) & set(role_into)
    if into:
        kind = "argument_added" if added else "argument_dropped"
        rel = None if negative else "hyponym" if added else "hypernym"
        head = next((ep for ep in heads if ep.iv in role_into), heads[0] if heads else eps[0])
        takers = {head_polarity(role_into[v]) for v in into}
        return NamedEdit(kind, None, rel, takers.pop() if len(takers) == 1 and rel else None,
                         *side(texts),
                         f"{_name(head)} {'added' if added else 'dropped'} as an argument"
                         + (NEGATIVE if negative else ""))
    modifies = [ep for ep in heads if ep.args.get("ARG1") in mapped
                or any(v in mapped for r, v in ep.args.items() if r.startswith("ARG")
                       and r != "ARG0" and variable.type(v) == "x")]
    if modifies:
        kind = "modifier_added" if added else "modifier_dropped"
        numbers = {ep.iv for ep in m.rels if ep.predicate in NUMBERS}
        degree = (any(p.endswith(DEGREE_SUFFIX) or p in SCALAR_ADVERBS for p in preds)
                  or any(v in numbers for ep in modifies for v in _modified(ep, mapped)))
        rel = None if degree or negative else "hyponym" if added else "hypernym"
        words = " ".join(_name(ep) for ep in heads if not ep.predicate.endswith("_q"))
        modified = {head_polarity(v) for ep in modifies for v in _modified(ep, mapped)}
        return NamedEdit(kind, None, rel,
                         modified.pop() if len(modified) == 1 and rel else None,
                         *side(texts), f"{words} {'added' if added else 'dropped'}"
                         + (" (a degree word: no relation)" if degree else
                            NEGATIVE if negative else ""))
    return None


def _modified(ep: EP, mapped: set[str]) -> list[str]:
    """The paired variables a modifier EP takes: its ARG1, else its other x-arguments."""
    if ep.args.get("ARG1") in mapped:
        return [ep.args["ARG1"]]
    return [v for r, v in ep.args.items() if r.startswith("ARG") and r != "ARG0"
            and variable.type(v) == "x" and v in mapped]


def _role_targets(m: MRS, changes: tuple[PairChange, ...], side: str) -> dict[str, str]:
    """Variables of *m* that a changed role of a paired EP points at (side "a" or "b"),
    each with that EP's intrinsic variable (a handle also as the label it is qeq to)."""
    found: dict[str, str] = {}
    for c in changes:
        ep = m.rels[c.a if side == "a" else c.b]
        found.update({ep.args[r]: ep.iv or "" for r in c.roles if r in ep.args})
    return found | {hc.lo: found[hc.hi] for hc in m.hcons if hc.hi in found}


def _target(m: MRS, value: str | None) -> str | None:
    """A role's value, a handle as the label it is qeq to."""
    return next((hc.lo for hc in m.hcons if hc.hi == value), value)


def _polarity_by_variable(source: MRS) -> Callable[[str | None], str | None]:
    """The polarity in *source* of the position of the (non-quantifier) EP whose intrinsic
    variable is the one asked for; None when no EP has it."""
    found: dict[str, int] = {}
    for i, ep in enumerate(source.rels):
        if ep.iv and not ep.is_quantifier():
            found.setdefault(ep.iv, i)

    def at(var: str | None) -> str | None:
        return None if var not in found else str(polarity_of(source, found[var]))
    return at


def name_rest(a: MRS, b: MRS, diff: Difference, source: MRS | None = None) -> Named:
    """Name what is left between *a* and *b* (see the module docstring). Polarities are
    those of *source* (default *a*): the original sentence a chain of rule steps made *a*
    from keeps its variable names (lit.rules), so a head is found there by its variable."""
    edits: list[NamedEdit] = []
    changed: list[str] = []
    al = diff.alignment
    inverse = {v: k for k, v in al.varmap.items()}
    for c in diff.changes:
        if c.predicate:
            edits.append(_substitution(a, b, c))
        for prop in c.properties:
            if prop[0] == "TENSE" and UNTENSED in prop[1:]:
                continue  # follows a modal added or removed (named with its group)
            edit = _property_edit(a, b, c, prop)
            if edit is None:
                changed.append(f"{ep_text(a.rels[c.a])}: {prop[0]} {prop[1]} -> {prop[2]}")
            else:
                edits.append(edit)
    into_a, into_b = _role_targets(a, diff.changes, "a"), _role_targets(b, diff.changes, "b")
    in_source = _polarity_by_variable(source if source is not None else a)

    def from_b(var: str | None) -> str | None:
        return in_source(inverse.get(var or ""))
    explained: set[str] = set()
    introduced: set[str] = set()  # variables of the groups named
    removed: list[str] = []
    added: list[str] = []
    for m, indexes, is_added, mapped, into, out, head_polarity in (
            (a, al.removed, False, set(al.varmap), into_a, removed, in_source),
            (b, al.added, True, set(inverse), into_b, added, from_b)):
        for group in _groups(m, indexes):
            edit = _group_edit(m, group, mapped, is_added, into, head_polarity)
            if edit is None:
                out += [ep_text(m.rels[i]) for i in group]
            else:
                edits.append(edit)
                explained |= _intrinsic(m, group) & set(into)
                introduced |= _intrinsic(m, group)
    for c in diff.changes:
        x, y = a.rels[c.a], b.rels[c.b]
        left = [r for r in c.roles if _target(a, x.args.get(r)) not in explained
                and _target(b, y.args.get(r)) not in explained]
        if left:
            changed.append(f"{ep_text(x)}: {', '.join(left)} point elsewhere")
    # an ICONS on a variable of a named group goes with it ("awed by the technology": topic)
    changed += [str(c) for c in diff.icons if not {c.left, c.right} & introduced]
    return Named(tuple(edits), Residue(tuple(removed), tuple(added), tuple(changed)))
