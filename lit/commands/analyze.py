"""Analyse an NLI dataset through the grammar: parse coverage, tense/aspect/voice/modality/
negation/cleft/question rates per role and gold label, premise/hypothesis tense pairs, and
label-shortcut candidates (MRS features ranked by mutual information with the label).

DATASET is SNLI/MNLI-style JSONL, CSV or TSV (optionally gzipped).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lit.config import DEFAULT_GRAMMAR_VERSION


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.ace.options import add_ace_arguments

    parser.add_argument("dataset", type=Path, help="NLI pairs: .jsonl, .csv or .tsv (or .gz)")
    parser.add_argument("--format", choices=("jsonl", "csv", "tsv"), help="default: by file name")
    parser.add_argument("--premise-column", default="sentence1")
    parser.add_argument("--hypothesis-column", default="sentence2")
    parser.add_argument("--label-column", default="gold_label")
    parser.add_argument("--top", type=int, default=25, help="shortcut candidates to list")
    parser.add_argument("--min-count", type=int, default=3,
                        help="pairs a feature needs to be a shortcut candidate")
    parser.add_argument("-o", "--output", type=Path, help="write the analysis as JSON here")
    add_ace_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from lit.ace.options import service_from_args
    from lit.analyze import analyze, parse_sentences
    from lit.analyze.analysis import format_summary
    from lit.io.output import refuse_input_as_output, write_text_atomic
    from lit.io.readers import read_nli

    def items():
        return read_nli(args.dataset, args.format, premise=args.premise_column,
                        hypothesis=args.hypothesis_column, label=args.label_column)

    if args.output:
        refuse_input_as_output(args.output, args.dataset)
    sentences = (s for it in items() if not it.error for s in (it.premise, it.hypothesis))
    with service_from_args(args) as service:
        parses = parse_sentences(service, sentences, progress=sys.stderr.isatty())
        version = service.config.grammar_version or DEFAULT_GRAMMAR_VERSION
    result = analyze(items(), parses, version, top=args.top, min_count=args.min_count)
    result = {"input": str(args.dataset), **result}
    print(format_summary(result))
    if args.output:
        write_text_atomic(args.output, json.dumps(result, indent=1) + "\n")
        print(f"analysis written to {args.output}", file=sys.stderr)
    return 0
