"""Several meaning-changing edits of one sentence as one natural-logic edit (issue 42).

Counterfactual writers often change two words at once ("A man is on a bike." -> "A woman is
on a truck."). Each edit has a lexical relation at the polarity of its position; edits at
different positions commute, so their composition depends only on their *effective*
relations (the relation at an upward position; hypernym and hyponym swap at a downward one):

* all more specific (hyponym), or all more general (hypernym): the sentence is too;
* one or more exclusive edits (sibling, disjoint, antonym) in upward positions, whatever the others
  are (more specific, more general, unrelated words, in any position): the sentence excludes
  the original, under the same-scene reading LIT's rules already assume (docs/labelrules.md:
  about one scene, a woman is not a man, whatever else changed: H' says A'(x) where H says
  A(x), and A' excludes A, so H' and H cannot both hold of one scene) -- the first exclusive
  edit names the relation;
* anything else (more specific here and more general there, an exclusive edit under a
  downward operator only, a position without polarity, unrelated words): no single
  relation.

The composite is then one edit at an upward position, decided by the same `edit` rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lit.logic import DOWN, UP, Edit

EXCLUSIVE = ("sibling", "disjoint", "antonym")
_FLIPPED = {"hypernym": "hyponym", "hyponym": "hypernym"}


@dataclass(frozen=True)
class Composed:
    """The edits' joint relation (at an upward position), or why there is none."""

    relation: str | None
    reason: str | None = None


def effective(edit: Edit) -> str | None:
    """The relation *edit* gives the whole sentence, as if at an upward position; None when
    it cannot be read so (no polarity; an exclusive edit under a downward operator)."""
    if edit.relation == "same":
        return "same"
    if edit.polarity == UP:
        return edit.relation
    if edit.polarity == DOWN and edit.relation in _FLIPPED:
        return _FLIPPED[edit.relation]
    return None


def compose(edits: Sequence[Edit]) -> Composed:
    """The joint relation of *edits* at independent positions (see the module)."""
    exclusive_up = [e.relation for e in edits if e.relation in EXCLUSIVE and e.polarity == UP]
    if exclusive_up:
        return Composed(exclusive_up[0])
    relations = []
    for e in edits:
        r = effective(e)
        if r is None or r == "unrelated":
            why = ("unrelated words" if e.relation == "unrelated" else
                   f"{e.relation} at polarity {e.polarity}")
            return Composed(None, f"{e.describe()} has no relation to compose ({why})")
        if r != "same":
            relations.append(r)
    exclusive = [r for r in relations if r in EXCLUSIVE]
    if exclusive:
        return Composed(exclusive[0])
    kinds = set(relations)
    if len(kinds) > 1:
        return Composed(None, "the edits go both ways: one makes the sentence more specific, "
                        "another more general")
    return Composed(relations[0] if relations else "same")
