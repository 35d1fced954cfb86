"""The local backend: batches run in threads of this process over one ACE pool."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from typing import Any

from lit.backend.work import BatchWork


def batches(items: Iterable, size: int) -> Iterator[list]:
    """*items* in lists of *size* (the last may be shorter), read lazily."""
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def overlapped(batches: Iterable[list], work: Callable[[list], list], in_flight: int
               ) -> Iterator[Any]:
    """Records of `work(batch)` for each batch, in order, with up to *in_flight* batches
    running at once: while one batch waits for ACE (or sits at a stage boundary), the next
    keeps the ACE pool busy. Batches are read from *batches* in this (the caller's) thread."""
    if in_flight <= 1:
        for batch in batches:
            yield from work(batch)
        return
    with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="lit-batch") as pool:
        pending: deque = deque()
        try:
            for batch in batches:
                pending.append(pool.submit(work, batch))
                if len(pending) >= in_flight:
                    yield from pending.popleft().result()
            while pending:
                yield from pending.popleft().result()
        finally:
            for future in pending:  # the consumer stopped early
                future.cancel()


class LocalBackend:
    """Runs `BatchWork` tasks in up to *in_flight* threads of this process."""

    name = "local"

    def __init__(self, work: BatchWork, in_flight: int):
        self.work = work
        self.in_flight = max(1, in_flight)

    #: Progress comes from inside each batch (BatchWork.nli's *progress*).
    progress_in_batch = True

    def run(self, task: str, batches: Iterable[list], *args: Any, **options: Any
            ) -> Iterator[Any]:
        """The results of `work.<task>(batch, *args, **options)` for every batch, flattened,
        in order."""
        method = getattr(self.work, task)
        return overlapped(batches, lambda batch: method(batch, *args, **options),
                          self.in_flight)

    def stage_seconds(self) -> tuple[dict[str, float], dict[str, float]]:
        return self.work.stage_seconds()

    def close(self) -> None:
        """Nothing to stop: the Engine owns the ACE pool."""
