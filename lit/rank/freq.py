"""A fluency scorer that needs no model weights: word frequencies from the `wordfreq` package.

A realization's score is its total negative log10 unigram probability: a word of Zipf
frequency z (log10 occurrences per billion words) has probability 10^(z - 9), so it costs
9 - z (lower is better). Rare or non-existent forms (*womans*: Zipf 2.7, cost 6.3; *women*: 5.6,
cost 3.4) lose to common ones, and the score is length-fair: every added word costs something
(*of*: 1.6), where a mean over words rewarded adding a frequent one. It knows nothing of word
order: `lit.rank.ranking` adds closeness to the source for that.
"""

from __future__ import annotations

from collections.abc import Sequence

from lit.rank.closeness import tokens

#: Zipf value given to a word wordfreq has never seen (its scale starts at about 1).
UNSEEN = 0.0
#: Zipf of a word seen once per billion words: a word's cost is PER_BILLION - its Zipf.
PER_BILLION = 9.0


class FrequencyScorer:
    """`--scorer freq`: total negative log10 unigram probability (English, wordfreq's `best`
    list)."""

    name = "freq"
    #: a difference of 10 (one unseen word, or six added *of*s) weighs as much as a whole
    #: unit of closeness (lit.rank.ranking)
    scale = 10.0
    model_name = None

    def __init__(self) -> None:
        from wordfreq import zipf_frequency

        self._zipf = zipf_frequency

    def load(self) -> None:
        """Nothing to load: wordfreq's list was read when it was made."""

    def costs(self, text: str) -> list[float]:
        """Each word's negative log10 unigram probability."""
        return [PER_BILLION - (self._zipf(t, "en") or UNSEEN)
                for t in tokens(text) if t[0].isalnum()]

    def sentence(self, text: str) -> float:
        """The ranking score: the total over the words (length-fair)."""
        return sum(self.costs(text))

    def per_word(self, text: str) -> float:
        """The mean over the words: a log10 perplexity, for comparing sentences as Tailor's
        fluency ratio does (lit.pipeline.metrics), not for ranking."""
        costs = self.costs(text)
        return sum(costs) / len(costs) if costs else 0.0

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        return [[round(self.sentence(c), 6) for c in g] for g in groups]
