"""A pool of persistent ACE processes that never lets one bad item stop a batch.

Each worker is a thread that owns its own long-lived ACE parser process (one per ``-n`` in
use) and generator process (:mod:`lit.ace.process`); items go to whichever worker is free, and results come back in input
order while the batch streams. Per-item failures become results with a status and a reason:

- **resource** — the limits that decide an item's outcome are ACE's memory caps (the chart
  while building the forest, "ran out of RAM while unpacking"): a measure of the grammar's
  work, the same on a busy or an idle machine. The reason names the cap, so a run with larger
  caps can retry just these items (``lit nli --resume``). Generation has its own caps
  (``generate_*_megabytes``), apart from the parser's (docs/ace.md, "Limits").
- **timeout** — time is only a backstop against a runaway or hung ACE, never the grammar's
  outcome: the same item takes more processor time when another process shares the core's
  caches, so a time budget near an item's need gave one record on a quiet machine and another
  on a busy one. The limit is ACE's *processor* time on the item (``timeout``,
  ``generate_timeout``): reads from ACE block, so each worker has a watchdog thread that arms
  itself with the process's CPU time when the item is sent, reads /proc/PID/stat every
  `CPU_POLL_SECONDS` and kills the process once the item has used its limit, which ends the
  blocked read (EOF). A process that gets no processor (more busy processes than cores, a hung
  ACE) is stopped by a wall-clock backstop of `WALL_FACTOR` times the limit: ACE's own
  ``--timeout`` (whole seconds), then the watchdog one second later. Arming, disarming and
  killing happen under one lock, so "finished just in time" and "killed" cannot both be true.
  An item stopped by time is a fault: it is tried once more on a fresh process
  (`TIME_ATTEMPTS`), and if stopped again it is ``timeout`` with a reason that says its
  outcome depended on time, not on the grammar. An item that reached a memory cap as its time
  ran out is ``resource``: one outcome, one reason. Where /proc cannot say (not Linux), the
  limit is wall-clock time, as ACE's own ``--timeout``.
- **retries** — a death LIT did not cause is environmental, not the item's outcome: ACE killed
  by a signal LIT did not send (an OOM kill, a SIGKILL or SIGTERM from outside), a broken
  pipe, its output ending mid-answer, ACE found stopped (SIGSTOP: state ``T``) when the
  watchdog fires. Such an item gets up to ``attempts`` tries (``DEFAULT_ATTEMPTS``, 4: Spark's
  task attempts; Ray retries a task whose worker died 3 times), each on a fresh process, so a
  retried item's result is the one a clean run gives. ACE's own caps are the grammar's
  outcome and are never retried; a process LIT killed itself (`stop`, `close`) is told from an
  outside kill because LIT remembers sending the signal. `AceService.retries` counts the
  extra tries (time-outs included), `retried_items` the items that needed them.
- **ace_error** — ACE died on every attempt, or gave an answer that is no answer (endless
  output, not a tsdb answer). The reason says first how ACE ended and after how many
  attempts ("ACE was killed by signal 9 (SIGKILL) on each of 4 attempts"), then quotes ACE's
  stderr, which each process writes to its own unnamed temporary file (opened for appending,
  read at LIT's own offset, so reading never disturbs ACE's writes; nothing stays on disk).
- After a timeout or a crash the worker discards that process and starts a fresh one for the
  next item; other workers and the rest of the batch are unaffected.
- **memory** — ACE keeps the memory of its largest item, so a parser found holding more
  than ``idle_megabytes`` after an item is closed (the next item starts a fresh one), and a
  generator is closed after every item (below): a worker's peak is its busy process plus
  small idle ones, not the high-water marks of all its processes.
- **invalid_input** — empty or whitespace-only input (PyDelphin issue #155: ACE would wait
  forever), over-long sentences, NUL characters, text that is not a SimpleMRS: answered at once,
  never sent to ACE.

ACE 0.9.30 counts a persistent generator's ``-n`` across inputs, and which realizations an
item gets depends on the budget left (selective unpacking), so a reused generator would make
an item's results depend on the items before it (other runs, workers, batch sizes, resume).
``generate(..., limit=k)`` still bounds ACE's work per item (a long sentence must not exhaust
RAM unpacking thousands of realizations) with ``-n`` k, and every item starts on a fresh
generator: the process is closed as soon as it has answered an item, even with no result (ACE
may count realizations it unpacked before stopping at a RAM cap: two rig runs differed in a
capped item's realizations when only such items were left to share a generator). Each result says whether ACE stopped at the limit (``capped``);
`AceService.starts` counts the processes started, with their start-up time. Without a limit the generator gets no
``-n`` and returns everything. Answers are read with
:mod:`lit.ace.tsdb` (PyDelphin's own reader costs about a millisecond per item).
"""

from __future__ import annotations

import atexit
import fcntl
import os
import queue
import re
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.ace.config import AceConfig
from lit.ace.parsecache import ParseCache
from lit.ace.process import (
    AceOutputError,
    AceProcess,
    cpu_seconds,
    process_state,
    resident_megabytes,
)
from lit.ace.protocol import WALL_FACTOR, AceTask, Limits
from lit.ace.results import GenerateResult, ParseResult, Reading, best, in_order
from lit.ace.semindex import SemanticIndex
from lit.ace.tsdb import INCOMPLETE
from lit.config import DEFAULTS, RunConfig
from lit.errors import ConfigurationError
from lit.status import Status

STDERR_ROTATE_BYTES = 1 << 20
#: The options that set each kind's (time limit, chart cap, unpack cap), named in reasons.
LIMIT_OPTIONS = {
    AceTask.PARSE: ("--timeout", "--max-chart-megabytes", "--max-unpack-megabytes"),
    AceTask.GENERATE: ("--generate-timeout", "--generate-chart-megabytes",
                 "--generate-unpack-megabytes"),
}
#: How long after ACE's own --timeout the watchdog kills a process that has not answered.
HARD_TIMEOUT_GRACE = 1.0
#: How often the watchdog reads a busy ACE process's processor time.
CPU_POLL_SECONDS = 0.05
#: A parse asks ACE for one reading more than it keeps, and leaves out readings of equal score
#: that straddle the cut (ACE orders them differently in each process); only when every
#: reading ties from the first it asks again for TIE_ASK times as many, up to TIE_READINGS,
#: on a process closed after the item.
TIE_ASK = 4
TIE_READINGS = 100
#: Tries an item gets when its time limit stops it, each on a fresh process: the limit is a
#: backstop against a runaway or hung ACE, not the grammar's outcome, so an item it stopped
#: once (a busy neighbour, a slow core) gets one more try, and if that is stopped too its
#: record says that time decided it.
TIME_ATTEMPTS = 2
#: Why an item that never reached ACE fails (`stop` or `close` was called).
STOPPING = "LIT is stopping (interrupted or closed)"


class AceService:
    """Persistent ACE parser/generator processes behind a pool of worker threads.

    Use as a context manager (or call :meth:`close`). Processes start lazily, on a worker's
    first item of each kind. ``parse`` and ``generate`` may be called from several threads.
    """

    def __init__(self, config: AceConfig, options: RunConfig = DEFAULTS, *,
                 env: dict[str, str] | None = None,
                 parse_cache: ParseCache | None = None) -> None:
        """*config*: the ACE and grammar to run; *options*: the run's options (workers, time
        limits, memory caps, input guards, attempts); *env*: the processes' environment;
        *parse_cache*: answers made before (lit.ace.options.start_service opens the shared
        one when options.parse_cache is set)."""
        if not Path(config.ace).is_file():
            raise ConfigurationError(f"ACE executable not found: {config.ace}")
        if not os.access(config.ace, os.X_OK):
            raise ConfigurationError(f"ACE is not executable: {config.ace} (try chmod +x)")
        if not Path(config.grammar).is_file():
            raise ConfigurationError(f"grammar image not found: {config.grammar}")
        self.config = config
        self.options = options
        self.workers = options.workers or os.cpu_count() or 1
        self.timeout = float(options.timeout)
        #: per-item time limit (processor seconds) and memory caps (MB) of each kind of process
        factor = WALL_FACTOR if cpu_seconds(os.getpid()) is not None else 1.0
        self.limits = {
            AceTask.PARSE: Limits(self.timeout, options.max_chart_megabytes,
                                  options.max_unpack_megabytes, factor),
            AceTask.GENERATE: Limits(float(options.generate_timeout),
                                     options.generate_chart_megabytes,
                                     options.generate_unpack_megabytes, factor),
        }
        #: a parser holding more than this after an item is replaced (its peak stays resident)
        self.idle_megabytes = options.idle_megabytes
        #: tries an item gets when ACE dies of something LIT did not cause
        self.attempts = options.attempts
        self.max_chars = options.max_chars
        self.max_words = options.max_words
        self.max_output_bytes = options.max_output_megabytes << 20
        self.env = env
        #: parses already made (this or an earlier command) are answered from here
        self.parse_cache = parse_cache
        self._tasks: queue.Queue[_Task | None] = queue.Queue()
        self._workers: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        self._stopping = False  # set by `stop`: every item fails at once, ACE is not started
        #: processes started per task and their summed start-up seconds
        self.starts: Counter[AceTask] = Counter()
        self.start_seconds: Counter[AceTask] = Counter()
        #: per kind: items that took more than one attempt, the extra attempts, and items
        #: during which ACE died on every attempt (recorded ace_error)
        self.retried_items: Counter[AceTask] = Counter()
        self.retries: Counter[AceTask] = Counter()
        self.exhausted: Counter[AceTask] = Counter()
        #: the generation index as far as `unindexed` needed it
        self.generation_index = SemanticIndex(self._probe)
        _LIVE.add(self)

    # --- public API ---------------------------------------------------------------------

    def parse(self, sentences: Iterable[str], n: int = 1) -> Iterator[ParseResult]:
        """Parse each sentence, keeping up to *n* readings; results stream in input order."""
        if n < 1:
            raise ValueError("n must be at least 1")
        return self._stream(sentences, lambda s: self._parse_task(s, n))

    def generate(
        self, mrss: Iterable[str | MRS], limit: int | None = None
    ) -> Iterator[GenerateResult]:
        """Realize each MRS (all realizations, or the first *limit*), in input order."""
        if limit is not None and limit < 1:
            raise ValueError("limit must be at least 1")
        return self._stream(mrss, lambda m: self._generate_task(m, limit))

    def count_start(self, kind: AceTask, seconds: float) -> None:
        """Count one ACE process started (workers call it; the cost of determinism shows
        here as generator starts)."""
        with self._lock:
            self.starts[kind] += 1
            self.start_seconds[kind] += seconds

    def count_attempts(self, kind: AceTask, attempts: int, exhausted: bool) -> None:
        """Count one item's tries (workers call it): the run summary reports retries."""
        with self._lock:
            if attempts > 1:
                self.retried_items[kind] += 1
                self.retries[kind] += attempts - 1
            self.exhausted[kind] += exhausted

    def retry_counts(self) -> dict[str, int]:
        """The retries so far, over both kinds, as a run summary reports them (a plain dict:
        it travels from a Ray actor)."""
        with self._lock:
            return {"items_retried": sum(self.retried_items.values()),
                    "retries": sum(self.retries.values()),
                    "items_failed_on_every_attempt": sum(self.exhausted.values())}

    def unindexed(self, mrss: Iterable[MRS], limit: int | None = 1) -> list[tuple[str, ...]]:
        """For each MRS, the predicates this grammar's generator would refuse as "not in
        index", so a caller need not start a generation that cannot finish (lit.ace.semindex:
        learnt from ACE once per predicate, by probes callers of `generate` never see, run
        on the generator of *limit*: pass the limit you will generate with)."""
        return self.generation_index.missing(mrss, limit)

    def process_ids(self) -> list[tuple[int, ...]]:
        """Each worker's running ACE processes (their pids), for memory measurements: a
        worker's processes serve one item at a time, so their sum is what a worker holds."""
        return [tuple(p.popen.pid for p in list(w.processes.values()) if p.popen.poll() is None)
                for w in list(self._workers)]

    def vouch(self, mrss: Iterable[MRS]) -> None:
        """Tell the generation index that this grammar parsed *mrss*: their predicates need no
        probe before `unindexed` can judge them (lit.ace.semindex says which are excepted)."""
        self.generation_index.vouch(mrss)

    def _probe(self, mrs_text: str, limit: int | None) -> GenerateResult:
        return next(self._stream([mrs_text], lambda m: self._generate_task(m, limit)))

    def stop(self) -> None:
        """Kill every ACE process now and fail the items still queued or running, without
        waiting for any lock: safe from a signal handler (Ctrl-C, SIGTERM), so a hung item
        does not hold up an interrupted run until its timeout."""
        self._stopping = True
        for worker in list(self._workers):
            for proc in list(worker.processes.values()):
                proc.kill()

    def close(self) -> None:
        """Stop the workers and their ACE processes (any still busy are killed); safe to
        call twice."""
        self.stop()
        with self._lock:
            if self._closed:
                return
            self._closed = True
            workers = list(self._workers)
        _LIVE.discard(self)
        for _ in workers:
            self._tasks.put(None)
        for w in workers:
            w.thread.join()
        if self.parse_cache is not None:
            self.parse_cache.close()

    def __enter__(self) -> AceService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- scheduling ---------------------------------------------------------------------

    def _stream(self, items: Iterable[Any], make: Callable[[Any], Future]) -> Iterator[Any]:
        """Yield results in input order while a feeder thread keeps a bounded window of items
        in flight. The feeder reads the input, so a result is yielded as soon as it is ready
        even while the next input is slow to arrive (a person typing into `lit parse`)."""
        window = threading.Semaphore(self.workers * 4)
        ordered: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()

        def feed() -> None:
            try:
                for item in items:
                    window.acquire()
                    if stop.is_set():
                        return
                    ordered.put(make(item))
            except BaseException as exc:  # the consumer re-raises it (bad input file, ...)
                ordered.put(_Failure(exc))
            finally:
                ordered.put(_END)

        threading.Thread(target=feed, name="lit-ace-feeder", daemon=True).start()
        try:
            while True:
                head = ordered.get()
                if head is _END:
                    return
                if isinstance(head, _Failure):
                    raise head.exc
                result = head.result()
                window.release()
                yield result
        finally:
            stop.set()
            window.release()  # wake a feeder waiting for room, so it sees `stop`
            while True:  # abandoned by the consumer: do not run the rest
                try:
                    left = ordered.get_nowait()
                except queue.Empty:
                    break
                if isinstance(left, Future):
                    left.cancel()

    def _submit(self, task: _Task) -> Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("AceService is closed")
            if len(self._workers) < self.workers:
                self._workers.append(_Worker(self, len(self._workers)))
        self._tasks.put(task)
        return task.future

    @staticmethod
    def _done(result: Any) -> Future:
        future: Future = Future()
        future.set_result(result)
        return future

    def _parse_task(self, sentence: str, n: int) -> Future:
        problem = self._check_sentence(sentence)
        if problem:
            return self._done(ParseResult(sentence, Status.INVALID_INPUT, problem, (), None, 0.0))
        cache = self.parse_cache
        cached = cache.get(sentence, n) if cache is not None else None
        if cached is not None:
            return self._done(cached)
        # ACE reads one item per line: a line break inside the sentence would split it
        datum = sentence.replace("\r", " ").replace("\n", " ")
        future = self._submit(_Task(AceTask.PARSE, sentence, datum, n))
        if cache is not None:
            _keep(future, lambda result: cache.put(result, n))
        return future

    def _generate_task(self, mrs: str | MRS, limit: int | None) -> Future:
        """Send a one-line SimpleMRS re-encoded by PyDelphin (so a multi-line MRS cannot
        desynchronise ACE); the result's ``input`` is the caller's string, or the encoding
        of the caller's MRS object."""
        if isinstance(mrs, MRS):
            text = datum = simplemrs.encode(mrs, lnk=False)
        else:
            text, problem = str(mrs), None
            if not text.strip():
                problem = "empty MRS (nothing to generate from)"
            else:
                try:
                    datum = simplemrs.encode(simplemrs.decode(text), lnk=False)
                except Exception as exc:  # PyDelphin raises several types for bad SimpleMRS
                    problem = "not a SimpleMRS: " + " ".join(str(exc).split())
            if problem:
                failed = GenerateResult(text, Status.INVALID_INPUT, problem, (), None, 0.0)
                return self._done(failed)
        cache = self.parse_cache
        cached = cache.get_generation(datum, limit, text) if cache is not None else None
        if cached is not None:
            return self._done(cached)
        future = self._submit(_Task(AceTask.GENERATE, text, datum, limit))
        if cache is not None:
            _keep(future, lambda result: cache.put_generation(result, datum, limit))
        return future

    def _check_sentence(self, sentence: str) -> str | None:
        if not isinstance(sentence, str):
            return f"not a string: {type(sentence).__name__}"
        if not sentence.strip():
            return "empty or whitespace-only input"
        try:
            sentence.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"input is not UTF-8 text (character {exc.start + 1})"
        if "\0" in sentence:
            return "input contains a NUL character"
        if len(sentence) > self.max_chars:
            return f"input has {len(sentence)} characters; the limit is {self.max_chars}"
        words = len(sentence.split())
        if words > self.max_words:
            return f"input has {words} words; the limit is {self.max_words}"
        return None

    def _cmdargs(self, kind: AceTask, n: int | None) -> list[str]:
        limits = self.limits[kind]
        args = ["--max-chart-megabytes", str(limits.chart_megabytes),
                "--max-unpack-megabytes", str(limits.unpack_megabytes),
                "--timeout", str(limits.ace_timeout)]
        if kind == AceTask.PARSE:
            args += ["-n", str(n)]
        elif n is not None:  # one item's budget: the process is replaced once it is used
            args += ["-n", str(n)]
        return args


def _keep(future: Future, store: Callable[[Any], None]) -> None:
    """Hand *future*'s result to *store* (the on-disk cache) once it is done, unless it
    failed or was cancelled."""
    def done(f: Future) -> None:
        if not f.cancelled() and f.exception() is None:
            store(f.result())

    future.add_done_callback(done)


_END = object()
#: Services not yet closed: `stop_all` and the exit hook reach them (a service left open
#: must not leave ACE processes behind).
_LIVE: weakref.WeakSet[AceService] = weakref.WeakSet()


def stop_all() -> None:
    """`AceService.stop` on every open service (for signal handlers)."""
    for service in list(_LIVE):
        service.stop()


@atexit.register
def _close_all() -> None:
    for service in list(_LIVE):
        service.close()


@dataclass(frozen=True)
class _Failure:
    exc: BaseException


@dataclass
class _Task:
    kind: AceTask
    input: str  # what the result reports as its input
    datum: str  # what is sent to ACE
    param: int | None  # n for parse, limit for generate
    future: Future = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.future = Future()


class Outcome(str, Enum):
    """How one try of an item on one ACE process ended; OK, TIMEOUT and RESOURCE give the
    item the `Status` of that name, DIED and FAILED `Status.ACE_ERROR` once no try is left."""

    OK = "ok"
    #: LIT's watchdog stopped it: tried once more, then time decided the item
    TIMEOUT = "timeout"
    #: ACE reached a memory cap as its time ran out: the cap is the outcome
    RESOURCE = "resource"
    #: a death LIT did not cause: retried
    DIED = "died"
    #: no answer by the item's or LIT's doing: not retried
    FAILED = "failed"


@dataclass(frozen=True)
class _Attempt:
    """How one try of an item on one ACE process went."""

    response: Any  # ACE's answer (outcome OK), else None
    outcome: Outcome
    stderr: str  # what ACE wrote to stderr during the try
    detail: str = ""  # how ACE ended or failed (DIED, FAILED); the reason (TIMEOUT, RESOURCE)


@dataclass(frozen=True)
class _Answer:
    """ACE's answer to one try (None if it failed with *error*), and when the try began."""

    response: Any
    error: Exception | None
    began: float


@dataclass(frozen=True)
class _Watched:
    """What the watchdog saw of one try: whether its time limit fired, whether ACE was
    found stopped then, the processor seconds used (None: not measured) and whether they
    reached the budget."""

    fired: bool
    stopped: bool
    used: float | None
    on_cpu: bool


def _incomplete(popen: subprocess.Popen, by_lit: bool, alive: bool, error: Exception | None,
                stderr: str) -> _Attempt:
    """A try without a complete answer: stopped by LIT, ACE died, or its output was bad."""
    if by_lit:
        return _Attempt(None, Outcome.FAILED, stderr, STOPPING)
    if not alive or isinstance(error, BrokenPipeError):
        return _Attempt(None, Outcome.DIED, stderr, _ended(popen.returncode, error))
    why = (f"{type(error).__name__}: {error}" if error is not None
           else "ACE's answer is not a tsdb answer")
    return _Attempt(None, Outcome.FAILED, stderr, why)


class _StartError(Exception):
    """An ACE process could not be started (the message quotes ACE's stderr)."""


class _Process:
    """One PyDelphin ACE process with its stderr captured to a file we can read per item: an
    unnamed temporary file (nothing left on disk however LIT ends), opened for appending
    and read at our own offset (os.pread), so reading never disturbs ACE's writes."""

    def __init__(self, service: AceService, kind: AceTask, n: int | None) -> None:
        self._err = tempfile.TemporaryFile()
        fd = self._err.fileno()
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
        self._read = 0  # how much of the file `new_stderr` has returned
        #: LIT sent this process a kill (watchdog, `stop`, `close`): its death is LIT's doing
        self.killed_by_lit = False
        try:
            self.ace = AceProcess(
                str(service.config.grammar),
                str(Path(service.config.ace).absolute()),  # never a PATH lookup
                service._cmdargs(kind, n),
                generate=kind == AceTask.GENERATE,
                env=service.env,
                stderr=self._err,
                max_output=service.max_output_bytes,
            )
        except Exception as exc:
            message = f"could not start ACE: {exc}"
            stderr = _tail(self.new_stderr())
            self._close_files()
            raise _StartError(f"{message} | {stderr}" if stderr else message) from exc

    @property
    def popen(self) -> subprocess.Popen:
        return self.ace.popen

    def new_stderr(self) -> str:
        """What ACE wrote to stderr since the last call (the file is emptied now and then)."""
        fd = self._err.fileno()
        size = os.fstat(fd).st_size
        data = os.pread(fd, max(0, size - self._read), self._read)
        self._read += len(data)
        if self._read > STDERR_ROTATE_BYTES:
            os.ftruncate(fd, 0)  # ACE appends (O_APPEND), so it follows to 0
            self._read = 0
        return data.decode("utf-8", errors="replace")

    def kill(self) -> None:
        p = self.popen
        if p.poll() is None:
            self.killed_by_lit = True
            p.kill()

    def close(self, graceful: bool = True) -> None:
        p = self.popen
        try:
            if graceful and p.poll() is None and p.stdin and not p.stdin.closed:
                p.stdin.close()  # ACE exits at end of input
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        except OSError:
            pass
        self.kill()
        p.wait()
        for stream in (p.stdin, p.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        self._close_files()

    def _close_files(self) -> None:
        self._err.close()


class _Worker:
    """A thread owning its ACE processes, plus a watchdog thread that enforces deadlines."""

    def __init__(self, service: AceService, index: int) -> None:
        self.service = service
        self.index = index
        self.processes: dict[tuple[AceTask, int | None], _Process] = {}
        self._cond = threading.Condition()
        self._deadline: float | None = None  # the wall-clock backstop
        self._target: _Process | None = None
        #: the target's processor time when the item was sent, and the item's budget (None:
        #: the processor time cannot be read, the deadline is the limit)
        self._cpu_start: float | None = None
        self._cpu_budget = 0.0
        self._cpu_used = 0.0  # what the item had used when the watchdog last looked
        self._fired = False
        self._found_stopped = False  # the watchdog found its target stopped (SIGSTOP)
        self._stop = False
        self.thread = threading.Thread(target=self._run, name=f"lit-ace-{index}", daemon=True)
        self._watchdog = threading.Thread(
            target=self._watch, name=f"lit-ace-{index}-watchdog", daemon=True
        )
        self.thread.start()
        self._watchdog.start()

    # --- threads ------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                task = self.service._tasks.get()
                if task is None:
                    return
                if not task.future.set_running_or_notify_cancel():
                    continue
                try:
                    task.future.set_result(self._handle(task))
                except BaseException as exc:  # never leave a caller waiting
                    task.future.set_exception(exc)
        finally:
            for proc in self.processes.values():
                proc.close()
            with self._cond:
                self._stop = True
                self._cond.notify()

    def _watch(self) -> None:
        with self._cond:
            while not self._stop:
                if self._deadline is None:
                    self._cond.wait()
                    continue
                remaining = self._deadline - time.monotonic()
                if remaining > 0 and not self._over_budget():
                    wait = remaining if self._cpu_start is None else CPU_POLL_SECONDS
                    self._cond.wait(min(remaining, wait))
                    continue
                if self._target is not None:
                    # stopped from outside is no slow grammar: tell it from a time-out
                    if remaining <= 0:
                        state = process_state(self._target.popen.pid)
                        self._found_stopped = state in ("T", "t")
                    self._target.kill()
                self._fired = True
                self._deadline = None

    def _over_budget(self) -> bool:
        """Has the target used its item's processor time (read now; under the lock)?"""
        if self._cpu_start is None or self._target is None:
            return False
        now = cpu_seconds(self._target.popen.pid)
        if now is None:  # gone: its reader sees the end
            return False
        self._cpu_used = now - self._cpu_start
        return self._cpu_used >= self._cpu_budget

    # --- one item -----------------------------------------------------------------------

    def _handle(self, task: _Task) -> ParseResult | GenerateResult:
        """Try the item until ACE answers or fails by the item's own doing (`_tries`). A
        parse asks ACE for one reading more than it keeps, so that readings of equal score
        straddling the cut are seen and left out (`lit.ace.results.best`); only when every
        reading ties from the first does it ask for more (`TIE_ASK`, `TIE_READINGS`). The
        readings kept are the same whichever process parsed the sentence."""
        start = time.monotonic()
        if task.kind == AceTask.GENERATE:
            attempt, tries = self._tries((task.kind, task.param), task.datum)
            result = self._generate_result(task, attempt, time.monotonic() - start)
            return replace(result, attempts=tries) if tries > 1 else result
        first = asked = task.param + 1
        tries = 0
        while True:
            attempt, more = self._tries((AceTask.PARSE, asked), task.datum, once=asked != first)
            tries += more
            kept: tuple[Reading, ...] | None = ()
            if attempt.outcome == Outcome.OK:
                found = _readings(attempt.response)
                kept = best(found, task.param, asked)
                if kept is None and asked < TIE_READINGS:
                    asked = min(TIE_READINGS, asked * TIE_ASK)
                    continue
                kept = in_order(found)[: task.param] if kept is None else kept
            result = self._parse_result(task, attempt, time.monotonic() - start, kept)
            return replace(result, attempts=tries) if tries > 1 else result

    def _tries(self, key: tuple[AceTask, int | None], datum: str, once: bool = False
               ) -> tuple[_Attempt, int]:
        """The item's last attempt and how many it took. A death LIT did not cause is
        retried on a fresh process, up to `attempts` tries; so is a time-out, once
        (`TIME_ATTEMPTS`): time is a backstop, not the grammar's outcome. *once*: close the
        process after the item (a parser for a rare -n would stay idle in memory)."""
        deaths: list[str] = []
        timeouts: list[str] = []
        while True:
            attempt = self._interact(key, datum)
            if attempt.outcome == Outcome.DIED:
                deaths.append(attempt.detail)
                if len(deaths) >= self.service.attempts or self.service._stopping:
                    attempt = replace(attempt, detail=_on_every_attempt(deaths))
                    break
            elif attempt.outcome == Outcome.TIMEOUT:
                timeouts.append(attempt.detail)
                if len(timeouts) >= TIME_ATTEMPTS or self.service._stopping:
                    attempt = replace(attempt, detail=_decided_by_time(timeouts))
                    break
            else:
                break
        if once and key in self.processes:
            self.processes.pop(key).close(graceful=False)
        tries = (len(deaths) + len(timeouts)
                 + (attempt.outcome not in (Outcome.DIED, Outcome.TIMEOUT)))
        self.service.count_attempts(key[0], tries, attempt.outcome == Outcome.DIED)
        return attempt, tries

    def _process(self, key: tuple[AceTask, int | None]) -> _Process:
        proc = self.processes.get(key)
        if proc is not None and proc.popen.poll() is not None:  # died between items
            del self.processes[key]
            proc.close(graceful=False)
            proc = None
        if proc is None:
            began = time.monotonic()
            proc = self.processes[key] = _Process(self.service, key[0], key[1])
            self.service.count_start(key[0], time.monotonic() - began)
        return proc

    def _interact(self, key: tuple[AceTask, int | None], datum: str) -> _Attempt:
        """Send one item to this worker's process of *key* (started if need be) and say how
        it went (`_Attempt`); a failed process is discarded so the next try gets a new one."""
        if self.service._stopping:
            return _Attempt(None, Outcome.FAILED, "", STOPPING)
        try:
            proc = self._process(key)
        except _StartError as exc:  # e.g. no memory to fork: the machine's, not the item's
            return _Attempt(None, Outcome.DIED, "", str(exc))
        began = time.monotonic()
        self._arm(proc, self.service.limits[key[0]], began)
        response, error = None, None
        try:
            response = proc.ace.interact(datum)
        except Exception as exc:  # a broken pipe, endless or undecodable output, ...
            error = exc
        return self._outcome(key, proc, _Answer(response, error, began), self._disarm())

    def _arm(self, proc: _Process, limits: Limits, began: float) -> None:
        """Start the watchdog's clock on *proc* for one item under *limits*."""
        with self._cond:
            self._deadline = began + limits.wall_seconds + HARD_TIMEOUT_GRACE
            self._target = proc
            self._cpu_start = cpu_seconds(proc.popen.pid) if limits.wall_factor > 1 else None
            self._cpu_budget, self._cpu_used = limits.seconds, 0.0
            self._fired = self._found_stopped = False
            self._cond.notify()

    def _disarm(self) -> _Watched:
        """Stop the watchdog's clock; what it saw of the item."""
        with self._cond:
            self._deadline = None
            self._target = None
            measured = self._cpu_start is not None
            return _Watched(self._fired, self._found_stopped,
                            self._cpu_used if measured else None,
                            measured and self._cpu_used >= self._cpu_budget)

    def _outcome(self, key: tuple[AceTask, int | None], proc: _Process, answer: _Answer,
                 watched: _Watched) -> _Attempt:
        """How the try went, from ACE's *answer* and what the watchdog saw; the process is
        discarded when it failed, and after a generation or when it holds too much."""
        popen, response, error = proc.popen, answer.response, answer.error
        complete = (
            error is None
            and "readings" in response
            and response.get("error") != INCOMPLETE
        )
        if not watched.fired and not complete and not isinstance(error, AceOutputError):
            # ACE closed its output or its input: let it finish dying, so its end is known
            try:
                popen.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        alive, by_lit = popen.poll() is None, proc.killed_by_lit  # before closing it
        stderr = proc.new_stderr()
        cap = self._memory_cap(key[0], f"{(response or {}).get('error') or ''} {stderr}")
        # ACE stopped itself at its own --timeout (the wall-clock backstop), at no cap
        gave_up = (complete and not watched.fired and not cap and not response["results"]
                   and self._gave_up(key[0], response, answer.began))
        if watched.fired or not alive or not complete or gave_up:
            del self.processes[key]
            proc.close(graceful=False)
        if watched.fired:
            return self._fired_outcome(key[0], watched, stderr, cap)
        if not complete:
            return _incomplete(popen, by_lit, alive, error, stderr)
        # a complete answer is genuine even if ACE died right after giving it
        if gave_up:
            return _Attempt(None, Outcome.TIMEOUT, stderr,
                            self._own_timeout_reason(key[0], response))
        if key[0] == AceTask.GENERATE or self._holds_too_much(proc):
            # a generator serves one item (the next must not see this one's -n budget or
            # memory state); a parser that grew past the idle cap would hold that memory
            # while this worker's other processes work. Idle now: killing it loses nothing.
            del self.processes[key]
            proc.close(graceful=False)
        return _Attempt(response, Outcome.OK, stderr)

    def _fired_outcome(self, task: AceTask, watched: _Watched, stderr: str, cap: str
                       ) -> _Attempt:
        """The try the watchdog stopped: ACE stopped from outside, a cap reached as time ran
        out (the cap is the outcome), else a timeout."""
        if watched.stopped:
            return _Attempt(None, Outcome.DIED, stderr, "ACE was found stopped (SIGSTOP from "
                            "outside LIT) when its time limit passed")
        if cap:
            return _Attempt(None, Outcome.RESOURCE, stderr, cap)
        return _Attempt(None, Outcome.TIMEOUT, stderr,
                        self._timeout_reason(task, watched.on_cpu, watched.used))

    def _holds_too_much(self, proc: _Process) -> bool:
        rss = resident_megabytes(proc.popen.pid)
        return rss is not None and rss > self.service.idle_megabytes

    # --- results ------------------------------------------------------------------------

    def _failure(self, task: _Task, attempt: _Attempt) -> tuple[Status, str]:
        """A memory cap, a time-out, or ``ace_error`` saying first how ACE ended, then its
        stderr."""
        if attempt.outcome == Outcome.RESOURCE:
            short = "no parse" if task.kind == AceTask.PARSE else "no realization"
            return Status.RESOURCE, (f"{attempt.detail}; "
                                     + self._empty_reason({}, attempt.stderr, short))
        if attempt.outcome == Outcome.TIMEOUT:
            return Status.TIMEOUT, attempt.detail
        return Status.ACE_ERROR, " | ".join(filter(None, [attempt.detail, _tail(attempt.stderr)]))

    def _timeout_reason(self, kind: AceTask, on_budget: bool, used: float | None) -> str:
        """Which time limit the watchdog enforced: the processor-time limit (a runaway ACE),
        or the wall-clock backstop (a hung ACE or the machine's load: said, with the processor
        time ACE got; *used* None: it could not be read, the limit was wall-clock time)."""
        limits, option = self.service.limits[kind], LIMIT_OPTIONS[kind][0]
        if on_budget:
            return (f"no answer within {limits.seconds:g} s of ACE processor time ({option}); "
                    "ACE was stopped")
        if used is not None:
            return (f"no answer within {limits.wall_seconds + HARD_TIMEOUT_GRACE:g} s of "
                    f"wall-clock time ({limits.wall_factor:g} x {option}, the backstop), in "
                    f"which ACE got only {used:.1f} s of processor time: a hung ACE, or a "
                    "machine with more busy processes than cores; ACE was stopped")
        return f"no answer within {limits.seconds:g} s ({option}); ACE was stopped"

    def _gave_up(self, kind: AceTask, response: Any, began: float) -> bool:
        """Did ACE stop at its own --timeout? Said by its error ("ran out of time while
        unpacking"), else judged by ACE's reported time when it has one (the wall time also
        counts starting a fresh ACE)."""
        if "out of time" in str(response.get("error") or ""):
            return True
        seconds = _ace_seconds(response)
        spent = seconds if seconds is not None else time.monotonic() - began
        return spent >= 0.98 * self.service.limits[kind].ace_timeout

    def _own_timeout_reason(self, kind: AceTask, response: Any) -> str:
        limits, option = self.service.limits[kind], LIMIT_OPTIONS[kind][0]
        backstop = (f"wall-clock backstop, {limits.wall_factor:g} x {option}: ACE got less "
                    "processor time than it was due" if limits.wall_factor > 1 else option)
        error = f"; ACE: {response['error']}" if response.get("error") else ""
        return f"ACE stopped at its {limits.ace_timeout} s time limit ({backstop}){error}"

    def _memory_cap(self, kind: AceTask, said: str) -> str:
        """Which memory cap ACE says it reached (its reason, naming the option), or ""."""
        if "RAM" not in said:
            return ""
        limits, options = self.service.limits[kind], LIMIT_OPTIONS[kind]
        chart = "building forest" in said and "while unpacking" not in said
        cap, option = ((limits.chart_megabytes, options[1]) if chart
                       else (limits.unpack_megabytes, options[2]))
        return f"ACE stopped at its {cap} MB {'chart' if chart else 'unpacking'} cap ({option})"

    def _empty_reason(self, response: Any, stderr: str, what: str) -> str:
        parts = [what]
        if response.get("error"):
            parts.append(f"ACE: {response['error']}")
        parts += [m for m in _diagnostics(stderr) if m not in parts]
        return "; ".join(parts)

    def _parse_result(self, task: _Task, attempt: _Attempt, wall: float,
                      readings: tuple[Reading, ...]) -> ParseResult:
        if attempt.outcome != Outcome.OK:
            status, reason = self._failure(task, attempt)
            return ParseResult(task.input, status, reason, (), None, wall)
        response, stderr = attempt.response, attempt.stderr
        seconds = _ace_seconds(response)
        if readings:
            return ParseResult(task.input, Status.OK, None, readings, seconds, wall)
        status, reason = self._nothing(task, response, stderr, Status.NO_PARSE, "no parse",
                                       "ACE found no parse")
        return ParseResult(task.input, status, reason, (), seconds, wall)

    def _generate_result(self, task: _Task, attempt: _Attempt, wall: float) -> GenerateResult:
        if attempt.outcome != Outcome.OK:
            status, reason = self._failure(task, attempt)
            return GenerateResult(task.input, status, reason, (), None, wall)
        response, stderr = attempt.response, attempt.stderr
        seconds = _ace_seconds(response)
        surfaces = tuple(r["surface"] for r in response["results"] if r.get("surface"))
        capped = task.param is not None and len(response["results"]) >= task.param
        if task.param is not None:
            surfaces = surfaces[: task.param]
        if surfaces:
            return GenerateResult(task.input, Status.OK, None, surfaces, seconds, wall, capped)
        status, reason = self._nothing(task, response, stderr, Status.NO_GENERATION,
                                       "no realization", "ACE generated nothing")
        return GenerateResult(task.input, status, reason, (), seconds, wall)

    def _nothing(self, task: _Task, response: Any, stderr: str, status: Status, short: str,
                 long: str) -> tuple[Status, str]:
        """Status and reason for an empty answer: ``resource`` if ACE stopped at a memory cap
        (the reason names the limit and its option: a run with a larger one may succeed),
        else *status*."""
        cap = self._memory_cap(task.kind, f"{response.get('error') or ''} {stderr}")
        if cap:
            return Status.RESOURCE, f"{cap}; " + self._empty_reason(response, stderr, short)
        return status, self._empty_reason(response, stderr, long)


_DIAGNOSTIC = re.compile(r"^(ERROR|WARNING):\s*(.*)$|^(NOTE):\s*(.*(?:limit|RAM|timeout).*)$")


def _diagnostics(stderr: str) -> list[str]:
    """ACE's ERROR and WARNING lines for one item, and NOTEs about limits (others are
    statistics)."""
    found = []
    for m in map(_DIAGNOSTIC.match, stderr.splitlines()):
        if m:
            found.append(f"{m[1]}: {m[2]}" if m[1] else f"{m[3]}: {m[4]}")
    return found


def _ended(returncode: int | None, error: BaseException | None) -> str:
    """How an ACE process that died mid-item ended, from its exit status."""
    pipe = " (broken pipe)" if isinstance(error, BrokenPipeError) else ""
    if returncode is None:
        return "broken pipe: ACE closed its input" if pipe else "ACE failed"
    if returncode < 0:
        try:
            name = f" ({signal.Signals(-returncode).name})"
        except ValueError:
            name = ""
        return f"ACE was killed by signal {-returncode}{name}{pipe}"
    if returncode == 0:
        return f"ACE exited (code 0) in the middle of an answer{pipe}"
    return f"ACE exited with code {returncode}{pipe}"


def _on_every_attempt(deaths: list[str]) -> str:
    """How ACE ended on each try of an item: "ACE was killed by signal 9 (SIGKILL) on each of
    4 attempts", or each kind of end with its attempts."""
    if len(deaths) == 1:
        return f"{deaths[0]} (1 attempt)"
    if len(set(deaths)) == 1:
        return f"{deaths[0]} on each of {len(deaths)} attempts"
    tries: dict[str, list[str]] = {}
    for number, death in enumerate(deaths, 1):
        tries.setdefault(death, []).append(str(number))
    return f"ACE died on each of {len(deaths)} attempts: " + "; ".join(
        f"{death} (attempt{'s' if len(n) > 1 else ''} {', '.join(n)})"
        for death, n in tries.items())


def _decided_by_time(timeouts: list[str]) -> str:
    """Why an item stopped by time on every try failed (the last try's limit), saying that
    time, not the grammar, decided it."""
    return (f"{timeouts[-1]}; stopped by time on each of {len(timeouts)} attempts: this "
            "outcome depended on time, not on the grammar (a runaway or hung ACE, or a "
            "machine too busy to give it processor time); a larger limit or a quieter machine "
            "may change it")


def _tail(text: str, lines: int = 8) -> str:
    return " | ".join(line for line in text.strip().splitlines()[-lines:] if line.strip())


def _readings(response: Any) -> tuple[Reading, ...]:
    """The readings of ACE's answer, in ACE's order."""
    return tuple(Reading(r["mrs"], r.get("derivation")) for r in response["results"]
                 if "mrs" in r)


def _ace_seconds(response: Any) -> float | None:
    """ACE's own time for the item: the tsdb ``:total`` field, in milliseconds."""
    total = response.get("total")
    try:
        return float(total) / 1000.0 if total is not None else None
    except (TypeError, ValueError):
        return None
