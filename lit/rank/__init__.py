"""Scorers that rank a transformed MRS's realizations before verification (docs/design.md §1).

A scorer takes groups of candidate sentences (one group per transformed MRS) and returns one
score per candidate, lower = better. Scoring whole groups at once lets a model batch across
candidates *and* items. `gpt2` (perplexity) needs the `rank` extra; `ace` needs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from lit.errors import ConfigurationError

#: Scorer names accepted by `--scorer`.
SCORERS: tuple[str, ...] = ("gpt2", "ace")
DEFAULT_SCORER = "gpt2"


class Scorer(Protocol):
    """Anything with a name and `score(groups) -> scores` (lower is better)."""

    name: str

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]: ...


class AceOrderScorer:
    """No model: keep the generator's own order (ACE ranks realizations with its MaxEnt model)."""

    name = "ace"

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        return [[float(i) for i in range(len(g))] for g in groups]


def rank(scorer: Scorer, groups: Sequence[Sequence[str]]) -> list[list[str]]:
    """Each group sorted best first; ties keep the generator's order."""
    scores = scorer.score(groups)
    return [
        [c for _, _, c in sorted(zip(s, range(len(g)), g))] for g, s in zip(groups, scores)
    ]


def get_scorer(
    name: str | Scorer = DEFAULT_SCORER,
    *,
    model: str | None = None,
    device: str | None = None,
    batch_size: int = 32,
) -> Scorer:
    """A scorer by name (`gpt2`, `ace`), or *name* itself if it already is a scorer."""
    if not isinstance(name, str):
        return name
    if name == "ace":
        return AceOrderScorer()
    if name == "gpt2":
        from lit.rank.gpt2 import PerplexityScorer

        return PerplexityScorer(model or "gpt2", device=device, batch_size=batch_size)
    raise ConfigurationError(f"unknown scorer {name!r}: choose one of {', '.join(SCORERS)}")
