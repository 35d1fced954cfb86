"""Say in words why two MRSs are not equivalent (for oracle reports and rule debugging)."""

from __future__ import annotations

from collections import Counter

from delphin import predicate, variable
from delphin.mrs import MRS

from lit.equivalence import EVENT_PROPERTIES
from lit.mrs import index_ep, properties


def _preds(m: MRS) -> Counter:
    return Counter(predicate.normalize(ep.predicate) for ep in m.rels)


def _owner(m: MRS, var: str) -> str:
    """What a variable stands for: the predicate introducing it, or its type."""
    if var == m.index:
        return "INDEX"
    for ep in m.rels:
        if ep.iv == var and not ep.is_quantifier():
            return predicate.normalize(ep.predicate)
    for hc in m.hcons:
        if hc.hi == var:
            under = [predicate.normalize(e.predicate) for e in m.rels if e.label == hc.lo]
            return "h:" + "/".join(sorted(under))
    return variable.type(var)


def _signatures(m: MRS) -> Counter:
    sigs = Counter()
    for ep in m.rels:
        if ep.is_quantifier():
            continue
        args = ", ".join(
            f"{r}→{_owner(m, v)}" for r, v in sorted(ep.args.items()) if r not in ("ARG0", "CARG")
        )
        sigs[f"{predicate.normalize(ep.predicate)}({args})"] += 1
    return sigs


def explain(ours: MRS, target: MRS) -> str:
    """The first difference found, most basic first: EPs, ICONS, INDEX properties, arguments."""
    a, b = _preds(ours), _preds(target)
    if a != b:
        extra, missing = sorted((a - b).elements()), sorted((b - a).elements())
        return f"EPs differ: ours adds {extra or 'nothing'}, target adds {missing or 'nothing'}"
    ia = sorted(ic.relation for ic in ours.icons)
    ib = sorted(ic.relation for ic in target.icons)
    if ia != ib:
        return f"ICONS differ: ours {ia or 'none'}, target {ib or 'none'}"
    pa, pb = properties(ours, ours.index, EVENT_PROPERTIES), properties(
        target, target.index, EVENT_PROPERTIES)
    if pa != pb:
        return f"INDEX properties differ: ours {pa}, target {pb}"
    sa, sb = _signatures(ours), _signatures(target)
    if sa != sb:
        only_a, only_b = sorted((sa - sb).elements()), sorted((sb - sa).elements())
        return (
            "argument structure differs (the target is another reading, e.g. an attachment): "
            f"ours {'; '.join(only_a)} | target {'; '.join(only_b)}"
        )
    ea, eb = _event_props(ours), _event_props(target)
    if ea != eb:
        only_a, only_b = sorted((ea - eb).elements()), sorted((eb - ea).elements())
        return f"event properties differ: ours {'; '.join(only_a)} | target {'; '.join(only_b)}"
    return "a difference in HCONS or TOP"


def _event_props(m: MRS) -> Counter:
    """Each EP's own event properties, as "pred: PROP=value ..." strings."""
    found = Counter()
    for ep in m.rels:
        if ep.iv and variable.type(ep.iv) == "e":
            own = properties(m, ep.iv, EVENT_PROPERTIES)
            props = " ".join(f"{k}={v}" for k, v in sorted(own.items()))
            found[f"{predicate.normalize(ep.predicate)}: {props}"] += 1
    return found


def unreachable(spec: str, ours: MRS, target: MRS) -> str | None:
    """Why no rule could turn the source into *target*, or None if one could: the target is
    another reading of the source (the same EPs and ICONS and the main verb's own arguments,
    but a modifier attached elsewhere; or a cleft target without ICONS focus), or it carries a
    glb predicate like ``g(190)`` that the oracle's grammar build prints (its README)."""
    if any(predicate.normalize(ep.predicate).startswith("g(") for ep in target.rels):
        return "build gap: glb predicate in the target"
    if "cleft" in spec and not any(ic.relation == "focus" for ic in target.icons):
        return "other reading: the target has no ICONS focus"
    if _preds(ours) != _preds(target):
        return None
    if sorted(i.relation for i in ours.icons) != sorted(i.relation for i in target.icons):
        return None
    sa, sb = _signatures(ours), _signatures(target)
    differing = {s.split("(")[0] for s in (sa - sb) + (sb - sa)}
    main = index_ep(ours)
    if differing and (main is None or predicate.normalize(main.predicate) not in differing):
        return "other reading: a modifier attaches elsewhere"
    return None
