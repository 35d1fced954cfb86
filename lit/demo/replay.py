"""A replaying ``ace``: answers ACE's command-line protocol from recorded ACE transcripts, so
`lit demo` and the tests run LIT end to end with no grammar installed. Nothing is parsed or
generated here: every answer is one a real ACE gave, replayed.

Run it as ``python -m lit.demo.replay [ACE options]``. The transcripts are those of
``LIT_FAKE_ACE_TRANSCRIPTS``, else the demo's own (``lit/demo/transcripts.jsonl.gz``, a subset
of tests/data/oracle/ace-transcripts.jsonl.gz recorded with ACE 0.9.30 and ERG 2018; the tests
use the whole file through tests/fake_ace/fake.py).

It answers PyDelphin exactly as a long-lived ACE does: the ``NOTE: tsdb run:`` header once at
start, then one ``--tsdb-stdout`` body per input line (parse: terminated by two blank lines;
generate: one). Recorded answers are looked up as follows:

- parse inputs are looked up by sentence (any recorded ``-n``; the largest recording is used)
  and their ``:results`` list is cut to the ``-n`` given;
- generation inputs are looked up by MRS equivalence (``lit.equivalence``), never by string,
  and cut to what is left of ``-n`` if one is given: like ACE 0.9.30, a generator counts
  ``-n`` across all its inputs, and which realizations a capped item gets depends on the
  budget left (`pick`), so a reused generator's history changes capped results;
- an unknown input gets ACE's empty answer ``(:results . ())`` and the process stays alive.

Faults on command (for tests), by a marker anywhere in the input line (a sentence, or a CARG
in an MRS): ``__HANG__`` computes forever (a slow item: it uses processor time, so the
processor-time budget stops it), ``__STALL__`` sleeps forever (a process that gets no processor
time: only the wall-clock backstop stops it), ``__CRASH__`` writes half an answer, an ACE-like
message on stderr and exits 134, ``__ERROR__`` answers empty with ``(:error . "...")`` and an
``ERROR:`` line on stderr (ACE's way of reporting a failed item), ``__EXIT__`` answers and then
exits (a process killed between items, e.g. by the OOM killer), ``__GIVEUP__`` answers empty at
once but reports the ``--timeout`` it was given as its time (ACE stopping at its own time
limit), ``__RAM__`` answers empty with ACE's "ran out of RAM while unpacking" (a memory
cap), ``__RAMHANG__`` writes ACE's note of a memory cap and then computes forever (a cap
reached just as the time limit stops ACE), and a generation input with a predicate whose
lemma is ``notindexed`` (``_notindexed_n_1``) is refused as ACE refuses an EP outside its generation index.
``__FLOOD__`` writes endless output without a newline, ``__FLOODLINES__`` endless
lines, ``__GARBAGE__`` a plain-text answer that is no tsdb answer at all.
``__SIGKILL__`` and ``__SIGSTOP__`` make the process send itself that signal in the middle of
the item (an OOM kill; a process stopped from outside), on every attempt.
``LIT_FAKE_ACE_ONCE`` (``hang`` or ``stall``) makes the *first* try of an item matching
``LIT_FAKE_ACE_ONCE_MATCH`` compute or sleep forever, and later tries (on fresh processes)
answer: an item slowed once by its neighbours. Tries are noted in ``LIT_FAKE_ACE_ONCE_DIR``.
``LIT_FAKE_ACE_TIES_NOTE`` (a file) makes every second process started give parse readings
of equal score in reverse order, as ACE's order of equal scores differs between processes.
``LIT_FAKE_ACE_DELAY`` (seconds) delays every answer, to imitate a real parser's speed.

Slow items, so a test can kill, stop or SIGTERM ACE *in the middle of* an item:
``LIT_FAKE_ACE_SLEEP`` (seconds) sleeps before answering the items whose input matches the
regular expression ``LIT_FAKE_ACE_SLEEP_MATCH`` (every item if unset), and each time it starts
such a sleep the process appends its pid, one line, to the file ``LIT_FAKE_ACE_SLEEP_NOTE``
(if set): the test waits for a pid there, then signals it while the item is in flight.

Start-up is fast because answers live in a prebuilt SQLite index (``LIT_FAKE_ACE_INDEX``; built
on first use into LIT's cache dir, ``fake-ace/``, if unset: kept between runs, never in the temp
dir). Run ``replay.py --build-index PATH`` to build one. LIT starts a generator per item, so
its start-up counts: the index answers most generation inputs by `lit.mrs.graph` forms, and
networkx (lit.equivalence) is imported only when those cannot decide.
"""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import sqlite3
import sys
import time
import zlib

#: typing.TYPE_CHECKING, without importing typing (nor pathlib, argparse, hashlib, ...) at
#: start-up: LIT starts a generator per item, so what this module imports costs every item.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from delphin.mrs import MRS

#: The demo's recorded transcripts, shipped in the package.
DEMO_TRANSCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "transcripts.jsonl.gz")


def record(mode: str, text: str, args: list[str]) -> dict:
    """One run of the real ACE (LIT_ACE, LIT_GRAMMAR) on *text* as a transcript this replay
    answers from: *mode* "parse" or "generate", *args* ACE's options after ``-g GRAMMAR``
    (tools/record_*_transcripts.py record the rig's answers for the tests this way)."""
    import subprocess

    real = [os.environ["LIT_ACE"], "-g", os.environ["LIT_GRAMMAR"], *args]
    done = subprocess.run(real, input=text + "\n", capture_output=True, text=True, timeout=300)
    return {"mode": mode, "executable": "ace", "args": ["-g", "erg.dat", *args], "input": text,
            "stdout": done.stdout, "stderr": done.stderr, "returncode": done.returncode}


def transcripts_path() -> Path:
    """The transcripts to replay: ``LIT_FAKE_ACE_TRANSCRIPTS``, else the demo's."""
    from pathlib import Path

    return Path(os.environ.get("LIT_FAKE_ACE_TRANSCRIPTS") or DEMO_TRANSCRIPTS)
#: Bumped when the index or lit.equivalence.fingerprint changes (3: a pronoun's GEND counts;
#: 5: tables by lit.mrs.graph's canonical form and invariant; 6: unknown verbs by lemma;
#: 7: recorded generation inputs by their text).
INDEX_FORMAT = "7"

HANG, CRASH, ERROR, EXIT = "__HANG__", "__CRASH__", "__ERROR__", "__EXIT__"
STALL = "__STALL__"
GIVE_UP = "__GIVEUP__"
RAM = "__RAM__"
RAM_HANG = "__RAMHANG__"
SELF_SIGNALS = {"__SIGKILL__": signal.SIGKILL, "__SIGSTOP__": signal.SIGSTOP}
NOT_INDEXED = re.compile(r"_notindexed_[^\s\]]*")
FLOOD, FLOOD_LINES, GARBAGE = "__FLOOD__", "__FLOODLINES__", "__GARBAGE__"
EMPTY_BODY = (
    "(:results . ()) (:readings . 0) (:pedges . 0) (:aedges . 0)   "
    "(:total . 0) (:treal . 0) (:tcpu . 0) (:others . 0)"
)


# --- the index ------------------------------------------------------------------------------


#: A whole string literal (with backslash escapes) or a parenthesis: strings are skipped whole.
_SEXPR_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[()]', re.DOTALL)


def split_results(body: str) -> tuple[str, list[str], str]:
    """Split a tsdb body into (text before the results, each result s-expression, text after).

    Scans the s-expression structure (strings with backslash escapes, nested parentheses)
    instead of searching for substrings, so derivations containing parentheses are safe.
    """
    key = "(:results . "
    start = body.find(key)
    if start < 0:
        return body, [], ""
    i = start + len(key)
    if body.startswith("()", i):
        return body[:start], [], body[i + 3 :]
    assert body[i] == "(", body[i : i + 20]
    items: list[str] = []
    depth, item_start, j = 0, -1, i
    for token in _SEXPR_TOKEN.finditer(body, i):
        c = token.group()
        if c == "(":
            depth += 1
            if depth == 2:
                item_start = token.start()
        elif c == ")":
            depth -= 1
            if depth == 1:
                items.append(body[item_start : token.end()])
            elif depth == 0:
                j = token.start()
                break
    # j is at the list's closing paren; the next char closes the (:results . ...) pair
    close = body.index(")", j + 1)
    return body[:start], items, body[close + 1 :]


def join_results(prefix: str, items: list[str], suffix: str) -> str:
    results = "(:results . (" + "".join(items) + "))" if items else "(:results . ())"
    marker = "(:readings . "
    k = suffix.find(marker)
    if k >= 0:  # a long-lived ACE given -n reports how many readings it unpacked
        end = suffix.index(")", k)
        suffix = f"{suffix[:k]}{marker}{len(items)}{suffix[end:]}"
    return prefix + results + suffix


def _transcripts(path: Path) -> list[dict]:
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def build_index(path: Path, transcripts: Path | None = None) -> Path:
    """Write the SQLite answer index (atomically, so concurrent builders cannot clash). Table
    ``by_form`` holds, for each recorded MRS's `canonical_form`, the answer the equivalence
    lookup gives it (equal forms mean equivalent MRSs), and ``invariant`` every recorded MRS's
    `invariant` (an MRS whose invariant is not there is equivalent to none): most inputs are
    answered without networkx, whose import costs more than the rest of a generator's work.
    ``by_text`` gives each recorded input's own text its form, so the text LIT sends for a
    recorded MRS is answered without even decoding it (nor importing PyDelphin)."""
    from pathlib import Path

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    db.executescript(_SCHEMA)
    best_n: dict[str, int] = {}
    by_fingerprint: dict[str, list[tuple[MRS, bytes]]] = {}  # in recording order
    for rec in _transcripts(transcripts or transcripts_path()):
        lines = rec["stdout"].split("\n")
        if rec["mode"] == "version":
            db.execute("INSERT INTO meta VALUES ('version', ?)", (rec["stdout"],))
            continue
        if lines[0].startswith("NOTE: tsdb run:"):
            db.execute("INSERT OR REPLACE INTO meta VALUES ('header', ?)", (lines[0],))
        body = next(line for line in lines[1:] if line.strip())
        answer = zlib.compress(
            json.dumps([split_results(body), rec["stderr"]]).encode("utf-8"), 1
        )
        if rec["mode"] == "parse":
            n = int(rec["args"][rec["args"].index("-n") + 1])
            if n > best_n.get(rec["input"], 0):
                best_n[rec["input"]] = n
                db.execute(
                    "INSERT OR REPLACE INTO parse VALUES (?, ?, ?)", (rec["input"], n, answer)
                )
        else:
            _index_generation(db, rec["input"], answer, by_fingerprint)
    db.execute("INSERT INTO meta VALUES ('format', ?)", (INDEX_FORMAT,))
    db.commit()
    db.close()
    os.replace(tmp, path)
    return path


#: The answer index's tables (build_index says what each holds).
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE parse (sentence TEXT PRIMARY KEY, n INTEGER, answer BLOB);"
    "CREATE TABLE generate (fingerprint TEXT, mrs TEXT, answer BLOB);"
    "CREATE INDEX generate_fp ON generate (fingerprint);"
    "CREATE TABLE by_form (form TEXT PRIMARY KEY, answer BLOB);"
    "CREATE TABLE invariant (value TEXT PRIMARY KEY);"
    "CREATE TABLE by_text (text TEXT PRIMARY KEY, form TEXT);"
)


def _index_generation(db: sqlite3.Connection, text: str, answer: bytes,
                      by_fingerprint: dict[str, list[tuple[MRS, bytes]]]) -> None:
    """Index one recorded generation (input MRS *text*): by fingerprint, and by canonical
    form with the answer of the first recorded MRS equivalent to it."""
    from delphin.codecs import simplemrs

    from lit.equivalence import equivalent, fingerprint
    from lit.mrs.graph import canonical_form, invariant

    mrs = simplemrs.decode(text)
    fp = fingerprint(mrs)
    db.execute("INSERT INTO generate VALUES (?, ?, ?)", (fp, text, answer))
    # what `_equivalent_answer` gives it: the first recorded input equivalent to it
    group = by_fingerprint.setdefault(fp, [])
    group.append((mrs, answer))
    first = next(a for m, a in group if m is mrs or equivalent(m, mrs))
    db.execute("INSERT OR IGNORE INTO by_form VALUES (?, ?)", (canonical_form(mrs), first))
    db.execute("INSERT OR IGNORE INTO invariant VALUES (?)", (invariant(mrs),))
    db.execute("INSERT OR IGNORE INTO by_text VALUES (?, ?)", (text, canonical_form(mrs)))


def _equivalent_answer(db: sqlite3.Connection, mrs: MRS) -> bytes | None:
    """The answer recorded for the first generation input (in recording order) equivalent to
    *mrs*, compressed; None if there is none."""
    from delphin.codecs import simplemrs

    from lit.equivalence import equivalent, fingerprint

    rows = db.execute("SELECT mrs, answer FROM generate WHERE fingerprint = ? ORDER BY rowid",
                      (fingerprint(mrs),))
    return next((answer for text, answer in rows if equivalent(simplemrs.decode(text), mrs)),
                None)


def default_index_path(transcripts: Path | None = None) -> Path:
    import hashlib

    transcripts = transcripts or transcripts_path()
    stat = transcripts.stat()
    key = hashlib.sha256(
        f"{transcripts}|{stat.st_size}|{stat.st_mtime_ns}|{INDEX_FORMAT}".encode()
    ).hexdigest()[:16]
    from lit.config import cache_dir  # not at start-up: a generator runs with LIT_FAKE_ACE_INDEX

    return cache_dir() / "fake-ace" / f"index-{key}.sqlite"


def open_index() -> sqlite3.Connection:
    path = os.environ.get("LIT_FAKE_ACE_INDEX") or default_index_path()
    if not os.path.exists(path):
        build_index(path)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


# --- the protocol ---------------------------------------------------------------------------


#: ACE's options that PyDelphin or LIT pass (anything else is refused, as ACE would): flags,
#: and options with an int or a string value (``-1`` is ``-n 1``).
_FLAGS = ("-V", "-e", "--tsdb-notes", "--tsdb-stdout", "--report-labels", "-p", "-X", "-L", "-y",
          "--disable-subsumption-test", "--show-realization-trees", "--show-realization-mrses",
          "--show-probability", "--disable-generalization", "--rooted-derivations",
          "--yy-rules", "--udx")
_INT_OPTIONS = ("-n", "--max-chart-megabytes", "--max-unpack-megabytes", "--timeout",
                "--max-words")
_STR_OPTIONS = ("-g", "-r")


class Arguments:
    """ACE's command line as read by `parse_arguments`: an attribute per option (``V``,
    ``e``, ``tsdb_notes``, ``n``, ``g``, ``timeout``...), None or False if not given."""

    def __init__(self, **given: object) -> None:
        for name in (*_FLAGS, *_INT_OPTIONS, *_STR_OPTIONS):
            setattr(self, _dest(name), False if name in _FLAGS else None)
        self.__dict__.update(given)


def _dest(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def _argument_parser():
    """The options of `_FLAGS`, `_INT_OPTIONS` and `_STR_OPTIONS` as argparse reads them."""
    import argparse

    p = argparse.ArgumentParser(prog="ace", add_help=False)
    for flag in _FLAGS:
        p.add_argument(flag, action="store_true")
    for opt in _INT_OPTIONS:
        p.add_argument(opt, type=int)
    p.add_argument("-1", dest="n", action="store_const", const=1)
    for opt in _STR_OPTIONS:
        p.add_argument(opt)
    return p


def parse_arguments(argv: list[str]) -> Arguments | None:
    """ACE's command line, or None if it has an option ACE does not know (or a bad value).
    Each option as its own word, its value the next word (what PyDelphin and LIT write), is
    read here; anything else (``--timeout=5``, ``-n5``, abbreviations) by argparse: a
    generator starts per item, and importing argparse would cost each start more than the
    rest of its work."""
    given: dict[str, object] = {}
    words = iter(argv)
    for word in words:
        if word in _FLAGS:
            given[_dest(word)] = True
        elif word == "-1":
            given["n"] = 1
        elif word in _INT_OPTIONS or word in _STR_OPTIONS:
            value = next(words, None)
            if value is None or value.startswith("-") or (
                    word in _INT_OPTIONS and not value.isdigit()):
                break
            given[_dest(word)] = int(value) if word in _INT_OPTIONS else value
        else:
            break
    else:
        return Arguments(**given)
    try:
        parsed = _argument_parser().parse_args(argv)
    except SystemExit:
        return None
    return Arguments(**vars(parsed))


def pick(items: list[str], budget: int) -> list[str]:
    """The realizations a generator with *budget* results left gives for *items* (all of them
    in recorded order if they fit): like ACE 0.9.30's selective unpacking, which ones a capped
    item gets depends on the budget left, so a reused generator's history shows in its
    results. Which ones is a fixed function of the budget (a hash), kept in recorded order."""
    if budget >= len(items):
        return items
    chosen = sorted(range(len(items)), key=lambda i: zlib.crc32(f"{budget}:{i}".encode()))
    return [items[i] for i in sorted(chosen[:budget])]


_ROOT_SCORE = re.compile(r'\(:derivation \. ?" ?\(\s*\d+\s+\S+\s+(-?[\d.]+(?:e-?\d+)?)\s')


def reverse_ties(items: list[str]) -> list[str]:
    """Parse results with each run of equal parse-ranker scores reversed: ACE orders readings
    of equal score differently from one process to another."""
    out: list[str] = []
    group: list[str] = []
    score = None
    for item in items:
        m = _ROOT_SCORE.search(item)
        this = m.group(1) if m else None
        if group and (this is None or this != score):
            out += group[::-1]
            group = []
        group.append(item)
        score = this
    return out + group[::-1]


class Fake:
    def __init__(self, args: Arguments) -> None:
        self.n = args.n
        self.timeout = args.timeout
        self.generate = args.e
        self.db = open_index()
        self.delay = float(os.environ.get("LIT_FAKE_ACE_DELAY") or 0)
        self.sleep = float(os.environ.get("LIT_FAKE_ACE_SLEEP") or 0)
        self.sleep_match = re.compile(os.environ.get("LIT_FAKE_ACE_SLEEP_MATCH") or "")
        self.sleep_note = os.environ.get("LIT_FAKE_ACE_SLEEP_NOTE")
        self.reverse_ties = self._turn(os.environ.get("LIT_FAKE_ACE_TIES_NOTE"))
        self.once = os.environ.get("LIT_FAKE_ACE_ONCE")
        self.once_match = re.compile(os.environ.get("LIT_FAKE_ACE_ONCE_MATCH") or "")
        self.once_dir = os.environ.get("LIT_FAKE_ACE_ONCE_DIR") or "."
        self.count = self.answered = 0
        self.given = 0  # generation results so far (ACE 0.9.30 counts -n across inputs)
        self.started = time.monotonic()

    @staticmethod
    def _turn(note: str | None) -> bool:
        """Whether this process gives readings of equal score in reverse order: every
        second process started with ``LIT_FAKE_ACE_TIES_NOTE`` set (each notes its start)."""
        if not note:
            return False
        with open(note, "a+", encoding="ascii") as f:
            f.write(f"{os.getpid()}\n")
            f.seek(0)
            return len(f.read().split()) % 2 == 0

    def meta(self, key: str) -> str:
        return self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0]

    @functools.lru_cache(maxsize=1024)  # noqa: B019 (one Fake per process)
    def lookup(self, datum: str) -> tuple[tuple[str, list[str], str], str] | None:
        if not self.generate:
            query = "SELECT answer FROM parse WHERE sentence = ?"
            row = self.db.execute(query, (datum,)).fetchone()
            return json.loads(zlib.decompress(row[0])) if row else None
        # a recorded input's own text: its form is in the index, so nothing needs decoding
        row = self.db.execute("SELECT answer FROM by_text JOIN by_form USING (form) "
                              "WHERE text = ?", (datum,)).fetchone()
        if row:
            return json.loads(zlib.decompress(row[0]))
        from delphin.codecs import simplemrs

        from lit.mrs.graph import canonical_form, invariant

        try:
            mrs = simplemrs.decode(datum)
        except Exception:  # ACE would fail to read it too: answer empty
            return None
        found = self.db.execute("SELECT answer FROM by_form WHERE form = ?",
                                (canonical_form(mrs),)).fetchone()
        known = found or self.db.execute("SELECT 1 FROM invariant WHERE value = ?",
                                          (invariant(mrs),)).fetchone()
        # not found by form but maybe equivalent to a recorded input: ask lit.equivalence
        answer = found[0] if found else _equivalent_answer(self.db, mrs) if known else None
        return json.loads(zlib.decompress(answer)) if answer else None

    def slow_down(self, datum: str) -> None:
        """Sleep `sleep` seconds on a matching item, first noting this pid for the test."""
        if not self.sleep or not self.sleep_match.search(datum):
            return
        if self.sleep_note:
            with open(self.sleep_note, "a", encoding="ascii") as note:
                note.write(f"{os.getpid()}\n")
        time.sleep(self.sleep)

    def first_time(self, datum: str) -> None:
        """The first try of a matching item anywhere (noted in `once_dir`) computes
        (``LIT_FAKE_ACE_ONCE=hang``) or sleeps (``stall``) forever; later tries answer."""
        if not self.once or not self.once_match.search(datum):
            return
        import hashlib

        note = os.path.join(self.once_dir, hashlib.sha256(datum.encode("utf-8")).hexdigest())
        try:
            os.close(os.open(note, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            return
        self.hang_or_stall(self.once == "hang")

    @staticmethod
    def hang_or_stall(busy: bool) -> None:
        while True:
            if not busy:  # a process that gets no processor time
                time.sleep(3600)

    def answer(self, datum: str) -> str:
        self.slow_down(datum)
        self.first_time(datum)
        broken = self.break_down(datum)
        if broken is not None:
            return broken
        if self.delay:
            time.sleep(self.delay)
        return self.fail(datum) or self.recorded(datum)

    def break_down(self, datum: str) -> str | None:
        """A test's marker in *datum* makes this process misbehave as a broken ACE does:
        signal itself, flood, hang, crash (none of which returns) or answer garbage."""
        for marker, signum in SELF_SIGNALS.items():
            if marker in datum:
                os.kill(os.getpid(), signum)
        if FLOOD_LINES in datum or FLOOD in datum:
            chunk = "garbage " * 8192 + ("\n" if FLOOD_LINES in datum else "")
            while True:
                sys.stdout.write(chunk)
        if GARBAGE in datum:
            return "Segmentation fault? this is not a tsdb answer"
        if RAM_HANG in datum:  # reaches a memory cap as its time runs out
            sys.stderr.write("NOTE: hit RAM limit while unpacking\n")
            sys.stderr.flush()
            self.hang_or_stall(busy=True)
        if HANG in datum or STALL in datum:  # busy, as a slow parse is; or asleep
            self.hang_or_stall(busy=HANG in datum)
        if CRASH in datum:
            sys.stdout.write("(:results . ((:result-id . 0) (:mrs . \"[ LTOP: h0")
            sys.stdout.flush()
            sys.stderr.write(
                f"ace: unpack.c:412: unpack_edge: Assertion `edge->frozen' failed.\n"
                f"fake ace: crashed on purpose on {CRASH}\n"
            )
            sys.stderr.flush()
            os._exit(134)
        return None

    def fail(self, datum: str) -> str | None:
        """The answer ACE gives when it fails on *datum* as a test's marker asks (its own
        timeout, EPs not in the index, a memory cap, an error), if one does."""
        if GIVE_UP in datum and self.timeout:
            ms = self.timeout * 1000
            timed = f"(:total . {ms}) (:treal . {ms})"
            return EMPTY_BODY.replace("(:total . 0) (:treal . 0)", timed)
        refused = list(dict.fromkeys(NOT_INDEXED.findall(datum))) if self.generate else []
        if refused:
            sys.stderr.write("".join(f"NOTE: EP '{p}' is unknown in the semantic index\n"
                                     f"WARNING: EP '{p}' is not covered\n" for p in refused))
            sys.stderr.flush()
            return EMPTY_BODY + ' (:error . "input EP not in index")'
        if RAM in datum:
            sys.stderr.write("NOTE: hit RAM limit while unpacking\n")
            sys.stderr.flush()
            return EMPTY_BODY + ' (:error . "ran out of RAM while unpacking")'
        if ERROR in datum:
            sys.stderr.write(f"ERROR: fake ace: failure on command ({ERROR})\n")
            sys.stderr.flush()
            return EMPTY_BODY + f' (:error . "failure on command ({ERROR})")'
        return None

    def recorded(self, datum: str) -> str:
        """The recorded answer to *datum* (an empty one if none), its diagnostics on stderr,
        cut to -n results."""
        found = self.lookup(datum)
        if found is None:
            return EMPTY_BODY
        (prefix, items, suffix), stderr = found
        # per-item diagnostics, as ACE prints them (the per-run totals come at exit)
        sys.stderr.write("".join(
            line + "\n" for line in stderr.splitlines()
            if line.startswith(("WARNING", "ERROR", "NOTE: EP"))
        ))
        if items:
            self.answered += 1
        if self.reverse_ties and not self.generate:
            items = reverse_ties(items)
        if self.n is not None:
            left = max(0, self.n - self.given)
            items = pick(items, left) if self.generate else items[:left]
            if self.generate:
                self.given += len(items)
        return join_results(prefix, items, suffix)

    def serve(self) -> int:
        out = sys.stdout
        out.write(self.meta("header") + "\n")
        out.flush()
        terminator = "\n\n" if self.generate else "\n\n\n"
        stdin = sys.stdin.buffer
        while True:
            raw = stdin.readline()
            if not raw:
                break
            datum = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            self.count += 1
            out.write(self.answer(datum) + terminator)
            out.flush()
            if EXIT in datum:
                os._exit(137)
        verb = "generated" if self.generate else "parsed"
        sys.stderr.write(
            f"NOTE: {verb} {self.answered} / {self.count} sentences, avg 1024k, "
            f"time {time.monotonic() - self.started:.5f}s\n"
        )
        return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--build-index"]:
        print(build_index(argv[1]))
        return 0
    args = parse_arguments(argv)
    if args is None:
        return 1
    if args.V:
        sys.stdout.write(open_index().execute(
            "SELECT value FROM meta WHERE key = 'version'").fetchone()[0])
        return 0
    if not args.g:
        sys.stderr.write("ERROR: no grammar image given (-g)\n")
        return 1
    if not os.path.isfile(args.g):
        sys.stderr.write(f"ERROR: unable to open grammar image '{args.g}'\n")
        return 1
    try:
        return Fake(args).serve()
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
