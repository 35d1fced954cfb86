"""The `lit` command: one subcommand per module in `lit.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from lit import __version__
from lit.errors import LitError

#: Subcommand name -> module in lit.commands. Each module has a docstring (its help),
#: ``add_arguments(parser)`` and ``run(args) -> int``; heavy imports stay inside ``run``.
COMMANDS: dict[str, str] = {
    "setup": "setup",
    "doctor": "doctor",
    "parse": "parse",
    "transform": "transform",
    "rules": "rules",
    "nli": "nli",
    "evaluate": "evaluate",
    "analyze": "analyze",
    "report": "report",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lit", description="Grammar-based transformations of English sentences and NLI data."
    )
    parser.add_argument("--version", action="version", version=f"lit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"lit.commands.{module_name}")
        doc = (module.__doc__ or "").strip()
        p = sub.add_parser(name, help=doc.splitlines()[0] if doc else None, description=doc)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except LitError as exc:
        print(f"lit {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"lit {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
