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
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="ray: run the checks on every node of a Ray cluster and say "
                        "which node lacks what (docs/scale.md)")
    parser.add_argument("--ray-address", metavar="auto|HOST:PORT",
                        help="with --backend ray: the cluster (default: RAY_ADDRESS, else a "
                        "new local Ray)")


def run(args: argparse.Namespace) -> int:
    from lit.ace.doctor import diagnose

    if args.backend == "ray":
        from lit.backend.doctor import doctor_nodes

        return doctor_nodes(args, report)
    return 1 if report(diagnose(args.ace, args.grammar, args.grammar_version,
                                smoke=not args.no_parse)) else 0


def report(checks: list) -> int:
    """Print *checks* with what to do about each problem; how many failed."""
    width = max(len(c.name) for c in checks)
    for c in checks:
        mark = {True: "ok     ", False: "MISSING" if c.detail == "not found" else "PROBLEM",
                None: "       "}[c.ok]
        print(f"{mark} {c.name:<{width}}  {c.detail}")
        if c.fix:
            print(f"        {'':<{width}}  what to do: {c.fix}")
    failed = [c for c in checks if c.ok is False]
    tried = any(c.name == "parse and generate" and c.ok for c in checks)
    print(f"{len(failed)} problem(s) found." if failed else
          "All good: LIT can parse and generate." if tried else
          "No problem found (parsing and generating were not tried).")
    return len(failed)
