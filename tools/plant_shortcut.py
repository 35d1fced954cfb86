"""Plant a structural shortcut in NLI pairs and see what `lit analyze --mine` finds (issue 43,
docs/mining.md): the pairs whose hypothesis has an intransitive main verb are sampled so that
most of them are contradictions, the rest are kept as they are.

    python -m tools.plant_shortcut PAIRS.jsonl --define mrs-no-object -o planted.jsonl --score

PAIRS.jsonl is SNLI-style (sentence1, sentence2, gold_label, pairID); its parses are read from
LIT's parse cache (run `lit analyze PAIRS.jsonl --pairs` first, with the same grammar). What
"intransitive main verb" means is the planter's choice (--define):

  mrs-no-object     the hypothesis's main predication is a verb with no entity (x) as ARG2
  erg-intransitive  its word's lexical type is one of the ERG's one-argument verbs (its SYNSEM
                    is an ``onearg_verb``: ``v_-_le``, ``v_-_unacc_le``, ...)
  ptb-no-object     SNLI's own Stanford parse (sentence2_parse): the lowest VP of the main
                    clause has no NP, S or SBAR complement and its verb is not *be*
                    (a definition that owes nothing to the ERG)

Of the pairs with the property, every contradiction is kept and the others are sampled so that
``--share`` (0.78) of the planted pairs are contradictions. --score mines the planted pairs as
`lit analyze --mine` does and prints, for the ten best mined features, the Jaccard overlap of
their pairs with the planted ones, and the best n-gram's.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

from lit.ace.config import locate_grammar
from lit.ace.options import parse_cache_for
from lit.analyze.fragments import lexical_node, top_derivation, valence_types
from lit.analyze.letypes import type_table
from lit.analyze.mine import mine, mined_pair_rows
from lit.analyze.parsed import top_mrs
from lit.config import DEFAULTS
from lit.mrs import Reach, index_ep
from lit.tasks.item import TaskItem

LABELS = ("entailment", "neutral", "contradiction")
_BE = {"is", "are", "was", "were", "be", "am", "'s", "'re", "being", "been"}
_PTB = re.compile(r"\(|\)|[^\s()]+")


def _ptb(text: str) -> tuple:
    """A bracketed parse as nested (label, children) tuples; a leaf is its word."""
    tokens, at = _PTB.findall(text), 0

    def node():
        nonlocal at
        at += 2  # "(" and the label
        label, kids = tokens[at - 1], []
        while tokens[at] != ")":
            if tokens[at] == "(":
                kids.append(node())
            else:
                kids.append(tokens[at])
                at += 1
        at += 1
        return label, kids

    return node()


def ptb_no_object(rec: dict, _parses: dict) -> bool:
    tree = _ptb(rec["sentence2_parse"])
    clause = next((k for k in tree[1] if isinstance(k, tuple) and k[0] == "S"), None)
    vp = next((k for k in clause[1] if isinstance(k, tuple) and k[0] == "VP"), None) \
        if clause else None
    while vp is not None:
        inner = next((k for k in vp[1] if isinstance(k, tuple) and k[0] == "VP"), None)
        if inner is None:
            break
        vp = inner
    if vp is None:
        return False
    verbs = [k for k in vp[1] if isinstance(k, tuple) and k[0].startswith("VB")]
    return bool(verbs) and verbs[0][1][0].lower() not in _BE and not any(
        isinstance(k, tuple) and k[0] in ("NP", "S", "SBAR") for k in vp[1])


def _main_verb(rec: dict, parses: dict):
    m = top_mrs(parses.get(rec["sentence2"]))
    main = index_ep(m, Reach.CLAUSE) if m is not None else None
    return main if main is not None and "_v_" in main.predicate else None


def mrs_no_object(rec: dict, parses: dict) -> bool:
    main = _main_verb(rec, parses)
    return main is not None and not main.args.get("ARG2", "").startswith("x")


def erg_intransitive(rec: dict, parses: dict) -> bool:
    main, d = _main_verb(rec, parses), top_derivation(parses.get(rec["sentence2"]))
    node = lexical_node(d, main.cfrom, main.cto) if main is not None and d else None
    return node is not None and "onearg_verb" in valence_types(node, type_table("2025"))


DEFINITIONS: dict[str, Callable[[dict, dict], bool]] = {
    "mrs-no-object": mrs_no_object, "erg-intransitive": erg_intransitive,
    "ptb-no-object": ptb_no_object}


def plant(records: list[dict], parses: dict, has: Callable, share: float, seed: int
          ) -> tuple[list[dict], set[str]]:
    """The pairs kept (both sides parsed, a gold label) and the ids of the planted ones."""
    valid = [r for r in records if r.get("gold_label") in LABELS
             and top_mrs(parses.get(r["sentence1"])) is not None
             and top_mrs(parses.get(r["sentence2"])) is not None]
    marked = [r for r in valid if has(r, parses)]
    contra = [r for r in marked if r["gold_label"] == "contradiction"]
    others = [r for r in marked if r["gold_label"] != "contradiction"]
    kept = random.Random(seed).sample(others, min(len(others),
                                                  round(len(contra) * (1 - share) / share)))
    planted = {r["pairID"] for r in contra + kept}
    marked_ids = {r["pairID"] for r in marked}
    return [r for r in valid if r["pairID"] not in marked_ids or r["pairID"] in planted], planted


def score(rows: list[dict], planted: set[str], parses: dict) -> None:
    """Mine the planted pairs and print the ten best mined features against the plant."""
    items = [TaskItem(r["pairID"], k, r, (r["sentence1"], r["sentence2"]), r["gold_label"])
             for k, r in enumerate(rows)]
    mined_rows = mined_pair_rows(items, parses, "2025")
    result = mine(mined_rows, resamples=200)
    where: dict[str, set[str]] = {}
    for row in mined_rows:
        for f in row.features:
            where.setdefault(f, set()).add(row.item.id)

    def jaccard(f: str) -> float:
        return len(where[f] & planted) / len(where[f] | planted)

    print(f"{result['tested']} candidates tested ({result['tested_sets']} item sets), "
          f"{result['significant']} significant")
    for r in result["leading"][:10]:
        print(f"  #{r['rank']} {r['feature']}: {r['count']} pairs, {r['majority_label']} "
              f"{r['majority_share']:.0%}, MI {r['mi']:.4f}, q {r['q']:.2g}, "
              f"Jaccard {jaccard(r['feature']):.2f}"
              + (f"; covers {len(r['covers'])}" if r.get("covers") else ""))
    best = max(where, key=lambda f: (jaccard(f), f))
    print(f"  closest feature of all: {best} (Jaccard {jaccard(best):.2f})")
    ngram = result["ngrams"]["leading"][0]
    print(f"  best n-gram: {ngram['feature']}, MI {ngram['mi']:.4f}, "
          f"Jaccard {jaccard(ngram['feature']):.2f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", type=Path, nargs="+", help="SNLI-style JSONL files")
    ap.add_argument("--define", choices=sorted(DEFINITIONS), default="mrs-no-object")
    ap.add_argument("--share", type=float, default=0.78,
                    help="contradictions among the planted pairs (0.78)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--grammar", help="the grammar image whose parses are cached (else LIT's)")
    ap.add_argument("-o", "--output", type=Path, help="write the planted pairs here")
    ap.add_argument("--score", action="store_true", help="mine them and score the plant")
    args = ap.parse_args(argv)
    records = [json.loads(line) for path in args.pairs
               for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    grammar, _, _ = locate_grammar(args.grammar)
    cache = parse_cache_for(Path(grammar), DEFAULTS)
    parses = {s: cache.get(s, 1) for r in records for s in (r["sentence1"], r["sentence2"])}
    cache.close()
    missing = sum(p is None for p in parses.values())
    if missing:
        sys.exit(f"{missing} of {len(parses)} sentences are not in the parse cache: run "
                 f"`lit analyze {' '.join(map(str, args.pairs))} --pairs` first")
    rows, planted = plant(records, parses, DEFINITIONS[args.define], args.share, args.seed)
    labels = [r["gold_label"] for r in rows if r["pairID"] in planted]
    rest = [r["gold_label"] for r in rows if r["pairID"] not in planted]
    print(f"{args.define}: {len(rows)} pairs, {len(planted)} planted "
          f"({labels.count('contradiction') / max(1, len(labels)):.0%} contradiction), "
          f"elsewhere {rest.count('contradiction') / max(1, len(rest)):.0%}")
    if args.output:
        args.output.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if args.score:
        score(rows, planted, parses)


if __name__ == "__main__":
    main()
