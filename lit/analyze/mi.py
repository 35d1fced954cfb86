"""Mutual information between binary features and labels (ShortcutGrammar-style shortcuts)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable


def mutual_information(with_feature: Counter, labels: Counter) -> float:
    """I(F; Y) in bits for a binary feature F, given the label counts of the items that have
    F (*with_feature*) and of all items (*labels*)."""
    n = sum(labels.values())
    n_f = sum(with_feature.values())
    mi = 0.0
    for y, n_y in labels.items():
        for joint, n_side in ((with_feature[y], n_f), (n_y - with_feature[y], n - n_f)):
            if joint:
                mi += joint / n * math.log2(joint * n / (n_side * n_y))
    return mi


def rank_features(
    items: Iterable[tuple[set[str], str]], top: int = 25, min_count: int = 3
) -> list[dict]:
    """Features of (feature set, label) items that occur at least *min_count* times and not
    in every item, by mutual information with the label (ties: more frequent first, then name)."""
    labels: Counter = Counter()
    by_feature: dict[str, Counter] = {}
    for feats, label in items:
        labels[label] += 1
        for f in feats:
            by_feature.setdefault(f, Counter())[label] += 1
    n = sum(labels.values())
    rows = []
    for f, counts in by_feature.items():
        count = sum(counts.values())
        if count < min_count or count == n:
            continue
        label, hits = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
        rows.append({
            "feature": f,
            "mi": mutual_information(counts, labels),
            "count": count,
            "labels": dict(sorted(counts.items())),
            "majority_label": label,
            "majority_share": hits / count,
        })
    rows.sort(key=lambda r: (-r["mi"], -r["count"], r["feature"]))
    return rows[:top]

