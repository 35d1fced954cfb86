"""What differs between two independently parsed MRSs (issue 42), under their alignment
(lit.mrs.align, `Method.PARSES`).

A paired EP differs when its predicate or constant differs, a role points elsewhere (through
the partner map; a handle through its qeq), or a property of its intrinsic variable differs
(TENSE, PROG, PERF, SF, MOOD; NUM, GEND). ICONS are compared through the map.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from delphin import variable
from delphin.mrs import EP, MRS

from lit.mrs import Alignment, Method, align, key, properties
from lit.mrs.graph import EVENT_PROPERTIES

#: Properties of an individual a sentence change shows in ("a dog" -> "dogs", "he" -> "she").
INDIVIDUAL_PROPERTIES = ("NUM", "GEND")


def ep_text(ep: EP) -> str:
    """An EP as diffs show it: ``_man_n_1<2:5>``, ``named(Bob)<0:3>``."""
    name = ep.predicate + (f"({ep.carg})" if ep.carg is not None else "")
    return f"{name}<{ep.cfrom}:{ep.cto}>" if ep.lnk else name


def property_names(var: str | None) -> tuple[str, ...]:
    return EVENT_PROPERTIES if var and variable.type(var) == "e" else INDIVIDUAL_PROPERTIES


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
    changed: list[tuple[str, str, str]] = []
    if x.iv and y.iv and not x.is_quantifier():
        names = property_names(x.iv)
        pa, pb = properties(a, x.iv, names), properties(b, y.iv, names)
        changed = [(n, pa[n], pb[n]) for n in names  # a property only one side has
                   if n in pa and n in pb and pa[n] != pb[n]]  # goes with its predicate
    if key(x) == key(y) and not roles and not changed:
        return None
    return PairChange(i, j, key(x) != key(y), roles, tuple(changed))


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
    alignment = align(a, b, Method.PARSES)
    changes = tuple(c for i, j in alignment.pairs.items()
                    if (c := _pair_change(a, b, i, j, alignment.varmap)) is not None)
    return Difference(alignment, changes, _icons(a, b, alignment.varmap))
