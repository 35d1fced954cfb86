"""lit.audit.predict on hand-built diffs: a grammatical step through a pair spec, a lexical edit
through natural logic (hypothesis and premise), and no label with the reason why."""

from __future__ import annotations

from dataclasses import replace

import pytest
from delphin.codecs import simplemrs

from lit.audit import predict
from lit.audit.predict import Words
from lit.diff.model import Residue
from lit.errors import InputError
from lit.labels import LabelRules
from lit.labels.model import phenomena_of
from lit.tasks import load_task
from tests.audit.fakes import (
    FUTURE,
    GARDEN_ADDED,
    NEG,
    OUTSIDE_DROPPED,
    PRESENT,
    SOCCER_CRICKET,
    diff,
    edit,
)


def test_negated_hypothesis_goes_through_the_pair_spec_rules():
    p = predict("entailment", "hypothesis", diff(NEG))
    assert (p.label, p.rule, p.spec) == ("contradiction", "negated_hypothesis", "o;neg")
    assert "swaps entailment and contradiction" in p.rationale and p.reason is None


def test_negated_premise_and_both_sides():
    assert predict("contradiction", "premise", diff(NEG)).rule == "negated_premise"
    both = predict("entailment", "both", (diff(NEG), diff(NEG)))
    assert (both.label, both.rule, both.spec) == ("neutral", "negated_both", "neg;neg")


def test_a_neutral_step_beside_is_stripped_as_lit_nli_does():
    passive = edit("pass", "pass")
    p = predict("entailment", "hypothesis", diff(passive, NEG))
    assert p.label == "contradiction" and p.rule == "negated_hypothesis+passive_neutral"


def test_preconditions_read_the_original_sentences():
    both = (diff(FUTURE), diff(edit("tense", "tense=past")))
    assert predict("entailment", "both", both).label is None  # no phenomena: tense unknown
    present = phenomena_of(simplemrs.decode(PRESENT), "2025")
    p = predict("entailment", "both", both, premise=present, hypothesis=present)
    assert (p.label, p.rule, p.spec) == ("neutral", "tense_decoupled", "tense=fut;tense=past")


def test_a_sibling_in_the_hypothesis_contradicts_an_entailed_one():
    p = predict("entailment", "hypothesis", diff(SOCCER_CRICKET))
    assert (p.label, p.rule, p.spec) == ("contradiction", "edit_sibling_up", "o;sibling")
    assert "_soccer_n_1 (soccer.n.01) -> _cricket_n_1" in p.rationale  # spans stripped


def test_natural_logic_leaves_what_it_cannot_settle_unlabelled():
    p = predict("neutral", "hypothesis", diff(SOCCER_CRICKET))
    assert p.label is None and p.rule is None
    assert "edit_sibling_up: maps no label for gold 'neutral'" in p.reason
    dropped = predict("entailment", "hypothesis", diff(OUTSIDE_DROPPED))
    assert (dropped.label, dropped.rule) == ("entailment", "edit_generalize_up")


def test_premise_edits_compose_the_other_way_round():
    same = edit("lexical", None, "synonym", "up", "_child_n_1", "_kid_n_1", "child -> kid")
    kept = predict("neutral", "premise", diff(same))
    assert (kept.label, kept.rule, kept.spec) == ("neutral", "premise_same", "same;o")
    exclusive = predict("entailment", "premise", diff(SOCCER_CRICKET))
    assert exclusive.label is None and "no label rule covers sibling;o" in exclusive.reason


def test_a_stronger_or_weaker_premise_gets_no_label():
    """SNLI's labels are typical inferences about one scene, non-monotonic in the premise: "...
    a large stationary replica of Dumbo" defeats "on a moving vehicle" (E), and "A girl is
    smiling at a boy playing baseball." puts into the scene what "A girl is smiling." left out
    (C). The rules cover such edits and say why they give no label."""
    for label in ("entailment", "neutral", "contradiction"):
        more = predict(label, "premise", diff(GARDEN_ADDED))
        assert (more.label, more.rule) == (None, "premise_specialize_up")
        assert "typical inferences" in more.reason and more.spec == "add;o"
        weaker = predict(label, "premise", diff(OUTSIDE_DROPPED))
        assert (weaker.label, weaker.rule) == (None, "premise_generalize_up")
    down = edit("lexical", None, "hypernym", "down", "_puppy_n_1", "_dog_n_1", "puppy -> dog")
    assert predict("entailment", "premise", diff(down)).rule == "premise_generalize_down"
    # the hypothesis side keeps them: P typically implies H, and H |= H' (right weakening)
    assert predict("contradiction", "hypothesis", diff(GARDEN_ADDED)).label == "contradiction"
    assert predict("entailment", "hypothesis", diff(OUTSIDE_DROPPED)).label == "entailment"


def test_no_label_and_why():
    residue = diff(NEG, residue=Residue(("_race_n_1<17:21>",), ()))
    p = predict("entailment", "hypothesis", residue)
    assert p.label is None
    assert p.reason == "hypothesis: the edit is not fully named beside neg (removed _race_n_1<17:21>)"
    unknown = predict("entailment", "premise", diff(edit("argument_added", detail="ARG3 added")))
    assert unknown.reason == "premise: no label rule speaks of a argument_added edit (ARG3 added)"
    two = predict("entailment", "both", (diff(GARDEN_ADDED), diff(SOCCER_CRICKET)))
    assert two.reason.startswith("natural-logic rules label meaning-changing edits of one "
                                 "side; this pair has them on both")
    skipped = predict("-", "hypothesis", diff(NEG))
    assert skipped.label is None and skipped.reason.startswith("no_consensus:")


def test_an_unchanged_meaning_keeps_the_label_by_the_identity_rule():
    p = predict("neutral", "both", (diff(), diff()))
    assert (p.label, p.rule, p.spec) == ("neutral", "identity", "o;o")


def test_every_task_profile_speaks_its_own_labels():
    sst2 = load_task("sst2")
    rules = sst2.load_label_rules()
    passive = predict("positive", "text", diff(edit("pass", "pass")), rules, sides=sst2.sides)
    assert (passive.label, passive.rule) == ("positive", "passive_keeps")
    negated = predict("positive", "text", diff(NEG), rules, sides=sst2.sides)
    assert negated.label is None and negated.rule == "negation_open"
    lexical = predict("positive", "text", diff(SOCCER_CRICKET), rules, sides=sst2.sides)
    assert lexical.reason.startswith("a single-text task's label rules label no")
    rte = load_task("rte")
    p = predict("entailment", "text2", diff(NEG), rte.load_label_rules(), sides=rte.sides)
    assert (p.label, p.rule) == ("not_entailment", "negated_hypothesis")
    no_rules = predict("entailment", "text1", diff(GARDEN_ADDED), rte.load_label_rules(),
                       sides=rte.sides)
    assert no_rules.reason.startswith("text1: no premise-side natural-logic rules")


def test_a_side_the_task_lacks_is_refused():
    with pytest.raises(InputError, match="side 'text'"):
        predict("entailment", "text", diff(NEG), LabelRules.load())


def test_several_edits_of_one_side_compose_into_one_relation():
    man_woman = edit("gender", "gender=swap", "antonym", "up", "_man_n_1", "_woman_n_1",
                     "man -> woman (antonym)")
    p = predict("entailment", "hypothesis", diff(man_woman, SOCCER_CRICKET, OUTSIDE_DROPPED))
    assert (p.label, p.rule, p.spec) == ("contradiction", "edit_exclusive_up",
                                         "o;gender=swap+sibling+drop")
    assert "man -> woman (antonym); soccer -> cricket (cohyponym); outside dropped" in p.rationale
    more = predict("contradiction", "hypothesis", diff(GARDEN_ADDED, GARDEN_ADDED))
    assert (more.label, more.rule) == ("contradiction", "edit_specialize_up")
    both_ways = predict("entailment", "hypothesis", diff(GARDEN_ADDED, OUTSIDE_DROPPED))
    assert both_ways.label is None and "the edits go both ways" in both_ways.reason
    unrelated = edit("lexical", None, "unrelated", "up", "_skirt_n_1", "_shirt_n_1",
                     "skirt -> shirt (unrelated)")
    p = predict("entailment", "hypothesis", diff(unrelated, OUTSIDE_DROPPED))
    assert p.label is None and p.reason.startswith("hypothesis: 2 meaning-changing edits, no "
                                                   "joint relation")
    down = edit("lexical", None, "hyponym", "down", "_dog_n_1", "_puppy_n_1", "dog -> puppy")
    p = predict("entailment", "hypothesis", diff(down, OUTSIDE_DROPPED))  # both more general
    assert (p.label, p.rule) == ("entailment", "edit_generalize_up")


def test_an_exclusive_edit_excludes_whatever_else_changed():
    """An old man is dying. -> A young girl is dying.: old/young exclude each other about one
    scene, whatever the unrelated man -> girl does; under a downward operator they would not."""
    old_young = edit("age", "age=swap", "antonym", "up", "_old_a_1", "_young_a_1",
                     "old -> young (antonym)")
    man_girl = edit("lexical", None, "unrelated", "up", "_man_n_1", "_girl_n_1",
                    "man -> girl (unrelated)")
    p = predict("entailment", "hypothesis", diff(old_young, man_girl))
    assert (p.label, p.rule) == ("contradiction", "edit_exclusive_up")
    under_no = edit("age", "age=swap", "antonym", "down", "_old_a_1", "_young_a_1", "old -> young")
    p = predict("entailment", "hypothesis", diff(under_no, man_girl))
    assert p.label is None and "no joint relation" in p.reason


def test_a_step_the_spec_syntax_does_not_read_gets_no_label():
    p = predict("entailment", "hypothesis", diff(edit("prog", "prog=bool"), NEG))
    assert p.label is None and p.reason.startswith("the edits make no pair spec LIT reads: "
                                                   "bad spec 'o;prog=bool+neg'")


def test_an_added_detail_the_premise_is_silent_on_makes_an_entailed_hypothesis_neutral():
    """Kaushik et al.'s train row 1007 (premise "A band is performing in front of an
    audience."): "The people are playing music." -> "... jazz music." after E. The premise
    names no kind of music, so it leaves the new hypothesis open: N, by
    edit_specialize_up_silent. Without the premise's predicates the stand is unknown and the
    plain rule (no label after E) decides, as in lit nli."""
    jazz = replace(edit("modifier_added", None, "hyponym", "up", None, None,
                        "compound jazz added"),
                   eps_b=("compound<20:24>", "udef_q<20:30>", "_jazz_n_1<20:24>"))
    band = {"_a_q", "_band_n_1", "_perform_v_1", "_in+front+of_p", "_audience_n_1"}
    p = predict("entailment", "hypothesis", diff(jazz), words=Words(band))
    assert (p.label, p.rule, p.spec) == ("neutral", "edit_specialize_up_silent", "o;add")
    assert "premise silent" in p.rationale
    unknown = predict("entailment", "hypothesis", diff(jazz))
    assert unknown.label is None and "edit_specialize_up: maps no label" in unknown.reason
    # a premise that already says jazz supports it: no label
    said = predict("entailment", "hypothesis", diff(jazz),
                   words=Words(band | {"_jazz_n_1"}))
    assert said.label is None and "premise supports" in said.reason


def test_a_premise_that_excludes_the_new_word_gets_no_label():
    """Train row 1019: "An animal is carrying something outdoors." -> "A cat is carrying ..."
    after E, the premise's "A dog carries a large stick": the premise's dog excludes a cat
    (the claim says N; LIT does not decide)."""
    cat = edit("lexical", None, "hyponym", "up", "_animal_n_1<3:9>", "_cat_n_1<2:5>",
               "animal -> cat (hyponym)")
    p = predict("entailment", "hypothesis", diff(cat),
                words=Words({"_a_q", "_dog_n_1", "_carry_v_1", "_stick_n_1"}))
    assert p.label is None and "premise excludes" in p.reason


def test_a_premise_edit_is_labelled_by_what_it_did_to_the_premises_stand():
    """Kaushik et al.'s dev rows 78 and 247 (premise edits; the hypothesis kept): the edited
    premise now states every word of the hypothesis (N -> E), or, made more general, no
    longer states one (E -> N). Without the hypothesis's words (a text that does not assert
    all its words) the older rules decide: a stronger premise gets no label."""
    man, bike = {"_a_q", "_man_n_1", "_blue_a_1", "_jacket_n_1", "_ride_v_1"}, {"_bike_n_1"}
    hyp = {"_a_q", "_man_n_1", "_yellow_a_1", "_bike_n_1", "poss", "pron"}
    yellow = edit("modifier_added", None, "hyponym", "up", None, "_yellow_a_1<40:46>",
                  "yellow added")
    words = Words(man | bike, hyp, man | bike | {"_yellow_a_1"})
    p = predict("neutral", "premise", diff(yellow), words=words)
    assert (p.label, p.rule, p.spec) == ("entailment", "premise_now_supports", "add;o")
    plain = predict("neutral", "premise", diff(yellow), words=Words(man | bike))
    assert plain.label is None and plain.rule == "premise_specialize_up"
    standing = edit("modifier_dropped", None, "hypernym", "up", "_stand_v_1<5:13>", None,
                    "stand dropped")
    lady = {"_lady_n_1", "_outside_p", "_building_n_1"}
    words = Words(lady | {"_stand_v_1"}, {"_the_q", "_lady_n_1", "_stand_v_1"}, lady)
    p = predict("entailment", "premise", diff(standing), words=words)
    assert (p.label, p.rule) == ("neutral", "premise_now_silent")
