"""Scorers that rank a transformed MRS's realizations before verification (docs/design.md §1).

A scorer takes groups of candidate sentences (one group per transformed MRS) and returns one
score per candidate, lower = better, length-fair (adding a word never improves a score), and
names its ``scale``: the score difference that weighs as much as a whole unit of closeness. Scoring whole groups at once lets a model batch across
candidates *and* items. `gpt2` (total log-probability) needs the `rank` extra; `freq` (word frequency)
and `ace` (the generator's order) need no model. lit.rank.ranking combines a scorer with the
modules' preferences and closeness to the source.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Protocol

from lit.config import DEFAULTS
from lit.errors import ConfigurationError

#: Scorer names accepted by `--scorer`.
SCORERS: tuple[str, ...] = ("gpt2", "freq", "ace")
DEFAULT_SCORER = DEFAULTS.scorer


class Scorer(Protocol):
    """Anything with a name, a `scale` and `score(groups) -> scores` (lower is better)."""

    name: str
    scale: float

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]: ...


class AceOrderScorer:
    """No model: keep the generator's own order (ACE ranks realizations with its MaxEnt model)."""

    name = "ace"
    #: one place in ACE's order weighs 1/20 of a unit of closeness
    scale = 20.0

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
    batch_size: int = DEFAULTS.score_batch_size,
) -> Scorer:
    """A scorer by name (`gpt2`, `freq`, `ace`), or *name* itself if it already is a scorer.

    `gpt2` with no *model* named is loaded now; if it cannot be (no `rank` extra, no network
    and not cached), `freq` stands in and stderr says so once. A named *model* that cannot be
    loaded is an error."""
    if not isinstance(name, str):
        return name
    if name == "ace":
        return AceOrderScorer()
    if name == "freq":
        from lit.rank.freq import FrequencyScorer

        return FrequencyScorer()
    if name == "gpt2":
        from lit.rank.gpt2 import PerplexityScorer

        scorer = PerplexityScorer(model or "gpt2", device=device, batch_size=batch_size)
        if model is None:
            try:
                scorer.load()
            except ConfigurationError as exc:
                print(f"lit: {exc}\nlit: ranking with --scorer freq (word frequencies) instead",
                      file=sys.stderr)
                return get_scorer("freq")
        return scorer
    raise ConfigurationError(f"unknown scorer {name!r}: choose one of {', '.join(SCORERS)}")
