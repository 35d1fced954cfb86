"""Apply every oracle pair's transformation (ERG 2018 rules) and print a per-transformation table.

    python -m tools.oracle_report [--pairs tests/data/oracle/pairs.jsonl.gz] [--rules DIR]

A pair passes when the rule engine's result is equivalent (lit.equivalence) to the pair's
target MRS. Each miss is listed with a reason; "unreachable" marks targets no rule can reach
from the source's reading: another reading (a modifier attached elsewhere, a non-focus
cleft) or a gap of the oracle's grammar build (glb predicates), see lit.rules.diff.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from delphin.codecs import simplemrs

from lit.equivalence import equivalent
from lit.rules.diff import explain, unreachable
from lit.rules.engine import RuleEngine

ROOT = Path(__file__).resolve().parent.parent
PAIRS = ROOT / "tests" / "data" / "oracle" / "pairs.jsonl.gz"


def run_oracle(pairs: list[dict], engine: RuleEngine) -> list[dict]:
    """One result per pair: id, transform, ok, unreachable (why no rule could), reason."""
    results = []
    for p in pairs:
        source, target = simplemrs.decode(p["source_mrs"]), simplemrs.decode(p["target_mrs"])
        outcome = engine.apply(source, p["transform"])
        ok = outcome.mrs is not None and equivalent(outcome.mrs, target)
        result = {"id": p["id"], "transform": p["transform"], "ok": ok,
                  "unreachable": None, "reason": None}
        if outcome.mrs is None:
            result["reason"] = f"{outcome.status}: {outcome.reason}"
        elif not ok:
            result["unreachable"] = unreachable(p["transform"], outcome.mrs, target)
            result["reason"] = explain(outcome.mrs, target)
        results.append(result)
    return results


def table(results: list[dict]) -> list[tuple[str, int, int, int]]:
    """(transform, pairs, passed, unreachable misses) per transformation."""
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        row = rows[r["transform"]]
        row[0] += 1
        row[1] += r["ok"]
        row[2] += r["unreachable"] is not None
    return [(t, *v) for t, v in sorted(rows.items())]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=str(PAIRS))
    parser.add_argument("--rules", action="append", default=[])
    args = parser.parse_args(argv)
    with gzip.open(args.pairs, "rt", encoding="utf-8") as f:
        pairs = [json.loads(line) for line in f if line.strip()]
    engine = RuleEngine.load("2018", args.rules)
    start = time.perf_counter()
    results = run_oracle(pairs, engine)
    seconds = time.perf_counter() - start
    print(f"{'transformation':24} {'pairs':>5} {'ok':>5} {'%':>6}  {'unreachable':>11} {'% reachable':>11}")
    for name, n, ok, other in table(results):
        same = n - other
        print(f"{name:24} {n:5d} {ok:5d} {100 * ok / n:6.1f}  {other:11d} "
              f"{100 * ok / same if same else 100:11.1f}")
    total_ok = sum(r["ok"] for r in results)
    others = sum(r["unreachable"] is not None for r in results)
    print(f"{'all':24} {len(results):5d} {total_ok:5d} {100 * total_ok / len(results):6.1f}  "
          f"{others:11d} {100 * total_ok / (len(results) - others):11.1f}")
    print(f"\n{seconds:.1f} s for {len(results)} pairs")
    misses = [r for r in results if not r["ok"]]
    if misses:
        print(f"\nMisses ({len(misses)}):")
        for r in misses:
            tag = f" [{r['unreachable']}]" if r["unreachable"] else ""
            print(f"  {r['id']}{tag}: {r['reason']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
