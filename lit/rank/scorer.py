"""What a scorer is, and how its scores put a group of candidate sentences in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Scorer(Protocol):
    """Anything with a name, a `scale` and `score(groups) -> scores` (lower is better)."""

    name: str
    scale: float

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]: ...


def rank(scorer: Scorer, groups: Sequence[Sequence[str]]) -> list[list[str]]:
    """Each group sorted best first; ties keep the generator's order."""
    scores = scorer.score(groups)
    return [
        [c for _, _, c in sorted(zip(s, range(len(g)), g))] for g, s in zip(groups, scores)
    ]
