"""The sentences of a text as character spans, so that a contrast set changes one sentence of
a review and keeps the rest of it verbatim (docs/tasks.md). Sentence boundaries are pysbd's
(rule-based, English: it knows "Mr.", "U.S.", "e.g." and numbers like "3.5")."""

from __future__ import annotations


def _whole(text: str) -> tuple[tuple[int, int], ...]:
    start, end = len(text) - len(text.lstrip()), len(text.rstrip())
    return ((start, end),) if end > start else ()


def split(text: str) -> tuple[tuple[int, int], ...]:
    """Spans (start, end) of the sentences of *text*, in order, without the whitespace around
    them: ``text[start:end]`` is a sentence, and what lies between spans is whitespace. A
    text the segmenter cannot cut (its pieces not found in order) is one sentence."""
    import pysbd

    # a Segmenter keeps the text it works on: one per call, as batches run in threads
    pieces = pysbd.Segmenter(language="en", clean=False).segment(text)
    spans: list[tuple[int, int]] = []
    pos = 0
    for piece in (p.strip() for p in pieces):
        if not piece:
            continue
        at = text.find(piece, pos)
        if at < 0 or text[pos:at].strip():
            return _whole(text)
        spans.append((at, at + len(piece)))
        pos = at + len(piece)
    if text[pos:].strip():
        return _whole(text)
    return tuple(spans) or _whole(text)
