"""The scorer that needs no model: the generator's own order."""

from __future__ import annotations

from collections.abc import Sequence


class AceOrderScorer:
    """No model: keep the generator's own order (ACE ranks realizations with its MaxEnt model)."""

    name = "ace"
    #: one place in ACE's order weighs 1/20 of a unit of closeness
    scale = 20.0
    model_name = None

    def load(self) -> None:
        """Nothing to load."""

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        return [[float(i) for i in range(len(g))] for g in groups]
