"""What the diff names by shape when no rule step is tried (lit.diff.naming), what it keeps as
residue, and the data model's JSON round trip."""

from __future__ import annotations

from lit.diff import MrsDiff, SentenceDiff, diff_mrs
from lit.diff.align import difference
from lit.diff.naming import name_rest
from tests.diff.examples import find, mrs


def _by_shape(module: str, source: str):
    ex = find(module, source)
    a, b = mrs(ex.source_mrs), mrs(ex.target_mrs)
    return name_rest(a, b, difference(a, b))


def test_substituted_noun_is_lexical_with_its_wordnet_relation():
    named = _by_shape("hyper", "The dog is barking.")
    assert [(e.kind, e.relation, e.polarity) for e in named.edits] == [
        ("lexical", "hypernym", "up")]
    assert named.edits[0].eps_a == ("_dog_n_1",) and named.edits[0].eps_b == ("_animal_n_1",)
    assert named.residue.empty()


def test_dropped_adjective_is_a_dropped_modifier_and_more_general():
    named = _by_shape("drop", "The old dog barked.")
    assert [(e.kind, e.relation) for e in named.edits] == [("modifier_dropped", "hypernym")]


def test_dropped_object_is_a_dropped_argument():
    named = _by_shape("drop", "Abrams is interviewing an applicant.")
    assert [e.kind for e in named.edits] == ["argument_dropped"]
    assert set(named.edits[0].eps_a) == {"_a_q", "_applicant_n_1"}
    assert named.residue.empty()  # the verb's ARG2 goes with the argument


def test_determiner_and_number_changes_are_quantifier_edits():
    every = _by_shape("quant", "A manager works.")
    assert [(e.kind, e.relation) for e in every.edits] == [("quantifier", "hyponym")]
    four = _by_shape("quant", "Three engineers manage a project.")
    assert [(e.kind, e.detail) for e in four.edits] == [("quantifier", "3 -> 4 (sibling)")]


def test_property_changes_are_named_by_the_module_that_makes_them():
    named = _by_shape("tense", "The teacher praised the students.")
    assert [(e.kind, e.step) for e in named.edits] == [("tense", "tense=fut")]
    assert [(e.kind, e.step) for e in _by_shape("ques", "The boy can swim.").edits] == [
        ("ques", "ques")]


def test_added_negation_and_modal_are_named():
    assert [e.kind for e in _by_shape("neg", "Devito is hiring Abrams.").edits] == ["neg"]
    assert [e.kind for e in _by_shape("aff", "Abrams does not work competently.").edits] == [
        "aff"]
    modal = _by_shape("modal", "A woman is driving a car.")
    assert [e.kind for e in modal.edits] == ["modal"]  # the verb's untensed goes with it


SEE = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past MOOD: indicative PROG: - PERF: - ] "
       "RELS: < [ proper_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] "
       "[ named LBL: h7 ARG0: x3 CARG: \"Kim\" ] "
       "[ _see_v_1 LBL: h1 ARG0: e2 ARG1: x3 ARG2: {obj} ] "
       "[ proper_q LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] "
       "[ named LBL: h12 ARG0: x8 CARG: \"Pat\" ] > "
       "HCONS: < h0 qeq h1 h5 qeq h7 h10 qeq h12 > ]")


def test_what_nothing_names_stays_in_the_residue():
    """Kim saw Pat. -> Kim saw Kim (the object now Kim's variable; Pat left unused): no rule
    makes that, so the role and Pat's EPs are residue, not dropped."""
    a, b = mrs(SEE.format(obj="x8")), mrs(SEE.format(obj="x3"))
    diff = diff_mrs(a, b)
    assert not diff.named()
    assert any("ARG2" in line for line in diff.residue.changed), diff.residue


def test_an_edit_chain_names_each_step_in_order():
    from lit.rules import RuleEngine

    a = mrs(find("tense", "A woman is driving a car.").source_mrs)
    target = RuleEngine.load("2025").apply(a, "tense=past+neg").mrs
    diff = diff_mrs(a, target)
    assert sorted(diff.kinds()) == ["neg", "tense"] and diff.named()
    assert {e.step for e in diff.edits} == {"tense=past", "neg=not"}


def test_identical_meanings_are_the_identity_edit():
    a = mrs(find("o", "A woman is driving a car.").source_mrs)
    diff = diff_mrs(a, a, sentences=("A woman is driving a car.", "A woman is driving a car."))
    assert diff.kinds() == ("o",) and diff.named()
    assert (diff.size.eps, diff.size.tokens, diff.size.closeness) == (0, 0, 1.0)


def test_size_counts_eps_and_tokens():
    ex = find("hyper", "The dog is barking.")
    diff = diff_mrs(mrs(ex.source_mrs), mrs(ex.target_mrs), sentences=(ex.source, ex.target))
    assert (diff.size.eps, diff.size.tokens, diff.size.closeness) == (1, 1, 0.8)


def test_json_round_trip():
    ex = find("swap", "Alice gave Bob a book.")
    diff = diff_mrs(mrs(ex.source_mrs), mrs(ex.target_mrs), sentences=(ex.source, ex.target))
    assert MrsDiff.from_dict(diff.to_dict()) == diff
    record = SentenceDiff(ex.source, ex.target, diff, "ok")
    assert SentenceDiff.from_dict(record.to_dict()) == record
    assert record.to_dict()["diff"]["named"] is True
