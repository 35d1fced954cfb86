"""Turn an NLI dataset, or any task's dataset, into training data: flat, verified, deduplicated
contrast pairs.

From INPUT (an NLI dataset run through the pipeline like `lit nli`, or with --task a task's
dataset run like `lit contrast`) or from an existing `lit nli` or `lit contrast` output
(--from-contrast FILE, no ACE needed), write one row per pair: {premise, hypothesis, label,
origin (original|transformed), source_id, spec, label_rule} — for another task its own text
fields (sentence; question1, question2; ...) instead of premise and hypothesis — with labels
in the input's own convention (words, or Hugging Face integers; --label-format). OUTPUT's
format comes from its name (.jsonl, .csv, .parquet; no suffix: a `datasets` folder with a
ClassLabel) or --format. --balance aims at one transformed pair for
every label other than the gold one (specs chosen by the label rules); --filter-predictions
or --filter-model keeps a transformed pair only if the classifier agrees with its rule label
(the others go to --rejected); --report shows the label distribution and the MI of the
shortcut features before and after. A sidecar OUTPUT.meta.json records how the file was made.
Everything is written only when complete; rerunning gives the same bytes (docs/augment.md).
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.augment.labels import LABEL_FORMATS
    from lit.augment.write import FORMATS
    from lit.commands.options import (
        add_ace_arguments,
        add_input_arguments,
        add_pipeline_arguments,
    )

    parser.add_argument("input", nargs="?", metavar="INPUT",
                        help="NLI dataset (JSONL, CSV, TSV); omit with --from-contrast")
    parser.add_argument("-o", "--output", required=True, metavar="OUTPUT",
                        help="file (.jsonl, .csv, .parquet) or folder (datasets) to write")
    parser.add_argument("--from-contrast", metavar="FILE",
                        help="a `lit nli` or `lit contrast` output to read instead of running "
                        "the pipeline")
    parser.add_argument("--task", metavar="TASK",
                        help="INPUT is a dataset of this task (a built-in task or a profile "
                        "file, docs/tasks.md); with --from-contrast, the profile file of a "
                        "task that is not built in (fields other than the profile's: run "
                        "`lit contrast --column` first)")
    parser.add_argument("--format", dest="output_format", choices=FORMATS,
                        help="output format (default: from OUTPUT's name)")
    parser.add_argument("--label-format", choices=LABEL_FORMATS, default="auto",
                        help="labels as words or HF integers 0/1/2 (default: as the input)")
    parser.add_argument("--specs", action="append", metavar="LIST",
                        help="comma-separated pair specs to run, as for `lit nli` (default: "
                        "the paper's; with --balance, every spec whose label rules can "
                        "change a label)")
    parser.add_argument("--spec", action="append", metavar="SPEC",
                        help="one pair spec (repeatable; added after --specs)")
    parser.add_argument("--balance", action="store_true",
                        help="per source pair, one transformed pair for each other label")
    parser.add_argument("--max-per-source", type=int, metavar="K",
                        help="at most K transformed rows per source pair (0: only the "
                        "originals, the baseline's training set)")
    parser.add_argument("--no-originals", action="store_true", help="leave the originals out")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="seed for the choices of --balance and --max-per-source")
    f = parser.add_mutually_exclusive_group()
    f.add_argument("--filter-predictions", metavar="FILE",
                   help="keep a transformed pair only if this prediction file (id, spec, "
                   "prediction; as `lit evaluate` reads) agrees with its rule label")
    f.add_argument("--filter-model", metavar="MODEL",
                   help="the same with a Hugging Face sequence-classification model")
    parser.add_argument("--rejected", metavar="FILE",
                        help="JSONL of the pairs the filter dropped, with classifier_label "
                        "(default: OUTPUT.rejected.jsonl)")
    parser.add_argument("--report", nargs="?", const="-", metavar="JSON",
                        help="print label distribution and shortcut MI before/after "
                        "(parses with ACE); with JSON, also write it there for `lit report`")
    parser.add_argument("--overwrite", action="store_true", help="replace existing outputs")
    parser.add_argument("--label-rules", metavar="FILE",
                        help="label-rule file (default: LIT's, docs/labelrules.md)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N pairs")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    d = parser.add_argument_group("input columns")
    add_input_arguments(d, "--input-format")
    d.add_argument("--id-column", metavar="NAME",
                   help="record id field (default: pairID or id, else the line number)")
    add_pipeline_arguments(parser)
    add_ace_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from lit.augment.run import run_augment
    from lit.commands.contrast import split_text_specs
    from lit.config import RunConfig
    from lit.io.output import refuse_input_as_output, write_text_atomic
    from lit.commands.options import engine_from_args, pair_specs_from_args
    from lit.tasks import load_task

    specs = pair_specs_from_args(args, ())
    if args.task and not load_task(args.task).is_pair:  # single specs: "pass,neg,swap=ARG1,ARG3"
        specs = [s for text in args.specs or [] for s in split_text_specs(text)]
        specs += [s.strip() for s in args.spec or []]
    report_file = args.report if args.report not in (None, "-") else None
    if report_file:
        refuse_input_as_output(report_file, args.input, args.from_contrast)
    result = run_augment(
        args.input, args.output, from_contrast=args.from_contrast,
        specs=specs or None,
        balance=args.balance, max_per_source=args.max_per_source,
        originals=not args.no_originals, label_format=args.label_format,
        format=args.output_format, seed=args.seed, filter_model=args.filter_model,
        filter_predictions=args.filter_predictions, rejected=args.rejected,
        overwrite=args.overwrite, report=args.report is not None,
        engine=lambda: engine_from_args(args), config=RunConfig.from_args(args),
        label_rules=args.label_rules, limit=args.limit, progress=not args.no_progress,
        input_format=args.input_format, premise_column=args.premise_column,
        hypothesis_column=args.hypothesis_column, label_column=args.label_column,
        id_column=args.id_column, task=args.task,
    )
    print(result.format(), file=sys.stderr)
    if result.report is not None:
        from lit.augment.report import format_report  # loads lit.analyze: only when asked

        print(format_report(result.report))
        if report_file:
            write_text_atomic(report_file, json.dumps(result.report, indent=1) + "\n")
    return 0
