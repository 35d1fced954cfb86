"""Pair the EPs of two independently parsed MRSs and list what differs (issue 42).

lit.workbench.mrsdiff pairs a source with a result the rule engine built from it, so variables
and spans agree; two parses of two sentences share neither. Here EPs are paired in passes:

1. the same predicate (lit.mrsgraph.predicate_label) and constant, with the same neighbours
   (the predicates filling its roles and taking it as a role), then the same predicate alone,
   in sentence order;
2. by slot, until nothing more pairs: an EP filling role R of a paired EP with the EP filling
   R of its partner; an EP whose roles all point at paired variables with one whose same roles
   point at their partners; a modifier of a paired variable with a modifier of its partner of
   the same part of speech; the two main predications;
3. quantifiers through their bound variables.

A paired EP differs when its predicate or constant differs, a role points elsewhere (through
the partner map; a handle through its qeq), or a property of its intrinsic variable differs
(TENSE, PROG, PERF, SF, MOOD; NUM, GEND). ICONS are compared through the map.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from delphin import variable
from delphin.mrs import EP, MRS

from lit.mrsgraph import EVENT_PROPERTIES, predicate_label

#: Properties of an individual a sentence change shows in ("a dog" -> "dogs", "he" -> "she").
INDIVIDUAL_PROPERTIES = ("NUM", "GEND")


def key(ep: EP) -> tuple[str, str | None]:
    """What must agree for two EPs to be the same predication: predicate and constant."""
    return predicate_label(ep.predicate), ep.carg


def ep_text(ep: EP) -> str:
    """An EP as diffs show it: ``_man_n_1<2:5>``, ``named(Bob)<0:3>``."""
    name = ep.predicate + (f"({ep.carg})" if ep.carg is not None else "")
    return f"{name}<{ep.cfrom}:{ep.cto}>" if ep.lnk else name


def part_of_speech(pred: str) -> str:
    """The ERG predicate's part of speech (``_red_a_1`` -> "a"), "" for abstract ones."""
    parts = predicate_label(pred).lstrip("_").split("_")
    return parts[1] if pred.startswith("_") and len(parts) > 1 else ""


def props(m: MRS, var: str | None, names: tuple[str, ...]) -> dict[str, str]:
    """The properties *names* of *var* (upper-case names, lower-case values)."""
    found = {k.upper(): str(v).lower() for k, v in m.variables.get(var or "", {}).items()}
    return {k: v for k, v in found.items() if k in names}


def property_names(var: str | None) -> tuple[str, ...]:
    return EVENT_PROPERTIES if var and variable.type(var) == "e" else INDIVIDUAL_PROPERTIES


@dataclass(frozen=True)
class Alignment:
    """Pairs of EP indexes (A, B), the unpaired EPs of A (removed) and of B (added), and the
    variable (and label) map from A to B the pairs imply."""

    pairs: tuple[tuple[int, int], ...]
    removed: tuple[int, ...]
    added: tuple[int, ...]
    varmap: dict[str, str]


@dataclass(frozen=True)
class PairChange:
    """How a paired EP differs: ``predicate`` (its key changed), the roles that point
    elsewhere, and the properties of its intrinsic variable that changed (name, A's, B's)."""

    a: int
    b: int
    predicate: bool
    roles: tuple[str, ...]
    properties: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Difference:
    """Everything that differs between A and B under an alignment."""

    alignment: Alignment
    changes: tuple[PairChange, ...]
    icons: tuple[IconsChange, ...]

    @property
    def cost(self) -> int:
        """Each EP removed or added, predicate, role and property changed, and ICONS
        difference counted once: what a rule step that brings A nearer to B lowers."""
        a = self.alignment
        return (len(a.removed) + len(a.added) + len(self.icons) + sum(
            c.predicate + len(c.roles) + len(c.properties) for c in self.changes))

    @property
    def size(self) -> int:
        """EPs touched (removed, added, paired but changed) plus ICONS differences."""
        a = self.alignment
        return len(a.removed) + len(a.added) + len(self.changes) + len(self.icons)


def _hole_target(m: MRS, value: str) -> str:
    """A handle argument's qeq label (what it outscopes), else the handle itself."""
    return next((hc.lo for hc in m.hcons if hc.hi == value), value)


def _fillers(m: MRS) -> dict[str, EP]:
    """Variable -> the non-quantifier EP it is the intrinsic variable of (the first)."""
    found: dict[str, EP] = {}
    for ep in m.rels:
        if ep.iv and not ep.is_quantifier():
            found.setdefault(ep.iv, ep)
    return found


def _neighbours(m: MRS, fillers: dict[str, EP]) -> list[frozenset]:
    """Per EP: the keys of the EPs filling its roles and of the EPs taking it as a role."""
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
        near |= {("by", r, p) for r, p in users.get(ep.iv or "", ())}
        found.append(frozenset(near))
    return found


class _Pairing:
    """The pairs made so far, and the variable map they imply."""

    def __init__(self, a: MRS, b: MRS) -> None:
        self.a, self.b = a, b
        self.a_to_b: dict[int, int] = {}
        self.b_taken: set[int] = set()
        self.varmap: dict[str, str] = {}

    def pair(self, i: int, j: int) -> None:
        self.a_to_b[i] = j
        self.b_taken.add(j)
        x, y = self.a.rels[i], self.b.rels[j]
        if not x.is_quantifier():  # an EP's own label and variable are its partner's
            self.varmap[x.label] = y.label
            if x.iv and y.iv:
                self.varmap[x.iv] = y.iv
        for role, value in x.args.items():
            other = y.args.get(role)
            if role != "CARG" and other is not None and variable.type(value) == variable.type(other):
                self.varmap.setdefault(value, other)

    def free_a(self, quantifiers: bool = False) -> list[int]:
        return [i for i, ep in enumerate(self.a.rels)
                if i not in self.a_to_b and ep.is_quantifier() == quantifiers]

    def free_b(self, quantifiers: bool = False) -> list[int]:
        return [j for j, ep in enumerate(self.b.rels)
                if j not in self.b_taken and ep.is_quantifier() == quantifiers]


def _by_key(p: _Pairing, near_a: list[frozenset] | None, near_b: list[frozenset] | None) -> None:
    for i in p.free_a():
        ka = key(p.a.rels[i])
        for j in p.free_b():
            if key(p.b.rels[j]) == ka and (near_a is None or near_a[i] == near_b[j]):
                p.pair(i, j)
                break


def _slot_candidates(p: _Pairing, i: int) -> list[int]:
    """Free B EPs standing where A's EP *i* stands (see the module docstring, pass 2)."""
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
        pos = part_of_speech(ep.predicate)
        found += [j for j in free if all(b.rels[j].args.get(r) == v for r, v in mapped.items())
                  and (set(mapped) != {"ARG1"} or part_of_speech(b.rels[j].predicate) == pos)]
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
                p.pair(i, found[0])
                changed = True


def _quantifiers(p: _Pairing) -> None:
    for i in p.free_a(quantifiers=True):
        target = p.varmap.get(p.a.rels[i].iv or "")
        for j in p.free_b(quantifiers=True):
            if target is not None and p.b.rels[j].iv == target:
                p.pair(i, j)
                break


def align(a: MRS, b: MRS) -> Alignment:
    """Pair the EPs of *a* and *b* (see the module docstring)."""
    p = _Pairing(a, b)
    fa, fb = _fillers(a), _fillers(b)
    _by_key(p, _neighbours(a, fa), _neighbours(b, fb))
    _by_key(p, None, None)
    _by_slot(p)
    _quantifiers(p)
    return Alignment(
        tuple(sorted(p.a_to_b.items())),
        tuple(i for i in range(len(a.rels)) if i not in p.a_to_b),
        tuple(j for j in range(len(b.rels)) if j not in p.b_taken),
        dict(p.varmap),
    )


def _roles_changed(a: MRS, b: MRS, x: EP, y: EP, varmap: dict[str, str]) -> tuple[str, ...]:
    changed = []
    for role in sorted(set(x.args) | set(y.args)):
        if role in ("ARG0", "CARG"):
            continue
        va, vb = x.args.get(role), y.args.get(role)
        if va is None or vb is None:
            if (va or vb) and variable.type(va or vb) not in ("i", "u"):
                changed.append(role)
            continue
        ta, tb = variable.type(va), variable.type(vb)
        if ta in ("i", "u") and tb in ("i", "u"):
            continue
        if ta == "h":
            va, vb = _hole_target(a, va), _hole_target(b, vb)
        if varmap.get(va) != vb:
            changed.append(role)
    return tuple(changed)


def _pair_change(a: MRS, b: MRS, i: int, j: int, varmap: dict[str, str]) -> PairChange | None:
    x, y = a.rels[i], b.rels[j]
    roles = _roles_changed(a, b, x, y, varmap)
    properties: list[tuple[str, str, str]] = []
    if x.iv and y.iv and not x.is_quantifier():
        names = property_names(x.iv)
        pa, pb = props(a, x.iv, names), props(b, y.iv, names)
        properties = [(n, pa[n], pb[n]) for n in names  # a property only one side has
                      if n in pa and n in pb and pa[n] != pb[n]]  # goes with its predicate
    if key(x) == key(y) and not roles and not properties:
        return None
    return PairChange(i, j, key(x) != key(y), roles, tuple(properties))


@dataclass(frozen=True)
class IconsChange:
    """An ICONS of A with no counterpart in B (``added`` False) or of B with none in A."""

    added: bool
    left: str
    relation: str
    right: str

    def __str__(self) -> str:
        return f"icons {'added' if self.added else 'removed'}: {self.left} {self.relation} " \
               f"{self.right}"


def _icons(a: MRS, b: MRS, varmap: dict[str, str]) -> tuple[IconsChange, ...]:
    def mine(c) -> tuple:
        return varmap.get(c.left), c.relation, varmap.get(c.right)

    mapped = Counter(mine(c) for c in a.icons)
    theirs = Counter((c.left, c.relation, c.right) for c in b.icons)
    gone = [IconsChange(False, c.left, c.relation, c.right) for c in a.icons
            if mapped[mine(c)] > theirs[mine(c)]]
    new = [IconsChange(True, c.left, c.relation, c.right) for c in b.icons
           if theirs[(c.left, c.relation, c.right)] > mapped[(c.left, c.relation, c.right)]]
    return tuple(gone + new)


def difference(a: MRS, b: MRS) -> Difference:
    """Align *a* with *b* and list what differs."""
    alignment = align(a, b)
    changes = tuple(c for i, j in alignment.pairs
                    if (c := _pair_change(a, b, i, j, alignment.varmap)) is not None)
    return Difference(alignment, changes, _icons(a, b, alignment.varmap))
