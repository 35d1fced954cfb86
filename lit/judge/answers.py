"""The answers file: one JSON line per answer a judge gave, appended and flushed to the disk
at once, so a closed tab or a killed server loses nothing, and serving again resumes.

    {"annotator": "alice", "item": "7::f;p", "question": "label", "answer": "neutral",
     "at": "2026-11-25T13:10:04+00:00"}

A later answer to the same question by the same annotator replaces an earlier one (a judge
may go back); the file itself is never rewritten.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from lit.errors import InputError
from lit.io.meta import now

#: Questions a judge answers for every item; notes are free text and optional.
QUESTIONS: tuple[str, ...] = ("fluent", "change", "label")
NOTES = "notes"
YES_NO = ("yes", "no")
#: Annotator names: short, printable, no markup or path characters.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}")
MAX_NOTES = 2000

#: (annotator, item) -> {question: answer}
Judgements = dict[tuple[str, str], dict[str, str]]


def answers_path(sample: Path) -> Path:
    """The default answers file of a sample: ``SAMPLE.answers.jsonl`` beside it."""
    name = sample.name.removesuffix(".gz").removesuffix(".jsonl")
    return sample.with_name(f"{name}.answers.jsonl")


def check_annotator(annotator: object) -> str | None:
    """Why *annotator* is not a usable name, or None."""
    if isinstance(annotator, str) and _NAME.fullmatch(annotator):
        return None
    return "annotator: 1 to 64 letters, digits, spaces or . _ @ -, starting with a letter or digit"


def check_answer(annotator: object, item: object, question: object, answer: object,
                 items: dict[str, dict]) -> str | None:
    """Why this answer cannot be stored, or None if it is a valid one for *items*."""
    if problem := check_annotator(annotator):
        return problem
    if not isinstance(item, str) or item not in items:
        return f"no item {item!r} in this sample"
    if question == NOTES:
        return None if isinstance(answer, str) and len(answer) <= MAX_NOTES else \
            f"notes: text of at most {MAX_NOTES} characters"
    if question in ("fluent", "change"):
        return None if answer in YES_NO else f"{question}: yes or no"
    if question == "label":
        labels = items[item]["labels"]
        return None if answer in labels else f"label: one of {', '.join(labels)}"
    return f"no question {question!r} (ask one of {', '.join((*QUESTIONS, NOTES))})"


def _cut_partial_tail(path: Path) -> None:
    """Drop a half-written last line (a write killed midway), so appending starts clean."""
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


class AnswerLog:
    """Appends answers to *path*; each is on the disk (fsync) before `append` returns."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise InputError(f"{self.path}: directory {self.path.parent} does not exist")
        if self.path.exists():
            _cut_partial_tail(self.path)
        self._f = open(self.path, "a", encoding="utf-8")

    def append(self, annotator: str, item: str, question: str, answer: str) -> dict:
        entry = {"annotator": annotator, "item": item, "question": question,
                 "answer": answer, "at": now()}
        self._f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._f.flush()
        os.fsync(self._f.fileno())
        return entry

    def close(self) -> None:
        self._f.close()


def read_answers(path: Path) -> list[dict]:
    """Every complete answer line of *path* ([] if there is no such file); a half-written
    last line is left out, any other bad line is an InputError naming file and line."""
    path = Path(path)
    if not path.exists():
        return []
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.endswith("\n"):
                break
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                if not all(isinstance(entry.get(k), str)
                           for k in ("annotator", "item", "question", "answer")):
                    raise ValueError("needs annotator, item, question and answer as text")
            except (ValueError, AttributeError) as exc:
                raise InputError(f"{path}:{number}: not an answer line ({exc})") from None
            out.append(entry)
    return out


def latest(answers: Iterable[dict]) -> Judgements:
    """Each annotator's last answer to each question of each item."""
    out: Judgements = {}
    for a in answers:
        out.setdefault((a["annotator"], a["item"]), {})[a["question"]] = a["answer"]
    return out


def complete(answers: dict[str, str]) -> bool:
    """Has every question (notes aside) been answered?"""
    return all(q in answers for q in QUESTIONS)


def check_items(judgements: Judgements, items: Sequence[dict], source: str) -> None:
    """InputError if *judgements* name an item the sample lacks (answers of another sample)."""
    known = {it["item"] for it in items}
    foreign = sorted({item for _, item in judgements if item not in known})
    if foreign:
        raise InputError(f"{source}: {len(foreign)} judged item(s) are not in the sample, e.g. "
                         f"{foreign[0]!r}: these answers are for another sample")
