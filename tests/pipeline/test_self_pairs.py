"""`lit nli --self-pairs` (issue 15) without ACE: the items it builds, and the label stage that
sends a meaning-changing hypothesis edit to the natural-logic `edit` rules."""

from __future__ import annotations

from lit.labels import LabelRules
from lit.pipeline.core import Pipeline
from lit.pipeline.selfpairs import self_pair_items
from lit.rules import RuleEngine
from lit.spec import parse_pair
from lit.status import Status
from lit.tasks.item import TaskItem
from tests.logic.test_polarity import gold_mrs


def test_one_item_per_distinct_sentence_invalid_records_pass_through():
    items = [TaskItem("a", 1, {}, ("A dog barks.", "A cat sleeps."), "neutral"),
             TaskItem("b", 2, {}, ("A dog barks.", "No dog barks."), "contradiction"),
             TaskItem("c", 3, {}, (None, None), error="missing premise")]
    out = list(self_pair_items(items))
    assert [(i.id, i.premise, i.hypothesis, i.gold) for i in out[:3]] == [
        ("a/premise", "A dog barks.", "A dog barks.", "entailment"),
        ("a/hypothesis", "A cat sleeps.", "A cat sleeps.", "entailment"),
        ("b/hypothesis", "No dog barks.", "No dog barks.", "entailment"),
    ]
    assert out[0].input == {"premise": "A dog barks.", "hypothesis": "A dog barks.",
                            "gold_label": "entailment", "source_id": "a", "side": "premise"}
    assert out[3].error == "missing premise" and len(out) == 4


def _pipeline() -> Pipeline:
    """A Pipeline's label stage only: rules and label rules, no ACE."""
    p = Pipeline.__new__(Pipeline)
    p.rules, p.label_rules = RuleEngine.load("2025"), LabelRules.load()
    return p


def _decide(sentence: str, pair: str, gold: str = "entailment", same: bool = True):
    it = TaskItem("x", 1, {}, (sentence, sentence if same else "Something else."), gold)
    return _pipeline()._decide(it, parse_pair(pair), gold_mrs(sentence), None, None)


def test_an_edit_is_labelled_by_natural_logic():
    d = _decide("Every cat barked.", "o;hyper")
    assert (d.status, d.label, d.rule) == (Status.OK, "neutral", "edit_generalize_down")
    assert d.edit["position"] == "ARG1 of _bark_v_1" and d.edit["polarity"] == "down"


def test_a_real_pair_composes_through_its_gold_label():
    assert _decide("The dog is barking.", "o;hyper", "entailment", same=False).label == \
        "entailment"
    d = _decide("The dog is barking.", "o;hyper", "neutral", same=False)
    assert d.status == Status.NOT_APPLICABLE and "maps no label for gold 'neutral'" in d.reason


def test_a_module_that_does_not_apply_gives_its_own_reason():
    d = _decide("Every cat barked.", "o;hypo")
    assert d.status == Status.NOT_APPLICABLE
    assert d.reason.startswith("hypo=ARG1: no word there has a frequent WordNet hyponym")


def test_form_changing_pairs_keep_their_rules():
    d = _decide("Every cat barked.", "o;n", "entailment", same=False)
    assert (d.label, d.rule, d.edit) == ("contradiction", "negated_hypothesis", None)


def test_a_question_is_not_labelled_by_natural_logic():
    # "Did the dog bark?" asserts nothing: no entailment to or from "Did the animal bark?"
    from lit.labels import phenomena_of

    m = gold_mrs("Did the dog bark?")
    ph = phenomena_of(m, "2025")
    it = TaskItem("x", 1, {}, ("Did the dog bark?", "Did the dog bark?"), "entailment")
    d = _pipeline()._decide(it, parse_pair("o;hyper"), m, ph, ph)
    assert d.status == Status.NOT_APPLICABLE and "asserts nothing" in d.reason
