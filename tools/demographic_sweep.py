"""Sweep the demographic modules (issue 14) over all 10,472 ERG 2025 gold MRSs.

For every spec: how many MRSs it rewrites, refuses (by reason) or raises on, and every
predicate an output has that its input lacks and the ERG 2025 SEM-I does not know (there must
be none). tests/rules/test_demographics.py checks a sample of the same in CI.

    python -m tools.demographic_sweep [--limit N] [SPEC ...]
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections import Counter
from pathlib import Path

from delphin import predicate
from delphin.codecs import simplemrs

from lit.lexicon import semi
from lit.rules import RuleEngine

GOLD = Path(__file__).resolve().parent.parent / "tests" / "data" / "erg-gold-2025.jsonl.gz"
SPECS = ["gender=swap", "gender=f", "gender=m", "gender=x", "name=swap", "name=f", "name=m",
         "age=swap", "age=young", "age=old", "race=white", "race=black", "race=asian",
         "race=hispanic"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="*", default=SPECS)
    ap.add_argument("--limit", type=int, default=None, help="first N gold MRSs only")
    args = ap.parse_args()
    with gzip.open(GOLD, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f][:args.limit]
    mrss = [simplemrs.decode(r["mrs"]) for r in rows]
    engine = RuleEngine.load("2025")
    known = semi.table()
    failures = 0
    start = time.process_time()
    for spec in args.specs:
        statuses: Counter = Counter()
        reasons: Counter = Counter()
        unknown: Counter = Counter()
        outputs = 0
        for row, m in zip(rows, mrss):
            try:
                out = engine.apply(m, spec)
            except Exception as exc:  # noqa: BLE001 - counted and shown, the sweep goes on
                statuses["exception"] += 1
                print(f"  {spec} {row['profile']}/{row['i-id']}: {type(exc).__name__}: {exc}")
                continue
            statuses[str(out.status)] += 1
            if out.reason:
                reasons[out.reason.split(": ", 1)[-1][:70]] += 1
            before = {predicate.normalize(ep.predicate) for ep in m.rels}
            for alternative in out.alternatives:
                outputs += 1
                for ep in alternative.rels:
                    p = predicate.normalize(ep.predicate)
                    if p not in before and p not in known:
                        unknown[p] += 1
        failures += statuses["exception"] + sum(unknown.values())
        print(f"{spec}: {dict(statuses)}; {outputs} outputs; new non-SEM-I predicates: "
              f"{sum(unknown.values())} {dict(unknown.most_common(3))}")
        for reason, n in reasons.most_common(4):
            print(f"    {n:6d}  {reason}")
    print(f"{len(mrss)} MRSs x {len(args.specs)} specs in {time.process_time() - start:.1f} s "
          f"CPU; exceptions + non-SEM-I predicates: {failures}")
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
