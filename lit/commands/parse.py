"""Parse sentences with ACE and the ERG and print their MRSs.

Sentences come from the arguments, from a file (-i FILE, one per line) or from standard input.
The default output is SimpleMRS: each reading on one line, a blank line between inputs, and a
`# status: reason` comment line for an input that did not parse. --format json prints one JSON
object per input instead: input, status, reason, readings [{mrs, derivation}], ace_seconds,
wall_seconds. Every input gets output, in input order. Exit status: 0 when every input got its
answer, parsed or not (each failure says why), 2 if ACE or the grammar could not be found.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.commands.options import add_ace_arguments, add_backend_arguments

    parser.add_argument("sentences", nargs="*", metavar="SENTENCE", help="sentences to parse")
    parser.add_argument(
        "-i", "--input", metavar="FILE", help="read sentences from FILE, one per line ('-': stdin)"
    )
    parser.add_argument("-n", type=int, default=1, metavar="N", help="readings per sentence (1)")
    parser.add_argument(
        "--format", choices=("mrs", "json"), default="mrs", help="output format (default mrs)"
    )
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write here (whole or not at all) instead of stdout, with the run's "
                        "metadata in FILE.meta.json")
    add_ace_arguments(parser)
    add_backend_arguments(parser)


def _lines(stream) -> Iterator[str]:
    for line in stream:
        yield line.rstrip("\r\n")


def _sentences(args: argparse.Namespace) -> Iterator[str]:
    from lit.errors import InputError
    from lit.io.readers import open_text

    if args.sentences and args.input:
        raise InputError("give sentences as arguments or with --input, not both")
    if args.sentences:
        yield from args.sentences
    elif args.input and args.input != "-":
        with open_text(Path(args.input)) as f:
            yield from _lines(f)
    else:
        with open_text("-") as f:
            yield from _lines(f)


@contextmanager
def _parser(args: argparse.Namespace) -> Iterator[Callable[[Iterable[str], int], Iterator]]:
    """`parse(sentences, n)`: ACE here, or on Ray actors with --backend ray."""
    from lit.ace.options import service_from_args

    if getattr(args, "backend", "local") == "ray":
        from lit.backend.ray_backend import parse_backend

        backend = parse_backend(args)
        try:
            yield backend.parse
        finally:
            backend.close()
        return
    with service_from_args(args) as service:
        yield lambda sentences, n: service.parse(sentences, n=n)


def run(args: argparse.Namespace) -> int:
    import json

    from contextlib import nullcontext

    from lit.ace.config import resolve_config
    from lit.commands.runs import write_run_meta
    from lit.errors import InputError
    from lit.io.meta import now
    from lit.io.output import atomic_text, refuse_input_as_output
    from lit.io.readers import printable
    from lit.provenance import Toolchain
    from lit.status import Status

    if args.n < 1:
        raise InputError("-n must be at least 1")
    if args.output:
        refuse_input_as_output(args.output, args.input or "-")
    started = now()
    with _parser(args) as parse, (
        atomic_text(args.output) if args.output else nullcontext(sys.stdout)
    ) as out:
        for i, result in enumerate(parse(_sentences(args), args.n)):
            if args.format == "json":
                record = {
                    "input": printable(result.input),
                    "status": str(result.status),
                    "reason": result.reason,
                    "readings": [
                        {"mrs": r.mrs, "derivation": r.derivation} for r in result.readings
                    ],
                    "ace_seconds": result.ace_seconds,
                    "wall_seconds": round(result.wall_seconds, 6),
                }
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            else:
                if i:
                    out.write("\n")
                if result.status is not Status.OK:
                    one_line = " ".join(printable(str(result.input)).split())
                    out.write(f"# {result.status}: {result.reason} [input: {one_line}]\n")
                for reading in result.readings:
                    out.write(reading.mrs + "\n")
            out.flush()
    if args.output:
        config = resolve_config(args.ace, args.grammar, args.grammar_version)
        tools = Toolchain(ace=config.ace, grammar=config.grammar,
                          grammar_version=config.grammar_version)
        write_run_meta("parse", args.output, started, args, tools=tools,
                       input=args.input if args.input not in (None, "-") else None)
    return 0
