"""Score a model on a contrast set: Acc@Ori, Acc@Ctr and consistency per spec, and PANDA's
fairscore per demographic axis.

CONTRAST is a `lit nli` output or a `lit contrast` output of any task (SST-2, QQP, MRPC, RTE or
a profile of your own: --task FILE). Predictions come from a Hugging Face
sequence-classification model (--model, needs the `rank` extra) or from a JSONL file of
{"id", "spec", "prediction"} lines (--predictions; spec is "original" for a record's input),
so a model from any framework can be scored.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("contrast", type=Path, metavar="CONTRAST",
                        help="a `lit nli` or `lit contrast` output file (.jsonl or "
                        ".jsonl.gz), or a folder of shortcut splits from `lit analyze --splits`")
    parser.add_argument("--task", metavar="TASK",
                        help="the task profile file (.toml) `lit contrast` ran with, for a task "
                        "that is not built in (default: the task the records name)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--model", metavar="NAME|DIR",
                        help="Hugging Face model name or local directory")
    source.add_argument("--predictions", type=Path, metavar="FILE",
                        help="JSONL file of {id, spec, prediction}")
    parser.add_argument(
        "--label-map", metavar="MAP",
        help="class index of each label, e.g. entailment=0,neutral=1,contradiction=2 or "
        "negative=0,positive=1 (default: the model config's id2label)",
    )
    parser.add_argument("--label-rules", metavar="FILE", type=Path,
                        help="the label-rule file `lit nli` (`lit contrast`) labelled CONTRAST "
                        "with; its rules decide which specs are label-preserving (default: the "
                        "task's)")
    parser.add_argument("--batch-size", type=int, default=32, metavar="N",
                        help="pairs per model forward pass (default 32)")
    parser.add_argument("--device", metavar="DEV",
                        help="torch device (default: cuda if available, else cpu)")
    parser.add_argument("--max-length", type=int, default=256, metavar="N",
                        help="tokens per pair (default 256)")
    parser.add_argument("--save-predictions", type=Path, metavar="FILE",
                        help="write the predictions scored here (prediction-file format)")
    parser.add_argument("--strict", action="store_true",
                        help="a pair with no prediction is an error (default: skipped, counted "
                        "and reported)")
    parser.add_argument("--no-progress", action="store_true", help="no progress display")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write the scores as JSON here")


def run(args: argparse.Namespace) -> int:
    from lit.commands.runs import write_run_meta
    from lit.errors import InputError
    from lit.evaluate import evaluate, read_contrast_file, read_predictions, write_predictions
    from lit.evaluate.fairness import format_fairness
    from lit.evaluate.metrics import (
        format_table,
        missing_note,
        needed_items,
        predict,
        rule_kinds,
        task_label_rules,
    )
    from lit.evaluate.predictions import prediction_rows
    from lit.evaluate.records import failure_note, file_task
    from lit.evaluate.splits import is_splits_dir
    from lit.io.meta import now
    from lit.io.output import refuse_input_as_output, write_text_atomic
    from lit.tasks import load_task

    started = now()
    if is_splits_dir(args.contrast):  # written by `lit analyze --splits`: accuracy per split
        return _run_splits(args)
    for out in (args.output, args.save_predictions):
        if out is not None:
            refuse_input_as_output(out, args.contrast, args.predictions, args.label_rules)
    given_task = load_task(args.task) if args.task else None
    records = read_contrast_file(args.contrast, task=given_task)
    task = file_task(records, given_task)
    labels = task.labels
    failed = failure_note(records)
    if failed:
        print(f"lit evaluate: {args.contrast}: {failed}", file=sys.stderr)
    label_rules = task_label_rules(task, args.label_rules)
    # a wrong rule file fails before inference
    rule_kinds(records, label_rules, args.contrast, task)
    if args.label_map and not args.model:
        raise InputError("--label-map applies to --model only")
    items = needed_items(records, args.contrast, task)
    if args.model:
        from lit.evaluate.model import HFClassifier, parse_label_map

        label_map = parse_label_map(args.label_map, labels) if args.label_map else None
        clf = HFClassifier(args.model, label_map, args.batch_size, args.device, args.max_length,
                           labels)
        predictions = predict(items, clf.predict, batch_size=args.batch_size,
                              progress=not args.no_progress, labels=labels)
    else:
        given = read_predictions(args.predictions, labels)
        # only the pairs of this file; `evaluate` counts (or, --strict, names) missing ones
        predictions = {it.key: given[it.key] for it in items if it.key in given}

    result = evaluate(records, predictions, args.contrast, label_rules, strict=args.strict,
                      task=task)
    note = missing_note(result)
    if note:
        print(f"lit evaluate: warning: {note}", file=sys.stderr)
    if args.save_predictions:
        write_predictions(predictions, args.save_predictions)
    result = {
        "input": str(args.contrast),
        "model": args.model,
        "predictions_file": str(args.predictions) if args.predictions else None,
        "label_map": clf.label_map if args.model else None,
        "label_rules_file": label_rules.source,
        **result,
        "predictions": list(prediction_rows(predictions)),
    }
    print(format_table(result))
    if result.get("fairness"):
        print(format_fairness(result["fairness"]))
    if args.output:
        write_text_atomic(args.output, json.dumps(result, indent=1) + "\n")
        write_run_meta("evaluate", args.output, started, args,
                       contrast=args.contrast, predictions=args.predictions)
        print(f"scores written to {args.output}", file=sys.stderr)
    return 0


def _run_splits(args: argparse.Namespace) -> int:
    """`lit evaluate DIR` for a splits directory: predictions from --predictions or --model."""
    from lit.evaluate import read_predictions
    from lit.evaluate.records import ORIGINAL
    from lit.evaluate.splits import evaluate_splits, format_splits, split_pairs
    from lit.io.output import write_text_atomic

    directory = Path(args.contrast)
    if args.model:
        from lit.evaluate.model import HFClassifier, parse_label_map

        label_map = parse_label_map(args.label_map) if args.label_map else None
        clf = HFClassifier(args.model, label_map, args.batch_size, args.device, args.max_length)
        pairs = split_pairs(directory)
        labels = clf.predict([(p, h) for _, p, h in pairs])
        predictions = {(i, ORIGINAL): y for (i, _, _), y in zip(pairs, labels)}
    else:
        predictions = read_predictions(args.predictions)
    results = evaluate_splits(directory, predictions)
    print(format_splits(results))
    if args.output:
        write_text_atomic(args.output, json.dumps({"splits": str(directory), "model": args.model,
                                                   "results": results}, indent=1) + "\n")
        print(f"scores written to {args.output}", file=sys.stderr)
    return 0
