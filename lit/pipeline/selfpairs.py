"""`lit nli --self-pairs` (issue 15): pairs (S, S) from every sentence of a dataset, so that a
meaning-changing spec on the hypothesis side ("o;hyper") yields (S, S') labelled by natural
logic (the `edit` label rules, gold code `=`), beyond the dataset's own pairs.

Each distinct sentence — premise or hypothesis — gives one item, in first-seen order, with id
``ID/premise`` or ``ID/hypothesis`` of the record it first occurs in; SNLI repeats each premise
for three hypotheses, so it is used once. An invalid record passes through unchanged (its
record says why)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lit.labels.names import LABELS
from lit.tasks.item import TaskItem

#: A sentence entails itself: the gold label of a self-pair.
SELF_LABEL = LABELS[0]
SIDES = ("premise", "hypothesis")


def self_pair_items(items: Iterable[TaskItem]) -> Iterator[TaskItem]:
    """One (S, S) item per distinct sentence of *items*."""
    seen: set[str] = set()
    for item in items:
        if item.error:
            yield item
            continue
        for side in SIDES:
            sentence = getattr(item, side)
            if sentence in seen:
                continue
            seen.add(sentence)
            fields = {"premise": sentence, "hypothesis": sentence, "gold_label": SELF_LABEL,
                      "source_id": item.id, "side": side}
            yield TaskItem(f"{item.id}/{side}", item.line, fields, (sentence, sentence),
                          SELF_LABEL)
