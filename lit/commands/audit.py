"""Audit counterfactual data: name each edit from the grammar, predict its label, flag the doubtful.

INPUT holds edited pairs (or texts) with their claimed labels, in any format `lit contrast`
reads and in the task's fields (NLI: sentence1/premise, sentence2/hypothesis,
gold_label/label). Their originals come from --originals FILE (aligned by order, k edited rows
per original, or by a shared text; --align) or from the same records, in the same fields with
the prefix original_ (original_sentence1, ..., original_gold_label). Kaushik et al.'s NLI data
is read as it is: `lit audit NLI/revised_hypothesis/dev.tsv --originals NLI/original/dev.tsv`.
Each edited side is diffed against its original (lit diff: the readings that make the smallest
MRS diff), the named edits become a pair spec or a natural-logic edit, and the task's label
rules predict the label, with the rule and its rationale, or no label and why. OUTPUT gets one
JSON line per edited row, in input order: {id, original_id, task, input, original, edited,
original_label, claimed_label, edited_sides, status, reason, edits, kinds, named, size,
prediction: {label, rule, rationale, reason, spec}, agrees}; OUTPUT.summary.json the summary
(edits by kind, share named, agreement with 95% Wilson intervals per edit kind, side and rule)
and OUTPUT.review.jsonl the rows whose claimed label contradicts the prediction, as items for
`lit judge serve` (docs/audit.md). --resume appends, skipping ids OUTPUT holds. Exit 0 when the
run completes, 1 when no row could be audited, 2 on a configuration or input error.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.commands.options import add_ace_arguments
    from lit.audit.records import DEFAULT_READINGS
    from lit.audit.rows import ALIGNMENTS, ORIGINAL_PREFIX

    parser.add_argument("input", metavar="INPUT",
                        help="the edited pairs (or texts) with their claimed labels: JSONL, "
                        "CSV, TSV, Parquet (.gz accepted), a `datasets` folder or hf:NAME:SPLIT")
    parser.add_argument("-o", "--output", required=True, metavar="OUTPUT",
                        help="JSONL file to write (one record per edited row)")
    parser.add_argument("--originals", metavar="FILE",
                        help="the original pairs the rows of INPUT were made from (default: "
                        f"in INPUT's records, fields prefixed {ORIGINAL_PREFIX!r})")
    parser.add_argument("--align", choices=ALIGNMENTS, default="auto",
                        help="how INPUT's rows find their original in --originals: by order "
                        "(k rows per original), by a shared text (match), or order when the "
                        "counts allow it, else match (auto, the default)")
    parser.add_argument("--original-prefix", default=ORIGINAL_PREFIX, metavar="PREFIX",
                        help="the prefix of the original's fields in a one-file INPUT "
                        "(default %(default)s)")
    parser.add_argument("--task", default="nli", metavar="TASK",
                        help="a built-in task (nli, sst2, qqp, mrpc, rte) or a task profile "
                        "file (.toml; docs/tasks.md); default nli")
    parser.add_argument("--label-rules", metavar="FILE",
                        help="label-rule file (default: the task's; docs/labelrules.md)")
    parser.add_argument("--readings", type=int, default=DEFAULT_READINGS, metavar="N",
                        help="readings of each sentence the diff chooses from (default "
                        "%(default)s)")
    parser.add_argument("--batch", type=int, metavar="N",
                        help="rows diffed together (default 8 per ACE worker)")
    parser.add_argument("--resume", action="store_true",
                        help="append to OUTPUT, skipping row ids it already holds")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an existing OUTPUT (else an existing OUTPUT is an error)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N rows")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    d = parser.add_argument_group("input fields")
    d.add_argument("--format", metavar="FORMAT", help="INPUT's format (default: from its name)")
    d.add_argument("--originals-format", metavar="FORMAT",
                   help="--originals' format (default: from its name)")
    d.add_argument("--column", action="append", metavar="SIDE=FIELD",
                   help="the field that holds a side of the task (e.g. premise=text_a; "
                   "repeatable; default: the profile's fields)")
    d.add_argument("--label-column", metavar="FIELD", help="the label field")
    d.add_argument("--id-column", metavar="FIELD", help="the row id field")
    add_ace_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from itertools import islice

    from lit.ace.options import service_from_args
    from lit.audit.rows import read_rows
    from lit.audit.run import review_path, run_audit, summary_path
    from lit.audit.summary import format_summary
    from lit.commands.contrast import columns_from_args
    from lit.commands.runs import write_run_meta
    from lit.errors import InputError
    from lit.io.meta import now
    from lit.io.output import refuse_input_as_output
    from lit.io.readers import count_records
    from lit.tasks import load_task

    for flag, value in (("--limit", args.limit), ("--readings", args.readings),
                        ("--batch", args.batch)):
        if value is not None and value < (0 if flag == "--limit" else 1):
            raise InputError(f"{flag} must be at least {0 if flag == '--limit' else 1}")
    refuse_input_as_output(args.output, args.input, args.originals)
    profile = load_task(args.task)
    rules = profile.load_label_rules(args.label_rules)
    rows = read_rows(args.input, profile, originals=args.originals, fmt=args.format,
                     originals_format=args.originals_format, align=args.align,
                     prefix=args.original_prefix, columns=columns_from_args(args),
                     label=args.label_column, id_field=args.id_column)
    total = count_records(args.input, args.format)
    if args.limit is not None:
        rows = islice(rows, args.limit)
        total = args.limit if total is None else min(total, args.limit)
    started = now()
    service = service_from_args(args)
    try:
        result = run_audit(rows, args.output, service, profile, rules, resume=args.resume,
                           overwrite=args.overwrite, total=total,
                           progress=not args.no_progress, readings=args.readings,
                           batch=args.batch)
    finally:
        service.close()
    print(f"lit audit: wrote {result.written} records to {result.output} in "
          f"{result.seconds:.1f} s" + (f"; {result.resumed} were already there"
                                        if result.resumed else ""), file=sys.stderr)
    print(format_summary(result.summary, result.records), file=sys.stderr)
    print(f"lit audit: summary saved to {summary_path(result.output)}; {result.review} "
          f"row(s) to review in {review_path(result.output)} (`lit judge serve`)",
          file=sys.stderr)
    write_run_meta("audit", args.output, started, args,
                   input=None if args.input == "-" else args.input,
                   **({"originals": args.originals} if args.originals else {}))
    if result.summary["audited"] == 0:
        print(f"lit audit: error: no row of {args.input} could be audited; the reasons are in "
              "OUTPUT's records", file=sys.stderr)
        return 1
    return 0
