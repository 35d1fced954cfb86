"""Ranking on candidate lists recorded from a live ACE + ERG 2025 (tools/record_candidates.py).

For each recorded sentence and spec, whatever the scorer, the output (the first verified
candidate in ranking order) has no defect — no non-word, no comma the source lacked, no
reordered compound — whenever some verified candidate has none, and satisfies the spec's
preferences whenever some verified candidate does.
"""

from __future__ import annotations


import pytest

from lit.rank import AceOrderScorer
from lit.rank.freq import FrequencyScorer
from lit.rank.ranking import order
from lit.rules.engine import RuleEngine
from tests.conftest import DATA, Reversed, read_recorded

RECORDED = DATA / "live" / "candidates-erg2025-rig.jsonl.gz"


def recorded() -> list[dict]:
    return read_recorded(RECORDED)


def test_recording_covers_enough_sentences():
    rows = recorded()
    assert len({r["sentence"] for r in rows}) >= 40
    assert any(any(w in r["sentence"].lower().split() for w in ("men", "women", "children",
                                                               "people")) for r in rows)


@pytest.mark.parametrize("scorer", [AceOrderScorer(), FrequencyScorer(), Reversed()],
                         ids=lambda s: s.name)
def test_ranking_never_picks_a_defect_when_a_clean_candidate_verified(scorer):
    rules = RuleEngine.load("2025")
    rows = recorded()
    groups = scorer.score([r["candidates"] for r in rows])
    checked = 0
    for row, scores in zip(rows, groups):
        prefs = rules.preferences(row["spec"])
        ranked = order(row["candidates"], scores, row["sentence"], prefs)
        ok = {c for c, v in zip(row["candidates"], row["verified"]) if v}
        winner = next(s for s in ranked if s.surface in ok)
        verified = [s for s in ranked if s.surface in ok]
        where = f"{row['sentence']} [{row['spec']}] -> {winner.surface}"
        if any(len(s.preferred) == len(prefs) for s in verified):
            assert len(winner.preferred) == len(prefs), where
        clean = [s for s in verified if not s.defects and len(s.preferred) == len(winner.preferred)]
        if clean:
            assert not winner.defects, where
            checked += 1
    assert checked >= 40
