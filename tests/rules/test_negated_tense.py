"""ERG 2025 gives sentential negation its own event carrying the clause's tense ("Devito did
not hire Abrams." has neg [TENSE: past]); tense and modal steps must move it with the clause,
or ACE generates nothing (seen on the rig: tense=fut of "Alice does not see Bob." failed).
Expectations are the gold ERG 2025 analyses of the target sentences where the treebank has
them."""

from __future__ import annotations

import pytest

from lit.rules import RuleEngine
from lit.status import Status
from tests.logic.test_polarity import gold_mrs


def _tenses(mrs) -> tuple[str, str | None]:
    """(INDEX's TENSE, neg's TENSE or None when neg has an i-type event)."""
    (neg,) = [ep for ep in mrs.rels if ep.predicate == "neg"]
    return (mrs.properties(mrs.index).get("TENSE"),
            mrs.properties(neg.args["ARG0"]).get("TENSE"))


@pytest.fixture(scope="module")
def engine() -> RuleEngine:
    return RuleEngine.load("2025")


@pytest.mark.parametrize("spec, expected", [
    ("tense=pres", ("pres", "pres")),
    ("tense=fut", ("fut", "fut")),
    ("modal=may", ("pres", "pres")),
    ("modal=could", ("tensed", "tensed")),  # the module's `could` (docs/rules.md walkthrough)
])
def test_tense_and_modal_move_negations_tense(engine, spec, expected):
    source = gold_mrs("Devito did not hire Abrams.")
    assert _tenses(source) == ("past", "past")
    out = engine.apply(source, spec)
    assert out.status == Status.OK, out.reason
    assert _tenses(out.mrs) == expected


# (The gold "Devito could not hire Abrams." is _can_v_modal [past], not _could_v_modal.)
@pytest.mark.parametrize("source, spec, gold_target", [
    ("Hire a programmer!", "neg", "Do not hire a programmer!"),
])
def test_negation_tenses_match_the_gold_target(engine, source, spec, gold_target):
    out = engine.apply(gold_mrs(source), spec)
    assert out.status == Status.OK, out.reason
    assert _tenses(out.mrs) == _tenses(gold_mrs(gold_target))
