"""The local backend: batches run in threads of this process over one ACE pool."""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from typing import Any

from lit.backend.work import BatchWork, Task


#: Batches held per batch slot (running, queued or finished but not yet yielded).
AHEAD = 2


def batches(items: Iterable, size: int, spread: int = 1,
            key: Callable[[Any], Hashable] | None = None) -> Iterator[list]:
    """*items* in lists of *size* (the last may be shorter), read lazily. An input shorter than
    *spread* whole batches is cut into *spread* batches of about equal size instead, so that
    every batch slot (`overlapped`) has work: one batch alone leaves ACE workers idle at each
    of its stage boundaries. Such a cut never falls between neighbours with the same *key*
    (SNLI pairs that share a premise), so no sentence is parsed in two batches."""
    it = iter(items)
    head = list(islice(it, size * spread))
    if spread > 1 and len(head) < size * spread:
        yield from _spread(head, spread, key)
        return
    for k in range(0, len(head), size):
        yield head[k: k + size]
    while batch := list(islice(it, size)):
        yield batch


def _spread(items: list, parts: int, key: Callable[[Any], Hashable] | None) -> Iterator[list]:
    start = 0
    for part in range(1, parts + 1):
        end = max(start, round(len(items) * part / parts))
        while key is not None and 0 < end < len(items) and key(items[end]) == key(items[end - 1]):
            end += 1
        if end > start:
            yield items[start:end]
        start = end


class _Streamed:
    """One batch's records, handed from the thread that runs the batch to the consumer as
    they come (a batch's work may be a generator that yields each record when it is done)."""

    _END = object()

    def __init__(self) -> None:
        self.queue: queue.Queue = queue.Queue()
        self.finished = False

    def run(self, work: Callable[[list], Iterable], batch: list) -> None:
        """In a pool thread: every record of `work(batch)`, then the end (or the error)."""
        try:
            for record in work(batch):
                self.queue.put((record, None))
        except BaseException as exc:  # raised again in the consumer's thread
            self.queue.put((self._END, exc))
        else:
            self.queue.put((self._END, None))

    def records(self, wait: bool) -> Iterator[Any]:
        """The records that have come (*wait*: all of them, waiting for the batch's end)."""
        while not self.finished:
            try:
                record, error = self.queue.get(block=wait)
            except queue.Empty:
                return
            if record is self._END:
                self.finished = True
                if error is not None:
                    raise error
                return
            yield record


def overlapped(batches: Iterable[list], work: Callable[[list], Iterable], in_flight: int
               ) -> Iterator[Any]:
    """Records of `work(batch)` for each batch, in order, with up to *in_flight* batches
    running at once: while one batch waits for ACE (or sits at a stage boundary), the next
    keeps the ACE pool busy. Records are handed on as the work yields them (in input order:
    a batch's only after every earlier batch's), not when its batch ends. A batch that
    finishes before an earlier one frees its slot for the next batch at once (up to AHEAD x
    *in_flight* batches are held, finished or not): a slow first batch must not leave the
    other slots idle. Batches are read from *batches* in this (the caller's) thread."""
    if in_flight <= 1:
        for batch in batches:
            yield from work(batch)
        return
    with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="lit-batch") as pool:
        pending: deque[tuple[Future, _Streamed]] = deque()
        try:
            for batch in batches:
                streamed = _Streamed()
                pending.append((pool.submit(streamed.run, work, batch), streamed))
                while pending:
                    full = len(pending) >= AHEAD * in_flight
                    yield from pending[0][1].records(wait=full)
                    if not pending[0][1].finished:
                        break
                    pending.popleft()
            while pending:
                yield from pending.popleft()[1].records(wait=True)
        finally:
            for future, _ in pending:  # the consumer stopped early
                future.cancel()


class LocalBackend:
    """Runs `BatchWork` tasks in up to *in_flight* threads of this process."""

    name = "local"

    def __init__(self, work: BatchWork, in_flight: int):
        self.work = work
        self.in_flight = max(1, in_flight)

    #: Progress comes from inside each batch (BatchWork.nli's *progress*).
    progress_in_batch = True

    def run(self, task: Task, batches: Iterable[list], *args: Any, **options: Any
            ) -> Iterator[Any]:
        """The results of `work.<task>(batch, *args, **options)` for every batch, flattened,
        in order; an nli record as soon as it and every record before it are done
        (BatchWork.stream_nli)."""
        work = self.work
        method = {Task.NLI: work.stream_nli, Task.TRANSFORM: work.transform,
                  Task.PARSE: work.parse}[task]
        return overlapped(batches, lambda batch: method(batch, *args, **options),
                          self.in_flight)

    def stage_seconds(self) -> tuple[dict[str, float], dict[str, float]]:
        return self.work.stage_seconds()

    def ace_retries(self) -> dict[str, int]:
        return self.work.ace_retries()

    def close(self) -> None:
        """Nothing to stop: the Engine owns the ACE pool."""
