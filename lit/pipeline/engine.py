"""`lit.Engine`: ACE, the rule engine, a scorer and the label rules behind one object.

    with lit.Engine(scorer="ace") as engine:
        engine.transform("Alice saw Bob.", "tense=fut+pass")["output"]
        for record in engine.nli(pairs, specs=["f;p", "m;o"]):
            ...

Records are the plain dicts of docs/design.md §5 — exactly what `lit transform` / `lit nli` /
`lit contrast` write. Every task, NLI included, goes through one entry point, `contrast`:
its profile says how its records are read (lit.tasks.reader) and shaped.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from lit.ace.options import start_service
from lit.ace.protocol import Ace
from lit.backend.local import LocalBackend, batches
from lit.backend.work import Backend, BatchWork, Task
from lit.config import DEFAULT_GRAMMAR_VERSION, DEFAULTS, PAPER_SPECS, RunConfig
from lit.errors import InputError
from lit.labels import LabelRules
from lit.pipeline.contrast import ContrastRun, parse_task_spec, task_specs
from lit.pipeline.core import Pipeline
from lit.pipeline.records import SideResult, nli_record, pair_transform, transform_record
from lit.pipeline.timing import StageTimes
from lit.progress import Progress
from lit.rank import Scorer, get_scorer
from lit.records import NliRecord, TransformRecord
from lit.spec import PairSpec, Spec, TextSpec, parse_pair, parse_spec
from lit.status import Status
from lit.tasks.item import TaskItem
from lit.tasks.profile import NLI_TASK, TaskProfile, load_task
from lit.tasks.reader import as_item

#: The RunConfig fields an Engine takes positionally: Engine(ace, grammar, grammar_version).
_POSITIONAL = ("ace", "grammar", "grammar_version")


class Engine:
    """Everything `lit transform` and `lit nli` run, as one object; close it (or use `with`)
    to stop the ACE processes.

    The run's options are one lit.RunConfig: *config*, with *ace*, *grammar*,
    *grammar_version* (by position or by name: *location*) and any other RunConfig field
    given as a keyword on top (``Engine(scorer="ace")`` is
    ``Engine(config=RunConfig(scorer="ace"))``); an unknown or
    invalid option is an InputError naming it. ace/grammar/grammar_version: as for every `lit`
    command (else LIT_ACE, LIT_GRAMMAR, the config file written by `lit setup`). scorer:
    "gpt2" (default; `model` names a Hugging Face model or a local directory), "ace" (no
    model: ACE's own order) or any object with `score(groups) -> scores` (lower is better).

    rules: extra rule files or directories. label_rules: a label-rule file (default: the one
    shipped with LIT). task: a task profile (a built-in name such as "sst2", a .toml file or
    a TaskProfile; docs/tasks.md) whose label rules the Engine uses (label_rules, if given, is
    read in the task's labels instead); default "nli", LIT's NLI rules. `contrast` is the one
    entry point of every task (`nli` is it with task nli). service: an ACE service to use (left running by `close`), or a function
    that starts one (the Engine owns and closes what it returns; with the Ray backend each
    actor calls it on its own node); default: one started from the options.

    backend "ray" runs batches on Ray actors, each with its own ACE pool of
    ace_workers_per_actor processes, rule engine, label rules and scorer, built from the same
    RunConfig; the records are the same. This process still finds ACE and the grammar (for the
    run identity of --resume) but never starts them. See docs/scale.md.
    """

    def __init__(
        self,
        *location: str | Path | None,
        config: RunConfig | None = None,
        rules: Sequence[str | Path] | None = None,
        label_rules: str | Path | LabelRules | None = None,
        task: str | Path | TaskProfile | None = None,
        service: Ace | Callable[[], Ace] | None = None,
        **options: Any,
    ):
        if len(location) > len(_POSITIONAL):
            raise InputError(f"Engine takes at most {len(_POSITIONAL)} positional options "
                             f"({', '.join(_POSITIONAL)}); give the others by name")
        config = (config or DEFAULTS).replace(**dict(zip(_POSITIONAL, location)), **options)
        self.backend: Backend | None = None
        self._owns_service = not isinstance(service, Ace)
        factory = service if self._owns_service else None
        if self._owns_service:  # with Ray, only the actors call the factory
            local = factory is not None and config.backend == "local"
            service = factory() if local else start_service(config)
        self.service = service
        # an Engine dropped without close() (or still open at exit) must not leave ACE
        # processes, threads and a temporary directory behind
        self._finalizer = weakref.finalize(
            self, service.close if self._owns_service else lambda: None
        )
        self.grammar_version = (
            config.grammar_version or service.config.grammar_version or DEFAULT_GRAMMAR_VERSION
        )
        #: the run's options, with the grammar version this Engine's rules are for
        self.config = config.replace(grammar_version=self.grammar_version)
        try:
            self._load(config, rules, label_rules, task, factory)
        except BaseException:
            self.close()
            raise
        self._task_backends: dict[str, LocalBackend] = {}  # other tasks' (`contrast`)
        self.pipeline = Pipeline(service, self.rules, self.scorer, label_rules=self.label_rules,
                                 options=self.config)
        if self.backend is None:
            self.backend = LocalBackend(BatchWork(self.pipeline, service),
                                        self.config.batches_in_flight)

    def _load(self, config: RunConfig, rules: Sequence[str | Path] | None,
              label_rules: str | Path | LabelRules | None,
              task: str | Path | TaskProfile | None,
              factory: Callable[[], Ace] | None) -> None:
        """The task, rule engine, label rules (in the task's labels: Ray actors get them
        parsed) and scorer, or the Ray backend whose actors load their own."""
        from lit.rules.engine import RuleEngine

        self.task = load_task(NLI_TASK if task is None else task)
        self.rules = RuleEngine.load(self.grammar_version, paths=rules)
        if not isinstance(label_rules, LabelRules):
            label_rules = self.task.load_label_rules(label_rules)
        self.label_rules = label_rules
        if config.backend == "ray":
            from lit.backend.ray_backend import RayBackend, Recipe, options_of

            actor_config = config.replace(workers=config.ace_workers_per_actor)
            build = partial(actor_work, actor_config,
                            tuple(map(str, rules)) if rules else None, label_rules, factory)
            self.backend = RayBackend(Recipe(build, actor_config), options_of(config),
                                      failed_records)
            self.scorer = self.backend.scorer  # loaded on the actors, not here
        else:
            self.scorer = get_scorer(config.scorer, model=config.model, device=config.device,
                                     batch_size=config.score_batch_size)
            self.scorer.load()  # fail now, not after a batch's ACE work

    @classmethod
    def from_config(cls, config: RunConfig, **given: Any) -> Engine:
        """An Engine with every setting of *config* (the CLI builds its Engine this way);
        *given*: rules, label_rules, task, service as for Engine."""
        return cls(config=config, **given)

    @property
    def batch_size(self) -> int:
        return self.config.batch_size

    @property
    def batches_in_flight(self) -> int:
        return self.config.batches_in_flight

    # --- checking specs up front -----------------------------------------------------------

    def check_spec(self, spec: str | Spec) -> Spec:
        """Parse *spec* and check every step names a known module and value (InputError)."""
        return self.rules.check(parse_spec(spec) if isinstance(spec, str) else spec)

    def check_pair(self, spec: str | PairSpec) -> PairSpec:
        pair = parse_pair(spec) if isinstance(spec, str) else spec
        try:
            self.rules.check(pair.premise)
            self.rules.check(pair.hypothesis)
        except InputError as exc:
            kind = "spec" if isinstance(pair, TextSpec) else "pair spec"
            raise InputError(f"{kind} {str(spec)!r}: {exc}") from None
        return pair

    def check_task_spec(self, profile: TaskProfile, text: str) -> PairSpec:
        """*text* as a spec of *profile*'s kind (a pair spec, or a single spec run as
        "spec;o"), each step checked; an InputError names the spec as given."""
        pair = parse_task_spec(profile, text)
        return self.check_pair(text if profile.is_pair else pair)

    # --- work -----------------------------------------------------------------------------

    def transform(self, sentence: str, spec: str | Spec) -> TransformRecord:
        """The `lit transform` record for one sentence: status, reason, spec, mrs, output,
        verified, candidates."""
        return next(self.transform_all([sentence], spec))

    def transform_all(
        self, sentences: Iterable[str], spec: str | Spec | Sequence[str | Spec]
    ) -> Iterator[TransformRecord]:
        """`lit transform` records for many sentences, streamed in input order; with several
        specs, each sentence is parsed once and gets one record per spec, in spec order."""
        specs = [spec] if isinstance(spec, (str, Spec)) else list(spec)
        checked = [self.check_spec(s) for s in specs]
        work = batches(sentences, self.batch_size, self.batches_in_flight, key=str)
        yield from self.backend.run(Task.TRANSFORM, work, checked)

    def nli(
        self, pairs: Iterable[object], specs: Sequence[str | PairSpec] = PAPER_SPECS,
        progress: Progress | None = None,
    ) -> Iterator[NliRecord]:
        """One `lit nli` record per pair: `contrast` with task nli (the one path; see
        lit.tasks.reader.as_item for the accepted shapes)."""
        return self.contrast(pairs, NLI_TASK, specs, progress)

    def contrast(
        self, records: Iterable[object], task: str | Path | TaskProfile | None = None,
        specs: Sequence[str | PairSpec] | None = None, progress: Progress | None = None,
    ) -> Iterator[dict]:
        """One record per record of *task* (a profile name or file, default the Engine's
        task; docs/tasks.md), streamed in input order: dicts in the task's fields, tuples
        (texts[, label[, id]]) or lit.tasks.TaskItems. *specs* are single specs for a
        single-text task, pair specs for a pair task (default: the profile's); bad specs
        raise InputError before any work. A pair-records task (nli) gives the pipeline's
        pair records and *progress* hears pairs done, as fractions while a batch's parses,
        generations and sides finish (local backend), or a whole pair per record (Ray);
        another task gives contrast records, and *progress* one per record. A task other
        than the Engine's needs the local backend (its label rules are loaded here)."""
        profile = self.task if task is None else load_task(task)
        texts = task_specs(profile, [str(s) for s in specs or []])
        named = [(t, self.check_task_spec(profile, t)) for t in texts]
        items = (as_item(r, k, profile) for k, r in enumerate(records, 1))
        backend = self._backend_for(profile)
        if profile.pair_records:
            return self._run_pairs(backend, items, named, progress)
        return self._contrast_records(ContrastRun(profile, named), backend, items, progress)

    def _contrast_records(self, run: ContrastRun, backend: Backend, items: Iterator[TaskItem],
                          progress: Progress | None) -> Iterator[dict]:
        """*run*'s contrast records of *items*, each heard by *progress*."""
        for record in run.records(self._run_pairs(backend, run.items(items), run.specs)):
            if progress is not None:
                progress(Fraction(1))
            yield record

    def _run_pairs(self, backend: Backend, items: Iterable[TaskItem],
                   named: list[tuple[str, PairSpec]],
                   progress: Progress | None = None) -> Iterator[NliRecord]:
        work = batches(items, self.batch_size, self.batches_in_flight,
                       key=lambda it: it.premise)
        if progress is None:
            yield from backend.run(Task.NLI, work, named)
        elif backend.progress_in_batch:
            yield from backend.run(Task.NLI, work, named, progress=progress)
        else:
            for record in backend.run(Task.NLI, work, named):
                progress(Fraction(1))
                yield record

    def _backend_for(self, profile: TaskProfile) -> Backend:
        """The backend that labels with *profile*'s rules: the Engine's for its own task, else
        a local one over the same pipeline with the task's label rules (made once)."""
        if profile.name == self.task.name:
            return self.backend
        if self.backend.name != "local":
            raise InputError(f"this Engine runs task {self.task.name} on {self.backend.name}; "
                             f"make one with task={profile.name!r} for that task")
        if profile.name not in self._task_backends:
            pipeline = self.pipeline.with_label_rules(profile.load_label_rules())
            self._task_backends[profile.name] = LocalBackend(
                BatchWork(pipeline, self.service), self.batches_in_flight)
        return self._task_backends[profile.name]

    @property
    def times(self) -> StageTimes:
        """Seconds per stage so far (lit.pipeline.StageTimes; with Ray, summed over the
        actors)."""
        if self.backend.name == "local":
            return self.pipeline.times
        return StageTimes(*self.backend.stage_seconds())

    def ace_retries(self) -> dict[str, int]:
        """Items ACE died on and were retried so far, the extra attempts, and items ACE died
        on at every attempt (lit.ace.service; with Ray, summed over the actors)."""
        return self.backend.ace_retries()

    def close(self) -> None:
        """Stop the ACE processes if this Engine owns them, and its Ray actors (safe to
        call twice)."""
        if self.backend is not None:
            self.backend.close()
        self._finalizer()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def actor_work(config: RunConfig, rules: Sequence[str] | None, label_rules: object,
               service_factory: Callable[[], Ace] | None, scorer: Scorer | None) -> BatchWork:
    """What a Ray actor runs, built on the actor's node: a local Engine's pipeline over its
    own ACE pool (from *service_factory*, else *config*), ranking with *scorer* (a scorer
    actor's handle) if given, else with the scorer *config* names."""
    engine = Engine(config=config.replace(scorer=scorer, backend="local"), rules=rules,
                    label_rules=label_rules, service=service_factory)
    return BatchWork(engine.pipeline, engine.service, owner=engine)


def failed_records(task: Task, item: object, args: tuple, reason: str) -> list:
    """The records of one item no backend could run (status `error`, with *reason*), shaped
    like the records *task* (nli or transform) writes for it."""
    (specs,) = args
    if task == Task.NLI:
        transforms = [pair_transform(text, Status.ERROR, reason) for text, _ in specs]
        return [nli_record(item.id, item.input, transforms, StageTimes().share(1),
                           Status.ERROR, reason)]
    return [transform_record(str(spec), SideResult(Status.ERROR, reason)) for spec in specs]
