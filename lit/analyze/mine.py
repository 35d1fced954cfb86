"""Shortcuts nobody listed (issue 30, docs/mining.md): candidate features mined from the
grammar's own analyses, ranked by mutual information with the label under false-discovery
control, grouped by construction, and compared with word n-grams.

Candidates per sentence come from lit.analyze.fragments (derivation, MRS and frame fragments). A
pair gets each fragment marked ``shared:``, ``prem-only:`` or ``hyp-only:`` (a frame also
``prem:`` and ``hyp:``: a hypothesis with an intransitive main verb, whatever the premise's); the
alignment (lit.mrs.align) adds ``link:ROLE=P>H`` (the two predicates it linked in a role) and
``and:A&B`` (two of its role relations together: "a shared subject with an antonym verb" is
``and:ARG1:same&verb:antonym``); the hand-made features of docs/shortcuts.md come along under
their own names as the ``handmade`` family. Word unigrams and bigrams, marked the same way, are
the baseline, ranked apart. Of features that select the same items the most general one is
shown (a construction over its words: lit.analyze.fragments.generality), the others under it.

Single sentences go through `sentence_rows` and the same `mine`: the ranking only needs rows
with ``features`` and ``label``; lit.analyze.tasks.task_mined_rows builds a task's rows.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations

import numpy as np
from delphin.mrs import MRS

from lit.ace.results import ParseResult
from lit.analyze.aligned import aligned_pair_features, named_links
from lit.analyze.analysis import PairRow, labelled_pairs
from lit.analyze.features import sentence_features
from lit.analyze.fragments import (
    FRAME_KINDS,
    family,
    generality,
    group,
    mrs_fragments,
    ngrams,
    sentence_fragments,
    top_derivation,
)
from lit.analyze.letypes import type_table
from lit.analyze.mi import mi_interval
from lit.analyze.parsed import top_mrs
from lit.analyze.significance import significance
from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.mrs import Alignment, Method, align
from lit.tasks.item import TaskItem

#: Items a candidate needs before it is tested (rarer ones cannot reach significance anyway).
MIN_SUPPORT = 5
#: False-discovery rate (Benjamini–Hochberg) over all tested candidates.
ALPHA = 0.05
#: An n-gram explains a mined feature when their item sets overlap this much (Jaccard).
EXPLAINED = 0.8
PER_GROUP = 5
EXAMPLES = 3
_LINK_RELATION = re.compile(r"^(verb|ARG\d|pp):(same|hypernym|hyponym|sibling|antonym|unrelated)$")

DEFINITIONS = {
    "candidates": "distinct mined and hand-made features of the items (docs/mining.md)",
    "tested": "candidates found in at least min_support items and not in every item",
    "tested_sets": "distinct item sets among the tested candidates: candidates with exactly "
    "the same items are one test",
    "significant": "tested candidates whose Benjamini-Hochberg adjusted p-value (q) is at "
    "most alpha, over the tested_sets; p from the Williams-corrected G-test of the feature's "
    "2 x labels table",
    "rank": "place among all tested candidates of the ranking by MI (bits)",
    "leading": "the best mined candidates by MI, significant or not (hand-made ones left out)",
    "distinct": "significant candidates with distinct item sets: of candidates with exactly "
    "the same items the most general (a construction over a lexical type over a word) is "
    "listed, the others under its same_items",
    "covers": "significant candidates listed under a more general one instead of on their "
    "own: all their items are among its items and its MI is at least the lower end of their "
    "MI's bootstrap interval (the construction explains them as well)",
    "groups": "distinct significant candidates grouped by construction (derivation rule, MRS "
    "predicate, alignment role; one group each for hand-made features and n-grams), groups "
    "by their best MI",
    "ngram": "the n-gram whose items overlap the feature's most (Jaccard); explained when "
    f"the overlap is at least {EXPLAINED}",
}


@dataclass(frozen=True)
class SentenceRow:
    """One labelled single-sentence item (a text of one sentence or a few) and its candidate
    features."""

    id: str
    sentence: str
    label: str
    features: frozenset[str]


def side_marked(premise: Iterable[str], hypothesis: Iterable[str]) -> set[str]:
    """Each fragment as ``shared:``, ``prem-only:`` or ``hyp-only:``; a frame also as
    ``prem:`` or ``hyp:`` (that side has it, whatever the other has)."""
    p, h = set(premise), set(hypothesis)
    either = {f"prem:{x}" for x in p if _is_frame(x)} | {f"hyp:{x}" for x in h if _is_frame(x)}
    return ({f"shared:{x}" for x in p & h} | {f"prem-only:{x}" for x in p - h}
            | {f"hyp-only:{x}" for x in h - p} | either)


def _is_frame(fragment: str) -> bool:
    return fragment.partition(":")[0] in FRAME_KINDS


def alignment_fragments(premise: MRS, hypothesis: MRS, a: Alignment,
                        handmade: Iterable[str]) -> set[str]:
    """The linked predicate pairs of an alignment and every two of its role relations."""
    out = set()
    for link, p, h in named_links(premise, hypothesis, a):
        if p is not None and h is not None:
            role = f"mod.{link.kind}" if link.role == "mod" else link.role
            out.add(f"link:{role}={p}>{h}")
    relations = sorted(f for f in handmade if _LINK_RELATION.match(f))
    out.update(f"and:{x}&{y}" for x, y in combinations(relations, 2))
    return out


def pair_candidates(
    premise: MRS, hypothesis: MRS, grammar_version: str = DEFAULT_GRAMMAR_VERSION,
    fragments: tuple[Iterable[str], Iterable[str]] | None = None,
    texts: tuple[str, str] | None = None,
) -> set[str]:
    """Hand-made, side-marked and alignment features of a pair; *fragments*: each side's
    sentence fragments when known (else its MRS fragments); *texts*: add side-marked n-grams."""
    a = align(premise, hypothesis, Method.ROLES)
    handmade = aligned_pair_features(premise, hypothesis, grammar_version, a)
    pf, hf = fragments or (mrs_fragments(premise), mrs_fragments(hypothesis))
    out = handmade | side_marked(pf, hf) | alignment_fragments(premise, hypothesis, a, handmade)
    if texts is not None:
        out |= side_marked(ngrams(texts[0]), ngrams(texts[1]))
    return out


@dataclass(frozen=True)
class _Analysed:
    mrs: MRS | None
    fragments: frozenset[str]


def _analysed(result: ParseResult | None, grammar_version: str) -> _Analysed:
    m = top_mrs(result)
    return _Analysed(m, frozenset(sentence_fragments(m, top_derivation(result),
                                                     type_table(grammar_version)))
                     if m is not None else frozenset())


def mined_pair_rows(
    items: Iterable[TaskItem], parses: Mapping[str, ParseResult],
    grammar_version: str = DEFAULT_GRAMMAR_VERSION, progress: bool = False,
    labelled: Callable[..., Iterable[tuple[TaskItem, str]]] = labelled_pairs,
) -> list[PairRow]:
    """Every gold-labelled pair with both sides parsed, with all its candidate features
    (hand-made, mined and n-grams); each distinct sentence is analysed once. *labelled*
    gives the valid items with their gold label (NLI's labels; a pair task passes its own)."""
    analysed = lru_cache(maxsize=4096)(lambda s: _analysed(parses.get(s), grammar_version))
    rows = []
    for item, label in labelled(items, progress):
        p, h = analysed(item.premise), analysed(item.hypothesis)
        if p.mrs is None or h.mrs is None:
            continue
        feats = pair_candidates(p.mrs, h.mrs, grammar_version, (p.fragments, h.fragments),
                                (item.premise, item.hypothesis))
        rows.append(PairRow(item, label, frozenset(map(sys.intern, feats))))
    return rows


def sentence_candidates(m: MRS, derivation=None, text: str | None = None,
                        grammar_version: str = DEFAULT_GRAMMAR_VERSION) -> set[str]:
    """A single sentence's candidates: its fragments, its hand-made phenomena (``passive``,
    ``negated``, ... of lit.analyze.features) and, given its *text*, its n-grams."""
    flags = sentence_features(m, grammar_version).flags()
    out = sentence_fragments(m, derivation, type_table(grammar_version)) | {
        k for k, v in flags.items() if v}
    return out | ngrams(text) if text is not None else out


def sentence_rows(
    items: Iterable[tuple[str, str, str]], parses: Mapping[str, ParseResult],
    grammar_version: str = DEFAULT_GRAMMAR_VERSION,
    sentences: Callable[[str], Sequence[str]] = lambda text: (text,),
) -> list[SentenceRow]:
    """Rows of (id, text, label) items whose text parsed. *sentences*: a text's sentences
    (default: the text is one); a text of several is kept when all of them parsed, with the
    union of their candidates and the n-grams of the whole text."""
    rows = []
    for id_, text, label in items:
        feats: set[str] | None = set()
        for sentence in sentences(text):
            result = parses.get(sentence)
            m = top_mrs(result)
            if m is None:
                feats = None
                break
            feats |= sentence_candidates(m, top_derivation(result), None, grammar_version)
        if not feats or not label:
            continue
        feats |= ngrams(text)
        rows.append(SentenceRow(id_, text, label, frozenset(map(sys.intern, feats))))
    return rows


def example(row) -> dict:
    """A row as an example: a pair's id, premise, hypothesis and label, or a sentence's."""
    if isinstance(row, PairRow):
        return {"id": row.item.id, "premise": row.item.premise,
                "hypothesis": row.item.hypothesis, "label": row.label}
    return {"id": row.id, "sentence": row.sentence, "label": row.label}


class _Table:
    """Which items have each feature, and the label of each item."""

    def __init__(self, rows: Sequence) -> None:
        self.keys = sorted({r.label for r in rows})
        where = {k: i for i, k in enumerate(self.keys)}
        self.labels = np.array([where[r.label] for r in rows], dtype=np.int64)
        self.totals = np.bincount(self.labels, minlength=len(self.keys))
        self.positions: dict[str, list[int]] = {}
        for i, r in enumerate(rows):
            for f in r.features:
                self.positions.setdefault(f, []).append(i)
        #: each ranked feature's item set, as a number shared by features with the same items
        self.item_set: dict[str, int] = {}
        self._sets: dict[tuple[int, ...], int] = {}

    def tested(self, min_support: int, baseline: bool) -> list[str]:
        n = len(self.labels)
        return sorted(f for f, pos in self.positions.items()
                      if min_support <= len(pos) < n and (family(f) == "ngram") == baseline)

    def rank(self, features: list[str]) -> list[dict]:
        """Every feature with its counts, MI, p and q, by MI (ties: more items, then name).
        Features with exactly the same items are one test (the same table): BH's count is of
        distinct item sets, so a word's lexical type and its supertypes cost one test."""
        for f in features:
            self.item_set[f] = self._sets.setdefault(tuple(self.positions[f]), len(self._sets))
        local: dict[int, int] = {}  # item set -> its row in this call's tables
        which = [local.setdefault(self.item_set[f], len(local)) for f in features]
        first = {k: f for f, k in zip(reversed(features), reversed(which))}
        counts = np.array([np.bincount(self.labels[self.positions[first[k]]],
                                       minlength=len(self.keys)) for k in range(len(local))]
                          ).reshape(len(local), len(self.keys))
        tested = significance(counts, self.totals)
        rows = []
        for f, at in zip(features, which):
            c, mi, p, q = counts[at], tested.mi[at], tested.p[at], tested.q[at]
            labels = {k: int(v) for k, v in zip(self.keys, c) if v}
            label = max(labels.items(), key=lambda kv: (kv[1], kv[0]))[0]
            rows.append({"feature": f, "family": family(f), "group": group(f),
                         "count": int(c.sum()), "labels": labels, "majority_label": label,
                         "majority_share": labels[label] / int(c.sum()), "mi": float(mi),
                         "p": float(p), "q": float(q)})
        rows.sort(key=lambda r: (-r["mi"], -r["count"], r["feature"]))
        for k, r in enumerate(rows, 1):
            r["rank"] = k
        return rows


def mine(
    rows: Sequence, min_support: int = MIN_SUPPORT, alpha: float = ALPHA, top: int = 25,
    per_group: int = PER_GROUP, resamples: int = 1000, describe: Callable = example,
) -> dict:
    """Rank every candidate of *rows* (PairRow or SentenceRow) by MI with the label; keep
    those significant under BH at *alpha*; group them; rank n-grams the same way apart and
    say for each listed feature which n-gram comes closest. *top*: groups listed, and
    significant candidates in the flat list (`--splits` takes its head)."""
    table = _Table(rows)
    ranked = table.rank(table.tested(min_support, baseline=False))
    baseline = table.rank(table.tested(min_support, baseline=True))
    significant = sum(r["q"] <= alpha for r in ranked)
    merged = _merge_same_items(ranked, table)
    distinct = [r for r in merged if r["q"] <= alpha]
    shown_alone = _cover(distinct, table, rows, resamples)
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in shown_alone:
        groups.setdefault((r["family"], r["group"]), []).append(r)
    listed_groups = list(groups.items())[:top]
    shown = [r for _, members in listed_groups for r in members[:per_group]]
    flat = shown_alone[:top]
    leading = [r for r in merged if r["family"] != "handmade"][:top]
    ngram_top = [r for r in baseline if r["q"] <= alpha][:top]
    ngram_leading = baseline[:top]
    for r in {id(r): r for r in chain(shown, flat, leading, ngram_top, ngram_leading)}.values():
        _detail(r, table, rows, resamples, describe)
    closest = _closest_ngrams(table, rows, {r["feature"] for r in chain(shown, flat, leading)},
                              {r["feature"] for r in baseline})
    for r in chain(shown, flat, leading):
        r["ngram"] = closest.get(r["feature"])
    families = Counter(r["family"] for r in ranked)
    return {
        "definitions": DEFINITIONS,
        "items": len(rows),
        "labels": {k: int(v) for k, v in zip(table.keys, table.totals)},
        "min_support": min_support,
        "alpha": alpha,
        "candidates": sum(1 for f in table.positions if family(f) != "ngram"),
        "tested": len(ranked),
        "tested_sets": len(merged),
        "significant": significant,
        "distinct": len(distinct),
        "covered": len(distinct) - len(shown_alone),
        "families": {f: {"tested": n, "significant": sum(1 for r in ranked if r["q"] <= alpha
                                                         and r["family"] == f)}
                     for f, n in sorted(families.items())},
        "groups": [{"family": fam, "group": name, "best": members[0]["feature"],
                    "best_mi": members[0]["mi"], "significant": len(members),
                    "members": members[:per_group]}
                   for (fam, name), members in listed_groups],
        "top": flat,
        "leading": leading,
        "handmade": [{k: r[k] for k in ("feature", "rank", "mi", "q", "count")}
                     | {"significant": r["q"] <= alpha}
                     for r in ranked if r["family"] == "handmade"][:top],
        "ngrams": {"tested": len(baseline), "significant": sum(r["q"] <= alpha for r in baseline),
                   "top": ngram_top, "leading": ngram_leading},
    }


def _merge_same_items(rows: list[dict], table: _Table) -> list[dict]:
    """The rows, each set of items listed once, by the most general of the rows that have
    exactly those items (the best-ranked of equally general ones); the others go into its
    ``same_items`` (``hyp-only:ep:_sit_v_1`` and ``hyp-only:lex:sit_v1`` are one finding,
    shown as ``hyp-only:letype:v_-_le`` when every pair with one has the other)."""
    same: dict[int, list[dict]] = {}
    for r in rows:
        same.setdefault(table.item_set[r["feature"]], []).append(r)
    out = []
    for members in same.values():
        best = max(members, key=lambda r: generality(r["feature"]))
        others = [r["feature"] for r in members if r is not best]
        if others:
            best["same_items"] = others
        out.append(best)
    return out


def _cover(rows: list[dict], table: _Table, items: Sequence, resamples: int) -> list[dict]:
    """The *rows* (significant, distinct item sets, best first) that no more general row
    covers; a covered row goes into its coverer's ``covers``. A row covers another when it is
    more general, has all the other's items and more, the same majority label, and an MI at
    least the lower end of the other's bootstrap interval: the construction explains its words
    as well as they explain themselves. A coverer's own coverer takes its covered rows too."""
    by_feature = {r["feature"]: r for r in rows}
    parent: dict[str, str] = {}
    for r in rows:
        f = r["feature"]
        common = set(items[table.positions[f][0]].features)
        for i in table.positions[f][1:]:
            common &= items[i].features
        level = generality(f)
        coverers = [by_feature[g] for g in common if g in by_feature and g != f
                    and generality(g) > level and by_feature[g]["count"] > r["count"]
                    and by_feature[g]["majority_label"] == r["majority_label"]]
        coverers.sort(key=lambda g: g["rank"])
        if coverers and coverers[0]["mi"] < r["mi"]:
            low = _interval(r, table, resamples)[0] if resamples > 0 else r["mi"]
            coverers = [g for g in coverers if g["mi"] >= low]
        if coverers:
            parent[f] = coverers[0]["feature"]
    for f, top in parent.items():  # rank order: a covered row's rows follow it up
        while top in parent:
            top = parent[top]
        by_feature[top].setdefault("covers", []).append(f)
    return [r for r in rows if r["feature"] not in parent]


def _interval(row: dict, table: _Table, resamples: int) -> list[float]:
    """The row's bootstrap interval of its MI, computed once."""
    if "mi_ci" not in row:
        low, high = mi_interval(Counter(row["labels"]),
                                Counter(dict(zip(table.keys, map(int, table.totals)))),
                                resamples)
        row["mi_ci"] = [low, high]
    return row["mi_ci"]


def _detail(row: dict, table: _Table, rows: Sequence, resamples: int,
            describe: Callable) -> None:
    """Add the bootstrap interval of the MI and example items to a listed row."""
    if resamples > 0:
        _interval(row, table, resamples)
    row["examples"] = [describe(rows[i]) for i in table.positions[row["feature"]][:EXAMPLES]]


def _closest_ngrams(table: _Table, rows: Sequence, features: set[str],
                    ngram_features: set[str]) -> dict[str, dict]:
    """For each of *features*, the tested n-gram with the largest Jaccard overlap of items."""
    out = {}
    for f in features:
        pos = table.positions[f]
        together = Counter(chain.from_iterable(
            (g for g in rows[i].features if g in ngram_features) for i in pos))
        best = max(together.items(), key=lambda kv: (
            kv[1] / (len(pos) + len(table.positions[kv[0]]) - kv[1]), kv[0]), default=None)
        if best is not None:
            g, both = best
            jaccard = both / (len(pos) + len(table.positions[g]) - both)
            out[f] = {"feature": g, "jaccard": jaccard, "explained": jaccard >= EXPLAINED}
    return out


def handmade_rows(rows: Sequence[PairRow]) -> list[PairRow]:
    """The rows with their hand-made features only (what `lit analyze --pairs` ranks)."""
    return [PairRow(r.item, r.label, frozenset(f for f in r.features
                                               if family(f) == "handmade")) for r in rows]


def format_mined(mined: dict) -> str:
    """Plain-text summary: the significant groups with their best features, hand-made ranks
    and the n-gram baseline."""
    fams = ", ".join(f"{k} {v['significant']}/{v['tested']}" for k, v in mined["families"].items())
    lines = [(f"mined shortcuts ({mined['items']} items; {mined['tested']} of "
              f"{mined['candidates']} candidates tested, {mined['significant']} significant at "
              f"FDR {mined['alpha']} ({mined['distinct']} distinct item sets, "
              f"{mined['covered']} of them under a more general one); by family "
              f"{fams}):")]
    for g in mined["groups"]:
        lines.append(f"  [{g['family']}] {g['group']}: {g['significant']} significant")
        lines += [f"    {_line(r)}" for r in g["members"][:3]]
    if len(mined["top"]) < 10:
        lines.append("best mined candidates, significant or not:")
        lines += [f"  {_line(r)}" for r in mined["leading"][:10]]
    ranks = ", ".join(f"{h['feature']} #{h['rank']}" + ("" if h["significant"] else " (n.s.)")
                      for h in mined["handmade"][:10])
    lines.append(f"hand-made features' ranks: {ranks or 'none tested'}")
    ng = mined["ngrams"]
    lines.append(f"n-gram baseline: {ng['significant']} of {ng['tested']} significant"
                 + ("" if ng["top"] else "; the best, significant or not:"))
    lines += [f"  {_line(r)}" for r in (ng["top"] or ng["leading"])[:10]]
    return "\n".join(lines)


def _line(r: dict) -> str:
    ci = f" [{r['mi_ci'][0]:.4f}, {r['mi_ci'][1]:.4f}]" if "mi_ci" in r else ""
    ngram = r.get("ngram")
    near = (f"; n-gram {ngram['feature']} J={ngram['jaccard']:.2f}"
            + (" explains it" if ngram["explained"] else "")) if ngram else ""
    same = f" (= {_some(r['same_items'])})" if r.get("same_items") else ""
    covers = f"; covers {_some(r['covers'])}" if r.get("covers") else ""
    return (f"#{r['rank']} {r['mi']:.4f}{ci} q={r['q']:.2g} {r['feature']}{same} "
            f"n={r['count']} {r['majority_label']} {100 * r['majority_share']:.0f}%{near}"
            f"{covers}")


def _some(features: list[str]) -> str:
    return ", ".join(features[:3]) + (f" … ({len(features)})" if len(features) > 3 else "")
