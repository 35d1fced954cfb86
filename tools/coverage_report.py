#!/usr/bin/env python3
"""Coverage of `lit nli` outputs: pairs with a contrast pair, per spec, failures by reason.

    python -m tools.coverage_report OUT.jsonl                 # one run
    python -m tools.coverage_report BEFORE.jsonl AFTER.jsonl  # side by side, with the change

A pair is covered when at least one spec gave a pair with both sides verified (status ok).
Failure reasons are grouped by status and the reason's gist (the side, numbers and quoted
words stripped), each with an example sentence, so the largest causes stand out.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path


def gist(reason: str | None) -> str:
    """A reason without the side, figures and quoted words: 'premise: ACE: input EP not in
    index; WARNING: EP '_deli/nn_u_unknown' ...' -> 'ACE: input EP not in index; ...'."""
    text = re.sub(r"^(premise|hypothesis): ", "", reason or "")
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^']*'", "'…'", text)
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    return text[:110]


def load(path: Path) -> dict:
    records = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    covered = sum(any(t["status"] == "ok" for t in r["transforms"]) for r in records)
    per_spec: dict[str, Counter] = defaultdict(Counter)
    reasons: Counter = Counter()
    examples: dict[tuple[str, str], str] = {}
    for r in records:
        for t in r["transforms"]:
            per_spec[t["spec"]][t["status"]] += 1
            if t["status"] != "ok":
                key = (t["status"], gist(t["reason"]))
                reasons[key] += 1
                side = "hypothesis" if (t["reason"] or "").startswith("hypothesis") else "premise"
                examples.setdefault(key, r["input"].get("sentence1" if side == "premise"
                                                        else "sentence2", ""))
    return {"n": len(records), "covered": covered, "per_spec": per_spec, "reasons": reasons,
            "examples": examples}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outputs", nargs="+", type=Path, metavar="OUT.jsonl")
    ap.add_argument("--top", type=int, default=15, help="failure reasons shown (default 15)")
    args = ap.parse_args()
    runs = [load(p) for p in args.outputs]
    names = [p.name for p in args.outputs]
    print("pairs covered: " + "   ".join(
        f"{n}: {r['covered']}/{r['n']} ({100 * r['covered'] / max(1, r['n']):.1f}%)"
        for n, r in zip(names, runs)))
    print(f"\n{'spec':<12}" + "".join(f"{n[:18]:>20}" for n in names))
    for spec in runs[0]["per_spec"]:
        cells = []
        for r in runs:
            c = r["per_spec"].get(spec, Counter())
            cells.append(f"{c['ok']:>4} ok ({100 * c['ok'] / max(1, r['n']):5.1f}%)")
        print(f"{spec:<12}" + "".join(f"{x:>20}" for x in cells))
    print(f"\nfailures by reason (sides of pair results){'':<4}" + "".join(
        f"{n[:12]:>14}" for n in names))
    keys = Counter()
    for r in runs:
        keys.update(r["reasons"])
    for key, _ in keys.most_common(args.top):
        status, why = key
        print(f"  {status:<15} {why[:70]:<70}" + "".join(
            f"{r['reasons'].get(key, 0):>14}" for r in runs))
        example = next((r["examples"][key] for r in runs if key in r["examples"]), "")
        print(f"  {'':<15}   e.g. {example[:90]}")


if __name__ == "__main__":
    main()
