"""What an ERG MRS says about tense, aspect, voice, modality, negation, clefts and questions.

Shared by label-rule preconditions, dataset analysis and rule preconditions, so every part of
LIT reads these phenomena the same way (docs/design.md §3). Rule patterns reach the same
definitions through ``ANCHORS`` (``@index``, ``@modal``, ``@neg``, ``@cleft_2025``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from delphin import variable
from delphin.mrs import EP, MRS

from lit.config import DEFAULT_GRAMMAR_VERSION

MODAL_RE = re.compile(r"^_(\w+)_v_modal$")


def _pred(ep: EP) -> str:
    return ep.predicate.lstrip('"').rstrip('"')


def _qeq_targets(m: MRS, handle: str) -> list[EP]:
    """EPs labelled by *handle* or by the label it is qeq to."""
    lo = next((hc.lo for hc in m.hcons if hc.hi == handle), handle)
    return [ep for ep in m.rels if ep.label == lo]


def modal_ep(m: MRS) -> EP | None:
    """The modal EP whose event is INDEX, if the main clause is modalised."""
    for ep in m.rels:
        if ep.iv == m.index and MODAL_RE.match(_pred(ep)):
            return ep
    return None


def index_ep(m: MRS) -> EP | None:
    """The main predication: the EP whose ARG0 is INDEX, seen through a modal wrapper (and the
    `neg` or scopal adverbs between modal and verb: "may not", "must also") and, in an ERG 2025
    it-cleft (bare INDEX), through the ICONS focus."""
    ep = next((e for e in m.rels if e.iv == m.index and not e.is_quantifier()), None)
    if ep is not None and MODAL_RE.match(_pred(ep)):
        return _head_under(m, ep.args.get("ARG1"), {ep.label}) or ep
    if ep is None:
        focus_events = {ic.left for ic in m.icons if ic.relation == "focus"}
        ep = next((e for e in m.rels if e.iv in focus_events and not e.is_quantifier()), None)
    return ep


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
    if head is not None and arg1 and variable.type(arg1) == "h" and "_v_" not in _pred(head):
        return _head_under(m, arg1, seen) or head
    return head


def negation_ep(m: MRS) -> EP | None:
    """A `neg` EP scoping over the index EP (or its modal) — sentential negation."""
    targets = {e.label for e in (index_ep(m), modal_ep(m)) if e is not None}
    for ep in m.rels:
        if _pred(ep) == "neg" and "ARG1" in ep.args:
            if any(t.label in targets for t in _qeq_targets(m, ep.args["ARG1"])):
                return ep
    return None


def cleft_2025_ep(m: MRS) -> EP | None:
    """The clefted verb's EP if *m* has the ERG 2025 it-cleft signature: INDEX is a bare event
    that no EP carries, and ICONS has a focus on the main verb's event (found through that
    focus). A focus alone is not a cleft: fronted modifiers and other constructions have one
    on an INDEX that an EP carries."""
    if any(e.iv == m.index for e in m.rels):
        return None
    main = index_ep(m)
    if main is None or not any(ic.relation == "focus" and ic.left == main.iv for ic in m.icons):
        return None
    return main


def _is_cleft(m: MRS, main_event: str | None, grammar_version: str) -> bool:
    """ERG 2025: `cleft_2025_ep`. ERG 2018 clefts focus an argument of the INDEX event itself;
    1214 used `_be_v_itcleft`."""
    if grammar_version == "1214":
        return any(_pred(ep) == "_be_v_itcleft" for ep in m.rels)
    if grammar_version >= "2025":
        return cleft_2025_ep(m) is not None
    return main_event == m.index and any(
        ic.relation == "focus" and ic.left == main_event for ic in m.icons
    )


#: The anchors rule patterns may start with (``[ @index ... ]``): the one definition of each.
ANCHORS: dict[str, Callable[[MRS], EP | None]] = {
    "index": index_ep,
    "modal": modal_ep,
    "neg": negation_ep,
    "cleft_2025": cleft_2025_ep,
}


@dataclass(frozen=True)
class Phenomena:
    """Main-clause phenomena of one MRS; None where the MRS does not say."""

    tense: str | None
    prog: str | None
    perf: str | None
    sf: str | None
    mood: str | None
    modal: str | None
    negated: bool
    passive: bool
    cleft: bool
    question: bool
    index_predicate: str | None

    @property
    def voice(self) -> str:
        return "passive" if self.passive else "active"


def describe(m: MRS, grammar_version: str = DEFAULT_GRAMMAR_VERSION) -> Phenomena:
    """Read the main clause's phenomena; tense comes from the modal if there is one."""
    main = index_ep(m)
    modal = modal_ep(m)
    tensed_event = modal.iv if modal else (main.iv if main else m.index)
    props = {k.upper(): str(v).lower() for k, v in m.variables.get(tensed_event or "", {}).items()}
    index_props = {k.upper(): str(v).lower() for k, v in m.variables.get(m.index or "", {}).items()}
    main_event = main.iv if main else None
    promoted = {v for r, v in main.args.items() if r not in ("ARG0", "ARG1")} if main else set()
    modal_match = MODAL_RE.match(_pred(modal)) if modal else None
    return Phenomena(
        tense=props.get("TENSE"),
        prog=props.get("PROG"),
        perf=props.get("PERF"),
        sf=index_props.get("SF"),
        mood=props.get("MOOD"),
        modal=modal_match.group(1) if modal_match else None,
        negated=negation_ep(m) is not None,
        passive=any(
            ic.relation == "topic" and ic.left == main_event and ic.right in promoted
            for ic in m.icons
        ),
        cleft=_is_cleft(m, main_event, grammar_version),
        question=index_props.get("SF") == "ques",
        index_predicate=_pred(main) if main else None,
    )
