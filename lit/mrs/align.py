"""Pair the EPs of two MRSs: the one alignment every part of LIT reads.

What pairs depends on how the two MRSs are related, so `align` takes a `Method`:

* ``COPY``: B was built by the rule engine from a copy of A (lit.rules.matcher.Draft), so
  variables keep their names and an EP its position and span. Keys are tried in turn on the EPs
  not yet paired: the same EP; the same span and intrinsic variable; the same span and
  predicate; the same intrinsic variable (a quantifier with its quantifier); the same predicate
  and label. The workbench's edits and `lit diff`'s steps read this.
* ``PARSES``: two independent parses, which share neither variables nor spans (`lit diff`).
  Passes: the same predicate (lit.mrs.graph.predicate_label) and constant with the same
  neighbours (the predicates filling its roles and taking it as a role), then the same
  predicate alone, in sentence order; then by slot until nothing more pairs: an EP filling role
  R of a paired EP with the EP filling R of its partner; an EP whose roles all point at paired
  variables with one whose same roles point at their partners; a modifier of a paired variable
  with a modifier of its partner of the same part of speech; the two main predications; last,
  quantifiers through their bound variables.
* ``ROLES``: a premise with a hypothesis (`lit analyze`, docs/shortcuts.md). The two main
  predications (`index_ep`, `Reach.CLAUSE`); their same-role x-arguments, then, from every
  aligned pair of entities, their modifiers (paired by equal predicate, then by kind in
  order; a paired PP or compound aligns its object too); the main events' modifiers the same
  way; last, entities left over on both sides, by equal predicate. Modifiers of aligned heads
  left unpaired, and hypothesis entities left over, are links with one side only.

Everything is read from PyDelphin MRS objects; nothing is changed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum

from delphin import variable
from delphin.mrs import EP, MRS

from lit.mrs.graph import predicate_label
from lit.mrs.parts import Reach, entity_head, ep_name, index_ep, modifiers, predicate_name, x_arg

#: The roles of a main predication whose x-arguments `Method.ROLES` aligns.
ROLES = ("ARG1", "ARG2", "ARG3", "ARG4")


class Method(Enum):
    """How two MRSs are related, which decides what pairs (see the module docstring)."""

    COPY = "copy"
    PARSES = "parses"
    ROLES = "roles"


@dataclass(frozen=True)
class Link:
    """Two EPs paired (indexes into A's and B's rels), or one EP reported with no partner
    (None on the other side), and how: the pass that paired them ("copy", "predicate", "slot",
    "quantifier") or, for `Method.ROLES`, the role ("verb", "ARG1".., "mod" a modifier, "pp" a
    PP's or compound's object, "other") and a modifier's *kind* (adj, adv, pp, poss, compound,
    number, relcl or other)."""

    a: int | None
    b: int | None
    role: str
    kind: str | None = None


@dataclass(frozen=True)
class Alignment:
    """The links in the order found; the pairs they make (A index -> B index, sorted); the EPs
    of A (removed) and of B (added) in no pair; and the variable (and label) map from A to B
    the pairs imply."""

    links: tuple[Link, ...]
    pairs: dict[int, int]
    removed: tuple[int, ...]
    added: tuple[int, ...]
    varmap: dict[str, str]


def key(ep: EP) -> tuple[str, str | None]:
    """What must agree for two EPs of two parses to be the same predication: predicate and
    constant."""
    return predicate_label(ep.predicate), ep.carg


def _part_of_speech(pred: str) -> str:
    """The ERG predicate's part of speech (``_red_a_1`` -> "a"), "" for abstract ones."""
    parts = predicate_label(pred).lstrip("_").split("_")
    return parts[1] if pred.startswith("_") and len(parts) > 1 else ""


def _modifier_kind(ep: EP, of_event: bool) -> str:
    """What a modifier is: adj or adv (by what it modifies), pp, poss, compound, number,
    relcl (a verb: a participle or relative clause) or other."""
    pred = predicate_name(ep)
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


class _Pairing:
    """The links made so far, the EPs they took, and the variable map the pairs imply."""

    def __init__(self, a: MRS, b: MRS) -> None:
        self.a, self.b = a, b
        self.links: list[Link] = []
        self.a_to_b: dict[int, int] = {}
        self.b_taken: set[int] = set()
        self.varmap: dict[str, str] = {}

    def pair(self, i: int, j: int, role: str, kind: str | None = None) -> None:
        self.links.append(Link(i, j, role, kind))
        self.a_to_b[i] = j
        self.b_taken.add(j)
        x, y = self.a.rels[i], self.b.rels[j]
        if not x.is_quantifier():  # an EP's own label and variable are its partner's
            self.varmap[x.label] = y.label
            if x.iv and y.iv:
                self.varmap[x.iv] = y.iv
        for arg, value in x.args.items():
            other = y.args.get(arg)
            if (arg != "CARG" and other is not None
                    and variable.type(value) == variable.type(other)):
                self.varmap.setdefault(value, other)

    def free_a(self, quantifiers: bool = False) -> list[int]:
        return [i for i, ep in enumerate(self.a.rels)
                if i not in self.a_to_b and ep.is_quantifier() == quantifiers]

    def free_b(self, quantifiers: bool = False) -> list[int]:
        return [j for j, ep in enumerate(self.b.rels)
                if j not in self.b_taken and ep.is_quantifier() == quantifiers]

    def result(self) -> Alignment:
        return Alignment(
            tuple(self.links), dict(sorted(self.a_to_b.items())),
            tuple(i for i in range(len(self.a.rels)) if i not in self.a_to_b),
            tuple(j for j in range(len(self.b.rels)) if j not in self.b_taken),
            dict(self.varmap))


Key = Callable[[int], Hashable | None]


def _by_key(p: _Pairing, key_a: Key, key_b: Key, role: str) -> None:
    """Pair each free A EP, in order, with the first free B EP of the same key (None: the EP
    takes no part)."""
    waiting: dict[Hashable, list[int]] = {}
    for j in range(len(p.b.rels)):
        if j not in p.b_taken and (k := key_b(j)) is not None:
            waiting.setdefault(k, []).append(j)
    for i in range(len(p.a.rels)):
        if i not in p.a_to_b and (k := key_a(i)) is not None and waiting.get(k):
            p.pair(i, waiting[k].pop(0), role)


# --- Method.COPY ---------------------------------------------------------------------------

_COPY_KEYS: tuple[Callable[[EP], Hashable | None], ...] = (
    lambda ep: (ep.predicate, ep.label, tuple(sorted(ep.args.items()))),
    lambda ep: (str(ep.lnk), ep.iv, ep.is_quantifier()) if ep.lnk else None,
    lambda ep: (str(ep.lnk), ep.predicate) if ep.lnk else None,
    lambda ep: (ep.iv, ep.is_quantifier()) if ep.iv else None,
    lambda ep: (ep.predicate, ep.label),
)


def _of_ep(m: MRS, fn: Callable[[EP], Hashable | None]) -> Key:
    """*fn* as a `Key`: of the EP at an index of *m*."""
    return lambda i: fn(m.rels[i])


def _copy(p: _Pairing) -> None:
    for fn in _COPY_KEYS:
        _by_key(p, _of_ep(p.a, fn), _of_ep(p.b, fn), "copy")


# --- Method.PARSES -------------------------------------------------------------------------

def _neighbours(m: MRS) -> list[frozenset]:
    """Per EP: the keys of the EPs filling its roles and of the EPs taking it as a role."""
    fillers: dict[str, EP] = {}
    for ep in m.rels:
        if ep.iv and not ep.is_quantifier():
            fillers.setdefault(ep.iv, ep)
    users: dict[str, list[tuple[str, str]]] = {}
    for ep in m.rels:
        if ep.is_quantifier():
            continue
        for role, value in ep.args.items():
            if role != "ARG0":
                users.setdefault(value, []).append((role, key(ep)[0]))
    found = []
    for ep in m.rels:
        near = {(role, key(fillers[v])[0]) for role, v in ep.args.items()
                if role != "ARG0" and v in fillers}
        near |= {("by", r, pred) for r, pred in users.get(ep.iv or "", ())}
        found.append(frozenset(near))
    return found


def _predicate_key(m: MRS, near: list[frozenset] | None) -> Key:
    """An EP's `key` (with its neighbours if *near*); None for a quantifier."""
    def of(i: int) -> Hashable | None:
        ep = m.rels[i]
        if ep.is_quantifier():
            return None
        return (key(ep), near[i]) if near is not None else key(ep)
    return of


def _slot_candidates(p: _Pairing, i: int) -> list[int]:
    """Free B EPs standing where A's EP *i* stands (see the module docstring)."""
    a, b = p.a, p.b
    ep = a.rels[i]
    free = p.free_b()
    found = []
    if ep.iv:  # the EP filling role R of a paired EP
        for k, user in enumerate(a.rels):
            if k in p.a_to_b and not user.is_quantifier():
                partner = b.rels[p.a_to_b[k]]
                for role, value in user.args.items():
                    if role != "ARG0" and value == ep.iv and role in partner.args:
                        found += [j for j in free if b.rels[j].iv == partner.args[role]]
    mapped = {r: p.varmap[v] for r, v in ep.args.items()
              if r not in ("ARG0", "CARG") and v in p.varmap}
    if mapped:  # every mapped role points at the partner's
        pos = _part_of_speech(ep.predicate)
        found += [j for j in free if all(b.rels[j].args.get(r) == v for r, v in mapped.items())
                  and (set(mapped) != {"ARG1"} or _part_of_speech(b.rels[j].predicate) == pos)]
    if ep.iv == a.index:
        found += [j for j in free if b.rels[j].iv == b.index]
    return found


def _by_slot(p: _Pairing) -> None:
    changed = True
    while changed:
        changed = False
        for i in p.free_a():
            found = [j for j in _slot_candidates(p, i) if j not in p.b_taken]
            if found:
                p.pair(i, found[0], "slot")
                changed = True


def _quantifiers(p: _Pairing) -> None:
    for i in p.free_a(quantifiers=True):
        target = p.varmap.get(p.a.rels[i].iv or "")
        for j in p.free_b(quantifiers=True):
            if target is not None and p.b.rels[j].iv == target:
                p.pair(i, j, "quantifier")
                break


def _parses(p: _Pairing) -> None:
    _by_key(p, _predicate_key(p.a, _neighbours(p.a)), _predicate_key(p.b, _neighbours(p.b)),
            "predicate")
    _by_key(p, _predicate_key(p.a, None), _predicate_key(p.b, None), "predicate")
    _by_slot(p)
    _quantifiers(p)


# --- Method.ROLES --------------------------------------------------------------------------

def _object(ep: EP) -> str | None:
    """A PP's or compound's own x-argument (ARG2), which alignment follows."""
    arg2 = ep.args.get("ARG2", "")
    return arg2 if arg2 and variable.type(arg2) == "x" else None


def _entities(m: MRS) -> list[EP]:
    """EPs introducing an x (nouns, names, pronouns), not quantifiers."""
    return [e for e in m.rels if not e.is_quantifier() and e.iv
            and variable.type(e.iv) == "x"]


class _Roles:
    """`Method.ROLES` on a pairing: which EPs each side has linked so far (unpaired ones
    reported too), by identity."""

    def __init__(self, p: _Pairing) -> None:
        self.p = p
        self.index_a = {id(e): i for i, e in enumerate(p.a.rels)}
        self.index_b = {id(e): j for j, e in enumerate(p.b.rels)}
        self.done_a: set[int] = set()
        self.done_b: set[int] = set()

    def run(self) -> None:
        pm, hm = index_ep(self.p.a, Reach.CLAUSE), index_ep(self.p.b, Reach.CLAUSE)
        if pm is None or hm is None:
            return
        self._link("verb", pm, hm)
        for role in ROLES:
            xp, xh = x_arg(pm, role), x_arg(hm, role)
            if xp and xh:
                self._entities(role, xp, xh)
        self._pair_modifiers(pm, hm, of_event=True)
        self._leftovers()

    def _link(self, role: str, a: EP | None, b: EP | None, kind: str | None = None) -> None:
        i = self.index_a[id(a)] if a is not None else None
        j = self.index_b[id(b)] if b is not None else None
        self.done_a.update(() if a is None else (id(a),))
        self.done_b.update(() if b is None else (id(b),))
        if i is not None and j is not None:
            self.p.pair(i, j, role, kind)
        else:
            self.p.links.append(Link(i, j, role, kind))

    def _entities(self, role: str, xp: str, xh: str) -> None:
        a, b = entity_head(self.p.a, xp), entity_head(self.p.b, xh)
        if a is None or b is None or id(a) in self.done_a or id(b) in self.done_b:
            return
        self._link(role, a, b)
        self._pair_modifiers(a, b, of_event=False)

    def _pair_modifiers(self, a: EP, b: EP, of_event: bool) -> None:
        mp = [e for e in modifiers(self.p.a, a) if id(e) not in self.done_a]
        mh = [e for e in modifiers(self.p.b, b) if id(e) not in self.done_b]
        pairs = []
        for same_kind_only in (False, True):
            for e in list(mp):
                match = next((f for f in mh if (
                    _modifier_kind(f, of_event) == _modifier_kind(e, of_event) if same_kind_only
                    else ep_name(f) == ep_name(e))), None)
                if match is not None:
                    pairs.append((e, match))
                    mp.remove(e)
                    mh.remove(match)
        for e, f in pairs:
            self._link("mod", e, f, _modifier_kind(e, of_event))
        for e, f in pairs:
            op, oh = _object(e), _object(f)
            if op and oh:
                self._entities("pp", op, oh)
        for e in mp:
            self._link("mod", e, None, _modifier_kind(e, of_event))
        for f in mh:
            self._link("mod", None, f, _modifier_kind(f, of_event))

    def _leftovers(self) -> None:
        rest_b = [e for e in _entities(self.p.b) if id(e) not in self.done_b]
        for a in (e for e in _entities(self.p.a) if id(e) not in self.done_a):
            b = next((f for f in rest_b if ep_name(f) == ep_name(a)), None)
            if b is not None:
                rest_b.remove(b)
                self._link("other", a, b)
        for b in rest_b:
            self._link("other", None, b)


_METHODS: dict[Method, Callable[[_Pairing], None]] = {
    Method.COPY: _copy,
    Method.PARSES: _parses,
    Method.ROLES: lambda p: _Roles(p).run(),
}


def align(a: MRS, b: MRS, method: Method) -> Alignment:
    """Pair the EPs of *a* and *b* as *method* says (see the module docstring)."""
    p = _Pairing(a, b)
    _METHODS[method](p)
    return p.result()
