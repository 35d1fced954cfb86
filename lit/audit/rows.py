"""The rows `lit audit` reads: an original pair (or text), its edited version and the edited
version's claimed label, from two aligned files or one file with both (docs/audit.md).

Two files: ORIGINALS and EDITED, each any format `lit contrast` reads, in the task's fields
(NLI: sentence1/premise, sentence2/hypothesis, gold_label/label). An edited row belongs to
the original row its position gives (`order`: with k edited rows per original, row i to
original i // k; Kaushik et al.'s revised_premise and revised_hypothesis files hold 2 per
original) or to the original it shares a text with (`match`); `auto` takes `order` when the
edited rows are a whole multiple of the originals, else `match`. Either way an edited row
that shares no text (spaces aside) with its original is written as invalid_input.

One file: each record holds the edited pair in the task's fields and the original in the same
fields with a prefix (`original_sentence1`, `original_premise`, ..., `original_gold_label`).

Every edited record becomes one AuditRow, a record that cannot be used one with `error` set,
so the run writes one output record per edited row.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from lit.errors import InputError
from lit.io.readers import count_records, detect_format
from lit.tasks.item import TaskItem
from lit.tasks.profile import ID_ROLE, TaskProfile
from lit.tasks.reader import field_lists, read_task, task_item

ALIGNMENTS = ("auto", "order", "match")
ORIGINAL_PREFIX = "original_"


@dataclass(frozen=True)
class AuditRow:
    """One edited pair to audit: its texts and the original's per side of the task, the
    original's label and the claimed label (canonical names, None: none), the fields as
    read (`input`: {"original": ..., "edited": ...}), or why it cannot be audited."""

    id: str
    line: int
    input: dict = field(default_factory=dict)
    original: tuple[str | None, ...] = ()
    edited: tuple[str | None, ...] = ()
    original_label: str | None = None
    claimed_label: str | None = None
    original_id: str | None = None
    error: str | None = None

    def edited_sides(self, sides: tuple[str, ...]) -> tuple[str, ...]:
        """The sides whose text the edit changed (spaces aside)."""
        return tuple(s for s, a, b in zip(sides, self.original, self.edited)
                     if normalized(a) != normalized(b))


def normalized(text: str | None) -> str | None:
    """*text* with runs of white space made one space and the ends stripped."""
    return None if text is None else " ".join(text.split())


def _row(edited: TaskItem, original: TaskItem | None, problem: str | None = None) -> AuditRow:
    inputs = {"original": original.input if original else None, "edited": edited.input}
    error = edited.error or (original.error if original else None) or problem
    return AuditRow(edited.id, edited.line, inputs,
                    original.texts if original else (), edited.texts,
                    original.gold if original else None, edited.gold,
                    original.id if original else None, error)


def _shares_text(edited: TaskItem, original: TaskItem) -> bool:
    return any(normalized(a) == normalized(b) and a is not None
               for a, b in zip(edited.texts, original.texts))


def aligned_rows(edited: str | Path, originals: str | Path, profile: TaskProfile,
                 fmt: str | None = None, originals_format: str | None = None,
                 align: str = "auto", columns: Mapping[str, str] | None = None,
                 label: str | None = None, id_field: str | None = None
                 ) -> Iterator[AuditRow]:
    """The rows of two files: each record of *edited* with the record of *originals* it was
    made from (by *align*, see the module); both in the task's fields (*columns*, *label*,
    *id_field* name others, for both files)."""
    if align not in ALIGNMENTS:
        raise InputError(f"--align {align!r}: choose one of {', '.join(ALIGNMENTS)}")
    base = list(read_task(originals, profile, originals_format, columns=columns, label=label,
                          id_field=id_field))
    if not base:
        raise InputError(f"{originals}: no original record")
    items = read_task(edited, profile, fmt, columns=columns, label=label, id_field=id_field)
    total = count_records(edited, fmt)
    if align == "auto":
        align = "order" if total and total % len(base) == 0 else "match"
    if align == "order":
        if not total or total % len(base):
            raise InputError(f"--align order: {edited} has {total} records, not a whole "
                             f"multiple of the {len(base)} of {originals}")
        per = total // len(base)
        for i, item in enumerate(items):
            original = base[i // per]
            problem = None if item.error or original.error or _shares_text(item, original) \
                else (f"{edited}:{item.line}: shares no text with {originals}:{original.line} "
                      f"(aligned by order, {per} edited rows per original)")
            yield _row(item, original, problem)
        return
    yield from _matched(items, base, edited, originals)


def _matched(items: Iterator[TaskItem], base: list[TaskItem], edited: str | Path,
             originals: str | Path) -> Iterator[AuditRow]:
    """Each edited item with the first original at or after the last one matched that shares
    a text with it, else any original that does."""
    by_text: dict[str, list[int]] = {}
    for i, o in enumerate(base):
        for t in o.texts:
            if t is not None:
                by_text.setdefault(normalized(t), []).append(i)
    at = 0
    for item in items:
        if item.error:
            yield _row(item, None)
            continue
        found = sorted({i for t in item.texts if t is not None
                        for i in by_text.get(normalized(t), ())})
        ahead = [i for i in found if i >= at]
        if not found:
            yield _row(item, None, f"{edited}:{item.line}: no record of {originals} shares a "
                       "text with it (--align match)")
            continue
        at = (ahead or found)[0]
        yield _row(item, base[at])


def one_file_rows(path: str | Path, profile: TaskProfile, fmt: str | None = None,
                  prefix: str = ORIGINAL_PREFIX, columns: Mapping[str, str] | None = None,
                  label: str | None = None, id_field: str | None = None
                  ) -> Iterator[AuditRow]:
    """The rows of one file whose records hold the edited pair in the task's fields and the
    original in the same fields with *prefix*."""
    from lit.io.readers import iter_rows

    fmt = detect_format(path, fmt)
    fields = field_lists(profile, columns, label, id_field)
    original_fields = {role: tuple(prefix + f for f in tried)
                       for role, tried in fields.items() if role != ID_ROLE}
    original_fields[ID_ROLE] = ()
    for row in iter_rows(path, fmt):
        where = f"{path}:{row.line}"
        if row.error:
            bad = TaskItem(str(row.line), row.line, row.fields, (None,) * len(profile.sides),
                           None, f"{where}: {row.error}")
            yield _row(bad, None)
            continue
        item = task_item(row.fields, row.line, profile, fields, where)
        if not any(f in row.fields for role in profile.sides for f in original_fields[role]):
            yield _row(item, None, f"{where}: no original text (expected "
                       f"{', '.join(original_fields[profile.sides[0]])}; or give the "
                       "originals as a second file with --originals)")
            continue
        original = task_item(row.fields, row.line, profile, original_fields, where,
                             rid=item.id)
        yield _row(item, original)


def read_rows(path: str | Path, profile: TaskProfile, *, originals: str | Path | None = None,
              fmt: str | None = None, originals_format: str | None = None,
              align: str = "auto", prefix: str = ORIGINAL_PREFIX,
              columns: Mapping[str, str] | None = None, label: str | None = None,
              id_field: str | None = None) -> Iterator[AuditRow]:
    """Two aligned files (*originals* given) or one file with both; the first row is read
    now, so a file that cannot be read fails before any output is written."""
    rows = (aligned_rows(path, originals, profile, fmt, originals_format, align, columns,
                         label, id_field) if originals is not None
            else one_file_rows(path, profile, fmt, prefix, columns, label, id_field))
    first = next(rows, None)
    return chain([first] if first is not None else [], rows)


