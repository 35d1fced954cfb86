"""Analyse an NLI dataset through the grammar: parse coverage, phenomena and label shortcuts.

Per role and gold label: parse coverage and the rates of tense, aspect, voice, modality,
negation, cleft and question; premise/hypothesis tense pairs; and label-shortcut candidates
(MRS features ranked by mutual information with the label). Exit 2 when no pair of DATASET
can be used (the first problem is named).

DATASET may use SNLI/MNLI field names (sentence1, sentence2, gold_label) or Hugging Face's
(premise, hypothesis, integer label). With --task (or DATASET a `lit contrast` output), it is a
dataset of that task (SST-2, QQP, MRPC, RTE or a profile file; docs/tasks.md): the same counts
per side and label, over every sentence of each text.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from lit.config import DEFAULT_GRAMMAR_VERSION

if TYPE_CHECKING:
    from lit.provenance import Toolchain
    from lit.tasks import TaskProfile


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.commands.options import add_ace_arguments, add_input_arguments

    parser.add_argument("dataset", type=Path, metavar="DATASET",
                        help="NLI pairs: JSONL, CSV, TSV or Parquet (.gz accepted), a `datasets` "
                        "folder (DIR or DIR:SPLIT) or hf:NAME[:SPLIT]")
    add_input_arguments(parser)
    parser.add_argument("--task", metavar="TASK",
                        help="DATASET is a dataset of this task (a built-in task or a profile "
                        "file; default: nli, or the task of a `lit contrast` output)")
    parser.add_argument("--top", type=int, default=25, metavar="N",
                        help="shortcut candidates to list (default 25)")
    parser.add_argument("--min-count", type=int, default=3, metavar="N",
                        help="pairs a feature needs to be a shortcut candidate (default 3)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write the analysis as JSON here")
    parser.add_argument("--pairs", action="store_true",
                        help="also rank features of the premise/hypothesis MRS alignment "
                        "(docs/shortcuts.md)")
    parser.add_argument("--splits", type=Path, metavar="DIR",
                        help="write follow/counterexample splits of the top --split-top pair "
                        "features here, for `lit evaluate DIR` (implies --pairs)")
    parser.add_argument("--split-top", type=int, default=10, metavar="K",
                        help="pair features to split (default 10)")
    parser.add_argument("--mine", action="store_true",
                        help="also rank candidate features mined from the derivations and "
                        "MRSs, with FDR control, against n-grams (docs/mining.md; NLI or any "
                        "--task); --splits then splits the top mined features (NLI)")
    parser.add_argument("--min-support", type=int, default=5, metavar="N",
                        help="with --mine: items a candidate needs to be tested (default 5)")
    parser.add_argument("--fdr", type=float, default=0.05, metavar="Q",
                        help="with --mine: false-discovery rate (Benjamini-Hochberg; "
                        "default 0.05)")
    parser.add_argument("--resamples", type=int, default=1000, metavar="N",
                        help="bootstrap resamples for the MI intervals (0: none; default 1000)")
    add_ace_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from lit.ace.options import service_from_args
    from lit.analyze import analyze, parse_sentences
    from lit.analyze.analysis import format_summary, pair_rows
    from lit.analyze.tasks import dataset_task
    from lit.errors import InputError
    from lit.io.meta import now
    from lit.io.output import refuse_input_as_output
    from lit.provenance import Toolchain
    from lit.tasks.reader import read_nli

    def items():
        return read_nli(args.dataset, args.format, premise=args.premise_column,
                        hypothesis=args.hypothesis_column, label=args.label_column)

    started = now()
    task = dataset_task(args.dataset, args.task)
    if task is not None:
        _write(args, *_run_task(args, task), started)
        return 0
    if args.output:
        refuse_input_as_output(args.output, args.dataset)
    first_problem = None
    for item in items():
        if not item.error:
            break
        first_problem = first_problem or item.error
    else:  # nothing to analyse: say why instead of reporting "0 pairs"
        raise InputError(f"{args.dataset}: no usable NLI pair"
                         + (f"; first problem: {first_problem}" if first_problem else
                            " (the file has no records)"))
    sentences = (s for it in items() if not it.error for s in (it.premise, it.hypothesis))
    with service_from_args(args) as service:
        parses = parse_sentences(service, sentences, progress=sys.stderr.isatty())
        version = service.config.grammar_version or DEFAULT_GRAMMAR_VERSION
        tools = Toolchain(ace=service.config.ace, grammar=service.config.grammar,
                          grammar_version=version)
        cache = service.parse_cache
    if cache is not None:
        hits, misses = cache.served("parses")
        print(f"parse cache: {hits} sentences read from {cache.path}, {misses} parsed",
              file=sys.stderr)
    rows = mined = None
    if args.mine:
        from lit.analyze.mine import handmade_rows, mine, mined_pair_rows

        mined_rows = mined_pair_rows(items(), parses, version, progress=sys.stderr.isatty())
        mined = mine(mined_rows, args.min_support, args.fdr, args.top,
                     resamples=args.resamples)
        rows = handmade_rows(mined_rows)
    elif args.pairs or args.splits:
        rows = pair_rows(items(), parses, version, progress=sys.stderr.isatty())
    result = analyze(items(), parses, version, top=args.top, min_count=args.min_count,
                     pairs=rows, resamples=args.resamples)
    result = {"input": str(args.dataset), **result,
              **({} if mined is None else {"mined": mined})}
    print(format_summary(result))
    if mined is not None:
        from lit.analyze.mine import format_mined

        print(format_mined(mined))
    if args.splits:
        from lit.analyze.analysis import rank_pair_features
        from lit.evaluate.splits import write_splits

        if mined is not None:
            rows, top = mined_rows, mined["top"][:args.split_top]
        else:
            top = rank_pair_features(rows, top=args.split_top, min_count=args.min_count,
                                     resamples=0)
        manifest = write_splits(args.splits, rows, top)
        print(f"{len(manifest)} shortcut splits written to {args.splits}", file=sys.stderr)
    _write(args, result, tools, started)
    return 0


def _write(args: argparse.Namespace, result: dict, tools: Toolchain, started: str) -> None:
    """With -o: the analysis as JSON and its metadata sidecar."""
    from lit.commands.runs import write_run_meta
    from lit.io.output import write_text_atomic

    if args.output:
        write_text_atomic(args.output, json.dumps(result, indent=1) + "\n")
        write_run_meta("analyze", args.output, started, args, tools=tools,
                       dataset=None if str(args.dataset).startswith("hf:") else args.dataset)
        print(f"analysis written to {args.output}", file=sys.stderr)


def _run_task(args: argparse.Namespace, task: TaskProfile) -> tuple[dict, Toolchain]:
    """`lit analyze DATASET --task TASK` (or DATASET a `lit contrast` output): parse, count,
    rank; (the result, the ACE and grammar used). InputError when no record can be used."""
    from lit.ace.options import service_from_args
    from lit.analyze.analysis import parse_sentences
    from lit.analyze.mine import format_mined, mine
    from lit.analyze.tasks import (
        analyze_task,
        format_task_summary,
        task_mined_rows,
        text_sentences,
    )
    from lit.errors import InputError
    from lit.io.output import refuse_input_as_output
    from lit.provenance import Toolchain
    from lit.tasks.reader import read_task

    if args.pairs or args.splits:
        raise InputError(f"--pairs and --splits align premise and hypothesis: NLI only, not "
                         f"task {task.name} (--mine ranks a task's mined features)")
    if args.premise_column or args.hypothesis_column:
        raise InputError(f"--premise-column/--hypothesis-column are for NLI; task "
                         f"{task.name}'s fields come from its profile")
    if args.output:
        refuse_input_as_output(args.output, args.dataset)
    items = list(read_task(args.dataset, task, args.format, label=args.label_column))
    usable = [it for it in items if not it.error]
    if not usable:
        first = next((it.error for it in items), None)
        raise InputError(f"{args.dataset}: no usable record of task {task.name}"
                         + (f"; first problem: {first}" if first else
                            " (the file has no records)"))
    sentences = (s for it in usable for text in it.texts for s in text_sentences(text))
    with service_from_args(args) as service:
        parses = parse_sentences(service, sentences, progress=sys.stderr.isatty())
        version = service.config.grammar_version or DEFAULT_GRAMMAR_VERSION
        tools = Toolchain(ace=service.config.ace, grammar=service.config.grammar,
                          grammar_version=version)
    result = {"input": str(args.dataset),
              **analyze_task(items, parses, task, version, top=args.top,
                             min_count=args.min_count, resamples=args.resamples)}
    print(format_task_summary(result))
    if getattr(args, "mine", False):
        rows = task_mined_rows(items, parses, task, version, progress=sys.stderr.isatty())
        if rows:
            result["mined"] = mine(rows, args.min_support, args.fdr, args.top,
                                   resamples=args.resamples)
            print(format_mined(result["mined"]))
        else:  # the counts above still stand
            print(f"--mine: no record of {args.dataset} has a gold label and every sentence "
                  "parsed" + (" (and one sentence a side)" if task.is_pair else "")
                  + ": nothing mined", file=sys.stderr)
    return result, tools
