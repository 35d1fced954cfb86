"""Word-level diff of two sentences: what a transformation changed, as runs of words (the judge
page) or as HTML with <del>/<ins> (the report)."""

from __future__ import annotations

import difflib
from html import escape

#: One run of words: ("same" | "del" | "ins", text).
Segment = tuple[str, str]


def word_changes(before: str, after: str) -> tuple[list[Segment], list[Segment]]:
    """Both sentences as runs of words: words only in *before* are "del", words only in
    *after* "ins", the rest "same" (plain text, for callers that escape it themselves)."""
    a, b = before.split(), after.split()
    left: list[Segment] = []
    right: list[Segment] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        old, new = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        if op == "equal":
            left.append(("same", old))
            right.append(("same", new))
            continue
        if old:
            left.append(("del", old))
        if new:
            right.append(("ins", new))
    return left, right


def _html(segments: list[Segment]) -> str:
    return " ".join(escape(text) if kind == "same" else f"<{kind}>{escape(text)}</{kind}>"
                    for kind, text in segments)


def highlight(before: str, after: str) -> tuple[str, str]:
    """HTML for both sentences: words only in *before* in <del>, words only in *after* in <ins>."""
    left, right = word_changes(before, after)
    return _html(left), _html(right)
