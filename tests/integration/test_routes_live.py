"""Realization routes on the live grammar (issue 33): it-clefts and progressive passives,
which ERG 2018+ parses but will not generate, realized through their twin MRSs and verified
against the target; composed with tense, negation and the passive."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.integration

#: what a writer's cleft looks like: no comma before the relative pronoun, none added
CLEFT = re.compile(r"^It (is|was|will be) [^,]+ (who|that|which) [^,]+\.$")


@pytest.mark.parametrize("source, spec, expected", [
    ("A woman is training a dog.", "cleft=ARG1", "It is a woman (that|who) is training a dog."),
    ("A woman is training a dog.", "cleft=ARG2", "It is a dog that a woman is training."),
    ("The dog bit the man.", "cleft=ARG1", "It was the dog (that|who) bit the man."),
    ("The dog bit the man.", "cleft=ARG2", "It was the man that the dog bit."),
    ("A woman is training a dog.", "cleft=ARG1+tense=past",
     "It was a woman (that|who) was training a dog."),
    ("The man is happy.", "cleft=ARG1", "It is the man (that|who) is happy."),
])
def test_cleft_through_its_twin(verified, source, spec, expected):
    """*expected* is a pattern: a subject cleft may take 'that' or 'who' (the ranking's
    choice between two clean, verified candidates)."""
    record = verified(source, spec)
    assert record["route"].endswith("cleft.relative_clause")
    assert re.fullmatch(expected.replace(".", r"\."), record["output"]), record["output"]
    assert all(CLEFT.match(c) for c in record["candidates"]), record["candidates"]


def test_a_twin_realization_a_writer_would_not_write_is_refused_with_its_reason(live_engine):
    """The ERG 2025 realizes a negated relative clause only as 'the dog the man was not bitten
    by' (even from the parse of 'It was the dog that did not bite the man.'): the route's
    surface test refuses it, and the record says why."""
    record = live_engine.transform("The dog did not bite the man.", "cleft=ARG1")
    assert record["status"] == "no_generation" and record["output"] is None
    assert record["reason"] == ("route cleft.copula_tense+cleft.relative_clause: none of the "
                                "twin's 1 "
                                "realizations has the surface the route requires")


@pytest.mark.parametrize("source, spec, expected", [
    ("A man is eating an apple.", "pass", "An apple is being eaten by a man."),
    ("A woman was driving a car.", "pass", "A car was being driven by a woman."),
    ("A man eats an apple.", "prog=++pass", "An apple is being eaten by a man."),
])
def test_progressive_passive_through_its_twin(verified, source, spec, expected):
    record = verified(source, spec)
    assert record["route"] == "pass.by_agent+pass.being"
    assert record["output"] == expected


def test_a_plain_passive_takes_no_route(verified):
    record = verified("The dog bit the man.", "pass")
    assert record["route"] is None and record["output"] == "The man was bitten by the dog."


def test_when_no_twin_realization_verifies_the_reason_names_the_route(live_engine):
    """A copula with a PP predicate: the ERG 2025 generates no relative clause 'that is by the
    beach' after an object, so the twin gives nothing; the record says so."""
    record = live_engine.transform("The house is by the beach.", "cleft=ARG1")
    assert record["status"] != "ok"
    assert record["route"] == "cleft.copula_tense+cleft.relative_clause"
    assert record["reason"] == ("route cleft.copula_tense+cleft.relative_clause (twin MRS): "
                                "ACE generated nothing")
