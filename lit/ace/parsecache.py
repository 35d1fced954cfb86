"""An on-disk cache of ACE's answers, shared by every command, so no sentence is parsed and no
MRS generated twice.

`lit parse`, `lit nli` and `lit analyze` on the same data parse each sentence once: the
first command stores every parse, later ones (and later runs, e.g. with other label rules or
after `--resume`) read it back; generations (the realizations of an MRS, the pipeline's
verification re-parses being parses) are kept the same way. A parse is keyed by the
sentence, the SHA-256 of the grammar image and the options that change ACE's answer
(readings kept, chart and unpacking memory caps); a generation by the exact MRS (its
one-line SimpleMRS), the realizations asked for, the grammar's hash and the generator's
caps. A rebuilt or different grammar has another hash, so its entries are never served (and
are dropped when the cache is opened with the new one for the same image path). Only
answers the grammar and those options alone determine are stored: ``ok``, ``no_parse``,
``no_generation`` and ``resource`` (a memory cap, lit.ace.service: a run with a larger cap
has another key); time-outs, ACE errors and invalid input are never cached. Other answers of
the grammar that the pipeline derives from ACE's (a reading's round trip,
lit.pipeline.roundtrip) are kept beside them (`get_answer`, `put_answer`).

The file is bounded (`max_megabytes`, ``LIT_CACHE_MEGABYTES``, default
DEFAULT_MAX_MEGABYTES): when a command closes it and its entries fill more, the oldest
written go first. `lit cache` shows and clears it.

Location: ``<LIT_CACHE_DIR or the platformdirs user cache dir>/parses/parses.sqlite3``;
``--no-parse-cache`` turns it off for one command. SQLite (WAL) makes concurrent commands
safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import zlib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lit.ace.cache import sha256
from lit.config import cache_dir
from lit.ace.process import PARSE_ARGS
from lit.ace.results import GenerateResult, ParseResult, Reading
from lit.errors import ConfigurationError
from lit.status import Status

#: Bumped when what an entry holds changes (2: readings of equal score in a fixed order, and
#: ties straddling the cut left out: lit.ace.results.best; 3: entries compressed, `pack`).
ENTRY_FORMAT = 3
#: Statuses that depend on the input, grammar and options only (worth keeping): a memory cap
#: is one of the options (issue 40: caps, not time, decide outcomes).
CACHED_STATUSES = frozenset({Status.OK, Status.NO_PARSE, Status.NO_GENERATION, Status.RESOURCE})
#: The bound on the entries' size when neither the caller nor LIT_CACHE_MEGABYTES sets one.
DEFAULT_MAX_MEGABYTES = 4096
#: The tables of entries (each keyed by a hash, with the grammar's hash beside it).
TABLES = ("parses", "generations", "answers")
SCHEMA = """
CREATE TABLE IF NOT EXISTS parses (key TEXT PRIMARY KEY, grammar TEXT NOT NULL, result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS generations (key TEXT PRIMARY KEY, grammar TEXT NOT NULL,
                                        result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, grammar TEXT NOT NULL,
                                    result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS grammars (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER,
                                     sha256 TEXT NOT NULL);
"""


def default_path() -> Path:
    return cache_dir() / "parses" / "parses.sqlite3"


def default_max_megabytes() -> int:
    """The size bound: ``LIT_CACHE_MEGABYTES`` if set, else DEFAULT_MAX_MEGABYTES."""
    text = os.environ.get("LIT_CACHE_MEGABYTES", "").strip()
    if not text:
        return DEFAULT_MAX_MEGABYTES
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ConfigurationError(
            f"LIT_CACHE_MEGABYTES must be a whole number of megabytes above 0, not {text!r}")
    return value


def pack(data: Any) -> bytes:
    """An entry as stored: compressed JSON (a parse of 20 readings with their derivations is
    about 200 kB of JSON and a fifth of that compressed)."""
    return zlib.compress(json.dumps(data).encode("utf-8"), 6)


def unpack(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob))


def connect(path: Path) -> sqlite3.Connection:
    """The cache database at *path* (made if missing), in WAL mode so commands share it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=30, check_same_thread=False)
    with db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA)
    return db


def used_bytes(db: sqlite3.Connection) -> int:
    """The bytes the entries occupy (pages in use; freed pages are reused before the file
    grows, so this, not the file's size, is what the bound limits)."""
    page = db.execute("PRAGMA page_size").fetchone()[0]
    count = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    return (count - free) * page


def describe(path: Path | None = None) -> dict[str, Any]:
    """What the cache at *path* (default: `default_path`) holds: its file, the bytes in use,
    and per table the entries of each grammar image (by hash, with the paths it was seen at)."""
    path = Path(path) if path else default_path()
    info: dict[str, Any] = {"path": str(path), "exists": path.is_file()}
    if not path.is_file():
        return info
    db = connect(path)
    try:
        info["used_bytes"] = used_bytes(db)
        info["file_bytes"] = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
        seen: dict[str, list[str]] = {}
        for where, digest in db.execute("SELECT path, sha256 FROM grammars"):
            seen.setdefault(digest, []).append(where)
        grammars: dict[str, dict[str, Any]] = {}
        for table in TABLES:
            for digest, n in db.execute(f"SELECT grammar, COUNT(*) FROM {table} GROUP BY grammar"):
                entry = grammars.setdefault(digest, {"paths": seen.get(digest, [])})
                entry[table] = n
        info["grammars"] = grammars
    finally:
        db.close()
    return info


def clear(path: Path | None = None) -> dict[str, int]:
    """Delete every entry of the cache at *path* and give its space back; the entries removed
    per table. Safe beside a running command (which only loses what it would have reused)."""
    path = Path(path) if path else default_path()
    if not path.is_file():
        return {}
    db = connect(path)
    try:
        with db:
            removed = {t: db.execute(f"DELETE FROM {t}").rowcount for t in TABLES}
        db.execute("VACUUM")
    finally:
        db.close()
    return removed


class ParseCache:
    """ACE's answers (parses, generations) for one grammar image, looked up by input and the
    options that change them.

    Thread-safe (the ACE service stores results from its worker threads); `served` counts
    its lookups. *options* are the parser's, *generate_options* the
    generator's (a change of either misses only its own entries).
    """

    def __init__(self, grammar: Path, options: Mapping[str, Any], path: Path | None = None,
                 generate_options: Mapping[str, Any] | None = None,
                 max_megabytes: int | None = None):
        self.path = Path(path) if path else default_path()
        self._db = connect(self.path)
        self._lock = threading.Lock()
        self.max_bytes = (max_megabytes or default_max_megabytes()) << 20
        # (no ACE build is keyed: an image loads only in the ACE version that compiled it)
        self.grammar_sha256 = self._grammar_hash(Path(grammar))
        self._options = json.dumps(dict(options), sort_keys=True)
        self._generate_options = json.dumps(dict(generate_options or {}), sort_keys=True)
        #: lookups per (table, served): what a command read from here and what went to ACE
        self.lookups: Counter[tuple[str, bool]] = Counter()

    def _grammar_hash(self, grammar: Path) -> str:
        """The image's SHA-256, remembered by path, size and mtime (hashing 200 MB per command
        would cost a second); a changed image drops the entries of its old hash."""
        st = grammar.stat()
        where = str(grammar.resolve())
        with self._lock, self._db:
            row = self._db.execute(
                "SELECT size, mtime_ns, sha256 FROM grammars WHERE path = ?", (where,)
            ).fetchone()
        if row and row[0] == st.st_size and row[1] == st.st_mtime_ns:
            return row[2]
        digest = sha256(grammar)
        with self._lock, self._db:
            if row and row[2] != digest:
                for table in TABLES:
                    self._db.execute(f"DELETE FROM {table} WHERE grammar = ?", (row[2],))
            self._db.execute("INSERT OR REPLACE INTO grammars VALUES (?, ?, ?, ?)",
                             (where, st.st_size, st.st_mtime_ns, digest))
        return digest

    def _key(self, sentence: str, n: int) -> str:
        text = json.dumps([sentence, self.grammar_sha256, self._options, PARSE_ARGS, n,
                           ENTRY_FORMAT])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _read(self, table: str, key: str) -> Any:
        """The entry of *key* in *table*, unpacked, or None; counted as a hit or a miss."""
        with self._lock:
            row = self._db.execute(f"SELECT result FROM {table} WHERE key = ?",
                                   (key,)).fetchone()
            self.lookups[table, row is not None] += 1
        return None if row is None else unpack(row[0])

    def _write(self, table: str, key: str, status: Status, data: dict[str, Any]) -> None:
        """Store *data* under *key* in *table* if *status* depends on the input, grammar and
        options alone (CACHED_STATUSES)."""
        if status not in CACHED_STATUSES:
            return
        with self._lock, self._db:
            self._db.execute(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)",
                             (key, self.grammar_sha256, pack({"status": str(status), **data})))

    def served(self, table: str) -> tuple[int, int]:
        """(lookups served, lookups not served: sent to ACE) of *table* ("parses",
        "generations") by this instance, so a command can say how much ACE work it did."""
        return self.lookups[table, True], self.lookups[table, False]

    def get(self, sentence: str, n: int) -> ParseResult | None:
        """The stored parse of *sentence* with *n* readings kept, or None."""
        data = self._read("parses", self._key(sentence, n))
        if data is None:
            return None
        readings = tuple(Reading(mrs, derivation) for mrs, derivation in data["readings"])
        return ParseResult(sentence, Status(data["status"]), data["reason"], readings,
                           data["ace_seconds"], 0.0)

    def put(self, result: ParseResult, n: int) -> None:
        """Store *result* if its status depends on the grammar alone."""
        self._write("parses", self._key(result.input, n), result.status, {
            "reason": result.reason,
            "readings": [[r.mrs, r.derivation] for r in result.readings],
            "ace_seconds": result.ace_seconds,
        })

    def _generation_key(self, mrs: str, limit: int | None) -> str:
        text = json.dumps(["generate", mrs, limit, self.grammar_sha256, self._generate_options,
                           ENTRY_FORMAT])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get_generation(self, mrs: str, limit: int | None, input: str) -> GenerateResult | None:
        """The stored generation of *mrs* (the one-line SimpleMRS sent to ACE) with at most
        *limit* realizations, as a result whose ``input`` is the caller's *input*; or None."""
        data = self._read("generations", self._generation_key(mrs, limit))
        if data is None:
            return None
        return GenerateResult(input, Status(data["status"]), data["reason"],
                              tuple(data["surfaces"]), data["ace_seconds"], 0.0, data["capped"])

    def put_generation(self, result: GenerateResult, mrs: str, limit: int | None) -> None:
        """Store *result* (the generation of *mrs*) if its status depends on the grammar and
        options alone."""
        self._write("generations", self._generation_key(mrs, limit), result.status, {
            "reason": result.reason, "surfaces": list(result.surfaces),
            "ace_seconds": result.ace_seconds, "capped": result.capped})

    def prune(self) -> int:
        """Drop the oldest-written entries (a tenth of each table at a time) while they use
        more than the bound; how many went."""
        removed = 0
        with self._lock:
            while used_bytes(self._db) > self.max_bytes:
                gone = 0
                with self._db:
                    for table in TABLES:
                        n = self._db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                        gone += self._db.execute(
                            f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} "
                            "ORDER BY rowid LIMIT ?)", (max(1, n // 10),)).rowcount
                if not gone:
                    break
                removed += gone
        return removed

    def _answer_key(self, kind: str, parts: list) -> str:
        text = json.dumps([kind, parts, self.grammar_sha256])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get_answer(self, kind: str, parts: list) -> Any:
        """Another answer of the grammar's kept here (*kind*: what it is, e.g. a round trip;
        *parts*: everything it depends on besides the grammar), or None."""
        with self._lock:
            row = self._db.execute("SELECT result FROM answers WHERE key = ?",
                                   (self._answer_key(kind, parts),)).fetchone()
        return json.loads(row[0]) if row else None

    def put_answer(self, kind: str, parts: list, value: Any) -> None:
        """Keep *value* (JSON) as the grammar's answer of *kind* for *parts*."""
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)",
                             (self._answer_key(kind, parts), self.grammar_sha256,
                              json.dumps(value)))

    def close(self) -> None:
        """Keep the bound (`prune`), then close the database."""
        self.prune()
        with self._lock:
            self._db.close()
