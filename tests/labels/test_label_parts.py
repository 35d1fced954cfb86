"""The parts of lit.labels one by one: step comparison and neutral-step removal (steps), the
clauses a rule is made of (parser), and how a rule set picks a rule (decide)."""

from __future__ import annotations

import pytest

from lit.errors import RuleError
from lit.labels import LabelRules
from lit.labels.decide import Case, decide_steps, edit_shaped, match_pairs, strip_neutral
from lit.labels.names import NLI
from lit.labels.parser import MapClause, PairsClause, SpecsClause, parse_rules
from lit.labels.steps import sides_of, step_matches, steps_match, without
from lit.spec import Step, parse_pair, parse_spec
from lit.status import Status

RULES = """
rule tense { pairs "f;p" when both.tense = pres map * -> N why "times" }
rule neg { pairs "o;n" map E -> C why "negated" }
rule pas { neutral "pa" why "passive" }
rule clf { neutral "i" why "cleft" }
rule up { edit hypernym at up map E -> E why "up" }
"""


@pytest.fixture(scope="module")
def rules():
    return parse_rules(RULES, "parts.labels", NLI)


def test_a_step_pattern_without_a_value_matches_any_value():
    assert step_matches(Step("tense"), Step("tense", "past"))
    assert not step_matches(Step("tense", "fut"), Step("tense", "past"))
    assert steps_match((Step("pass"), Step("tense")), (Step("pass"), Step("tense", "fut")))
    assert not steps_match((Step("tense"), Step("pass")), (Step("pass"), Step("tense", "fut")))
    assert not steps_match((Step("pass"),), ())


def test_sides_leave_identity_steps_out_and_without_drops_neutral_ones():
    sides = sides_of(parse_pair("o+pass;tense=past+cleft"))
    assert sides == ((Step("pass"),), (Step("tense", "past"), Step("cleft")))
    assert without(sides, parse_spec("cleft+pass").steps) == ((), (Step("tense", "past"),))
    assert without(sides, ()) == sides


def test_strip_neutral_names_the_neutral_rules_that_removed_something(rules):
    stripped, used = strip_neutral(rules, sides_of(parse_pair("f+pa;p")))
    assert stripped == sides_of(parse_pair("f;p")) and [r.id for r in used] == ["pas"]
    both = strip_neutral(rules, sides_of(parse_pair("f+i;p+pa")))[1]
    assert [r.id for r in both] == ["pas", "clf"]  # in file order
    assert strip_neutral(rules, sides_of(parse_pair("f;p"))) == (sides_of(parse_pair("f;p")), ())


def test_edit_shape_is_one_step_on_the_hypothesis_beside_neutral_ones(rules):
    assert edit_shaped(rules, parse_pair("o;hyper"))
    assert edit_shaped(rules, parse_pair("o;hyper+pass"))
    assert not edit_shaped(rules, parse_pair("pass;hyper"))
    assert not edit_shaped(rules, parse_pair("o;hyper+neg"))
    assert not edit_shaped(rules, parse_pair("o;o"))


def test_clauses_are_the_label_rule_fields_they_set(rules):
    pairs = PairsClause((parse_pair("o;n"),), ("o;n",))
    assert pairs.settings() == {"pairs": (parse_pair("o;n"),), "pair_texts": ("o;n",)}
    assert (pairs.keyword, SpecsClause((), ()).keyword) == ("pairs", "specs")
    assert MapClause((("E", None),)).settings() == {"mapping": (("E", None),)}
    assert rules[1].pair_texts == ("o;n",) and rules[1].mapping == (("E", "C"),)
    assert rules[4].edit == ("hypernym", "up") and rules[2].neutral == (Step("pass"),)


@pytest.mark.parametrize("text, message", [
    ('rule r { neutral "pa" why "x" why "y" }', "`why` given twice"),
    ('rule r { neutral "pa" gold "-" skip why "x" }', "needs exactly one of pairs, specs"),
    ('rule r { pairs "o;n" map E -> C }', "needs a `why` line"),
    ('rule r { specs "n" why "x" }', "a `specs` rule needs a `map`"),
    ('rule r { gold "-" why "x" }', "a `gold` rule must say `skip`"),
])
def test_a_rule_with_wrong_clauses_is_an_error_at_its_name(text, message):
    with pytest.raises(RuleError, match=message) as err:
        parse_rules(text, "bad.labels", NLI)
    assert (err.value.line, err.value.column) == (1, 6)


def test_match_pairs_says_why_each_rule_for_the_steps_did_not_label(rules):
    case = Case(parse_pair("f;p"), "entailment", "E")  # no phenomena: preconditions fail
    misses: list[str] = []
    assert match_pairs(rules, NLI, case, sides_of(case.pair), (), misses) is None
    assert misses == ["tense: precondition both.tense = pres does not hold"]
    case = Case(parse_pair("o;n"), "neutral", "N")
    misses = []
    assert match_pairs(rules, NLI, case, sides_of(case.pair), (), misses) is None
    assert misses == ["neg: maps no label for gold 'neutral'"]


def test_decide_steps_falls_back_through_neutral_rules_and_names_them(rules):
    d = decide_steps(rules, NLI, Case(parse_pair("o;n+pa+i"), "entailment", "E"))
    assert (d.status, d.label, d.rule, d.rationale) == (
        Status.OK, "contradiction", "neg+pas+clf", "negated passive cleft")
    d = decide_steps(rules, NLI, Case(parse_pair("o;p"), "entailment", "E"))
    assert d.status == Status.NOT_APPLICABLE and d.reason == "no label rule covers o;tense=past"
    assert LabelRules(rules).decide(parse_pair("o;n+pa+i"), "entailment") == \
        decide_steps(rules, NLI, Case(parse_pair("o;n+pa+i"), "entailment", "E"))
