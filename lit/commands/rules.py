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
from lit.workbench.options import add_arguments as add_try_arguments


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
