"""A sentence diff as a person reads it (`lit diff` without --json)."""

from __future__ import annotations

from lit.diff.model import MrsDiff, NamedEdit, SentenceDiff


def _edit_lines(edit: NamedEdit) -> list[str]:
    facts = [f"step {edit.step}" if edit.step else None,
             f"relation {edit.relation}" if edit.relation else None,
             f"polarity {edit.polarity}" if edit.polarity else None]
    said = ", ".join(f for f in facts if f)
    lines = [f"  {edit.kind}: {edit.detail}" + (f"  [{said}]" if said else "")]
    if edit.eps_a:
        lines.append(f"      A: {' '.join(edit.eps_a)}")
    if edit.eps_b:
        lines.append(f"      B: {' '.join(edit.eps_b)}")
    return lines


def diff_lines(diff: MrsDiff) -> list[str]:
    """The named edits with the EPs they touched, then the residue as an EP diff."""
    size = diff.size
    head = (f"readings: A#{diff.readings[0]} B#{diff.readings[1]}; EPs touched {size.eps}, "
            f"tokens changed {size.tokens}, closeness {size.closeness:.2f}")
    lines = [head]
    lines.append("edits:" if diff.edits else "edits: none named")
    for edit in diff.edits:
        lines += _edit_lines(edit)
    residue = diff.residue
    if residue.empty():
        lines.append("residue: none" + (" (every change named)" if diff.edits else ""))
    else:
        lines.append("residue (named by no rule):")
        lines += [f"  - {ep}" for ep in residue.removed]
        lines += [f"  + {ep}" for ep in residue.added]
        lines += [f"  ~ {change}" for change in residue.changed]
    return lines


def render(result: SentenceDiff) -> str:
    """*result* in plain text, ending with a newline."""
    lines = [f"A: {result.a}", f"B: {result.b}"]
    if result.diff is None:
        lines.append(f"{result.status}: {result.reason}")
    else:
        lines += diff_lines(result.diff)
    return "\n".join(lines) + "\n"
