"""A whole `lit augment` run: sources (a `lit nli` or `lit contrast` file, or a dataset run
through an Engine) -> screened, filtered, balanced rows -> output, rejected rows and the
metadata sidecar, all renamed into place together once complete."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any

from lit.augment import balance as bal
from lit.augment.filter import disagrees, file_predictions, model_predictions
from lit.augment.flatten import Source, read_contrast, sources_of
from lit.augment.hygiene import Hygiene, original_labels
from lit.augment.labels import LABEL_FORMATS, learn_convention
from lit.augment.options import AugmentOptions
from lit.augment.write import (
    NLI_LAYOUT,
    Layout,
    check_targets,
    discard,
    jsonl_text,
    output_format,
    put_in_place,
    stage,
    stage_text,
    to_dataset,
)
from lit.config import PAPER_SPECS, RunConfig
from lit.errors import InputError
from lit.io.meta import meta_path, now
from lit.io.output import temporary_beside
from lit.labels import LabelRules
from lit.provenance import Toolchain, build_meta
from lit.status import Status
from lit.tasks import TaskProfile, load_task

ORIGINAL = "original"  # the `spec` of an original row, as in lit evaluate's prediction files


@dataclass
class AugmentResult:
    """What a run produced: rows (label as a code: E/N/C for NLI), rejected rows, counts, the
    balance outcome per label, the shortcut report (if asked), the label format written and
    the columns (the task's own: `layout`)."""

    rows: list[dict]
    rejected: list[dict]
    counts: dict[str, Any]
    label_format: str
    balance: dict[str, dict] | None = None
    report: dict | None = None
    output: Path | None = None
    files: list[Path] = field(default_factory=list)
    layout: Layout = NLI_LAYOUT

    def dataset(self):
        """The rows as a `datasets.Dataset` (label a ClassLabel when integers were asked)."""
        return to_dataset(self.rows, self.label_format, layout=self.layout)

    def format(self) -> str:
        """The summary `lit augment` prints."""
        c = self.counts
        labels = ", ".join(f"{k} {v}" for k, v in c["labels"].items())
        lines = [f"lit augment: {c['rows']} rows ({c['originals']} original, "
                 f"{c['transformed']} transformed; {labels}) from {c['sources']} source pairs"
                 + (f" -> {self.output}" if self.output else "")]
        if c["transformed_by_spec"]:
            lines.append("  transformed rows by spec: " + ", ".join(
                f"{k} {v}" for k, v in c["transformed_by_spec"].items()))
        if c.get("not_fluent"):
            lines.append(f"  not fluent (every verified candidate had a defect; `lit nli "
                         f"--allow-defects` outputs them): {c['not_fluent']}")
        if c["dropped"]:
            lines.append("  not written: " + ", ".join(f"{k} {v}" for k, v in c["dropped"].items()))
        if c["filtered"] is not None:
            lines.append(f"  classifier filter dropped {sum(c['filtered'].values())}"
                         + "".join(f"\n    {k}: {v}" for k, v in c["filtered"].items()))
        for label, o in (self.balance or {}).items():
            why = ", ".join(f"{k} {v}" for k, v in o["why_not"].items())
            lines.append(f"  balance {label}: reached {o['reached']} of {o['aimed']}"
                         + (f" (not: {why})" if why else ""))
        return "\n".join(lines)


def _row(layout: Layout, source: Source, texts: tuple, code: str, origin: str, spec: str,
         rule: str | None) -> dict:
    return {**dict(zip(layout.texts, texts)), layout.label: code, "origin": origin,
            "source_id": source.id, "spec": spec, "label_rule": rule}


def layout_of(sources: Sequence[Source]) -> Layout:
    """The columns of the rows: NLI's, or a task's own input fields (those of its first
    usable source)."""
    if not any(s.task is not None for s in sources):
        return NLI_LAYOUT
    first = next((s for s in sources if s.status != Status.INVALID_INPUT.value), sources[0])
    return Layout(first.columns[:-1], first.columns[-1], first.labels)


Predictor = Callable[[list], dict]


def build(sources: Sequence[Source], label_rules: LabelRules, options: AugmentOptions,
          predictions: Predictor | None = None) -> AugmentResult:
    """Rows from *sources* as *options* say (its label_format already resolved); no I/O.
    *predictions*, given every (source, candidate) that survived hygiene, returns (source id,
    spec) -> label (the feedback filter)."""
    layout = layout_of(sources)
    hygiene = Hygiene(original_labels(sources))
    screened = [hygiene.screen(s) if hygiene.source_problem(s) is None else ([], {})
                for s in sources]
    rejected: list[dict] = []
    filtered = None
    if predictions is not None:
        filtered = _filter(sources, screened, layout, predictions(
            [(s, c) for s, (kept, _) in zip(sources, screened) for c in kept]),
            str(options.filter_predictions or options.filter_model or "the classifier"),
            rejected)
    plan = None
    if options.balance:
        specs = list(dict.fromkeys(c.spec for s in sources for c in s.candidates))
        plan = bal.BalancePlan.of(label_rules, specs, layout.labels)
    rows, dropped = _choose(sources, screened, hygiene, layout, plan, options)
    dropped.update(hygiene.counts)
    counts = _counts(sources, rows, layout, dropped, filtered, len(rejected))
    return AugmentResult(rows, rejected, counts, options.label_format,
                         plan.report() if plan is not None else None, layout=layout)


Screened = list[tuple[list, dict]]


def _filter(sources: Sequence[Source], screened: Screened, layout: Layout, given: dict,
            where: str, rejected: list[dict]) -> Counter:
    """Drop from each source's survivors the candidates the classifier (*given*: (id, spec)
    -> label, named *where*) disagrees with: they go to *rejected* with its label, and are
    counted per spec and rule."""
    filtered: Counter = Counter()
    for s, (kept, fates) in zip(sources, screened):
        for c in list(kept):
            other = disagrees(s, c, given, where)
            if other is not None:
                kept.remove(c)
                fates[c.spec] = "filtered by the classifier"
                filtered[f"{c.spec} / {c.label_rule}"] += 1
                rejected.append({**_row(layout, s, c.texts, c.label, "transformed",
                                        c.spec, c.label_rule), "classifier_label": other})
    return filtered


def _choose(sources: Sequence[Source], screened: Screened, hygiene: Hygiene, layout: Layout,
            plan: bal.BalancePlan | None, options: AugmentOptions) -> tuple[list[dict], Counter]:
    """The rows (each source's original, then the transformed copies chosen for it) and why
    sources or rows were dropped."""
    rows: list[dict] = []
    dropped: Counter = Counter()
    first: dict = {}  # pair -> index of the source whose original row it is
    if options.originals:  # every original is written before any transformed copy of it
        for k, s in enumerate(sources):
            if hygiene.source_problem(s) is None and hygiene.admit(s.key, s.code):
                first[s.key] = k
    for k, (s, (kept, fates)) in enumerate(zip(sources, screened)):
        problem = hygiene.source_problem(s)
        if problem:
            dropped[problem] += 1
            continue
        if first.get(s.key) == k:
            rows.append(_row(layout, s, s.texts, s.code, "original", ORIGINAL, None))
        order = {c.spec: k for k, c in enumerate(s.candidates)}
        chosen = _chosen(s, kept, fates, hygiene, plan, options, dropped)
        for c in sorted(chosen, key=lambda c: order[c.spec]):
            rows.append(_row(layout, s, c.texts, c.label, "transformed", c.spec,
                             c.label_rule))
    return rows, dropped


def _chosen(s: Source, kept: list, fates: dict, hygiene: Hygiene, plan: bal.BalancePlan | None,
            options: AugmentOptions, dropped: Counter) -> list:
    """The transformed candidates of source *s* written: balanced by *plan* (then capped) or
    capped at max_per_source, each new to the output."""

    def fresh(c) -> bool:
        return hygiene.admit(c.key, c.label, fates, c.spec)

    rng = bal.source_rng(options.seed, s.id)
    cap = options.max_per_source
    if plan is None:
        return bal.choose_capped(s.code, kept, cap, fresh, rng)
    chosen = plan.choose(s.code, s.candidates, kept, fates, fresh, rng)
    if cap is not None:
        dropped["over --max-per-source"] += max(0, len(chosen) - cap)
        chosen = chosen[:cap]
    return chosen


def _counts(sources: Sequence[Source], rows: list[dict], layout: Layout, dropped: Counter,
            filtered: Counter | None, rejected: int) -> dict[str, Any]:
    """The counts the summary and the sidecar show."""
    labels = layout.labels
    written = Counter(r[layout.label] for r in rows)
    return {
        "sources": len(sources),
        "rows": len(rows),
        "originals": sum(r["origin"] == "original" for r in rows),
        "transformed": sum(r["origin"] == "transformed" for r in rows),
        "labels": {labels.name_of(c): written[c] for c in labels.codes},
        "transformed_by_spec": dict(Counter(r["spec"] for r in rows
                                            if r["origin"] == "transformed")),
        "dropped": dict(sorted(dropped.items())),
        "filtered": dict(sorted(filtered.items())) if filtered is not None else None,
        "rejected": rejected,
        "not_fluent": sum(c.status == Status.NOT_FLUENT.value for s in sources
                          for c in s.candidates),
    }


def _engine(engine, config: RunConfig | None, label_rules, task: TaskProfile | None):
    """(an Engine, whether this run owns it)."""
    from lit.pipeline.engine import Engine

    if isinstance(engine, Engine):
        return engine, False
    if engine is not None:
        return engine(), True
    return Engine.from_config(config or RunConfig(), label_rules=label_rules, task=task), True


def run_augment(input: str | Path | Iterable[object] | None = None,
                output: str | Path | None = None, options: AugmentOptions = AugmentOptions(),
                *, engine: Any = None) -> AugmentResult:
    """A whole `lit augment` run (the CLI is a thin wrapper; docs/augment.md, docs/tasks.md).

    input: an NLI dataset file (JSONL/CSV/TSV) or an iterable of pairs (dicts or tuples as
    Engine.nli takes), run through *engine* (an Engine, or a function making one; default
    `Engine.from_config(options.config)`); or options.from_contrast: a `lit nli` or `lit
    contrast` output, read without ACE. options.task: a task profile (name or file): INPUT is
    that task's dataset (its fields; text_columns maps a side to another field), run as `lit
    contrast` runs it; with from_contrast, the profile of a task that is not built in. Rows
    are written in the task's own fields and label convention.
    output: file or folder to write (None: only return the rows); the metadata sidecar and,
    when filtering, the rejected rows (default OUTPUT.rejected.jsonl) are written with it.
    """
    started = now()
    profile = _checked(input, options)
    targets = _Targets.of(output, options)
    check_targets(targets.paths(), [_file(input), options.from_contrast,
                                    options.filter_predictions, options.label_rules],
                  options.overwrite)
    with _read(input, options, profile, engine) as read:
        if options.report and read.profile is not None:
            raise InputError(f"--report measures premise/hypothesis shortcuts of NLI data; "
                             f"task {read.profile.name} has none to measure")
        labels = read.rules.labels
        if options.label_format == "auto":
            options = replace(options, label_format=learn_convention(
                [(s.where, s.gold) for s in read.sources
                 if s.status != Status.INVALID_INPUT.value], labels))
        predict = _predictor(options.filter_model, options.filter_predictions, labels)
        result = build(read.sources, read.rules, options, predict)
        if options.report:
            result.report = _shortcut_report(read.sources, result.rows, read.engine,
                                             options.config, options.seed)
    if targets.out is None:
        return result
    meta = _meta(input, options, targets, read, result, started)
    result.files = _write(result, targets.out, targets.format, targets.rejected, meta)
    result.output = targets.out
    return result


def _file(input: object) -> str | Path | None:
    """INPUT when it is a file (not pairs given in Python)."""
    return input if isinstance(input, (str, Path)) else None


def _checked(input: object, options: AugmentOptions) -> TaskProfile | None:
    """The task profile of the run (None: NLI), once the options are known to fit together."""
    profile = load_task(options.task) if options.task is not None else None
    if profile is not None and profile.pair_records:
        profile = None  # a task of pair records (nli) takes the default, pair path
    if profile is not None and (options.premise_column or options.hypothesis_column):
        raise InputError(f"--premise-column/--hypothesis-column are for NLI; task "
                         f"{profile.name}'s sides are {', '.join(profile.sides)}")
    if (input is None) == (options.from_contrast is None):
        raise InputError("give either INPUT (an NLI dataset) or --from-contrast FILE")
    if options.label_format not in LABEL_FORMATS:
        raise InputError(f"--label-format {options.label_format!r}: choose one of "
                         f"{', '.join(LABEL_FORMATS)}")
    if options.max_per_source is not None and options.max_per_source < 0:
        raise InputError("--max-per-source must be at least 0 (0: the originals only)")
    if options.filter_model and options.filter_predictions:
        raise InputError("give --filter-model or --filter-predictions, not both")
    if options.limit is not None and options.limit < 0:
        raise InputError("--limit must be at least 0")
    return profile


@dataclass(frozen=True)
class _Targets:
    """The files a run writes: the rows (None: none, only returned) in *format*, and the
    rejected rows when filtering."""

    out: Path | None
    format: str | None
    rejected: Path | None

    @classmethod
    def of(cls, output: str | Path | None, options: AugmentOptions) -> _Targets:
        filtering = bool(options.filter_model or options.filter_predictions)
        out = Path(output) if output is not None else None
        fmt = output_format(out, options.format) if out is not None else None
        rejected = Path(options.rejected) if options.rejected is not None else (
            out.with_name(out.name + ".rejected.jsonl") if out is not None and filtering
            else None)
        if rejected is not None and not filtering:
            raise InputError("--rejected needs --filter-model or --filter-predictions")
        return cls(out, fmt, rejected)

    def paths(self) -> list[Path]:
        """Every file written, the sidecar included."""
        return [p for p in (self.out, self.rejected, self.out and meta_path(self.out))
                if p is not None]


@dataclass
class _Read:
    """The sources of a run, the label rules and specs they were made with, its task (None:
    NLI) and the Engine that ran them (None: read from a contrast file)."""

    sources: list[Source]
    rules: LabelRules
    specs: list[str]
    profile: TaskProfile | None
    engine: Any = None


def _columns(options: AugmentOptions) -> dict[str, tuple[str, ...]]:
    """NLI's input fields named by the options (role -> (field,))."""
    return {role: (name,) for role, name in (("premise", options.premise_column),
            ("hypothesis", options.hypothesis_column), ("label", options.label_column))
            if name}


@contextmanager
def _read(input: object, options: AugmentOptions, profile: TaskProfile | None,
          engine: Any) -> Iterator[_Read]:
    """The run's sources: read from the contrast file, or INPUT run through an Engine (one
    this run starts is closed when the block ends)."""
    if options.from_contrast is not None:
        sources = list(islice(read_contrast(options.from_contrast, _columns(options), profile),
                              options.limit))
        profile = next((s.task for s in sources if s.task is not None), None)
        rules = (LabelRules.load(options.label_rules) if profile is None
                 else profile.load_label_rules(options.label_rules))
        yield _Read(sources, rules, list(dict.fromkeys(
            c.spec for s in sources for c in s.candidates)), profile)
        return
    built, owned = _engine(engine, options.config, options.label_rules, profile)
    try:
        yield _run_engine(built, input, options, profile)
    finally:
        if owned:
            built.close()


def _run_engine(engine: Any, input: object, options: AugmentOptions,
                profile: TaskProfile | None) -> _Read:
    """INPUT run through *engine*: as `lit contrast` for a task, else as `lit nli`."""
    rules = engine.label_rules
    if profile is not None:
        specs = list(options.specs or profile.specs)
        sources = _run_contrast(engine, profile, input, specs, options)
    else:
        specs = list(options.specs or (bal.balance_specs(rules) if options.balance
                                       else PAPER_SPECS))
        sources = _run_nli(engine, input, specs, options)
    return _Read(sources, rules, specs, profile, engine)


def _meta(input: object, options: AugmentOptions, targets: _Targets, read: _Read,
          result: AugmentResult, started: str) -> dict:
    """The sidecar: how the rows were made (the Engine's settings, or those of the `lit nli`
    run that wrote the contrast file)."""
    columns = _columns(options)
    recorded = {"balance": options.balance, "max_per_source": options.max_per_source,
                "originals": options.originals, "label_format": options.label_format,
                "format": targets.format, "limit": options.limit,
                "filter_model": options.filter_model,
                "rejected": str(targets.rejected or "") or None,
                "columns": {k: v[0] for k, v in columns.items()} or None,
                "from_contrast": options.from_contrast is not None,
                **({"task": read.profile.name} if read.profile is not None else {})}
    tools = (Toolchain.of(read.engine) if read.engine is not None
             else Toolchain(label_rules=read.rules))
    if options.from_contrast is not None:
        tools = _copied_tools(options.from_contrast).over(tools)
    return build_meta(
        "augment", started=started, tools=tools, specs=read.specs, seed=options.seed,
        options=recorded,
        inputs={k: v for k, v in (("input", _file(input)),
                                  ("from_contrast", options.from_contrast),
                                  ("filter_predictions", options.filter_predictions))
                if v is not None},
        counts={**result.counts, "balance": result.balance})


def _predictor(model: str | None, predictions: str | Path | None, labels
               ) -> Callable[[list], dict] | None:
    """The feedback filter's classifier: (source, candidate) pairs -> (id, spec) -> label
    (of *labels*, the task's)."""
    if predictions:
        given = file_predictions(predictions, labels)
        return lambda pairs: given
    if model:
        return lambda pairs: model_predictions(model, pairs, labels=labels)
    return None


def _write(result: AugmentResult, out: Path, fmt: str, rejected: Path | None,
           meta: dict) -> list[Path]:
    """Stage the rows, the rejected rows and the sidecar, then rename them all into place
    (nothing is left half-written if any step fails); the paths written."""
    staged: list[tuple[Path, Path]] = []
    texts = [(meta_path(out), json.dumps(meta, indent=1, ensure_ascii=False, default=str) + "\n")]
    if rejected is not None:
        texts.insert(0, (rejected, jsonl_text(result.rejected, result.label_format,
                                              ("classifier_label",), result.layout)))
    try:
        staged.append((stage(result.rows, out, fmt, result.label_format, result.layout), out))
        for path, text in texts:
            staged.append((temporary_beside(path), path))
            stage_text(text, staged[-1][0])
        put_in_place(staged)
    except BaseException as exc:
        discard(staged)
        if isinstance(exc, OSError):
            raise InputError(f"cannot write {out}: {exc.strerror or exc}") from None
        raise
    return [path for _, path in staged]


def _copied_tools(contrast: str | Path) -> Toolchain:
    """Grammar, ACE and scorer of the `lit nli` run that wrote *contrast*, from its sidecar."""
    from lit.io.meta import read_meta
    from lit.pipeline.identity import identity_path

    meta = read_meta(contrast)
    if meta is not None:
        return Toolchain(grammar=meta["grammar"]["path"],
                         grammar_version=meta["grammar"]["version"], ace=meta["ace"]["path"],
                         scorer=meta["scorer"]["name"], model=meta["scorer"]["model"])
    identity = identity_path(Path(contrast))  # what `lit nli` stores for --resume
    try:
        run = json.loads(identity.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Toolchain()
    return Toolchain(grammar=(run.get("grammar") or {}).get("path"),
                     grammar_version=run.get("grammar_version"), scorer=run.get("scorer"))


def _run_nli(engine: Any, input: object, specs: list[str], options: AugmentOptions
             ) -> list[Source]:
    """Sources from running *engine* over *input* (a dataset file or pairs)."""
    from tqdm import tqdm

    from lit.tasks.reader import read_nli

    if isinstance(input, (str, Path)):
        named = {"premise": options.premise_column, "hypothesis": options.hypothesis_column,
                 "label": options.label_column, "id_field": options.id_column}
        items: Iterable[object] = read_nli(input, options.input_format,
                                           **{k: v for k, v in named.items() if v})
    else:
        items = input
    records = engine.nli(islice(items, options.limit), specs)
    bar = tqdm(records, unit="pair", file=sys.stderr, disable=not options.progress or None,
               desc="lit augment")
    return list(sources_of(bar, _columns(options)))


def _run_contrast(engine: Any, profile: TaskProfile, input: object, specs: list[str],
                  options: AugmentOptions) -> list[Source]:
    """Sources from running *engine* over *input* (a dataset file of *profile*'s task, or
    records in its fields) as `lit contrast` does."""
    from tqdm import tqdm

    from lit.tasks.reader import read_task

    if isinstance(input, (str, Path)):
        input = read_task(input, profile, options.input_format, columns=options.text_columns,
                          label=options.label_column, id_field=options.id_column)
    records = engine.contrast(islice(input, options.limit), profile, specs)
    bar = tqdm(records, unit="record", file=sys.stderr, disable=not options.progress or None,
               desc="lit augment")
    return list(sources_of(bar, task=profile))


def _shortcut_report(sources: Sequence[Source], rows: Sequence[dict], engine,
                     config: RunConfig | None, seed: int) -> dict:
    """lit.augment.report over the labelled originals (before) and the rows (after), every
    sentence parsed by ACE (the engine's, else one started from *config*)."""
    from lit.analyze import parse_sentences
    from lit.augment.report import shortcut_report
    from lit.config import DEFAULT_GRAMMAR_VERSION

    before = [(*s.texts, s.code) for s in sources if s.code and all(s.texts)]
    after = [(r["premise"], r["hypothesis"], r["label"]) for r in rows]
    sentences = [x for p, h, _ in [*before, *after] for x in (p, h)]
    if engine is not None:
        service, version, own = engine.service, engine.grammar_version, None
    else:
        from lit.ace.options import start_service

        own = start_service(config or RunConfig())
        service, version = own, own.config.grammar_version
    try:
        parses = parse_sentences(service, sentences)
    finally:
        if own is not None:
            own.close()
    return shortcut_report(before, after, parses, version or DEFAULT_GRAMMAR_VERSION, seed=seed)
