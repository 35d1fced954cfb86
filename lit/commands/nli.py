"""Turn an NLI dataset into labelled contrast pairs: transform both sentences, label by rule.

INPUT is SNLI/MNLI JSONL (sentence1, sentence2, gold_label; .gz accepted), CSV or TSV (name the
columns with --premise-column etc.), or '-' for JSONL on stdin. Each --specs item is a pair spec
"premise;hypothesis" in the spec syntax of `lit transform` ("p;f +i" = "p+i;f+i"); the default
is the LIT paper's set. OUTPUT gets exactly one JSON line per input record, in input order:
{id, input, status, reason, transforms: [{spec, status, reason, premise, hypothesis, label,
label_rule, label_rationale}], timings} (docs/pipeline.md); the run itself is
lit.run_nli, so Python users get the same behaviour. --resume appends to OUTPUT, skipping
ids already written (a half-written last line from a killed run is cut off first); an existing
OUTPUT is otherwise only replaced with --overwrite. A progress
bar and, at the end, a summary per spec go to stderr. Exit 0 when the run completes (failed
pairs are recorded with their reason), 2 on a configuration or input error.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.ace.options import add_ace_arguments
    from lit.config import PAPER_SPECS
    from lit.pipeline.cli import add_pipeline_arguments

    parser.add_argument("input", metavar="INPUT", help="dataset file (JSONL, CSV, TSV) or '-'")
    parser.add_argument("-o", "--output", required=True, metavar="OUTPUT",
                        help="JSONL file to write (one record per input record)")
    parser.add_argument("--specs", nargs="+", default=list(PAPER_SPECS), metavar="SPEC",
                        help="pair specs, e.g. 'f;p' 'p;f' 'i;i' 'pa;pa' 'm;o' 'p;f +i' "
                             "(default: the paper's set)")
    parser.add_argument("--resume", action="store_true",
                        help="append to OUTPUT, skipping input ids it already holds")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an existing OUTPUT (else an existing OUTPUT is an error)")
    parser.add_argument("--label-rules", metavar="FILE",
                        help="label-rule file (default: LIT's, docs/labelrules.md)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N input records")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    d = parser.add_argument_group("input columns")
    d.add_argument("--format", choices=("jsonl", "csv", "tsv"),
                   help="input format (default: from the file name)")
    d.add_argument("--premise-column", default="sentence1", metavar="NAME")
    d.add_argument("--hypothesis-column", default="sentence2", metavar="NAME")
    d.add_argument("--label-column", default="gold_label", metavar="NAME")
    d.add_argument("--id-column", metavar="NAME",
                   help="record id field (default: pairID or id, else the line number)")
    add_pipeline_arguments(parser)
    add_ace_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import sys

    from lit.pipeline.cli import engine_from_args
    from lit.pipeline.run import run_nli

    result = run_nli(
        args.input, args.output, args.specs, resume=args.resume, overwrite=args.overwrite,
        limit=args.limit, progress=not args.no_progress, engine=lambda: engine_from_args(args),
        format=args.format, premise_column=args.premise_column,
        hypothesis_column=args.hypothesis_column, label_column=args.label_column,
        id_column=args.id_column,
    )
    print(result.format(), file=sys.stderr)
    return 0
