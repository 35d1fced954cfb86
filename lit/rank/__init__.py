"""Scorers that rank a transformed MRS's realizations before verification (docs/design.md §1).

A scorer takes groups of candidate sentences (one group per transformed MRS) and returns one
score per candidate, lower = better, length-fair (adding a word never improves a score), and
names its ``scale``: the score difference that weighs as much as a whole unit of closeness.
Scoring whole groups at once lets a model batch across candidates *and* items. `gpt2` (total
log-probability) needs the `rank` extra; `freq` (word frequency) and `ace` (the generator's
order) need no model. lit.rank.ranking combines a scorer with the modules' preferences and
closeness to the source.

The faces: lit.rank.scorer (Scorer, rank), lit.rank.ace_order (AceOrderScorer),
lit.rank.choice (get_scorer); this module only re-exports them.
"""

from __future__ import annotations

from lit.rank.ace_order import AceOrderScorer
from lit.rank.choice import DEFAULT_SCORER, SCORERS, get_scorer
from lit.rank.scorer import GivenScorer, Scorer, rank

__all__ = ["DEFAULT_SCORER", "SCORERS", "AceOrderScorer", "GivenScorer", "Scorer", "get_scorer",
           "rank"]
