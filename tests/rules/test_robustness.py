"""Robustness over ERG 2025 gold MRSs (a fixed sample; tools/robustness.py runs them all):
every module and every two-step composition runs without an exception, and no PyDelphin
well-formedness check the input passes fails on the output."""

from __future__ import annotations

import pytest

from lit.rules.engine import RuleEngine
from tools import robustness

SINGLE_SAMPLE = 1000  # MRSs × every module value
PAIR_SAMPLE = 200  # MRSs × every two-step composition
#: Modules that apply to a handful of the 10,472 gold MRSs (3 race, 33 age adjectives on a
#: person); tests/rules/test_demographics.py checks them where they apply.
RARE = {"age", "race"}


@pytest.mark.slow
def test_sample_of_gold_mrss_survives_every_step_and_composition():
    engine = RuleEngine.load("2025")
    mrss = robustness.load_gold(SINGLE_SAMPLE, seed=0)
    steps = robustness.all_steps(engine)
    composed = [engine.check(text) for text in robustness.COMPOSED]
    result = robustness.sweep(mrss, engine, steps, composed, PAIR_SAMPLE)
    assert not result["failures"], "\n".join(result["failures"][:30])
    # every module applies somewhere, and compositions do too
    for step in steps:
        if step.name in RARE:
            continue
        assert result["applied"][str(step)] > 0, f"{step} never applies"
    assert sum(result["pair_applied"].values()) > PAIR_SAMPLE * 10
