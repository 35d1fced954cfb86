"""Choosing a scorer by the name `--scorer` gives (gpt2, freq or ace)."""

from __future__ import annotations

import sys

from lit.config import DEFAULTS
from lit.errors import ConfigurationError
from lit.rank.ace_order import AceOrderScorer
from lit.rank.scorer import GivenScorer, Scorer

#: Scorer names accepted by `--scorer`.
SCORERS: tuple[str, ...] = ("gpt2", "freq", "ace")
DEFAULT_SCORER = DEFAULTS.scorer


def get_scorer(
    name: str | Scorer = DEFAULT_SCORER,
    *,
    model: str | None = None,
    device: str | None = None,
    batch_size: int = DEFAULTS.score_batch_size,
) -> Scorer:
    """A scorer by name (`gpt2`, `freq`, `ace`), or *name* itself if it already is a scorer
    (an object with only `score`: as a `GivenScorer`).

    `gpt2` with no *model* named is loaded now; if it cannot be (no `rank` extra, no network
    and not cached), `freq` stands in and stderr says so once. A named *model* that cannot be
    loaded is an error. The model scorers are imported only when chosen (they are heavy)."""
    if not isinstance(name, str):
        return name if isinstance(name, Scorer) else GivenScorer(name)
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
