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


def mi_interval(
    with_feature: Counter, labels: Counter, resamples: int = 1000, level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of I(F; Y). Resampling the n items with replacement
    only matters through the feature's 2 x |labels| contingency table, so each resample is
    one multinomial draw over its cells — as cheap for SNLI's 550k pairs as for 50."""
    import numpy as np

    keys = sorted(labels)
    cells = np.array([with_feature[y] for y in keys]
                     + [labels[y] - with_feature[y] for y in keys], dtype=float)
    n = int(cells.sum())
    draws = np.random.default_rng(seed).multinomial(n, cells / n, size=resamples)
    tables = draws.reshape(resamples, 2, len(keys)).astype(float)
    side = tables.sum(axis=2, keepdims=True)  # items with / without F
    label = tables.sum(axis=1, keepdims=True)  # items per label
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = tables / n * np.log2(tables * n / (side * label))
    mis = np.where(tables > 0, terms, 0.0).sum(axis=(1, 2))
    tail = (1 - level) / 2
    low, high = np.quantile(mis, [tail, 1 - tail])
    return float(low), float(high)


def rank_features(
    items: Iterable[tuple[set[str], str]], top: int = 25, min_count: int = 3,
    resamples: int = 1000, seed: int = 0,
) -> list[dict]:
    """Features of (feature set, label) items that occur at least *min_count* times and not
    in every item, by mutual information with the label (ties: more frequent first, then
    name); each listed feature gets a 95% bootstrap interval of its MI (*resamples* > 0)."""
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
    rows = rows[:top]
    for row in rows if resamples > 0 else ():
        low, high = mi_interval(Counter(row["labels"]), labels, resamples, seed=seed)
        row["mi_ci"] = [low, high]
    return rows

