"""Transform sentences, or MRSs with --mrs, by a spec such as 'tense=fut+pass'.

With --mrs FILE (or - for stdin) no ACE is needed: each line is a SimpleMRS, and each gets one
JSON line per spec {input, status, reason, spec, mrs, output, verified, candidates, ...}
(output, verified, candidates and the ranking fields are null in this mode). Without --mrs the
sentences are parsed once, then transformed by each spec, generated, ranked and verified with
ACE. Exit 0 when every input got its records (failures are recorded with their reason), 2 on a
configuration or input error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from collections.abc import Iterator
from contextlib import nullcontext
from typing import TextIO

from lit.commands.options import add_ace_arguments, add_pipeline_arguments, engine_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "sentences", nargs="*", metavar="SENTENCE", help="sentences to transform ('-' reads stdin)"
    )
    parser.add_argument(
        "--spec", required=True, action="append", metavar="SPEC",
        help="e.g. 'tense=fut+pass', 'modal=may', 'i'; repeat for several specs (each sentence "
        "is parsed once and gets one record per spec, in the order given)",
    )
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


def transform_mrs_lines(lines, engine, specs, out: TextIO) -> int:
    """Write one record per input line and spec, blank lines included, each with its input
    line; returns how many were not ok."""
    from delphin.codecs import simplemrs

    from lit.io.readers import text_problem
    from lit.pipeline.records import SideResult, transform_record
    from lit.status import Status

    failures = 0
    for number, line in enumerate(lines, 1):
        text = line.removesuffix("\n").removesuffix("\r").strip()
        problem = "empty line" if not text else text_problem(text)
        source = None
        if problem:
            text = text.encode("utf-8", "replace").decode("utf-8")
            problem = f"line {number}: {problem}"
        else:
            try:
                source = simplemrs.decode(text)
            except Exception as exc:  # PyDelphin raises several types for bad SimpleMRS
                problem = f"line {number}: not a SimpleMRS: {' '.join(str(exc).split())}"
        for spec in specs:
            if problem:
                side = SideResult(Status.INVALID_INPUT, problem)
            else:
                outcome = engine.apply(source, spec)
                mrs = simplemrs.encode(outcome.mrs) if outcome.mrs is not None else None
                side = SideResult(outcome.status, outcome.reason, mrs)
            record = {"input": text, **transform_record(str(spec), side)}
            failures += record["status"] != "ok"
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return failures


def _sentences(args: argparse.Namespace) -> Iterator[str]:
    from lit.io.readers import read_sentences

    given = list(getattr(args, "sentences", None) or [])
    if not given or given == ["-"]:
        yield from read_sentences("-")
        return
    for s in given:
        if s == "-":
            yield from read_sentences("-")
        else:
            yield s


def transform_sentences(args: argparse.Namespace) -> int:
    """`lit transform --spec SPEC [--spec SPEC ...] [SENTENCE ... | -]`: one `lit transform`
    record (docs/design.md §5) per sentence and spec, in input order, on stdout (or -o FILE).
    Exit 0 when every sentence got its records, whatever their status (each says why)."""
    from lit.errors import InputError

    specs = getattr(args, "spec", None)
    if isinstance(specs, str):
        specs = [specs]
    if not specs:
        raise InputError("--spec is required, e.g. --spec 'tense=fut+pass'")
    from lit.io.output import atomic_text, refuse_input_as_output
    from lit.io.readers import printable

    output = getattr(args, "output", None)
    if output and (not args.sentences or "-" in args.sentences):
        refuse_input_as_output(output, "-")
    given: deque[str] = deque()  # sentences sent, so each record can carry its input

    def sentences() -> Iterator[str]:
        for sentence in _sentences(args):
            given.append(sentence)
            yield sentence

    from lit.commands.runs import write_run_meta
    from lit.io.meta import now
    from lit.provenance import Toolchain

    started = now()
    with engine_from_args(args) as engine, (
        atomic_text(output) if output else nullcontext(sys.stdout)
    ) as out:
        checked = [engine.check_spec(s) for s in specs]
        for k, record in enumerate(engine.transform_all(sentences(), checked)):
            text = given[0] if k % len(checked) < len(checked) - 1 else given.popleft()
            record = {"input": printable(text), **record}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
    if output:
        write_run_meta("transform", output, started, args, tools=Toolchain.of(engine),
                       specs=specs)
    return 0


def run(args: argparse.Namespace) -> int:
    if not args.mrs:
        return transform_sentences(args)
    from lit.io.output import atomic_text, refuse_input_as_output
    from lit.io.readers import open_text
    from lit.rules.engine import RuleEngine

    if args.output:
        refuse_input_as_output(args.output, args.mrs)
    from lit.commands.runs import write_run_meta
    from lit.io.meta import now

    started = now()
    engine = RuleEngine.load(grammar_version(args), args.rules)
    specs = [engine.check(s) for s in args.spec]
    with open_text(args.mrs) as source:
        if args.output:
            with atomic_text(args.output) as out:
                transform_mrs_lines(source, engine, specs, out)
        else:
            transform_mrs_lines(source, engine, specs, sys.stdout)
    if args.output:
        write_run_meta("transform", args.output, started, args, specs=args.spec,
                       input=None if args.mrs == "-" else args.mrs)
    return 0
