"""The inputs ``lit rules try`` runs a module over: the gold ERG 2025 MRSs (the default, no ACE
needed), a ``lit parse`` output (SimpleMRS or ``--format json``), a JSONL file of records with
an ``mrs`` field (like the gold file), or a file of sentences, one per line, parsed with ACE
(through the parse cache)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from importlib import resources
from pathlib import Path

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.errors import InputError
from lit.io.readers import open_text

#: What ``--on`` names for the shipped gold MRSs (also its default, in lit.commands.rules).
GOLD = "gold"
GOLD_FILE = "erg-gold-2025.jsonl.gz"

#: Parses sentences: (sentences, readings) -> ACE's ParseResults, in order (lit.ace.service).
Parser = Callable[[Iterable[str], int], Iterable]


@dataclass(frozen=True)
class Item:
    """One input: where it is from (``mrs/51``: profile and item of the gold file; ``line 3``),
    its sentence if known, and its MRS, or ``problem`` saying why there is none."""

    id: str
    sentence: str | None
    mrs: MRS | None
    problem: str | None = None


def gold_path() -> Path:
    """The gold ERG 2025 MRSs shipped with LIT (tests/data/erg-gold-2025.jsonl.gz in a
    checkout; its README gives their provenance and licence)."""
    return Path(str(resources.files("lit.workbench").joinpath("data", GOLD_FILE)))


def load(on: str | None, limit: int | None = None, parse: Parser | None = None
         ) -> tuple[str, tuple[Item, ...]]:
    """(a name for the source, its items), the first *limit* only if given. A file of
    sentences needs *parse* (ACE); the other sources are read without it."""
    path = gold_path() if on in (None, GOLD) else Path(on)
    if not path.is_file():
        raise InputError(f"--on {on}: no such file (give 'gold', a `lit parse` output, a JSONL "
                         "file with an 'mrs' field, or a file of sentences)")
    name = f"gold ERG 2025 MRSs ({GOLD_FILE})" if on in (None, GOLD) else str(path)
    stat = os.stat(path)
    kind = _kind(path)
    if kind == "sentences":
        if parse is None:
            raise InputError(f"{path}: sentences need ACE to parse them: set LIT_ACE and "
                             "LIT_GRAMMAR (or --ace, --grammar), or give MRSs")
        items = tuple(_parsed(_sentences(path, limit), parse))
    else:
        items = _decoded(str(path), stat.st_mtime_ns, stat.st_size, kind, limit)
    return name, items


def _kind(path: Path) -> str:
    """``json`` (records), ``mrs`` (SimpleMRS lines, `lit parse`'s default) or ``sentences``,
    from the first line that is neither blank nor a comment."""
    with open_text(path) as f:
        for line in f:
            text = line.strip()
            if text.startswith("{"):
                return "json"
            if text.startswith("["):
                return "mrs"
            if text and not text.startswith("#"):
                return "sentences"
    raise InputError(f"{path}: empty: nothing to try the rules on")


@lru_cache(maxsize=8)
def _decoded(path: str, mtime_ns: int, size: int, kind: str, limit: int | None
             ) -> tuple[Item, ...]:
    """The first *limit* items of an MRS file (all if None), decoded once per process while
    the file is unchanged (a re-run with --watch, or a second command in one process, reuses
    them); only as many MRSs as asked for are decoded."""
    with open_text(path) as f:
        found = _json_items(f, path) if kind == "json" else _mrs_items(f)
        return tuple(islice(found, limit))


def _decode(text: str, where: str) -> tuple[MRS | None, str | None]:
    try:
        return simplemrs.decode(text), None
    except Exception as exc:  # PyDelphin raises several types for bad SimpleMRS
        return None, f"{where}: not a SimpleMRS: {' '.join(str(exc).split())}"


def _json_items(lines: Iterable[str], path: str) -> Iterator[Item]:
    """Records with ``mrs`` (the gold file's form: profile, i-id, sentence) or with
    ``readings`` (``lit parse --format json``: the first reading is used)."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield Item(where, None, None, f"{path}:{number}: not JSON: {exc.msg}")
            continue
        if "profile" in record and "i-id" in record:
            where = f"{record['profile']}/{record['i-id']}"
        sentence = record.get("sentence", record.get("input"))
        text = record.get("mrs")
        if text is None and record.get("readings"):
            text = record["readings"][0].get("mrs")
        if not isinstance(text, str):
            problem = record.get("reason") or f"{path}:{number}: no 'mrs' and no readings"
            yield Item(where, sentence, None, f"{record.get('status', 'no_parse')}: {problem}")
            continue
        m, problem = _decode(text, f"{path}:{number}")
        yield Item(where, sentence, m, problem)


def _mrs_items(lines: Iterable[str]) -> Iterator[Item]:
    """`lit parse` SimpleMRS output: one input per group of lines (groups are separated by a
    blank line), its first reading used; a ``# status: reason`` line stands for an input that
    did not parse. A file with no blank line holds one MRS per line."""
    groups: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(lines, 1):
        if line.strip():
            groups[-1].append((number, line.strip()))
        elif groups[-1]:
            groups.append([])
    groups = [g for g in groups if g]
    if len(groups) == 1:
        groups = [[line] for line in groups[0]]
    for group in groups:
        yield _group_item(group)


def _group_item(group: list[tuple[int, str]]) -> Item:
    number, text = group[0]
    mrs_line = next(((n, t) for n, t in group if t.startswith("[")), None)
    if mrs_line is None:
        return Item(f"line {number}", None, None, text.lstrip("# "))
    m, problem = _decode(mrs_line[1], f"line {mrs_line[0]}")
    return Item(f"line {mrs_line[0]}", None, m, problem)


def _sentences(path: Path, limit: int | None) -> list[tuple[int, str]]:
    found = []
    with open_text(path) as f:
        for number, line in enumerate(f, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                found.append((number, line.strip()))
            if limit is not None and len(found) >= limit:
                break
    return found


def _parsed(sentences: list[tuple[int, str]], parse: Parser) -> Iterator[Item]:
    """Each sentence with its top reading (ACE's service keeps input order)."""
    results = parse([s for _, s in sentences], 1)
    for (number, sentence), result in zip(sentences, results):
        where = f"line {number}"
        if not result.readings:
            yield Item(where, sentence, None, f"{result.status}: {result.reason or 'no parse'}")
            continue
        m, problem = _decode(result.readings[0].mrs, where)
        yield Item(where, sentence, m, problem)
