"""What a scorer is, and how its scores put a group of candidate sentences in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Scorer(Protocol):
    """What ranking, run identities and metadata use of a scorer: `score(groups) -> scores`
    (lower is better), its name, scale and model, and `load`."""

    name: str
    #: the score difference that weighs as much as a whole unit of closeness; None: the
    #: ranking measures by each group's spread (lit.rank.ranking)
    scale: float | None
    #: the model it scores with (None: no model)
    model_name: str | None

    def load(self) -> None:
        """Load the model now, so that a missing one fails before a batch's ACE work."""
        ...

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]: ...


class GivenScorer:
    """A scorer object given from outside LIT (the API takes any object with
    `score(groups)`), with what it lacks of `Scorer` filled in once, here: its type's name,
    no scale, no model, nothing to load."""

    def __init__(self, scorer: Any):
        self.scorer = scorer
        self.name: str = getattr(scorer, "name", type(scorer).__name__)
        self.scale: float | None = getattr(scorer, "scale", None)
        self.model_name: str | None = getattr(scorer, "model_name", None)
        self._load = getattr(scorer, "load", None)

    def load(self) -> None:
        if self._load is not None:
            self._load()

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        return self.scorer.score(groups)


def rank(scorer: Scorer, groups: Sequence[Sequence[str]]) -> list[list[str]]:
    """Each group sorted best first; ties keep the generator's order."""
    scores = scorer.score(groups)
    return [
        [c for _, _, c in sorted(zip(s, range(len(g)), g))] for g, s in zip(groups, scores)
    ]
