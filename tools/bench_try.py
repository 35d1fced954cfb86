"""Time `lit rules try` over all gold ERG 2025 MRSs for each built-in module.

    python -m tools.bench_try [--limit N] [--modules tense,pass,...]

Reads and decodes the gold MRSs once (timed apart), then for each module file compiles it and
applies every value it declares to every MRS, as `lit rules try rules/NAME.lit` does (with
the module as LIT loads it: a file that adds values to a module, such as drop-argument.lit,
runs with the rest of its module), and prints the seconds per module with the load average
(figures on a busy machine are noise: run it on a quiet one). The figures for the docs come
from the lead's quiet runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from lit.rules.compiler import builtin_rules_dir, compile_file
from lit.rules.engine import RuleEngine
from lit.workbench import sources, trial
from lit.workbench.session import module_specs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="the first N gold MRSs only (default: all)")
    parser.add_argument("--modules", help="comma-separated module files' names (default: all)")
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    start = time.perf_counter()
    _, items = sources.load(sources.GOLD, args.limit)
    print(f"{len(items):,} gold MRSs read and decoded in {time.perf_counter() - start:.1f} s")
    base = RuleEngine.load("2025")
    wanted = set(args.modules.split(",")) if args.modules else None
    print(f"\n{'module file':22} {'specs':>5} {'applied':>8} {'seconds':>8} {'ms/MRS/spec':>12}")
    for path in sorted(Path(builtin_rules_dir()).glob("*.lit")):
        if wanted is not None and path.stem not in wanted:
            continue
        started = time.perf_counter()
        module = compile_file(path)
        if "2025" not in module.versions:
            continue
        applied = 0
        specs = module_specs(module, None, base)  # the file is loaded already: base has it
        for spec in specs:
            applied += sum(o.kind == trial.APPLIED for o in trial.run(base, spec, items))
        seconds = time.perf_counter() - started
        per = 1000 * seconds / (len(items) * len(specs))
        print(f"{path.name:22} {len(specs):5d} {applied:8,} {seconds:8.1f} {per:12.3f}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
