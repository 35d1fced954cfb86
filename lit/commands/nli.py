"""Turn an NLI dataset into labelled contrast pairs: transform both sentences, label by rule.

INPUT is SNLI/MNLI JSONL (sentence1, sentence2, gold_label; .gz accepted), CSV or TSV (name the
columns with --premise-column etc.), or '-' for JSONL on stdin. Each --specs item is a pair spec
"premise;hypothesis" in the spec syntax of `lit transform` ("p;f +i" = "p+i;f+i"); the default
is the LIT paper's set. OUTPUT gets exactly one JSON line per input record, in input order:
{id, input, status, reason, transforms: [{spec, status, reason, premise, hypothesis, label,
label_rule, label_rationale}], timings} (docs/pipeline.md). --resume appends to OUTPUT, skipping
ids already written (a half-written last line from a killed run is cut off first); an existing
OUTPUT is otherwise only replaced with --overwrite. A progress
bar and, at the end, a summary per spec go to stderr. Exit 0 when the run completes (failed
pairs are recorded with their reason), 2 on a configuration or input error.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.ace.options import add_ace_arguments
    from lit.pipeline.cli import add_pipeline_arguments
    from lit.pipeline.defaults import PAPER_SPECS

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
    import time
    from collections import Counter
    from itertools import islice
    from pathlib import Path

    from tqdm import tqdm

    from lit.errors import InputError
    from lit.io import RecordWriter, count_records, iter_jsonl, read_nli, written_ids
    from lit.pipeline.cli import engine_from_args
    from lit.pipeline.summary import Summary

    output = Path(args.output)
    if str(args.input) != "-" and output.resolve() == Path(args.input).resolve():
        raise InputError(f"{output}: the output would overwrite the input")
    if output.exists() and output.stat().st_size and not (args.resume or args.overwrite):
        raise InputError(
            f"{output} exists: pass --resume to continue it or --overwrite to replace it"
        )
    if args.limit is not None and args.limit < 0:
        raise InputError("--limit must be at least 0")
    columns = dict(premise=args.premise_column, hypothesis=args.hypothesis_column,
                   label=args.label_column, id_field=args.id_column)
    items = read_nli(args.input, args.format, **columns)
    total = count_records(args.input, args.format)
    if args.limit is not None:
        items = islice(items, args.limit)
        total = args.limit if total is None else min(total, args.limit)
    done = written_ids(output) if args.resume else Counter()
    resumed = sum(done.values())

    def todo():
        for item in items:
            if done[item.id] > 0:  # already written by an earlier run
                done[item.id] -= 1
                bar.update(1)
                continue
            yield item

    start = time.perf_counter()
    written = 0
    with engine_from_args(args) as engine:
        specs = [s.strip() for s in args.specs]
        for s in specs:
            engine.check_pair(s)
        with RecordWriter(output, append=args.resume) as writer, tqdm(
            total=total, unit="pair", file=sys.stderr, disable=args.no_progress or None,
            dynamic_ncols=True, desc="lit nli",
        ) as bar:
            batch_left = 0
            for record in engine.nli(todo(), specs):
                writer.write(record)
                written += 1
                bar.update(1)
                batch_left = (batch_left or engine.batch_size) - 1
                if batch_left == 0:
                    writer.flush()
            writer.flush()
    elapsed = time.perf_counter() - start
    summary = Summary()
    for _, record in iter_jsonl(output):
        summary.add(record)
    print(
        f"lit nli: wrote {written} records to {output} in {elapsed:.1f} s "
        f"({written / max(elapsed, 1e-9):.1f} pairs/s)"
        + (f"; {resumed} were already there" if resumed else ""),
        file=sys.stderr,
    )
    print(summary.format(), file=sys.stderr)
    return 0

