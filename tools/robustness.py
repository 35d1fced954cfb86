"""Run every module and every two-step composition over the ERG 2025 gold MRSs.

    python -m tools.robustness [--limit N] [--pairs-limit N] [--seed S]

Checks that no step raises and that no PyDelphin well-formedness check the input passes
(is_connected, has_intrinsic_variable_property, plausibly_scopes) fails on the output, and
prints how often each module applies, the failures, and the time taken.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from delphin import mrs as delphin_mrs
from delphin.codecs import simplemrs

from lit.rules.engine import RuleEngine
from lit.spec import Spec, Step
from lit.status import Status

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "data" / "erg-gold-2025.jsonl.gz"

CHECKS = {
    "is_connected": delphin_mrs.is_connected,
    "has_intrinsic_variable_property": delphin_mrs.has_intrinsic_variable_property,
    "plausibly_scopes": delphin_mrs.plausibly_scopes,
}

#: One step per module value, for single steps.
def all_steps(engine: RuleEngine) -> list[Step]:
    steps = []
    for info in engine.modules:
        if not info.params:
            steps.append(Step(info.name))
        steps += [Step(info.name, v) for v in info.params]
    return steps


#: The steps composed pairwise: every module, the tense values, and the non-default options.
COMPOSED = ["cleft", "cleft=ARG2", "tense=past", "tense=pres", "tense=fut", "prog=+", "prog=-",
            "perf=+", "perf=-", "modal=may", "modal=would", "neg", "neg=no", "ques", "pass",
            "pass=ARG3", "swap", "swap=ARG1,ARG3"]


def checks_passed(m) -> set[str]:
    passed = set()
    for name, check in CHECKS.items():
        try:
            if check(m):
                passed.add(name)
        except Exception:  # a check that cannot run on this MRS does not pass
            pass
    return passed


def sweep(mrss: list, engine: RuleEngine, steps: list[Step], composed: list[Spec],
          pair_limit: int) -> dict:
    """Apply every step to every MRS, and every two-step composition of *composed* to the
    first *pair_limit* MRSs (each first step once, then each second step on its result);
    collect counts and failures (exceptions, or a check the input passed failing on the
    output)."""
    applied, pair_applied = Counter(), Counter()
    failures: list[str] = []

    def run(i: int, m, spec: Spec, label: str, before: set[str]):
        try:
            outcome = engine.apply(m, spec)
        except Exception as exc:  # the whole point: report, do not stop
            failures.append(f"#{i} {label}: {type(exc).__name__}: {exc}")
            return None
        if outcome.status is not Status.OK:
            return None
        lost = before - checks_passed(outcome.mrs)
        if lost:
            failures.append(f"#{i} {label}: output fails {', '.join(sorted(lost))}")
        return outcome.mrs

    for i, m in enumerate(mrss):
        before = checks_passed(m)
        for step in steps:
            if run(i, m, Spec((step,)), str(step), before) is not None:
                applied[str(step)] += 1
        if i >= pair_limit:
            continue
        for first in composed:
            middle = run(i, m, first, str(first), before)
            if middle is None:
                continue
            for second in composed:
                label = f"{first}+{second}"
                if run(i, middle, second, label, before) is not None:
                    pair_applied[label] += 1
    return {"applied": applied, "pair_applied": pair_applied, "failures": failures}


def load_gold(limit: int | None = None, seed: int = 0) -> list:
    with gzip.open(GOLD, "rt", encoding="utf-8") as f:
        rows = [json.loads(line)["mrs"] for line in f if line.strip()]
    if limit is not None and limit < len(rows):
        rows = random.Random(seed).sample(rows, limit)
    return [simplemrs.decode(r) for r in rows]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="MRSs for single steps (default: all)")
    parser.add_argument("--pairs-limit", type=int, help="MRSs for compositions (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    engine = RuleEngine.load("2025")
    start = time.perf_counter()
    mrss = load_gold(args.limit, args.seed)
    loaded = time.perf_counter()
    steps = all_steps(engine)
    composed = [engine.check(text) for text in COMPOSED]
    limit = len(mrss) if args.pairs_limit is None else args.pairs_limit
    result = sweep(mrss, engine, steps, composed, limit)
    seconds = time.perf_counter() - loaded
    print(f"{len(mrss)} gold MRSs (decoded in {loaded - start:.0f} s); {len(steps)} single steps; "
          f"{len(composed) ** 2} two-step compositions on {min(limit, len(mrss))} MRSs")
    print(f"\n{'step':20} {'applies':>8} {'%':>6}")
    for step in steps:
        n = result["applied"][str(step)]
        print(f"{str(step):20} {n:8d} {100 * n / len(mrss):6.1f}")
    total_pairs = sum(result["pair_applied"].values())
    print(f"\ncompositions applied: {total_pairs} of "
          f"{len(composed) ** 2 * min(limit, len(mrss))}")
    print(f"failures: {len(result['failures'])}")
    kinds = Counter(line.split(": ", 1)[1] for line in result["failures"])
    for kind, n in kinds.most_common(20):
        print(f"  {n:6d} × {kind}")
    for line in result["failures"][:50]:
        print("  " + line)
    print(f"\n{seconds:.0f} s for the sweep")
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
