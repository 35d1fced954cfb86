#!/usr/bin/env python3
"""Record live-grammar candidate lists for ranking tests (tests/data/live/).

For SNLI dev sentences with irregular plurals, compounds, PPs or coordinations, each
transformed by a few specs: the source's top reading, every realization ACE gives (first 20),
and whether each re-parses to the transformed MRS. Ranking tests then check, offline, that no
scorer's ranking picks a defective candidate when a clean one verified. With --surface, the
sentences are those whose surface the generator may not keep (hyphens, digits, quotes, inner
commas, capitals inside the sentence, two adjectives in a row), plus each --sentence, and each
list also records every candidate's surface repair (lit.rank.surface) and whether it verifies.

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.record_candidates -o tests/data/live/candidates.jsonl.gz
    # issue 24's lists: dev pairs 200..999, coordinations too, the paper's steps
    ... --first 200 --last 999 --coordination --specs tense=past,tense=fut,ques,neg+ques,pass,modal=may
    # issue 34's lists (tests/data/README.md gives the sentences)
    ... --surface --last 999 --sentences 30 --specs tense=past,tense=fut,modal=may,pass \
        --sentence "A woman in a white t-shirt points at a geyser." ...
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
from lit.config import RunConfig
from lit.equivalence import equivalent
from lit.pipeline.standins import restore, substitute
from lit.rank.surface import repair
from lit.rules.engine import RuleEngine
from lit.status import Status

ROOT = Path(__file__).resolve().parents[1]
SNLI = ROOT / "tests" / "data" / "snli-1.0-dev.jsonl.gz"
INTERESTING = re.compile(r"\b(men|women|children|people|feet|teeth|geese|mice)\b|"
                         r"\b(in|on|with|at|near|under)\b")
SPECS = ("tense=past", "tense=fut", "ques")
COORDINATION = re.compile(r"\b(and|or)\b")
SURFACE = re.compile(r"\w-\w|\d|[\"“”]|\w, |\s[A-Z]|(?i:\b(young|old|small|big|little|large|"
                     r"white|black|red|blue|green|yellow|brown)\s+(white|black|red|blue|green|"
                     r"yellow|brown|african|asian|young|old|little|traditional)\b)")


def verify(ace: AceService, sentences: list[str], mrs) -> list[bool]:
    """Whether each sentence re-parses (top 20 readings) to *mrs*, as the pipeline verifies."""
    return [any(equivalent(simplemrs.decode(x.mrs), mrs) for x in r.readings)
            for r in ace.parse(sentences, n=20)] if sentences else []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--sentences", type=int, default=60)
    ap.add_argument("--specs", default=",".join(SPECS), help="comma-separated specs")
    ap.add_argument("--first", type=int, default=0, help="first dev pair (0-based line)")
    ap.add_argument("--last", type=int, default=None, help="last dev pair (0-based line)")
    ap.add_argument("--coordination", action="store_true",
                    help="also sentences with a coordination (and, or)")
    ap.add_argument("--surface", action="store_true",
                    help="sentences whose surface the generator may change; record repairs")
    ap.add_argument("--sentence", action="append", default=[],
                    help="also this sentence, first (repeatable)")
    args = ap.parse_args()
    specs = tuple(s.strip() for s in args.specs.split(",") if s.strip())
    rows = [json.loads(line) for line in gzip.open(SNLI, "rt")][args.first:
                                                                 None if args.last is None
                                                                 else args.last + 1]
    wanted = SURFACE if args.surface else INTERESTING
    sentences = list(dict.fromkeys(args.sentence + [
        s for r in rows for s in (r["sentence1"], r["sentence2"])
        if (wanted.search(s) or args.coordination and COORDINATION.search(s))
        and len(s.split()) <= 14
    ]))
    rules = RuleEngine.load("2025")
    out = []
    with AceService(
        resolve_config(grammar_version="2025"), RunConfig(workers=1, timeout=30)
    ) as ace:
        parsed = {r.input: r for r in ace.parse(sentences[: args.sentences * 3], n=1)}
        for sentence, p in parsed.items():
            if p.status != Status.OK or len({o["sentence"] for o in out}) >= args.sentences:
                continue
            mrs = simplemrs.decode(p.readings[0].mrs)
            for spec in specs:
                outcome = rules.apply(mrs, spec)
                if outcome.status != Status.OK:
                    continue
                known, subs = substitute(outcome.mrs, sentence)
                (g,) = ace.generate([known], limit=20)
                cands = list(dict.fromkeys(restore(s, subs) for s in g.surfaces))
                if len(cands) < (1 if args.surface else 2):
                    continue
                verified = verify(ace, cands, outcome.mrs)
                row = {"sentence": sentence, "spec": spec,
                       "source_mrs": simplemrs.encode(mrs, lnk=False),
                       "mrs": simplemrs.encode(outcome.mrs, lnk=False),
                       "candidates": cands, "verified": verified}
                if args.surface:
                    fixes = {c: r for c in cands if (r := repair(sentence, c))}
                    new = list(dict.fromkeys(r.surface for r in fixes.values()))
                    ok = dict(zip(new, verify(ace, new, outcome.mrs)))
                    row["repairs"] = [{"from": c, "surface": r.surface, "changes": list(r.changes),
                                       "verified": ok[r.surface]} for c, r in fixes.items()]
                if any(verified) or any(r["verified"] for r in row.get("repairs", ())):
                    out.append(row)
                    print(f"{sentence} [{spec}] {sum(verified)}/{len(cands)}", file=sys.stderr)
    meta = {"provenance": f"recorded {date.today()} by tools/record_candidates.py on ACE "
            f"0.9.30 + the reconstructed ERG 2025 rig ({os.environ.get('LIT_GRAMMAR')}); "
            f"sentences from SNLI 1.0 dev pairs {args.first}..{args.last} (CC BY-SA 4.0)",
            "specs": specs}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.output, "wt", encoding="utf-8") as f:
        f.write(json.dumps({"meta": meta}) + "\n")
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    print(f"{len({o['sentence'] for o in out})} sentences, {len(out)} candidate lists "
          f"-> {args.output}")


if __name__ == "__main__":
    main()
