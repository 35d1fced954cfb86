"""List the installed transformation modules, check a rule file, or try one on a treebank.

Without arguments: each module with its paper code, values, grammar versions and examples.
'lit rules check FILE...' compiles rule files and reports the first error as file:line:column.
'lit rules try FILE [SPEC]' applies a module (each of its values, or SPEC) to the gold ERG 2025
MRSs or --on SOURCE and counts where it applies and why it refuses; --diff shows what it does
to each MRS, --html draws it, --against OLD lists what changed since an older version, --watch
runs again on every save (docs/rules-tutorial.md).
"""

from __future__ import annotations

import argparse
import sys

from lit.config import DEFAULT_GRAMMAR_VERSION


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action", nargs="?", choices=["list", "check", "try"], default="list",
        help="list (default), check FILE... or try FILE [SPEC]",
    )
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="rule files to check; for try, the module file and a SPEC")
    parser.add_argument(
        "--grammar-version", default=DEFAULT_GRAMMAR_VERSION, metavar="V",
        help="list the modules for this ERG release: 2025 (default), 2018, 1214",
    )
    parser.add_argument(
        "--rules", action="append", default=[], metavar="DIR",
        help="extra rule files or directories (repeatable)",
    )
    add_try_arguments(parser)


def add_try_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `lit rules try` (ACE's only for sentences and --realize)."""
    from lit.rank import SCORERS

    g = parser.add_argument_group("lit rules try FILE [SPEC]")
    g.add_argument("--on", metavar="SOURCE", default="gold",
                   help="inputs: 'gold' (default: the 10,472 gold ERG 2025 MRSs shipped with "
                   "LIT, no ACE needed), a `lit parse` output, a JSONL file with an 'mrs' "
                   "field, or a file of sentences (parsed with ACE and the parse cache)")
    g.add_argument("--limit", type=int, metavar="N", help="the first N inputs only")
    g.add_argument("--diff", action="store_true",
                   help="show each change to the MRS as rule-language edits")
    g.add_argument("--examples", type=int, default=10, metavar="N",
                   help="applied inputs shown with --diff, --json and --html, and changed "
                   "inputs listed per kind with --against (default 10)")
    g.add_argument("--json", action="store_true", help="print one JSON document instead")
    g.add_argument("--html", metavar="OUT", help="write a page with the MRSs and DMRS graphs")
    g.add_argument("--against", metavar="OLD",
                   help="an older version of the module: list the inputs whose outcome changed")
    g.add_argument("--watch", action="store_true", help="run again whenever a file is saved")
    g.add_argument("--realize", type=int, default=0, metavar="N",
                   help="with ACE: generate, rank and verify the first N applied inputs")
    a = parser.add_argument_group("ACE (for a file of sentences and --realize)")
    a.add_argument("--ace", metavar="PATH", help="the ace executable (else LIT_ACE, config)")
    a.add_argument("--grammar", metavar="PATH", help="grammar image (else LIT_GRAMMAR, config)")
    a.add_argument("--workers", type=int, metavar="N", help="ACE processes (default: cores)")
    a.add_argument("--no-parse-cache", action="store_true", help="parse sentences afresh")
    a.add_argument("--scorer", choices=SCORERS, default="freq",
                   help="ranks realizations with --realize (default freq: no model)")


def run(args: argparse.Namespace) -> int:
    from lit.errors import InputError
    from lit.rules.compiler import compile_file
    from lit.rules.cost import combinatorial_warnings
    from lit.rules.engine import RuleEngine
    from lit.rules.syntax import Rule

    if args.action == "try":
        from lit.workbench.session import run as try_rules

        return try_rules(args)
    if args.action == "check":
        if not args.files:
            raise InputError("lit rules check needs at least one rule FILE")
        for path in args.files:
            module = compile_file(path)
            rules = sum(isinstance(b, Rule) for b in module.blocks)
            guards = len(module.blocks) - rules
            print(f"{path}: ok: module {module.name} (ERG {', '.join(module.versions)}), "
                  f"{rules} rule(s), {guards} not_applicable check(s), "
                  f"{len(module.examples)} example(s)")
            for warning in combinatorial_warnings(module):
                print(warning, file=sys.stderr)
        return 0
    if args.files:
        raise InputError("files are only taken by 'lit rules check FILE...'")
    engine = RuleEngine.load(args.grammar_version, args.rules)
    print(f"Transformation modules for ERG {engine.grammar_version}:")
    for info in engine.modules:
        codes = ", ".join(c if v is None else f"{c} = {info.name}={v}" for c, v in info.codes)
        values = " | ".join(
            f"{p}{' (default)' if p == info.default else ''}" for p in info.params
        )
        print(f"\n{info.name}" + (f"  [paper code: {codes}]" if codes else ""))
        print(f"  {info.description}")
        if values:
            print(f"  values: {values}")
        print(f"  versions: {', '.join(info.versions)}   file: {', '.join(info.paths)}")
        for ex in info.examples:
            print(f"  e.g. {ex.spec}: {ex.source} -> {ex.target}")
    return 0
