"""Word-level highlighting of what a transformation changed in a sentence."""

from __future__ import annotations

import difflib
from html import escape


def highlight(before: str, after: str) -> tuple[str, str]:
    """HTML for both sentences: words only in *before* in <del>, words only in *after* in <ins>."""
    a, b = before.split(), after.split()
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        old, new = escape(" ".join(a[i1:i2])), escape(" ".join(b[j1:j2]))
        if op == "equal":
            left.append(old)
            right.append(new)
            continue
        if old:
            left.append(f"<del>{old}</del>")
        if new:
            right.append(f"<ins>{new}</ins>")
    return " ".join(left), " ".join(right)
