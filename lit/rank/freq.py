"""A fluency scorer that needs no model weights: word frequencies from the `wordfreq` package.

A realization's score is the mean negative Zipf frequency of its words (lower is better), so
rare or non-existent forms (*womans*: 2.7; *women*: 5.6) lose to common ones. It knows nothing
of word order: `lit.rank.ranking` adds closeness to the source for that.
"""

from __future__ import annotations

from collections.abc import Sequence

from lit.rank.closeness import tokens

#: Zipf value given to a word wordfreq has never seen (its scale starts at about 1).
UNSEEN = 0.0


class FrequencyScorer:
    """`--scorer freq`: mean negative Zipf word frequency (English, wordfreq's `best` list)."""

    name = "freq"

    def __init__(self) -> None:
        from wordfreq import zipf_frequency

        self._zipf = zipf_frequency

    def sentence(self, text: str) -> float:
        words = [t for t in tokens(text) if t[0].isalnum()]
        if not words:
            return 0.0
        return -sum(self._zipf(w, "en") or UNSEEN for w in words) / len(words)

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        return [[round(self.sentence(c), 6) for c in g] for g in groups]
