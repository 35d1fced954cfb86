#!/usr/bin/env python3
"""Record live-grammar candidate lists for ranking tests (tests/data/live/).

For SNLI dev sentences with irregular plurals, compounds or PPs, each transformed by a few
specs: every realization ACE gives (first 20), and whether each re-parses to the transformed
MRS. Ranking tests then check, offline, that no scorer's ranking picks a defective candidate
when a clean one verified.

    LIT_ACE=... LIT_GRAMMAR=... python tools/record_candidates.py -o tests/data/live/candidates.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
from datetime import date
from pathlib import Path

from delphin.codecs import simplemrs

from lit.ace.config import resolve_config
from lit.ace.service import AceService
from lit.equivalence import equivalent
from lit.pipeline.standins import restore, substitute
from lit.rules.engine import RuleEngine
from lit.status import Status

ROOT = Path(__file__).resolve().parents[1]
SNLI = ROOT / "tests" / "data" / "snli-1.0-dev.jsonl.gz"
INTERESTING = re.compile(r"\b(men|women|children|people|feet|teeth|geese|mice)\b|"
                         r"\b(in|on|with|at|near|under)\b")
SPECS = ("tense=past", "tense=fut", "ques")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--sentences", type=int, default=60)
    args = ap.parse_args()
    rows = [json.loads(line) for line in gzip.open(SNLI, "rt")]
    sentences = list(dict.fromkeys(
        s for r in rows for s in (r["sentence1"], r["sentence2"])
        if INTERESTING.search(s) and len(s.split()) <= 14
    ))
    rules = RuleEngine.load("2025")
    out = []
    with AceService(resolve_config(grammar_version="2025"), workers=2, timeout=30) as ace:
        parsed = {r.input: r for r in ace.parse(sentences[: args.sentences * 3], n=1)}
        for sentence, p in parsed.items():
            if p.status != Status.OK or len({o["sentence"] for o in out}) >= args.sentences:
                continue
            mrs = simplemrs.decode(p.readings[0].mrs)
            for spec in SPECS:
                outcome = rules.apply(mrs, spec)
                if outcome.status != Status.OK:
                    continue
                known, subs = substitute(outcome.mrs, sentence)
                (g,) = ace.generate([known], limit=20)
                cands = list(dict.fromkeys(restore(s, subs) for s in g.surfaces))
                if len(cands) < 2:
                    continue
                verified = []
                for c, r in zip(cands, ace.parse(cands, n=20)):
                    verified.append(any(equivalent(simplemrs.decode(x.mrs), outcome.mrs)
                                        for x in r.readings))
                if any(verified):
                    out.append({"sentence": sentence, "spec": spec,
                                "mrs": simplemrs.encode(outcome.mrs, lnk=False),
                                "candidates": cands, "verified": verified})
                    print(f"{sentence} [{spec}] {sum(verified)}/{len(cands)}", file=sys.stderr)
    meta = {"provenance": f"recorded {date.today()} by tools/record_candidates.py on ACE "
            f"0.9.30 + the reconstructed ERG 2025 rig ({os.environ.get('LIT_GRAMMAR')}); "
            "sentences from SNLI 1.0 dev (CC BY-SA 4.0)", "specs": SPECS}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.output, "wt", encoding="utf-8") as f:
        f.write(json.dumps({"meta": meta}) + "\n")
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    print(f"{len({o['sentence'] for o in out})} sentences, {len(out)} candidate lists "
          f"-> {args.output}")


if __name__ == "__main__":
    main()
