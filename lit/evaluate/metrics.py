"""Per-spec scores of a model on a contrast set (LIT paper, Table 3; Gardner et al. 2020)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from lit.errors import InputError
from lit.evaluate.fairness import fairness
from lit.evaluate.records import ORIGINAL, Item, contrast_items, file_task, original_item
from lit.labels import LabelRules
from lit.labels.names import NLI, LabelSet
from lit.records import Record, as_records
from lit.tasks import TaskProfile

#: Written into every result so a reader need not guess what a number means.
DEFINITIONS: dict[str, str] = {
    "n": "pairs of this spec with status ok, a gold label on the original and a rule label on "
    "the transformed pair",
    "acc_ori": "accuracy on the original pairs of those n",
    "acc_ctr": "accuracy on the transformed pairs against the labels the label rules assign",
    "same_prediction": "share of the n whose original and transformed pair get the same "
    "prediction, right or wrong",
    "contrast_consistency": "share of the n where the model is right on both the original and "
    "the transformed pair (Gardner et al. 2020)",
    "consistency": "same_prediction for a label-preserving spec, contrast_consistency for a "
    "label-changing one (the reading every column of the LIT paper's Table 3 agrees with)",
    "kind": "label_preserving if the label rule of every one of the n pairs maps each label it "
    "labels to itself (e.g. i;i, pa;pa, o;m), else label_changing (e.g. f;p, p;f, m;o): decided by the "
    "label rules (--label-rules), not by the labels the n pairs happen to have; for a composed "
    "rule id (rule+neutral_rule...) the first rule decides, since neutral steps keep the label",
    "original.accuracy": "accuracy on every input pair with a gold label, transformed or not",
    "unlabeled_transforms": "ok transforms not scored because the original has no gold label "
    "or no label rule gave the transformed pair a label; they need no prediction",
}


def _rate(hits: int, n: int) -> float | None:
    return hits / n if n else None


def wilson_interval(rate: float | None, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson score interval (95% by default) of a proportion *rate* over *n* pairs: honest
    for small n and for rates near 0 or 1, where rate ± z·se is not. None when n is 0."""
    if rate is None or n <= 0:
        return None
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _scores(pairs: Sequence[tuple[Item, str, str]], preserving: bool) -> dict:
    """Scores over (contrast item, prediction on original, prediction on contrast) triples;
    *preserving* says whether the spec is label-preserving (see `rule_kinds`)."""
    n = len(pairs)
    right_ori = sum(p_o == it.original_gold for it, p_o, _ in pairs)
    right_ctr = sum(p_c == it.gold for it, _, p_c in pairs)
    same = sum(p_o == p_c for _, p_o, p_c in pairs)
    both = sum(p_o == it.original_gold and p_c == it.gold for it, p_o, p_c in pairs)
    return {
        "kind": "label_preserving" if preserving else "label_changing",
        "n": n,
        "acc_ori": _rate(right_ori, n),
        "acc_ctr": _rate(right_ctr, n),
        "consistency": _rate(same if preserving else both, n),
        "same_prediction": _rate(same, n),
        "contrast_consistency": _rate(both, n),
    }


def _missing_error(missing: list[tuple[str, str]], total: int) -> InputError:
    id_, spec = missing[0]
    return InputError(
        f"no prediction for {len(missing)} of {total} pairs, e.g. id {id_!r} spec {spec!r}"
        " (without --strict such pairs are skipped and counted)"
    )


def missing_note(result: dict) -> str | None:
    """One line on the pairs `evaluate` skipped for want of a prediction, or None."""
    missing = result.get("missing_predictions") or {}
    if not missing.get("count"):
        return None
    id_, spec = missing["examples"][0]
    return (f"no prediction for {missing['count']} of {missing['needed']} pairs, e.g. id "
            f"{id_!r} spec {spec!r}: skipped {missing['skipped']} pairs (a contrast pair needs "
            "its original's prediction too; --strict makes this an error)")


def predict(items: Sequence[Item], predict_fn: Callable[[list], Sequence],
            *, batch_size: int = 32, progress: bool = True,
            labels: LabelSet = NLI) -> dict[tuple[str, str], str]:
    """Predictions for *items* from any classifier: *predict_fn* takes a list of inputs, a
    (premise, hypothesis) pair each for NLI and pair tasks, one text each for a single-text
    task, and returns one label per input in any spelling of *labels* (for NLI
    entailment/neutral/contradiction, E/N/C or Hugging Face's 0/1/2). Each distinct input is
    classified once, in batches, with per-input progress (a bar, a notebook widget, or plain
    lines in a log)."""
    from lit.progress import progress_bar

    inputs = list(dict.fromkeys(it.model_input for it in items))
    unit = "text" if inputs and isinstance(inputs[0], str) else "pair"
    got_labels: list[str | None] = []
    with progress_bar(len(inputs), "lit evaluate", unit, progress) as bar:
        for start in range(0, len(inputs), max(1, batch_size)):
            batch = inputs[start:start + max(1, batch_size)]
            got = list(predict_fn(batch))
            if len(got) != len(batch):
                raise InputError(f"predict_fn returned {len(got)} labels for {len(batch)} "
                                 f"{unit}s")
            try:
                got_labels.extend(labels.name(g) for g in got)
            except ValueError as exc:
                raise InputError(f"predict_fn: {exc}") from None
            bar.update(len(batch))
    by_input = dict(zip(inputs, got_labels))
    return {it.key: by_input[it.model_input] for it in items
            if by_input[it.model_input] is not None}


def _labelled(it: Item) -> bool:
    return it.gold is not None and it.original_gold is not None


def unlabeled_transforms(records: Sequence[Record], path: Path | str = "",
                         task: TaskProfile | None = None) -> Counter:
    """Per spec, ok transforms that cannot be scored: no gold label or no rule label."""
    return Counter(it.spec for rec in records for it in contrast_items(rec, path, task)
                   if not _labelled(it))


def needed_items(records: Sequence[Record], path: Path | str = "",
                 task: TaskProfile | None = None) -> list[Item]:
    """Every text or pair a model must classify: each gold-labelled original and its ok,
    labelled contrasts (those that cannot be scored need no prediction). *task*: as
    `lit.evaluate.records.task_of` (default: each record's own)."""
    items = []
    for rec in records:
        orig = original_item(rec, path, task)
        if orig is not None and orig.gold is not None:
            items.append(orig)
            items.extend(it for it in contrast_items(rec, path, task) if _labelled(it))
    return items


def task_label_rules(task: TaskProfile, path: str | Path | None = None) -> LabelRules:
    """The label rules a contrast set of *task* was labelled with: *path* (--label-rules) if
    given, else the task's own (LIT's default set for nli)."""
    return task.load_label_rules(path)


def rule_kinds(
    records: Sequence[Record], label_rules: LabelRules, path: Path | str = "",
    task: TaskProfile | None = None,
) -> dict[str, bool]:
    """Whether each label rule that a scored pair of *records* names is label-preserving;
    InputError naming the record if a pair has no rule id or one *label_rules* does not have
    (the file was labelled with other rules)."""
    lines = {r.id: r.line or "?" for r in records}
    kinds: dict[str, bool] = {}
    for it in needed_items(records, path, task):
        if it.spec == ORIGINAL or it.label_rule in kinds:
            continue
        where = f"record {it.id!r}, spec {it.spec!r}"
        if path:
            where = f"{path}:{lines[it.id]}: {where}"
        if not it.label_rule:
            raise InputError(f"{where}: a labelled transform without a `label_rule`, so whether "
                             "the spec is label-preserving is unknown")
        try:
            kinds[it.label_rule] = label_rules.preserves_label(it.label_rule)
        except KeyError as exc:
            raise InputError(
                f"{where}: label rule {exc.args[0]!r} is not in {label_rules.source}; pass "
                "--label-rules with the rule file `lit nli` (or `lit contrast`) labelled this "
                "file with"
            ) from None
    return kinds


def evaluate(
    records: Sequence[Record | dict],
    predictions: Mapping[tuple[str, str], str] | None = None,
    path: Path | str = "",
    label_rules: LabelRules | None = None,
    *,
    predict_fn: Callable[[list], Sequence] | None = None,
    strict: bool = False,
    batch_size: int = 32,
    progress: bool = True,
    task: TaskProfile | None = None,
) -> dict:
    """Scores per spec and overall, from *predictions* ((id, spec) -> label) or from any
    classifier *predict_fn* (see `predict`; batched, with progress), for `lit nli` records or
    `lit contrast` records of any task (*task*: the profile of one that is not built in) as
    `read_contrast_file` reads them, or their dicts as `Engine.nli` returns them.

    A pair with no prediction is skipped and counted (``missing_predictions``), with its
    contrasts if it is an original; with *strict* it is an InputError. InputError too if a
    pair's label rule is not in *label_rules* (default: the task's rule set)."""
    records = list(as_records(records))
    task = file_task(records, task)
    preserves = rule_kinds(records, label_rules or task_label_rules(task), path, task)
    items = needed_items(records, path, task)
    if predictions is None:
        if predict_fn is None:
            raise InputError("evaluate needs predictions or a predict_fn")
        predictions = predict(items, predict_fn, batch_size=batch_size, progress=progress,
                              labels=task.labels)
    missing = [it.key for it in items if it.key not in predictions]
    if missing and strict:
        raise _missing_error(missing, len(items))
    needed = len(items)
    if missing:
        items = [it for it in items if it.key in predictions
                 and (it.id, ORIGINAL) in predictions]

    originals = [it for it in items if it.spec == ORIGINAL]
    by_spec: dict[str, list[tuple[Item, str, str]]] = {}
    transitions: dict[str, Counter] = {}
    rules: dict[str, Counter] = {}
    for it in items:
        if it.spec == ORIGINAL:
            continue
        triple = (it, predictions[(it.id, ORIGINAL)], predictions[it.key])
        by_spec.setdefault(it.spec, []).append(triple)
        transitions.setdefault(it.spec, Counter())[f"{it.original_gold}>{it.gold}"] += 1
        rules.setdefault(it.spec, Counter())[it.label_rule] += 1

    specs = []
    for spec, pairs in by_spec.items():
        preserving = all(preserves[it.label_rule] for it, _, _ in pairs)
        row = {"spec": spec, **_scores(pairs, preserving)}
        row["transitions"] = dict(transitions[spec])
        row["label_rules"] = dict(rules[spec])
        specs.append(row)
    pooled = [t for pairs in by_spec.values() for t in pairs]
    overall = _scores(pooled, preserving=False)
    overall.pop("kind")
    overall.pop("consistency")
    overall["consistency"] = _rate(
        sum(r["consistency"] * r["n"] for r in specs if r["n"]), len(pooled)
    )
    right = sum(predictions[it.key] == it.gold for it in originals)
    fair = fairness(by_spec, {it.id: it for it in originals})
    return {
        "task": task.name,
        "definitions": DEFINITIONS,
        "original": {"n": len(originals), "accuracy": _rate(right, len(originals))},
        "specs": specs,
        "overall": overall,
        "counts": record_counts(records)
        | {"unlabeled_transforms": dict(unlabeled_transforms(records, path, task))},
        "missing_predictions": {"count": len(missing), "needed": needed,
                                "skipped": needed - len(items),
                                "examples": [list(k) for k in missing[:20]]},
    } | ({"fairness": fair} if fair else {})


def record_counts(records: Sequence[Record]) -> dict:
    """How many records and transforms ended in each status (failure breakdown)."""
    rec_status = Counter(str(r.status) for r in records)
    tr_status = Counter(str(t.status) for r in records for t in r.transforms)
    return {
        "records": len(records),
        "records_by_status": dict(rec_status),
        "transforms_by_status": dict(tr_status),
    }


#: Short names of a spec's kind in the table ("pres" read as the present tense).
KIND_NAMES = {"label_preserving": "keeps-label", "label_changing": "changes-label"}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}"


def format_table(result: dict) -> str:
    """A plain-text table in the layout of the LIT paper's Table 3 (percentages)."""
    head = ("spec", "kind", "#pairs", "Acc@Ori", "Acc@Ctr", "Consistency", "SamePred", "ContrCons")
    rows = [head]
    for r in result["specs"]:
        rows.append((
            r["spec"], KIND_NAMES[r["kind"]], str(r["n"]),
            _pct(r["acc_ori"]), _pct(r["acc_ctr"]), _pct(r["consistency"]),
            _pct(r["same_prediction"]), _pct(r["contrast_consistency"]),
        ))
    o = result["overall"]
    rows.append((
        "all", "", str(o["n"]), _pct(o["acc_ori"]), _pct(o["acc_ctr"]), _pct(o["consistency"]),
        _pct(o["same_prediction"]), _pct(o["contrast_consistency"]),
    ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = []
    for k, row in enumerate(rows):
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0 or k == len(rows) - 2:
            lines.append("  ".join("-" * w for w in widths))
    orig = result["original"]
    lines.append(f"accuracy on all {orig['n']} original pairs: {_pct(orig['accuracy'])}")
    note = missing_note(result)
    return "\n".join(lines + ([note] if note else []))
