"""Polarity of positions (lit.logic.polarity) on gold ERG 2025 MRSs, each against a
hand-written expectation: what replacing the word by a more general one does to the truth of
the sentence (up: stays true; down: a more specific one keeps it true; none: neither)."""

from __future__ import annotations

from functools import lru_cache

import pytest
from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.logic import compose, polarities
from tests.conftest import DATA, read_jsonl


@lru_cache(maxsize=1)
def _gold() -> dict[str, str]:
    return {r["sentence"]: r["mrs"] for r in read_jsonl(DATA / "erg-gold-2025.jsonl.gz")}


def gold_mrs(sentence: str) -> MRS:
    return simplemrs.decode(_gold()[sentence])


def polarity_by_pred(sentence: str) -> dict[str, str]:
    m = gold_mrs(sentence)
    return {ep.predicate: p for ep, p in zip(m.rels, polarities(m)) if not ep.is_quantifier()}


CASES = [
    # every: restrictor down ("every cat" -> "every Persian cat"), body up.
    ("Every cat barked.", {"_cat_n_1": "down", "_bark_v_1": "up"}),
    # no: both arguments down.
    ("No cat barked.", {"_cat_n_1": "down", "_bark_v_1": "down"}),
    # few (udef_q + little-few_a): both arguments down.
    ("Few programmers were hired.", {"_programmer_n_of": "down", "_hire_v_1": "down"}),
    # not: the negated verb and an indefinite object after the negation are down; the name
    # refers and stays up.
    ("Devito is not a manager.", {"named": "up", "_be_v_id": "down",
                                  "_manager_n_of": "down"}),
    # An indefinite subject before the negation outscopes it (surface scope): up; a definite
    # object refers: up; the negated verb: down.
    ("A good cook doesn't throw out yesterday's soup.",
     {"_cook_n_1": "up", "_good_a_at-for-of": "up", "_throw_v_out": "down",
      "_soup_n_1": "up"}),
    # not every = every negated: restrictor up, body down (also the object inside the body).
    ("Not every manager interviewed programmers.",
     {"_manager_n_of": "up", "_interview_v_1": "down", "_programmer_n_of": "down"}),
    # Nested: an indefinite inside every's restrictor (relative clause) is down; the main verb
    # is in every's body: up.
    ("Every manager who interviewed a programmer hired him.",
     {"_manager_n_of": "down", "_interview_v_1": "down", "_programmer_n_of": "down",
      "_hire_v_1": "up"}),
    # Nested: the object's existential sits in every's body: up in both.
    ("Every cat chased some dog.", {"_cat_n_1": "down", "_chase_v_1": "up", "_dog_n_1": "up"}),
    # Nested: no's restrictor holds a relative clause: down; *until* and what it embeds are
    # neither (an unknown scopal operator).
    ("No one who starts gambling seriously stops until he is broke.",
     {"person": "down", "_start_v_1": "down", "_stop_v_1": "down", "_broke_a_1": "none"}),
    # A conditional's antecedent is down, and a negation inside it turns the verb and the
    # indefinite under it up again.
    ("If Abrams didn't hire a programmer, Browne did.",
     {"_hire_v_1": "up", "_programmer_n_of": "up", "ellipsis_ref": "up"}),
    # Belief is opaque: nothing under *believe* has a polarity.
    ("Ralph believes that Ortcutt is not a spy.",
     {"_believe_v_2": "up", "_be_v_id": "none", "_spy_n_1": "none"}),
]


@pytest.mark.parametrize("sentence, expected", CASES, ids=[c[0] for c in CASES])
def test_polarity_on_gold_mrs(sentence: str, expected: dict[str, str]) -> None:
    got = polarity_by_pred(sentence)
    assert {p: got[p] for p in expected} == expected


def test_few_of_an_older_lexicon_is_downward_too() -> None:
    text = _gold()["Few great tenors are poor."].replace("little-few_a", "_few_a_1")
    m = simplemrs.decode(text)
    got = {ep.predicate: p for ep, p in zip(m.rels, polarities(m))}
    assert got["_tenor_n_1"] == "down" and got["_poor_a_1"] == "down"


def test_composition_multiplies_signs_and_none_absorbs() -> None:
    assert compose("down", "down") == "up"
    assert compose("up", "down") == "down"
    assert compose("none", "up") == "none"


def test_without_spans_an_indefinite_stays_under_negation() -> None:
    m = simplemrs.decode(simplemrs.encode(gold_mrs("Devito is not a manager."), lnk=False))
    got = {ep.predicate: p for ep, p in zip(m.rels, polarities(m))}
    assert got["_manager_n_of"] == "down" and got["named"] == "up"


def test_each_other_is_a_reciprocal_not_a_universal() -> None:
    """Two dogs bite each other.: the ERG's _each_q over _other_n_1 is the reciprocal pronoun,
    so "other" is not in a universal's downward restrictor."""
    m = simplemrs.decode(
        "[ TOP: h0 INDEX: e2 RELS: < [ udef_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] "
        "[ card LBL: h7 ARG0: e8 ARG1: x3 CARG: \"2\" ] [ _dog_n_1 LBL: h7 ARG0: x3 ] "
        "[ _bite_v_1 LBL: h1 ARG0: e2 ARG1: x3 ARG2: x9 ] "
        "[ _each_q LBL: h10 ARG0: x9 RSTR: h11 BODY: h12 ] [ _other_n_1 LBL: h13 ARG0: x9 ] > "
        "HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 > ]")
    got = {ep.predicate: p for ep, p in zip(m.rels, polarities(m))}
    assert got["_other_n_1"] == "up"


#: ACE 0.9.30 + ERG 2025 (the rig), "A boy runs through a pile of brown leaves." reading 5 of 5:
#: "A boy['s] runs through a pile brown leaves", whose two quantifiers each sit in the other's
#: restrictor region (Kaushik et al.'s train premise 1095 hung `lit audit` on it).
RING = (
    "[ TOP: h0 INDEX: e2 RELS: < [ _a_q<0:1> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ]"
    " [ _boy_n_1<2:5> LBL: h7 ARG0: x3 ] [ udef_q<6:28> LBL: h8 ARG0: x9 RSTR: h10 BODY: h11 ]"
    " [ _run_n_of<6:10> LBL: h12 ARG0: x9 ARG1: x3 ]"
    " [ _through_p<11:18> LBL: h12 ARG0: e13 ARG1: x9 ARG2: x14 ]"
    " [ _a_q<19:20> LBL: h15 ARG0: x14 RSTR: h16 BODY: h17 ]"
    " [ _pile_n_of<21:25> LBL: h18 ARG0: x14 ARG1: i19 ]"
    " [ _brown_v_1<29:34> LBL: h7 ARG0: e20 ARG1: x9 ]"
    " [ _leave_v_1<35:41> LBL: h1 ARG0: e2 ARG1: x3 ARG2: i21 ] >"
    " HCONS: < h0 qeq h1 h5 qeq h7 h10 qeq h12 h16 qeq h18 > ]"
)


def test_quantifiers_in_a_ring_give_no_polarity_and_end():
    from delphin.codecs import simplemrs

    from lit.logic import NONE, UP, polarities

    pols = polarities(simplemrs.decode(RING))
    assert len(pols) == 9 and pols[-1] == UP  # the main verb is where it always is
    assert NONE in pols  # the ring's EPs: no polarity
