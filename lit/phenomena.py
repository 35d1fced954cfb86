"""What an ERG MRS says about tense, aspect, voice, modality, negation, clefts and questions.

Shared by label-rule preconditions, dataset analysis and rule preconditions, so every part of
LIT reads these phenomena the same way (docs/design.md §3). Rule patterns reach the same
definitions through ``ANCHORS`` (``@index``, ``@modal``, ``@neg``, ``@cleft_2025``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from delphin.mrs import EP, MRS

from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.mrs import MODAL_RE, index_ep, predicate_name, properties


def _qeq_targets(m: MRS, handle: str) -> list[EP]:
    """EPs labelled by *handle* or by the label it is qeq to."""
    lo = next((hc.lo for hc in m.hcons if hc.hi == handle), handle)
    return [ep for ep in m.rels if ep.label == lo]


def modal_ep(m: MRS) -> EP | None:
    """The modal EP whose event is INDEX, if the main clause is modalised."""
    for ep in m.rels:
        if ep.iv == m.index and MODAL_RE.match(predicate_name(ep)):
            return ep
    return None


def negation_ep(m: MRS) -> EP | None:
    """A `neg` EP scoping over the index EP (or its modal) — sentential negation."""
    targets = {e.label for e in (index_ep(m), modal_ep(m)) if e is not None}
    for ep in m.rels:
        if predicate_name(ep) == "neg" and "ARG1" in ep.args:
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
        return any(predicate_name(ep) == "_be_v_itcleft" for ep in m.rels)
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
    props = properties(m, tensed_event)
    index_props = properties(m, m.index)
    main_event = main.iv if main else None
    promoted = {v for r, v in main.args.items() if r not in ("ARG0", "ARG1")} if main else set()
    modal_match = MODAL_RE.match(predicate_name(modal)) if modal else None
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
        index_predicate=predicate_name(main) if main else None,
    )
