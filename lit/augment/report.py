"""Is the spurious correlation gone? The label distribution, and the mutual information with
the label of the shortcut features `lit analyze` ranks, before and after augmentation, with
bootstrap confidence intervals (FAST, ShortcutGrammar: counterfactual pairs should lower it).

Features and MI are lit.analyze's own (`pair_features`, `rank_features`,
`mutual_information`); the features are chosen on the data before augmentation and measured
again after it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from lit.analyze.features import pair_features
from lit.analyze.mi import mi_interval, mutual_information, rank_features
from lit.analyze.parsed import parse_features
from lit.labels.names import CODES, LABEL_OF_CODE

Pair = tuple[str, str, str]  # premise, hypothesis, label code
#: Resamples for the confidence intervals, and their coverage.
BOOTSTRAP = 1000
CONFIDENCE = 0.95


def labelled_features(pairs: Sequence[Pair], parses: Mapping, grammar_version: str
                      ) -> list[tuple[set[str], str]]:
    """(pair features, label) for every pair whose two sentences parsed (top reading)."""
    cache: dict[str, object] = {}

    def feats(sentence: str):
        if sentence not in cache:
            cache[sentence] = parse_features(parses.get(sentence), grammar_version)
        return cache[sentence]

    out = []
    for premise, hypothesis, code in pairs:
        p, h = feats(premise), feats(hypothesis)
        if p is not None and h is not None:
            out.append((pair_features(p, h), code))
    return out


def measure(items: Sequence[tuple[set[str], str]], names: Sequence[str], seed: int = 0,
            resamples: int = BOOTSTRAP) -> dict[str, dict]:
    """For each feature name: its MI with the label in *items* (bits), its bootstrap interval
    (lit.analyze.mi.mi_interval) and how many pairs have it."""
    labels = Counter(label for _, label in items)
    having: dict[str, Counter] = {f: Counter() for f in names}
    for feats, label in items:
        for f in names:
            if f in feats:
                having[f][label] += 1
    return {f: {"mi": mutual_information(c, labels) if items else None,
                "ci": list(mi_interval(c, labels, resamples, CONFIDENCE, seed)) if items
                else None,
                "count": sum(c.values())} for f, c in having.items()}


def _labels(pairs: Sequence[Pair]) -> dict[str, int]:
    counts = Counter(code for _, _, code in pairs)
    return {LABEL_OF_CODE[c]: counts[c] for c in CODES}


def shortcut_report(before: Sequence[Pair], after: Sequence[Pair], parses: Mapping,
                    grammar_version: str, top: int = 10, min_count: int = 3, seed: int = 0,
                    resamples: int = BOOTSTRAP) -> dict:
    """Label distributions and the top-*top* shortcut features of *before* (ranked as
    `lit analyze` ranks them) measured in *before* and *after*."""
    items_before = labelled_features(before, parses, grammar_version)
    items_after = labelled_features(after, parses, grammar_version)
    names = [r["feature"] for r in rank_features(items_before, top=top, min_count=min_count,
                                                  resamples=0)]
    mi_before = measure(items_before, names, seed, resamples)
    mi_after = measure(items_after, names, seed, resamples)
    return {
        "labels": {"before": _labels(before), "after": _labels(after)},
        "pairs": {"before": len(before), "after": len(after)},
        "parsed_pairs": {"before": len(items_before), "after": len(items_after)},
        "bootstrap": resamples,
        "confidence": CONFIDENCE,
        "shortcuts": [{"feature": f, "before": mi_before[f], "after": mi_after[f]}
                      for f in names],
    }


def verdict(before: dict, after: dict) -> str:
    """"lower" (intervals apart), "lower (intervals overlap)", "not lower", or "-"."""
    if after["mi"] is None or before["mi"] is None:
        return "-"
    if after["ci"][1] < before["ci"][0]:
        return "lower"
    return "lower (intervals overlap)" if after["mi"] < before["mi"] else "not lower"


def _cell(m: dict) -> str:
    if m["mi"] is None:
        return "-"
    return f"{m['mi']:.4f} [{m['ci'][0]:.4f}, {m['ci'][1]:.4f}] n={m['count']}"


def format_report(report: dict) -> str:
    """The report as plain text (`lit augment --report`)."""
    lines = ["label distribution (pairs):"]
    for when in ("before", "after"):
        dist = report["labels"][when]
        total = sum(dist.values()) or 1
        lines.append(f"  {when:6}  " + "  ".join(
            f"{k} {v} ({100 * v / total:.1f}%)" for k, v in dist.items()))
    lines.append(f"mutual information with the label, bits [{100 * report['confidence']:.0f}% "
                 f"bootstrap CI, {report['bootstrap']} resamples; pairs parsed: "
                 f"{report['parsed_pairs']['before']} before, "
                 f"{report['parsed_pairs']['after']} after]:")
    for s in report["shortcuts"]:
        b, a = s["before"], s["after"]
        lines.append(f"  {s['feature']}\n    before {_cell(b)}\n    after  {_cell(a)}"
                     f"  {verdict(b, a)}")
    if not report["shortcuts"]:
        lines.append("  (no feature occurs often enough before augmentation)")
    return "\n".join(lines)
