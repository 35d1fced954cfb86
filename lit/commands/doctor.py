"""Report which ACE and grammar LIT finds, whether they work, and what to do if not.

Shows the config file and cache in use, the ACE executable (and `ace -V`'s version), the
grammar image (ERG version, size, integrity) and where each was found, then parses one
sentence as a smoke test. Exit status 0 if everything works, 1 otherwise.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ace", metavar="PATH", help="check this ace executable")
    parser.add_argument("--grammar", metavar="PATH", help="check this grammar image")
    parser.add_argument("--grammar-version", metavar="V", help="ERG release of --grammar")
    parser.add_argument("--no-parse", action="store_true", help="skip the smoke-test parse")


def run(args: argparse.Namespace) -> int:
    from lit.ace.doctor import diagnose

    checks = diagnose(args.ace, args.grammar, args.grammar_version, smoke=not args.no_parse)
    width = max(len(c.name) for c in checks)
    for c in checks:
        mark = {True: "ok     ", False: "MISSING" if c.detail == "not found" else "PROBLEM",
                None: "       "}[c.ok]
        print(f"{mark} {c.name:<{width}}  {c.detail}")
        if c.fix:
            print(f"        {'':<{width}}  what to do: {c.fix}")
    failed = [c for c in checks if c.ok is False]
    print("All good: LIT can parse and generate." if not failed
          else f"{len(failed)} problem(s) found.")
    return 1 if failed else 0
