"""Transform sentences, or MRSs with --mrs, by a spec such as 'tense=fut+pass'.

With --mrs FILE (or - for stdin) no ACE is needed: each line is a SimpleMRS, and each gets one
JSON line {status, reason, spec, mrs, output, verified, candidates} (output, verified and
candidates are null in this mode). Without --mrs the sentences are parsed, transformed,
generated, ranked and verified with ACE.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from lit.ace.options import add_ace_arguments
from lit.pipeline.cli import add_pipeline_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "sentences", nargs="*", metavar="SENTENCE", help="sentences to transform ('-' reads stdin)"
    )
    parser.add_argument("--spec", required=True, help="e.g. 'tense=fut+pass', 'modal=may', 'i'")
    parser.add_argument(
        "--mrs", metavar="FILE", help="transform SimpleMRS lines from FILE ('-' = stdin); no ACE"
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write JSON lines here (default stdout)"
    )
    parser.add_argument(
        "--rules", action="append", default=[], metavar="DIR",
        help="extra rule files or directories (repeatable); see docs/rules.md",
    )
    add_ace_arguments(parser)
    add_pipeline_arguments(parser, rules=False)


def grammar_version(args: argparse.Namespace) -> str:
    """--grammar-version, else the configured grammar's version if known, else 2025."""
    if getattr(args, "grammar_version", None):
        return str(args.grammar_version)
    from lit.ace.config import resolve_config
    from lit.errors import ConfigurationError

    try:
        config = resolve_config(getattr(args, "ace", None), getattr(args, "grammar", None))
    except ConfigurationError:
        return "2025"
    return config.grammar_version or "2025"


def transform_mrs_lines(lines, engine, spec, out: TextIO) -> int:
    """Write one record per input line, blank ones included, each with its input line;
    returns how many were not ok."""
    from delphin.codecs import simplemrs

    from lit.io.readers import text_problem
    from lit.status import Status

    failures = 0
    for number, line in enumerate(lines, 1):
        text = line.removesuffix("\n").removesuffix("\r").strip()
        record = {"input": text, "status": None, "reason": None, "spec": str(spec),
                  "mrs": None, "output": None, "verified": None, "candidates": None}
        problem = "empty line" if not text else text_problem(text)
        if problem:
            record.update(input=text.encode("utf-8", "replace").decode("utf-8"),
                          status=str(Status.INVALID_INPUT), reason=f"line {number}: {problem}")
            failures += 1
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            continue
        try:
            source = simplemrs.decode(text)
        except Exception as exc:  # PyDelphin raises several types for bad SimpleMRS
            record.update(status=str(Status.INVALID_INPUT),
                          reason=f"line {number}: not a SimpleMRS: {' '.join(str(exc).split())}")
        else:
            outcome = engine.apply(source, spec)
            record.update(status=str(outcome.status), reason=outcome.reason)
            if outcome.mrs is not None:
                record["mrs"] = simplemrs.encode(outcome.mrs)
        failures += record["status"] != "ok"
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return failures


def run(args: argparse.Namespace) -> int:
    if not args.mrs:
        from lit.pipeline.cli import transform_sentences

        return transform_sentences(args)
    from lit.io.output import atomic_text, refuse_input_as_output
    from lit.io.readers import open_text
    from lit.rules.engine import RuleEngine

    if args.output:
        refuse_input_as_output(args.output, args.mrs)
    engine = RuleEngine.load(grammar_version(args), args.rules)
    spec = engine.check(args.spec)
    with open_text(args.mrs) as source:
        if args.output:
            with atomic_text(args.output) as out:
                failures = transform_mrs_lines(source, engine, spec, out)
        else:
            failures = transform_mrs_lines(source, engine, spec, sys.stdout)
    return 1 if failures else 0
