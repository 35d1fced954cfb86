"""MI with the label, a p-value and the Benjamini–Hochberg decision for thousands of binary
features at once (feature mining, lit.analyze.mine).

The test is the G-test of independence of the feature's 2 x |labels| table, which is MI
itself: G = 2 n ln(2) I(F; Y) (I in bits), chi-squared with |labels| - 1 degrees of freedom
under independence. Williams' correction divides G by q = 1 + (n Σ 1/rows - 1)(n Σ 1/cols - 1)
/ (6 n (rows - 1)(cols - 1)), which keeps small tables from looking significant too easily.
The false-discovery rate is controlled with SciPy's `false_discovery_control` (BH).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tested:
    """Per feature (aligned with the input rows): MI in bits, p-value, BH-adjusted p-value."""

    mi: np.ndarray
    p: np.ndarray
    q: np.ndarray


def mi_bits(with_feature: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """I(F; Y) in bits for each row of *with_feature* (features x labels counts), given the
    label counts of all items."""
    n = labels.sum()
    tables = np.stack([with_feature, labels - with_feature], axis=1).astype(float)  # F x 2 x L
    side = tables.sum(axis=2, keepdims=True)
    label = labels.reshape(1, 1, -1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = tables / n * np.log2(tables * n / (side * label))
    return np.where(tables > 0, terms, 0.0).sum(axis=(1, 2))


def significance(with_feature: np.ndarray, labels: np.ndarray) -> Tested:
    """MI, Williams-corrected G-test p-values and BH-adjusted p-values of every feature."""
    from scipy.stats import chi2, false_discovery_control

    with_feature = np.asarray(with_feature, dtype=float).reshape(-1, len(labels))
    labels = np.asarray(labels, dtype=float)
    mi = mi_bits(with_feature, labels)
    if len(mi) == 0 or (labels > 0).sum() < 2:  # no test without two labels
        ones = np.ones_like(mi)
        return Tested(mi, ones, ones)
    labels_seen = labels[labels > 0]
    n = labels.sum()
    count = with_feature.sum(axis=1)
    df = len(labels_seen) - 1
    with np.errstate(divide="ignore"):
        rows = n / count + n / (n - count)
    williams = 1 + (rows - 1) * (n * (1 / labels_seen).sum() - 1) / (6 * n * df)
    g = 2 * n * np.log(2) * mi / williams
    p = chi2.sf(g, df)
    return Tested(mi, p, false_discovery_control(p, method="bh"))
