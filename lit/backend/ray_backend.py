"""The Ray backend: batches run on Ray actors that each own an ACE pool and a pipeline.

The driver (this process) reads the input, keeps at most `in_flight` batches out on the
actors (so its memory does not grow with the input), sends each batch to the least busy
actor and yields records in input order. Actors are restarted by Ray when they die
(`max_restarts`), and the batches they held are retried (`max_task_retries`). A batch that
fails even so is split: each item runs alone, and an item that kills its actor again gets a
record with status `error` and the reason; every other item gets its normal record. See
docs/scale.md.
"""

from __future__ import annotations

import os
import random
import re
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lit.backend import import_ray
from lit.backend.work import BatchWork, Failed, Task, ace_only
from lit.config import RunConfig
from lit.errors import ConfigurationError, InputError

#: Ray restarts a dead actor without limit: an item that keeps killing actors is isolated
#: and recorded as `error`, so restarts are bounded by the input, not by this number.
MAX_RESTARTS = -1
#: Ray retries each batch once on the restarted actor; the next death splits the batch.
MAX_TASK_RETRIES = 1
#: Seconds to wait for the actors to start (ACE found, rules loaded, scorer loaded).
READY_TIMEOUT = 600.0


@dataclass(frozen=True)
class Recipe:
    """How each actor builds its own work on its own node (paths left unset resolve there:
    LIT_ACE, the config file, `lit setup`'s cache)."""

    build: Callable[[Any], BatchWork]  # build(scorer) -> BatchWork; scorer None: its own
    config: RunConfig  # the run's settings (scorer actors use its scorer fields)
    ranks: bool = True  # False: ACE only (`lit parse`), so no scorer actors


@dataclass(frozen=True)
class RayOptions:
    """How many actors, of what size, on which Ray."""

    address: str | None = None  # None: RAY_ADDRESS, else a new local Ray
    actors: int | None = None  # None: the cluster's CPUs // ace_workers_per_actor
    ace_workers_per_actor: int = 1
    scorer_actors: int = 0
    batches_per_actor: int = 2  # batches each actor works on at once (threads)


@dataclass(frozen=True)
class RemoteScorer:
    """The scorer the actors rank with, as the driver sees it (its name goes into the run
    identity and metadata); with scorer actors, the actors' handle on them."""

    name: str
    model_name: str | None = None
    actors: tuple = field(default=(), repr=False)
    #: the remote scorer's own scale, so the ranking weighs its scores as a local one would
    scale: float | None = None

    def load(self) -> None:
        """Nothing to load here: the scorer actors loaded theirs."""

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        """Scores from a scorer actor (any: they are interchangeable)."""
        if not self.actors:
            raise RuntimeError("this scorer runs on the Ray actors, not on the driver")
        return import_ray().get(random.choice(self.actors).score.remote(groups))


def _where() -> dict[str, Any]:
    return {"node": socket.gethostname(), "pid": os.getpid()}


class PipelineActor:
    """A Ray actor's state: its own ACE pool, rule engine, label rules and scorer."""

    def __init__(self, recipe: Recipe, scorer: Any = None):
        self.work = recipe.build(scorer)

    def ready(self) -> dict[str, Any]:
        """Where this actor runs, what it found, and the scorer it ranks with."""
        pipeline = self.work.pipeline
        scorer = pipeline.realizer.scorer if pipeline is not None else None
        config = self.work.service.config
        return {**_where(), "ace": str(config.ace), "grammar": str(config.grammar),
                "scorer": scorer.name if scorer is not None else None,
                "model": scorer.model_name if scorer is not None else None}

    def nli(self, items: list, specs: list) -> list:
        return self.work.nli(items, specs)

    def transform(self, sentences: list, specs: list) -> list:
        return self.work.transform(sentences, specs)

    def parse(self, sentences: list, n: int) -> list:
        return self.work.parse(sentences, n)

    def stage_seconds(self) -> tuple[dict[str, float], dict[str, float]]:
        return self.work.stage_seconds()

    def ace_retries(self) -> dict[str, int]:
        return self.work.ace_retries()


class ScorerActor:
    """A scorer (e.g. GPT-2 on a GPU) shared by every pipeline actor."""

    def __init__(self, config: RunConfig):
        from lit.rank import get_scorer

        self.scorer = get_scorer(config.scorer, model=config.model, device=config.device,
                                 batch_size=config.score_batch_size)

    def info(self) -> dict[str, Any]:
        return {**_where(), "scorer": self.scorer.name, "model": self.scorer.model_name,
                "scale": self.scorer.scale}

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        return self.scorer.score(groups)


def _last(exc: BaseException) -> str:
    """The error at the bottom of a remote traceback, without its exception's module path
    ("grammar image not found: ..."), or the first line of a message with no traceback."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    match = re.match(r"[\w.]+(?:Error|Exception): (.*)", lines[-1])
    return match.group(1) if match else lines[0]


def _node(exc: BaseException) -> str:
    """" on node IP" when Ray's message names the node."""
    match = re.search(r"\bip=([\w.:-]+)", str(exc))
    return f" on node {match.group(1)}" if match else ""


def _reason(exc: BaseException) -> str:
    first = str(exc).strip().splitlines()
    return (f"the Ray actor running this item died twice ({type(exc).__name__}"
            + (f": {first[0][:300]}" if first else "") + ")")


class RayBackend:
    """Runs `BatchWork` tasks on Ray actors (see the module docstring)."""

    name = "ray"
    #: Progress per batch, as its records come back: a callback cannot reach into an actor.
    progress_in_batch = False

    def __init__(self, recipe: Recipe, options: RayOptions, failed: Failed):
        ray = import_ray()
        self.ray = ray
        self.failed = failed
        self._started_ray = not ray.is_initialized()
        if self._started_ray:
            ray.init(address=options.address, include_dashboard=False)
        self.actors: list = []
        self._scorers: list = []
        try:
            self._start(recipe, options)
        except BaseException:
            self.close()
            raise

    def _start(self, recipe: Recipe, options: RayOptions) -> None:
        ray = self.ray
        resources = ray.cluster_resources()
        cpus = int(resources.get("CPU", 1))
        per = max(1, options.ace_workers_per_actor)
        k = max(0, options.scorer_actors) if recipe.ranks else 0
        gpus = 1 if k and resources.get("GPU", 0) >= k else 0
        scorer_cpus = 0 if gpus else k  # a scorer without a GPU takes a CPU
        n = options.actors if options.actors is not None else max(1, (cpus - scorer_cpus) // per)
        if n < 1:
            raise InputError("--actors must be at least 1")
        if n * per + scorer_cpus > cpus:
            raise InputError(
                f"--actors {n} x --ace-workers-per-actor {per}"
                + (f" + {scorer_cpus} scorer actor(s)" if scorer_cpus else "")
                + f" needs {n * per + scorer_cpus} CPUs; the Ray cluster has {cpus}")
        config = recipe.config
        scorer = None
        if k:
            Scorer = ray.remote(ScorerActor).options(num_cpus=1 - gpus, num_gpus=gpus,
                                                     max_restarts=MAX_RESTARTS,
                                                     max_task_retries=MAX_TASK_RETRIES,
                                                     max_concurrency=n)
            self._scorers = [Scorer.remote(config) for _ in range(k)]
            info = self._wait([s.info.remote() for s in self._scorers])[0]
            scorer = RemoteScorer(info["scorer"], info["model"], tuple(self._scorers),
                                  info["scale"])
        Actor = ray.remote(PipelineActor).options(
            num_cpus=per, max_restarts=MAX_RESTARTS, max_task_retries=MAX_TASK_RETRIES,
            max_concurrency=max(1, options.batches_per_actor))
        self.actors = [Actor.remote(recipe, scorer) for _ in range(n)]
        self.info = self._wait([a.ready.remote() for a in self.actors])
        self.scorer = RemoteScorer(self.info[0]["scorer"], self.info[0]["model"])
        self.in_flight = n * (max(1, options.batches_per_actor) + 1)
        self.batch_size = recipe.config.batch_size
        self._busy = [0] * n

    def _wait(self, refs: list) -> list:
        """Results of actor start-up calls; an actor that cannot start is a ConfigurationError
        naming its cause (ACE or the grammar missing on a node, a bad rule file, ...)."""
        try:
            return self.ray.get(refs, timeout=READY_TIMEOUT)
        except self.ray.exceptions.GetTimeoutError:
            raise ConfigurationError(
                f"Ray actors did not start within {READY_TIMEOUT:g} s: the cluster may lack the "
                "CPUs/GPUs they ask for (see `ray status`)") from None
        except self.ray.exceptions.RayError as exc:
            raise ConfigurationError(f"a Ray actor{_node(exc)} could not start: {_last(exc)}; "
                                     "`lit doctor --backend ray` checks every node") from None

    # --- running batches -------------------------------------------------------------------

    def run(self, task: Task, batches: Iterable[list], *args: Any) -> Iterator[Any]:
        """The results of `<task>(batch, *args)` for every batch, flattened, in input order,
        with at most `in_flight` batches out on the actors."""
        shared = [self.ray.put(a) for a in args]  # sent once, not with every batch
        pending: deque = deque()
        try:
            for batch in batches:
                pending.append(self._submit(task, batch, shared))
                while len(pending) >= self.in_flight:
                    yield from self._collect(task, pending.popleft(), args, shared)
            while pending:
                yield from self._collect(task, pending.popleft(), args, shared)
        finally:
            for _, actor, _ in pending:  # the consumer stopped early: close() stops the rest
                self._busy[actor] -= 1

    def _submit(self, task: Task, batch: list, shared: list) -> tuple[list, int, Any]:
        actor = min(range(len(self.actors)), key=self._busy.__getitem__)
        self._busy[actor] += 1
        handle = self.actors[actor]
        method = {Task.NLI: handle.nli, Task.TRANSFORM: handle.transform,
                  Task.PARSE: handle.parse}[task]
        return batch, actor, method.remote(batch, *shared)

    def _collect(self, task: Task, entry: tuple[list, int, Any], args: tuple,
                 shared: list) -> list:
        batch, actor, ref = entry
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayActorError:
            return [r for item in batch for r in self._alone(task, item, args, shared)]
        finally:
            self._busy[actor] -= 1

    def _alone(self, task: Task, item: Any, args: tuple, shared: list) -> list:
        """One item of a batch whose actor died twice, on its own: its records, or, if it
        kills its actor twice again, records with status `error` saying so."""
        batch, actor, ref = self._submit(task, [item], shared)
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayActorError as exc:
            return self.failed(task, item, args, _reason(exc))
        finally:
            self._busy[actor] -= 1

    # --- the rest ----------------------------------------------------------------------------

    def stage_seconds(self) -> tuple[dict[str, float], dict[str, float]]:
        """Stage seconds summed over the live actors (a restarted actor starts again at 0)."""
        seconds: dict[str, float] = {}
        ace: dict[str, float] = {}
        for s, a in self.ray.get([x.stage_seconds.remote() for x in self.actors]):
            for total, part in ((seconds, s), (ace, a)):
                for k, v in part.items():
                    total[k] = total.get(k, 0.0) + v
        return seconds, ace

    def ace_retries(self) -> dict[str, int]:
        """ACE retries summed over the live actors (a restarted actor starts again at 0)."""
        total: dict[str, int] = {}
        for counts in self.ray.get([x.ace_retries.remote() for x in self.actors]):
            for k, v in counts.items():
                total[k] = total.get(k, 0) + v
        return total

    def close(self) -> None:
        """Stop the actors (their ACE processes go with them), and Ray if this started it."""
        for actor in self.actors + self._scorers:
            self.ray.kill(actor, no_restart=True)
        self.actors, self._scorers = [], []
        if self._started_ray and self.ray.is_initialized():
            self.ray.shutdown()
            self._started_ray = False



def options_of(config: RunConfig) -> RayOptions:
    """The RayOptions a RunConfig (e.g. from command-line options) asks for."""
    return RayOptions(config.ray_address, config.actors, config.ace_workers_per_actor,
                      config.scorer_actors, max(1, config.batches_in_flight))


class ParseBackend(RayBackend):
    """`lit parse` on Ray: actors with an ACE pool only."""

    def parse(self, sentences: Iterable[str], n: int) -> Iterator[Any]:
        """One ParseResult per sentence, in input order."""
        from lit.backend.local import batches

        return self.run(Task.PARSE, batches(sentences, self.batch_size), n)


def parse_backend(args: Any) -> ParseBackend:
    """A ParseBackend configured from `lit parse`'s options."""
    from functools import partial

    from lit.ace.options import start_service

    config = RunConfig.from_args(args)
    factory = partial(start_service, config.replace(workers=config.ace_workers_per_actor))
    return ParseBackend(Recipe(partial(ace_only, factory), config, ranks=False),
                        options_of(config), _parse_failed)


def _parse_failed(task: Task, sentence: str, args: tuple, reason: str) -> list:
    from lit.ace.service import ParseResult
    from lit.status import Status

    return [ParseResult(sentence, Status.ERROR, reason, (), None, 0.0)]
