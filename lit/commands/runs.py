"""What every command does around its run: the options it ran with, its ``OUTPUT.meta.json``
and, for `lit nli` and `lit contrast`, the closing summary."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lit.io.meta import write_meta
from lit.provenance import Toolchain, build_meta

if TYPE_CHECKING:
    from lit.pipeline.engine import Engine


def command_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options a command ran with, JSON-able, for its run metadata (lit.provenance)."""
    return {k: v if isinstance(v, (str, int, float, bool, type(None), list)) else str(v)
            for k, v in sorted(vars(args).items()) if not k.startswith("_")}


def write_run_meta(command: str, output: str, started: str, args: argparse.Namespace, *,
                   tools: Toolchain = Toolchain(), specs: Sequence[str] = (),
                   **inputs: Any) -> None:
    """Write ``OUTPUT.meta.json`` (lit.provenance) for a command run that wrote *output*:
    versions and hashes of LIT, ACE, the grammar and the label rules, scorer, specs, options,
    start and end time; *tools* are what the run used (`Toolchain.of(engine)`); *inputs* are
    files to hash (name=path)."""
    write_meta(output, build_meta(command, started=started, tools=tools, specs=list(specs),
                                  inputs=inputs, options=command_options(args)))


def finish_run(command: str, args: argparse.Namespace, result: Any, engine: Engine | None,
               specs: Sequence[str], started: str, fields: str) -> int:
    """What `lit nli` and `lit contrast` do once their run (a lit.RunResult) is over: print
    it, write ``OUTPUT.meta.json`` and ``OUTPUT.summary.json``; exit status 1, saying why,
    when no input record could be used (*fields*: the options that name the input's fields),
    else 0."""
    from lit.io.output import write_text_atomic
    from lit.pipeline.summary import summary_path

    print(result.format(), file=sys.stderr)
    tools = Toolchain.of(engine) if engine is not None else Toolchain()
    write_run_meta(command, args.output, started, args, tools=tools, specs=specs,
                   input=None if args.input == "-" else args.input)
    saved = summary_path(args.output)
    write_text_atomic(saved, json.dumps(result.summary.to_json(), indent=1) + "\n")
    print(f"lit {command}: summary saved to {saved}", file=sys.stderr)
    cache = engine.service.parse_cache if engine is not None else None
    if cache is not None and sum(cache.served("parses")):  # (a Ray run's actors keep their own)
        (hits, misses), (made, new) = cache.served("parses"), cache.served("generations")
        print(f"lit {command}: ACE cache {cache.path}: {hits} of {hits + misses} parses and "
              f"{made} of {made + new} generations read from it (`lit cache`)", file=sys.stderr)
    if not result.summary.nothing_usable:
        return 0
    why = ("every one is invalid_input; the reasons are in the summary above"
           if result.summary.records else "it holds no records")
    print(f"lit {command}: error: no record of {args.input} could be used ({why}); check the "
          f"field names ({fields}) and --format", file=sys.stderr)
    return 1
