"""`diff_mrs`: the edit from one MRS to another in LIT's vocabulary (issue 42).

The rule modules name what they can (lit.diff.search: a greedy chain of steps from A towards
B), then what is left is named by its shape (lit.diff.naming); what neither names is the
residue. Equivalent MRSs (lit.equivalence) make one ``o`` edit: the identity.
"""

from __future__ import annotations

from dataclasses import replace

from delphin.mrs import MRS

from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.diff.difference import difference, ep_text
from lit.diff.model import EditSize, MrsDiff, NamedEdit, Residue
from lit.diff.naming import HEAD_KINDS, name_rest
from lit.diff.search import IDENTITY, Applied, search
from lit.equivalence import equivalent
from lit.logic.edits import edit_between
from lit.logic.polarity import polarity_of
from lit.mrs import Method, align
from lit.rank.closeness import edit_distance
from lit.rank.surface import tokens
from lit.rules import RuleEngine
from lit.workbench.mrsdiff import changed_eps


def token_size(a: str, b: str) -> tuple[int, float]:
    """(tokens changed, Tailor's closeness: 1 - that over the longer sentence's length)."""
    ta, tb = tokens(a), tokens(b)
    changed = edit_distance(ta, tb)
    return changed, round(1.0 - changed / max(len(ta), len(tb), 1), 4)


def _step_edit(applied: Applied) -> NamedEdit:
    """A rule step as an edit: the EPs it touched (the engine keeps variable names, so
    lit.mrs.align pairs them, `Method.COPY`) and, for a lexical step, its relation and polarity."""
    before, after = applied.before, applied.after
    touched_a, touched_b = changed_eps(before, after, align(before, after, Method.COPY))
    lexical = edit_between(before, after)
    shape = name_rest(before, after, difference(before, after)).edits
    words = "; ".join(edit.detail for edit in shape)
    return NamedEdit(
        applied.module, applied.step,
        lexical.relation if lexical else None,
        str(lexical.polarity) if lexical else None,
        tuple(ep_text(before.rels[i]) for i in sorted(touched_a)),
        tuple(ep_text(after.rels[j]) for j in sorted(touched_b)),
        f"{applied.step}" + (f": {words}" if words else ""),
    )


def _in_source(a: MRS, edit: NamedEdit) -> NamedEdit:
    """*edit* with the polarity of its position in *a* itself (a step before it, such as an
    added negation, changes polarities; the EP keeps its text through the steps). A
    modifier's or argument's polarity is its head's, found in *a* already (lit.diff.naming)."""
    if edit.polarity is None or not edit.eps_a or edit.kind in HEAD_KINDS:
        return edit
    texts = [ep_text(ep) for ep in a.rels]
    if edit.eps_a[0] not in texts:
        return edit
    return replace(edit, polarity=str(polarity_of(a, texts.index(edit.eps_a[0]))))


def diff_mrs(a: MRS, b: MRS, grammar_version: str = DEFAULT_GRAMMAR_VERSION, *,
             sentences: tuple[str, str] | None = None,
             readings: tuple[int, int] = (0, 0)) -> MrsDiff:
    """The edit from *a* to *b*: named edits, the residue, its size (EPs touched between *a*
    and *b*; tokens only when *sentences* are given) and the *readings* it was read off."""
    tokens_changed, closeness = token_size(*sentences) if sentences else (0, 1.0)
    raw = difference(a, b)
    size = EditSize(raw.size, tokens_changed, closeness)
    if raw.cost == 0 and equivalent(a, b):
        same = NamedEdit(IDENTITY, IDENTITY, None, None, (), (), "same meaning")
        return MrsDiff((same,), Residue(), size, readings)
    chain, reached, left = search(RuleEngine.load(grammar_version), a, b)
    rest = name_rest(reached, b, left, a)
    edits = tuple(_in_source(a, edit) for edit in
                  tuple(_step_edit(applied) for applied in chain) + rest.edits)
    return MrsDiff(edits, rest.residue, size, readings)
