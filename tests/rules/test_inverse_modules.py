"""The inverse modules and Tailor's remaining edits (issue 27) on gold ERG 2025 MRSs, offline.

Oracle-style: a gold analysis transformed by a module must be equivalent to the treebank's own
gold analysis of the target sentence (ORACLE: pairs found in the treebank, both sentences
gold). Then what each module refuses and why, compositions with the existing modules, and the
labels the new pair specs get (lit nli, with --self-pairs the gold label is the sentence
itself)."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.equivalence import equivalent
from lit.labels import LabelRules, phenomena_of
from lit.logic import edit_between
from lit.phenomena import describe
from lit.rules.engine import RuleEngine
from lit.spec import parse_pair
from lit.status import Status
from tests.logic.test_polarity import gold_mrs

#: (spec, gold source, gold target): the module's output is the target's gold analysis.
ORACLE = [
    # aff: contracted n't (neg's event is INDEX), also over a perfect and a modal
    ("aff", "Abrams isn't hiring Browne.", "Abrams is hiring Browne."),
    ("aff", "Abrams hasn't hired Browne.", "Abrams has hired Browne."),
    ("aff", "Abrams didn't hire Browne.", "Abrams hired Browne."),
    ("aff", "Abrams can't hire Browne.", "Abrams can hire Browne."),
    # ... a modifier of the contracted negation moves to the verb's event
    ("aff", "Browne merely doesn't work.", "Browne merely works."),
    # aff: "not" with an event of its own, over a modal, under a fronted scopal adverb
    ("aff", "Abrams does not work competently.", "Abrams works competently."),
    ("aff", "Abrams cannot hire Browne.", "Abrams can hire Browne."),
    ("aff", "Evidently Chiang does not work.", "Evidently Chiang works."),
    # aff: an imperative's i-type neg; the event goes back to TENSE tensed
    ("aff", "Don't hire a programmer!", "Hire a programmer!"),
    ("aff", "Do not be trustworthy!", "Be trustworthy!"),
    # act: ARG2 passives, with quantifiers and control verbs; a recipient (ARG3) passive
    ("act", "He was hired by her.", "She hired him."),
    ("act", "Every programmer was interviewed by one of the managers.",
     "One of the managers interviewed every programmer."),
    ("act", "Pat was persuaded to leave by Lee.", "Lee persuaded Pat to leave."),
    ("act", "Who was shown an office by Abrams?", "Whom did Abrams show an office to?"),
    # decl: do-support, auxiliaries, modals, negated questions, quantified subjects
    ("decl", "Is Abrams competent?", "Abrams is competent."),
    ("decl", "Was Abrams interviewed?", "Abrams was interviewed."),
    ("decl", "Did an Irishman win a Nobel prize?", "An Irishman won a Nobel prize."),
    ("decl", "Isn't Abrams hiring Browne?", "Abrams isn't hiring Browne."),
    ("decl", "Can every European travel freely within Europe?",
     "Every European can travel freely within Europe."),
    # uncleft: a subject cleft, and an object cleft of a bare past verb (PROG/PERF restored)
    ("uncleft", "It was Kim who wanted Pat as treasurer.", "Kim wanted Pat as treasurer."),
    ("uncleft", "It was Pat that Kim wanted as treasurer.", "Kim wanted Pat as treasurer."),
    # front: the treebank's one pair of a clause and its fronted variant
    ("front", "ITEL has made a loss since 1992.", "Since 1992 ITEL has made a loss."),
    # drop: an optional object (gold "Abrams is interviewing." has ARG2 i), a recipient
    ("drop=ARG2", "Abrams is interviewing an applicant.", "Abrams is interviewing."),
    ("drop=ARG2", "Kim promised Sandy to leave.", "Kim promised to leave."),
    # compositions: a negated question made a statement and affirmed
    ("decl+aff", "Isn't Abrams hiring Browne?", "Abrams is hiring Browne."),
    ("aff+decl", "Didn't Abrams hire Browne?", "Abrams hired Browne."),
]

#: (gold source, spec, the reason's words): what the modules refuse.
REFUSED = [
    ("Abrams hired Browne.", "aff", "no sentential negation"),
    ("The dog barked, didn't it?", "aff", "a tag question"),
    ("Without an interview, no programmer is hired.", "act", "agentless passive"),
    ("Abrams hired Browne.", "act", "not passive"),
    ("Who hired Browne?", "decl", "wh-question"),
    ("Whose dog barked?", "decl", "wh-question"),
    ("The dog barked, didn't it?", "decl", "a tag question"),
    ("Abrams hired Browne.", "decl", "already a statement"),
    ("Hire a programmer!", "decl", "a command"),
    ("Abrams hired Browne.", "uncleft", "not an it-cleft"),
    ("Without a manager, no project has a consultant.", "front", "fronted already"),
    ("Abrams hired Browne.", "front", "no PP or adverb modifier"),
    ("It was Browne who managed the project.", "front", "an it-cleft"),
    ("Abrams became a manager.", "drop=ARG2", "needs its ARG2"),
    ("Abrams handed Browne the cigarette.", "drop=ARG2", "needs its ARG2"),
    ("Browne was interviewed by Abrams.", "drop=ARG2", "subject of a passive"),
    ("Abrams hired a woman who was competent.", "drop=ARG2", "not a plain noun phrase"),
    ("Abrams barked.", "drop=ARG2", "no expressed ARG2"),
]


@pytest.fixture(scope="module")
def engine() -> RuleEngine:
    return RuleEngine.load("2025")


@pytest.mark.parametrize("spec, source, target", ORACLE)
def test_output_is_the_targets_gold_analysis(engine, spec, source, target):
    out = engine.apply(gold_mrs(source), spec)
    assert out.status is Status.OK, out.reason
    assert equivalent(out.mrs, gold_mrs(target))


@pytest.mark.parametrize("source, spec, reason", REFUSED)
def test_refusals_say_why(engine, source, spec, reason):
    out = engine.apply(gold_mrs(source), spec)
    assert out.status is Status.NOT_APPLICABLE
    assert reason in out.reason


@pytest.mark.parametrize("spec", ["aff", "act", "decl", "uncleft", "front", "drop=ARG2"])
def test_no_step_stacks_onto_itself(engine, gold_2025, spec):
    """A step applied to its own output never applies again (one sample of the treebank); aff
    may, where there were two negations ("Abrams couldn't not hire Browne.")."""
    applied = 0
    for row in gold_2025[::7]:
        source = simplemrs.decode(row["mrs"])
        if spec == "aff" and [ep.predicate for ep in source.rels].count("neg") > 1:
            continue
        once = engine.apply(source, spec)
        if once.status is Status.OK:
            applied += 1
            assert engine.apply(once.mrs, spec).status is Status.NOT_APPLICABLE, row["sentence"]
    assert applied > 0


def test_act_composes_with_tense(engine):
    out = engine.apply(gold_mrs("He was hired by her."), "act+tense=fut")
    assert out.status is Status.OK, out.reason
    d = describe(out.mrs, "2025")
    assert (d.passive, d.tense, d.index_predicate) == (False, "fut", "_hire_v_1")


def test_aff_composes_with_ques(engine):
    out = engine.apply(gold_mrs("Abrams does not work competently."), "aff+ques")
    assert out.status is Status.OK, out.reason
    d = describe(out.mrs, "2025")
    assert d.question and not d.negated
    assert "neg" not in [ep.predicate for ep in out.mrs.rels]


def test_dropped_complement_is_a_hypernym_edit(engine):
    """Dropping an object says less: natural logic's hypernym at the object's polarity."""
    source = gold_mrs("Abrams is interviewing an applicant.")
    edit = edit_between(source, engine.apply(source, "drop=ARG2").mrs)
    assert (edit.kind, edit.old, edit.relation, edit.polarity) == (
        "drop", "_applicant_n_1", "hypernym", "up")
    assert edit.position == "ARG2 of _interview_v_1"
    # under "not" the verb's position is downward, whatever scope the name takes
    negated = gold_mrs("Devito did not hire Abrams.")
    edit = edit_between(negated, engine.apply(negated, "drop=ARG2").mrs)
    assert (edit.old, edit.polarity) == ("named", "down")


@pytest.fixture(scope="module")
def labels() -> LabelRules:
    return LabelRules.load()


@pytest.mark.parametrize("pair, gold, label, rule", [
    # a self-pair (lit nli --self-pairs): S = "A man is not sleeping." entails itself
    ("o;aff", "entailment", "contradiction", "affirmed_hypothesis"),
    ("o;aff", "contradiction", "entailment", "affirmed_hypothesis"),
    ("o;aff", "neutral", "neutral", "affirmed_hypothesis"),
    ("aff;o", "entailment", None, "affirmed_premise"),
    ("aff;aff", "contradiction", None, "affirmed_premise"),
    ("o;decl", "entailment", None, "statement_from_question"),
    ("o;aff+ques", "entailment", None, "question_no_label"),
    ("o;act", "entailment", "entailment", "identity+active_neutral"),
    ("act;act", "contradiction", "contradiction", "identity+active_neutral"),
    ("o;uncleft", "entailment", "entailment", "identity+uncleft_neutral"),
    ("o;front", "neutral", "neutral", "identity+front_neutral"),
])
def test_label_rows_for_the_new_pair_specs(labels, pair, gold, label, rule):
    d = labels.decide(parse_pair(pair), gold)
    assert (d.status, d.label, d.rule) == (Status.OK, label, rule)


def test_tense_rows_hold_through_act(labels):
    present = phenomena_of(gold_mrs("Abrams is hiring Browne."), "2025")
    d = labels.decide(parse_pair("f;p +act"), "entailment", present, present)
    assert (d.label, d.rule) == ("neutral", "tense_decoupled+active_neutral")


def test_self_pair_with_a_dropped_object_is_entailed(engine, labels):
    source = gold_mrs("Abrams is interviewing an applicant.")
    edit = edit_between(source, engine.apply(source, "drop=ARG2").mrs)
    d = labels.decide(parse_pair("o;drop=ARG2"), "entailment", edit=edit, same_sentence=True)
    assert (d.status, d.label, d.rule) == (Status.OK, "entailment", "edit_generalize_up")
