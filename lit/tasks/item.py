"""The one typed item of every task: an input record on its way to the pipeline (docs/tasks.md).

Readers (lit.tasks.reader) make one per input record, never dropping one; a record that cannot
be used is an item with `error` set, which becomes that record's invalid_input record."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TaskItem:
    """One input record: its texts (one per side of the task, None if missing), its gold
    label (a contrast task's canonical name; for pair records the value as read, which the
    label rules spell out) and the original fields in `input`."""

    id: str
    line: int
    input: dict
    texts: tuple[str | None, ...]
    gold: object = None
    error: str | None = None  # why the record cannot be used (-> invalid_input), "WHERE: why"

    @property
    def premise(self) -> str | None:
        """The first text: what the pipeline parses as the pair's premise."""
        return self.texts[0]

    @property
    def hypothesis(self) -> str | None:
        """The last text (a single-text item's only one, run as the pair (text, text))."""
        return self.texts[-1]
