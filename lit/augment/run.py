"""A whole `lit augment` run: sources (a `lit nli` or `lit contrast` file, or a dataset run
through an Engine) -> screened, filtered, balanced rows -> output, rejected rows and the
metadata sidecar, all renamed into place together once complete."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from lit.augment import balance as bal
from lit.augment.filter import disagrees, file_predictions, model_predictions
from lit.augment.flatten import Source, read_contrast, sources_of
from lit.augment.hygiene import Hygiene, original_labels
from lit.augment.labels import LABEL_FORMATS, learn_convention
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


def build(
    sources: Sequence[Source],
    label_rules: LabelRules,
    *,
    balance: bool = False,
    max_per_source: int | None = None,
    originals: bool = True,
    seed: int = 0,
    predictions: Callable[[list], dict] | None = None,
    predictions_source: str = "the classifier",
    label_format: str = "text",
) -> AugmentResult:
    """Rows from *sources*; no I/O. *predictions*, given every (source, candidate) that
    survived hygiene, returns (source id, spec) -> label (the feedback filter)."""
    layout = layout_of(sources)
    labels = layout.labels
    hygiene = Hygiene(original_labels(sources))
    screened = [hygiene.screen(s) if hygiene.source_problem(s) is None else ([], {})
                for s in sources]
    rejected: list[dict] = []
    filtered: Counter | None = None
    if predictions is not None:
        given = predictions([(s, c) for s, (kept, _) in zip(sources, screened) for c in kept])
        filtered = Counter()
        for s, (kept, fates) in zip(sources, screened):
            for c in list(kept):
                other = disagrees(s, c, given, predictions_source)
                if other is not None:
                    kept.remove(c)
                    fates[c.spec] = "filtered by the classifier"
                    filtered[f"{c.spec} / {c.label_rule}"] += 1
                    rejected.append({**_row(layout, s, c.texts, c.label, "transformed",
                                            c.spec, c.label_rule), "classifier_label": other})
    specs = list(dict.fromkeys(c.spec for s in sources for c in s.candidates))
    table = bal.producers(label_rules, specs) if balance else {}
    outcome: dict[str, Counter] = {labels.name_of(c): Counter() for c in labels.codes}
    rows: list[dict] = []
    dropped: Counter = Counter()
    first: dict = {}  # pair -> index of the source whose original row it is
    if originals:  # every original is written before any transformed copy of it
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

        def fresh(c, fates=fates) -> bool:
            return hygiene.admit(c.key, c.label, fates, c.spec)

        rng = bal.source_rng(seed, s.id)
        if balance:
            chosen = bal.choose_balanced(s.code, s.candidates, kept, fates, table, fresh, rng,
                                         outcome, labels)
            if max_per_source is not None:
                dropped["over --max-per-source"] += max(0, len(chosen) - max_per_source)
                chosen = chosen[:max_per_source]
        else:
            chosen = bal.choose_capped(s.code, kept, max_per_source, fresh, rng)
        order = {c.spec: k for k, c in enumerate(s.candidates)}
        for c in sorted(chosen, key=lambda c: order[c.spec]):
            rows.append(_row(layout, s, c.texts, c.label, "transformed", c.spec,
                             c.label_rule))
    dropped.update(hygiene.counts)
    written = Counter(r[layout.label] for r in rows)
    counts = {
        "sources": len(sources),
        "rows": len(rows),
        "originals": sum(r["origin"] == "original" for r in rows),
        "transformed": sum(r["origin"] == "transformed" for r in rows),
        "labels": {labels.name_of(c): written[c] for c in labels.codes},
        "transformed_by_spec": dict(Counter(r["spec"] for r in rows
                                            if r["origin"] == "transformed")),
        "dropped": dict(sorted(dropped.items())),
        "filtered": dict(sorted(filtered.items())) if filtered is not None else None,
        "rejected": len(rejected),
        "not_fluent": sum(c.status == Status.NOT_FLUENT.value for s in sources
                          for c in s.candidates),
    }
    report = None
    if balance:
        report = {label: {"aimed": sum(o.values()), "reached": o["reached"],
                          "why_not": {k: v for k, v in o.most_common() if k != "reached"}}
                  for label, o in outcome.items()}
    return AugmentResult(rows, rejected, counts, label_format, report, layout=layout)


def _engine(engine, config: RunConfig | None, label_rules, task: TaskProfile | None):
    """(an Engine, whether this run owns it)."""
    from lit.pipeline.engine import Engine

    if isinstance(engine, Engine):
        return engine, False
    if engine is not None:
        return engine(), True
    return Engine.from_config(config or RunConfig(), label_rules=label_rules, task=task), True


def run_augment(
    input: str | Path | Iterable[object] | None = None,
    output: str | Path | None = None,
    *,
    from_contrast: str | Path | None = None,
    specs: Sequence[str] | None = None,
    balance: bool = False,
    max_per_source: int | None = None,
    originals: bool = True,
    label_format: str = "auto",
    format: str | None = None,
    seed: int = 0,
    filter_model: str | None = None,
    filter_predictions: str | Path | None = None,
    rejected: str | Path | None = None,
    overwrite: bool = False,
    report: bool = False,
    engine: Any = None,
    config: RunConfig | None = None,
    label_rules: str | Path | None = None,
    limit: int | None = None,
    progress: bool = False,
    input_format: str | None = None,
    premise_column: str | None = None,
    hypothesis_column: str | None = None,
    label_column: str | None = None,
    id_column: str | None = None,
    task: str | Path | TaskProfile | None = None,
    text_columns: dict[str, str] | None = None,
) -> AugmentResult:
    """A whole `lit augment` run (the CLI is a thin wrapper; docs/augment.md, docs/tasks.md).

    input: an NLI dataset file (JSONL/CSV/TSV) or an iterable of pairs (dicts or tuples as
    Engine.nli takes), run through *engine* (an Engine, or a function making one; default
    `Engine.from_config(config)`); or from_contrast: a `lit nli` or `lit contrast` output,
    read without ACE. *task*: a task profile (name or file): INPUT is that task's dataset
    (its fields; *text_columns* maps a side to another field), run as `lit contrast` runs it;
    with from_contrast, the profile of a task that is not built in. Rows are written in the
    task's own fields and label convention.
    output: file or folder to write (None: only return the rows); the metadata sidecar and,
    when filtering, the rejected rows (default OUTPUT.rejected.jsonl) are written with it.
    """
    started = now()
    profile = load_task(task) if task is not None else None
    if profile is not None and profile.pair_records:
        profile = None  # a task of pair records (nli) takes the default, pair path
    if profile is not None and (premise_column or hypothesis_column):
        raise InputError(f"--premise-column/--hypothesis-column are for NLI; task "
                         f"{profile.name}'s sides are {', '.join(profile.sides)}")
    if (input is None) == (from_contrast is None):
        raise InputError("give either INPUT (an NLI dataset) or --from-contrast FILE")
    if label_format not in LABEL_FORMATS:
        raise InputError(f"--label-format {label_format!r}: choose one of "
                         f"{', '.join(LABEL_FORMATS)}")
    if max_per_source is not None and max_per_source < 0:
        raise InputError("--max-per-source must be at least 0 (0: the originals only)")
    if filter_model and filter_predictions:
        raise InputError("give --filter-model or --filter-predictions, not both")
    if limit is not None and limit < 0:
        raise InputError("--limit must be at least 0")
    filtering = bool(filter_model or filter_predictions)
    out = Path(output) if output is not None else None
    fmt = output_format(out, format) if out is not None else None
    rejected_path = Path(rejected) if rejected is not None else (
        out.with_name(out.name + ".rejected.jsonl") if out is not None and filtering else None)
    if rejected_path is not None and not filtering:
        raise InputError("--rejected needs --filter-model or --filter-predictions")
    targets = [p for p in (out, rejected_path, out and meta_path(out)) if p is not None]
    file_input = input if isinstance(input, (str, Path)) else None
    check_targets(targets, [file_input, from_contrast, filter_predictions, label_rules],
                  overwrite)
    columns = {role: (name,) for role, name in (("premise", premise_column),
               ("hypothesis", hypothesis_column), ("label", label_column)) if name}
    built = None
    owned = False
    try:
        if from_contrast is not None:
            sources = list(islice(read_contrast(from_contrast, columns, profile), limit))
            profile = next((s.task for s in sources if s.task is not None), None)
            rules = (LabelRules.load(label_rules) if profile is None
                     else profile.load_label_rules(label_rules))
            run_specs = list(dict.fromkeys(c.spec for s in sources for c in s.candidates))
        elif profile is not None:
            built, owned = _engine(engine, config, label_rules, profile)
            rules = built.label_rules
            run_specs = list(specs or profile.specs)
            sources = _run_contrast(built, profile, input, run_specs, limit, progress,
                                    input_format, text_columns, label_column, id_column)
        else:
            built, owned = _engine(engine, config, label_rules, None)
            rules = built.label_rules
            run_specs = list(specs or (bal.balance_specs(rules) if balance else PAPER_SPECS))
            sources = _run_nli(built, input, run_specs, limit, progress, input_format,
                               premise_column, hypothesis_column, label_column, id_column,
                               columns)
        if report and profile is not None:
            raise InputError(f"--report measures premise/hypothesis shortcuts of NLI data; "
                             f"task {profile.name} has none to measure")
        labels = rules.labels
        if label_format == "auto":
            label_format = learn_convention([(s.where, s.gold) for s in sources
                                             if s.status != Status.INVALID_INPUT.value], labels)
        predict = _predictor(filter_model, filter_predictions, labels)
        result = build(sources, rules, balance=balance, max_per_source=max_per_source,
                       originals=originals, seed=seed, predictions=predict,
                       predictions_source=str(filter_predictions or filter_model),
                       label_format=label_format)
        if report:
            result.report = _shortcut_report(sources, result.rows, built, config, seed)
    finally:
        if owned:
            built.close()
    if out is None:
        return result
    options = {"balance": balance, "max_per_source": max_per_source, "originals": originals,
               "label_format": label_format, "format": fmt, "limit": limit,
               "filter_model": filter_model, "rejected": str(rejected_path or "") or None,
               "columns": {k: v[0] for k, v in columns.items()} or None,
               "from_contrast": from_contrast is not None,
               **({"task": profile.name} if profile is not None else {})}
    tools = Toolchain.of(built) if built is not None else Toolchain(label_rules=rules)
    if from_contrast is not None:
        tools = _copied_tools(from_contrast).over(tools)
    meta = build_meta(
        "augment", started=started, tools=tools, specs=run_specs, seed=seed, options=options,
        inputs={k: v for k, v in (("input", file_input), ("from_contrast", from_contrast),
                ("filter_predictions", filter_predictions)) if v is not None},
        counts={**result.counts, "balance": result.balance})
    result.files = _write(result, out, fmt, rejected_path, meta)
    result.output = out
    return result


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


def _run_nli(engine, input, specs, limit, progress, input_format, premise_column,
             hypothesis_column, label_column, id_column, columns) -> list[Source]:
    """Sources from running *engine* over *input* (a dataset file or pairs)."""
    from tqdm import tqdm

    from lit.tasks.reader import read_nli

    if isinstance(input, (str, Path)):
        named = {"premise": premise_column, "hypothesis": hypothesis_column,
                 "label": label_column, "id_field": id_column}
        items: Iterable[object] = read_nli(input, input_format,
                                           **{k: v for k, v in named.items() if v})
    else:
        items = input
    records = engine.nli(islice(items, limit), specs)
    bar = tqdm(records, unit="pair", file=sys.stderr, disable=not progress or None,
               desc="lit augment")
    return list(sources_of(bar, columns))


def _run_contrast(engine, profile: TaskProfile, input, specs, limit, progress, input_format,
                  text_columns, label_column, id_column) -> list[Source]:
    """Sources from running *engine* over *input* (a dataset file of *profile*'s task, or
    records in its fields) as `lit contrast` does."""
    from tqdm import tqdm

    from lit.tasks.reader import read_task

    if isinstance(input, (str, Path)):
        input = read_task(input, profile, input_format, columns=text_columns,
                          label=label_column, id_field=id_column)
    records = engine.contrast(islice(input, limit), profile, specs)
    bar = tqdm(records, unit="record", file=sys.stderr, disable=not progress or None,
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
