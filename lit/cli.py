"""The `lit` command: one subcommand per module in `lit.commands`."""

from __future__ import annotations

import argparse
import importlib
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

from lit import __version__
from lit.errors import LitError

#: Subcommand name -> module in lit.commands. Each module has a docstring (its help),
#: ``add_arguments(parser)`` and ``run(args) -> int``; heavy imports stay inside ``run``.
#: (lit.commands.options and lit.commands.runs hold what the commands share.)
COMMANDS: dict[str, str] = {
    "demo": "demo",
    "setup": "setup",
    "doctor": "doctor",
    "cache": "cache",
    "parse": "parse",
    "transform": "transform",
    "diff": "diff",
    "rules": "rules",
    "nli": "nli",
    "contrast": "contrast",
    "augment": "augment",
    "evaluate": "evaluate",
    "analyze": "analyze",
    "report": "report",
    "judge": "judge",
    "audit": "audit",
}


def first_sentence(doc: str) -> str | None:
    """The whole first sentence of a command's docstring (which may span lines), for the
    one-line summary `lit --help` lists."""
    text = " ".join(doc.split())
    return re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0] if text else None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lit", description="Grammar-based transformations of English sentences and NLI data."
    )
    parser.add_argument("--version", action="version", version=f"lit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"lit.commands.{module_name}")
        doc = (module.__doc__ or "").strip()
        p = sub.add_parser(name, help=first_sentence(doc), description=doc,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived; ``signum`` gives the exit status 128 + signum."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Kill ACE at once (a hung item must not hold the run up until its timeout), then unwind
    like Ctrl-C: outputs are closed with every finished record, ready for --resume."""
    service = sys.modules.get("lit.ace.service")  # never import inside a signal handler
    if service is not None:
        service.stop_all()
    raise Interrupted(signum)


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """SIGINT and SIGTERM both stop the command through `_interrupt` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _refuse_extra(parser: argparse.ArgumentParser, args: argparse.Namespace,
                  extra: list[str]) -> None:
    """argparse's "unrecognized arguments" error, from the subcommand, with what to do when
    the extra words are pair specs (``--specs`` takes one comma-separated value)."""
    sub = parser._subparsers._group_actions[0].choices.get(args.command) if args.command else None
    hint = ""
    if any(";" in word for word in extra):
        hint = ("; give several pair specs as one comma-separated value (--specs 'f;p,p;f') "
                "or repeat --spec ('--spec f;p --spec p;f')")
    (sub or parser).error(f"unrecognized arguments: {' '.join(extra)}{hint}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        _refuse_extra(parser, args, extra)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        with _signals_interrupt():
            return int(args._run(args) or 0)
    except LitError as exc:
        print(f"lit {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print(f"lit {args.command}: interrupted", file=sys.stderr)
        return 128 + (exc.signum if isinstance(exc, Interrupted) else signal.SIGINT)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
