"""The per-batch tasks every backend runs.

`BatchWork` is the one place a batch meets the pipeline: the local backend calls it in threads
of this process, and each Ray actor holds one over its own ACE pool and pipeline. So the Ray
backend runs exactly the code the local one runs, and its records are the same. (The pipeline
is passed in: lit.pipeline builds it and imports this package, never the other way round.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from typing import Any, Protocol

from lit.ace.protocol import Ace


class Task(str, Enum):
    """The tasks a backend runs on batches: each is a method of BatchWork (and of a Ray
    actor) by the same name."""

    NLI = "nli"
    TRANSFORM = "transform"
    PARSE = "parse"

    def __str__(self) -> str:
        return self.value


class Backend(Protocol):
    """Where batches run (lit.backend.local.LocalBackend, lit.backend.ray_backend.RayBackend):
    what the Engine uses of either."""

    #: "local" or "ray" (RunConfig.backend)
    name: str
    #: does `run` report progress from inside each batch (else once per record)?
    progress_in_batch: bool

    def run(self, task: Task, batches: Iterable[list], *args: Any, **options: Any
            ) -> Iterator[Any]:
        """The records of *task* over *batches*, flattened, in input order."""
        ...

    def stage_seconds(self) -> tuple[dict[str, float], dict[str, float]]: ...

    def ace_retries(self) -> dict[str, int]: ...

    def close(self) -> None: ...


class BatchWork:
    """`lit nli`, `lit transform` and `lit parse` work for one batch at a time, over one
    lit.pipeline.Pipeline (None: ACE only) and its ACE service. Batches may run in parallel
    threads. *owner* is kept alive with the work (the Engine whose finalizer stops ACE)."""

    def __init__(self, pipeline: Any, service: Ace, owner: Any = None):
        self.pipeline = pipeline
        self.service = service
        self.owner = owner

    def nli(self, items: Sequence[Any], specs: Sequence[tuple[str, Any]],
            progress: Callable[[Any], None] | None = None) -> list:
        """One `lit nli` record per TaskItem, in order; *progress* hears the batch's pairs as
        fractions while its work finishes (lit.progress.BatchShare)."""
        return self.pipeline.nli(items, specs, progress)

    def stream_nli(self, items: Sequence[Any], specs: Sequence[tuple[str, Any]],
                   progress: Callable[[Any], None] | None = None) -> Iterator[dict]:
        """`nli`'s records, in order, each as soon as its pairs are done
        (lit.pipeline.Pipeline.stream_nli): the local backend streams them to the writer."""
        return self.pipeline.stream_nli(items, specs, progress)

    def transform(self, sentences: Sequence[str], specs: Sequence[Any]) -> list:
        """One `lit transform` record per sentence and spec, in order."""
        return self.pipeline.transform(sentences, specs)

    def parse(self, sentences: Sequence[str], n: int) -> list:
        """One lit.ace.service.ParseResult per sentence, in order."""
        return list(self.service.parse(sentences, n=n))

    def ace_retries(self) -> dict[str, int]:
        """The ACE pool's retries so far (lit.ace.service.AceService.retry_counts)."""
        return self.service.retry_counts()

    def stage_seconds(self) -> tuple[dict[str, float], dict[str, float]]:
        """Seconds per stage so far, and the part spent in ACE (plain dicts: they travel)."""
        if self.pipeline is None:
            return {}, {}
        times = self.pipeline.times.copy()
        return times.seconds, times.ace


def ace_only(service: Callable[[], Ace], scorer: Any = None) -> BatchWork:
    """Work for `lit parse`: an ACE pool from *service*, no pipeline (nothing to rank)."""
    return BatchWork(None, service())


#: (task, item, task arguments, reason) -> the records of an item no backend could run.
Failed = Callable[[Task, Any, tuple, str], list]
