"""What a rule did to an MRS, written as the edits of the rule language (docs/rules.md,
"Edits") with the MRS's own variables: ``remove [ ... ]``, ``change [ PRED ARG0: x ] [ ROLE:
new ]``, ``add [ ... ]``, ``add h1 qeq h2``, ``add e2 topic x3``, ``set e2 [ TENSE: past ]``,
``unset e2 PROG``, ``INDEX = e9``.

The engine builds a result from a copy of its source (lit.rules.matcher.Draft), so variables
keep their names and an EP its position and character span; lit.mrs.align pairs EPs on those
(`Method.COPY`), and what is left unpaired was removed or added. Property values are written as
the rule left them (`properties(..., lower=False)`).
"""

from __future__ import annotations

from collections import Counter

from delphin import variable
from delphin.mrs import EP, MRS

from lit.mrs import Alignment, Method, align, properties


def _term(m: MRS, var: str, inline: set[str]) -> str:
    """A variable as a pattern writes it, with its type and properties the first time a new
    variable is written (those in *inline*, which this empties as it goes)."""
    if var not in inline:
        return var
    inline.discard(var)
    props = " ".join(f"{k}: {v}" for k, v in properties(m, var, lower=False).items())
    return f"{var} [{variable.type(var)} {props}]" if props else var


def _value(m: MRS, role: str, value: str, inline: set[str]) -> str:
    return f'"{value}"' if role == "CARG" else _term(m, value, inline)


def ep_text(m: MRS, ep: EP, inline: set[str] | None = None) -> str:
    """``[ PRED LBL: h ARG0: e ... ]``, new variables in *inline* with their properties."""
    inline = inline if inline is not None else set()
    roles = [f"LBL: {ep.label}"] + [f"{r}: {_value(m, r, v, inline)}" for r, v in ep.args.items()]
    return f"[ {ep.predicate} {' '.join(roles)} ]"


def _which(ep: EP) -> str:
    """An EP as a ``change`` line names it: its predicate and intrinsic variable (or label)."""
    return f"[ {ep.predicate} {'ARG0: ' + ep.iv if ep.iv else 'LBL: ' + ep.label} ]"


def _change(source: MRS, a: EP, result: MRS, b: EP, inline: set[str]) -> str | None:
    """``change [ PRED ARG0: x ] [ NEWPRED ROLE: new ... ]``; a role the result lacks is
    written ``ROLE: -``; None if the EP is unchanged."""
    parts = [b.predicate] if b.predicate != a.predicate else []
    if b.label != a.label:
        parts.append(f"LBL: {b.label}")
    for role, value in b.args.items():
        if a.args.get(role) != value:
            parts.append(f"{role}: {_value(result, role, value, inline)}")
    parts += [f"{role}: -" for role in a.args if role not in b.args]
    return f"change {_which(a)} [ {' '.join(parts)} ]" if parts else None


def _constraints(before: list[tuple[str, str, str]],
                 after: list[tuple[str, str, str]]) -> list[str]:
    """``remove`` / ``add`` lines for the HCONS or ICONS that differ (as multisets)."""
    old, new = Counter(before), Counter(after)
    lines = [f"remove {' '.join(c)}" for c in sorted((old - new).elements())]
    return lines + [f"add {' '.join(c)}" for c in sorted((new - old).elements())]


def _property_edits(source: MRS, result: MRS, skip: set[str]) -> list[str]:
    """``set`` / ``unset`` lines for the variables of *result* whose properties differ from
    the source's (a new variable's properties, unless written inline: *skip*)."""
    lines = []
    for var in result.variables:
        if var in skip:
            continue
        old, new = properties(source, var, lower=False), properties(result, var, lower=False)
        changed = {k: v for k, v in new.items() if old.get(k) != v}
        if changed:
            lines.append(f"set {var} [ {' '.join(f'{k}: {v}' for k, v in changed.items())} ]")
        gone = [k for k in old if k not in new]
        if gone and var in source.variables:
            lines.append(f"unset {var} {' '.join(gone)}")
    return lines


def edits(source: MRS, result: MRS, alignment: Alignment | None = None) -> list[str]:
    """The edits that turn *source* into *result*, one per line, in this order: EPs removed,
    changed and added; HCONS; ICONS; properties; TOP and INDEX."""
    alignment = alignment or align(source, result, Method.COPY)
    new_vars = {v for v in result.variables if v not in source.variables}
    inline = set(new_vars)
    lines = [f"remove {ep_text(source, source.rels[i])}" for i in alignment.removed]
    for i, j in sorted(alignment.pairs.items()):
        line = _change(source, source.rels[i], result, result.rels[j], inline)
        if line:
            lines.append(line)
    lines += [f"add {ep_text(result, result.rels[j], inline)}" for j in alignment.added]
    lines += _constraints([(h.hi, h.relation, h.lo) for h in source.hcons],
                          [(h.hi, h.relation, h.lo) for h in result.hcons])
    lines += _constraints([(c.left, c.relation, c.right) for c in source.icons],
                          [(c.left, c.relation, c.right) for c in result.icons])
    lines += _property_edits(source, result, new_vars - inline)
    for name, old, new in (("TOP", source.top, result.top), ("INDEX", source.index, result.index)):
        if old != new:
            lines.append(f"{name} = {new}")
    return lines


def changed_eps(source: MRS, result: MRS, alignment: Alignment) -> tuple[set[int], set[int]]:
    """(source EPs, result EPs) that an edit touched: removed, added, or paired but with
    another predicate, label, role or intrinsic-variable property."""
    before, after = set(alignment.removed), set(alignment.added)
    for i, j in alignment.pairs.items():
        a, b = source.rels[i], result.rels[j]
        if (a.predicate, a.label, a.args) != (b.predicate, b.label, b.args) or (
                a.iv and properties(source, a.iv, lower=False)
                != properties(result, b.iv, lower=False)):
            before.add(i)
            after.add(j)
    return before, after
