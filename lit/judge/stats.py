"""Chance-corrected agreement between annotators, from statsmodels (the `judge` extra):
Cohen's kappa for two annotators, Fleiss' kappa for more. Rates and their Wilson intervals
come from lit.evaluate.metrics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lit.errors import ConfigurationError


def _inter_rater():
    try:
        from statsmodels.stats import inter_rater
    except ImportError:
        raise ConfigurationError(
            "inter-annotator agreement needs statsmodels: pip install 'lit-contrast[judge]'"
        ) from None
    return inter_rater


def cohen_kappa(first: Sequence[str], second: Sequence[str]) -> float | None:
    """Cohen's kappa of two annotators' answers to the same items (in the same order);
    None when it is undefined (no items, or both used one and the same category only)."""
    if len(first) != len(second):
        raise ValueError("Cohen's kappa needs both annotators' answers to the same items")
    categories = sorted(set(first) | set(second))
    if not first or len(categories) < 2:
        return None
    index = {c: k for k, c in enumerate(categories)}
    table = [[0] * len(categories) for _ in categories]
    for a, b in zip(first, second):
        table[index[a]][index[b]] += 1
    return float(_inter_rater().cohens_kappa(table, return_results=False))


def fleiss_kappa(ratings: Sequence[Sequence[str]]) -> float | None:
    """Fleiss' kappa of items each answered by the same number (≥ 2) of annotators:
    *ratings* holds each item's answers. None when undefined (no items, one category)."""
    if not ratings:
        return None
    if len({len(r) for r in ratings}) != 1 or len(ratings[0]) < 2:
        raise ValueError("Fleiss' kappa needs the same number (at least 2) of answers per item")
    categories = sorted({c for r in ratings for c in r})
    if len(categories) < 2:
        return None
    table = [[r.count(c) for c in categories] for r in ratings]
    return float(_inter_rater().fleiss_kappa(table, method="fleiss"))


def inter_annotator(answers: Mapping[str, Mapping[str, str]]) -> dict:
    """Agreement of the annotators over the items every one of them answered:
    *answers* maps annotator -> item -> answer. Cohen's kappa for two annotators, Fleiss'
    kappa for more; kappa None (with the reason) where it is undefined."""
    annotators = sorted(answers)
    if len(annotators) < 2:
        return {"method": None, "annotators": annotators, "items": 0, "kappa": None,
                "note": "one annotator: no inter-annotator agreement"}
    shared = sorted(set.intersection(*(set(answers[a]) for a in annotators)))
    rows = [[answers[a][item] for a in annotators] for item in shared]
    method = "cohen" if len(annotators) == 2 else "fleiss"
    if method == "cohen":
        kappa = cohen_kappa([r[0] for r in rows], [r[1] for r in rows])
    else:
        kappa = fleiss_kappa(rows)
    note = None
    if kappa is None:
        note = ("no item answered by every annotator" if not rows
                else "undefined: every answer is the same category")
    return {"method": method, "annotators": annotators, "items": len(rows), "kappa": kappa,
            "observed": sum(len(set(r)) == 1 for r in rows) / len(rows) if rows else None,
            "note": note}
