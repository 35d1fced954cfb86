"""The parts of an ERG MRS that several readers need: a variable's properties, the index EP
(the main predication) and an entity's head, modifiers and arguments. One definition of each,
so that analysis, diffs, the workbench, the label rules and the pipeline read them alike.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from enum import Enum

from delphin import variable
from delphin.mrs import EP, MRS

MODAL_RE = re.compile(r"^_(\w+)_v_modal$")


def properties(m: MRS, var: str | None, names: Collection[str] | None = None, *,
               lower: bool = True) -> dict[str, str]:
    """The properties of *var* in *m*: names upper-case, values lower-case (ACE and PyDelphin
    spell them either way); only those in *names* if given. *lower* False keeps values as
    written, for a reader that writes them back (the workbench's ``set`` edits)."""
    found = {k.upper(): str(v).lower() if lower else str(v)
             for k, v in m.variables.get(var or "", {}).items()}
    return found if names is None else {k: v for k, v in found.items() if k in names}


def predicate_name(ep: EP) -> str:
    """*ep*'s predicate without the quotes a string predicate may carry."""
    return ep.predicate.strip('"')


def ep_name(ep: EP) -> str:
    """The predicate, with its CARG for constants (``named(Bob)``, ``card(2)``)."""
    return f"{predicate_name(ep)}({ep.carg})" if ep.carg is not None else predicate_name(ep)


class Reach(Enum):
    """How far `index_ep` looks past the EP that carries INDEX."""

    #: The EP whose ARG0 is INDEX: for "may not bark" the modal, whose event is the tensed one.
    CARRIER = "carrier"
    #: Through a modal (and the ``neg`` or scopal adverbs under it) to the verb, and in an ERG
    #: 2025 it-cleft (INDEX that no EP carries) through the ICONS focus: what rule anchors and
    #: phenomena read.
    PREDICATION = "predication"
    #: Also through an index that only joins clauses (``_while_x``) to its first clause's head
    #: and, in an NP fragment (``unknown``), to the participle on its noun: what alignment
    #: pairs first ("A young boy playing in the grass." -> *playing*).
    CLAUSE = "clause"


def index_ep(m: MRS, reach: Reach = Reach.PREDICATION) -> EP | None:
    """The main predication of *m*, read as far as *reach* says (see `Reach`)."""
    ep = next((e for e in m.rels if e.iv == m.index and not e.is_quantifier()), None)
    if reach is Reach.CARRIER:
        return ep
    if ep is not None and MODAL_RE.match(predicate_name(ep)):
        ep = _head_under(m, ep.args.get("ARG1"), {ep.label}) or ep
    elif ep is None:
        focus_events = {ic.left for ic in m.icons if ic.relation == "focus"}
        ep = next((e for e in m.rels if e.iv in focus_events and not e.is_quantifier()), None)
    return _clause_head(m, ep) if reach is Reach.CLAUSE else ep


def _head_under(m: MRS, handle: str | None, seen: set[str]) -> EP | None:
    """The head EP of the label *handle* is qeq to, descending through scopal modifiers and
    skipping modifiers that share the head's label (a fronted PP, an adverb)."""
    if not handle:
        return None
    lo = next((hc.lo for hc in m.hcons if hc.hi == handle), handle)
    if lo in seen:
        return None
    seen.add(lo)
    group = [e for e in m.rels if e.label == lo and e.iv and variable.type(e.iv) == "e"]
    events = {e.iv for e in group}
    heads = [e for e in group if e.args.get("ARG1") not in events]
    head = heads[0] if heads else (group[0] if group else None)
    arg1 = head.args.get("ARG1", "") if head else ""
    if (head is not None and arg1 and variable.type(arg1) == "h"
            and "_v_" not in predicate_name(head)):
        return _head_under(m, arg1, seen) or head
    return head


def _clause_head(m: MRS, ep: EP | None) -> EP | None:
    """`Reach.CLAUSE` from the predication *ep*: through clause joiners, then a fragment's
    participle."""
    seen: set[str] = set()
    while ep is not None and _joins_clauses(ep) and ep.label not in seen:
        seen.add(ep.label)
        lo = next((hc.lo for hc in m.hcons if hc.hi == ep.args["ARG1"]), ep.args["ARG1"])
        ep = next((e for e in m.rels if e.label == lo and not e.is_quantifier()
                   and variable.type(e.iv or "u") == "e"
                   and e.args.get("ARG1") not in {x.iv for x in m.rels if x.label == lo}),
                  None)
    x = x_arg(ep, "ARG") if ep is not None and ep.predicate == "unknown" else None
    head = entity_head(m, x) if x else None
    participle = next((e for e in modifiers(m, head) if "_v_" in e.predicate
                       and e.args.get("ARG1") == x), None) if head else None
    return participle or ep


def _joins_clauses(ep: EP) -> bool:
    """An index whose ARG1 is a handle and that has no x-argument (``_and_c`` of two VPs)."""
    arg1 = ep.args.get("ARG1", "")
    return bool(arg1) and variable.type(arg1) == "h" and not any(
        variable.type(v) == "x" for r, v in ep.args.items() if r != "ARG0")


def x_arg(ep: EP, role: str) -> str | None:
    """The x-variable in *role*; a fragment's ``unknown`` has its NP as ARG, read as ARG1 so
    that "A man in a blue shirt." aligns its man with a full sentence's subject."""
    v = ep.args.get(role) or (ep.args.get("ARG", "") if role == "ARG1" else "")
    return v if v and variable.type(v) == "x" else None


def entity_head(m: MRS, x: str) -> EP | None:
    """The EP that introduces *x* (its noun, name or pronoun)."""
    return next((e for e in m.rels if e.iv == x and not e.is_quantifier()), None)


def modifiers(m: MRS, head: EP) -> list[EP]:
    """The EPs that modify *head* intersectively: they share its label and take its ARG0 as
    an argument."""
    return [e for e in m.rels if e.label == head.label and e is not head
            and not e.is_quantifier() and head.iv in e.args.values() and e.iv != head.iv]
