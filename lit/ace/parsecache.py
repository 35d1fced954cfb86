"""An on-disk cache of ACE parses, shared by every command, so no sentence is parsed twice.

`lit parse`, `lit nli` and `lit analyze` on the same data parse each sentence once: the
first command stores every parse, later ones (and later runs) read it back. An entry is keyed
by the sentence, the SHA-256 of the grammar image and the options that change ACE's answer
(readings kept, chart and unpacking memory caps); a rebuilt or different grammar has another
hash, so its entries are never served (and are dropped when the cache is opened with the
new one for the same image path). Only answers the grammar alone determines are stored —
``ok`` and ``no_parse``; timeouts, ACE errors and invalid input are never cached. Other
answers of the grammar that the pipeline derives from ACE's (a reading's round trip,
lit.pipeline.roundtrip) are kept beside them (`get_answer`, `put_answer`), keyed the same way.

Location: ``<LIT_CACHE_DIR or the platformdirs user cache dir>/parses/parses.sqlite3``;
``--no-parse-cache`` turns it off for one command. SQLite makes concurrent commands safe.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lit.ace.cache import cache_dir, sha256
from lit.ace.results import ParseResult, Reading
from lit.status import Status

#: Bumped when what an entry holds changes (2: readings of equal score in a fixed order, and
#: ties straddling the cut left out: lit.ace.results.best).
ENTRY_FORMAT = 2
#: Statuses that depend on the sentence, grammar and options only (worth keeping).
CACHED_STATUSES = frozenset({Status.OK, Status.NO_PARSE})
SCHEMA = """
CREATE TABLE IF NOT EXISTS parses (key TEXT PRIMARY KEY, grammar TEXT NOT NULL, result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, grammar TEXT NOT NULL,
                                    result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS grammars (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER,
                                     sha256 TEXT NOT NULL);
"""


def default_path() -> Path:
    return cache_dir() / "parses" / "parses.sqlite3"


class ParseCache:
    """Parse results of one grammar image, looked up by sentence and parse options.

    Thread-safe (the ACE service stores results from its worker threads). ``hits`` and
    ``misses`` count this instance's lookups served and not served (sentences sent to ACE),
    so a command can say how much it parsed.
    """

    def __init__(self, grammar: Path, options: Mapping[str, Any], path: Path | None = None):
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
        self.grammar_sha256 = self._grammar_hash(Path(grammar))
        self._options = json.dumps(dict(options), sort_keys=True)
        self.hits = 0
        self.misses = 0

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
                self._db.execute("DELETE FROM parses WHERE grammar = ?", (row[2],))
                self._db.execute("DELETE FROM answers WHERE grammar = ?", (row[2],))
            self._db.execute("INSERT OR REPLACE INTO grammars VALUES (?, ?, ?, ?)",
                             (where, st.st_size, st.st_mtime_ns, digest))
        return digest

    def _key(self, sentence: str, n: int) -> str:
        text = json.dumps([sentence, self.grammar_sha256, self._options, n, ENTRY_FORMAT])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get(self, sentence: str, n: int) -> ParseResult | None:
        """The stored parse of *sentence* with *n* readings kept, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT result FROM parses WHERE key = ?", (self._key(sentence, n),)
            ).fetchone()
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
        data = json.loads(row[0])
        readings = tuple(Reading(mrs, derivation) for mrs, derivation in data["readings"])
        return ParseResult(sentence, Status(data["status"]), data["reason"], readings,
                           data["ace_seconds"], 0.0)

    def put(self, result: ParseResult, n: int) -> None:
        """Store *result* if its status depends on the grammar alone."""
        if result.status not in CACHED_STATUSES:
            return
        data = {
            "status": str(result.status),
            "reason": result.reason,
            "readings": [[r.mrs, r.derivation] for r in result.readings],
            "ace_seconds": result.ace_seconds,
        }
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO parses VALUES (?, ?, ?)",
                             (self._key(result.input, n), self.grammar_sha256, json.dumps(data)))

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
        with self._lock:
            self._db.close()
