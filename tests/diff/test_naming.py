"""What the diff names by shape when no rule step is tried (lit.diff.naming), what it keeps as
residue, and the data model's JSON round trip."""

from __future__ import annotations

from lit.diff import MrsDiff, SentenceDiff, diff_mrs
from lit.diff.difference import difference
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


EVERY_DOG = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past ] "
             "RELS: < [ _every_q LBL: h4 ARG0: x3 [ x NUM: sg ] RSTR: h5 BODY: h6 ] "
             "[ _dog_n_1 LBL: h7 ARG0: x3 ] {mod}"
             "[ _bark_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]")
OLD = "[ _old_a_1 LBL: h7 ARG0: e8 ARG1: x3 ] "


def _kinds_polarities(a: str, b: str) -> list[tuple[str, str | None, str | None]]:
    ma, mb = mrs(a), mrs(b)
    return [(e.kind, e.relation, e.polarity) for e in name_rest(ma, mb, difference(ma, mb)).edits]


def test_a_modifier_edit_has_the_polarity_of_the_head_it_modifies():
    """every's restrictor is downward: adding 'old' there makes the sentence weaker, which the
    `edit hyponym at down` rules can only decide when the edit says where it is."""
    plain, old = EVERY_DOG.format(mod=""), EVERY_DOG.format(mod=OLD)
    assert _kinds_polarities(plain, old) == [("modifier_added", "hyponym", "down")]
    assert _kinds_polarities(old, plain) == [("modifier_dropped", "hypernym", "down")]
    assert _by_shape("drop", "The old dog barked.").edits[0].polarity == "up"


EAT = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past ] "
       "RELS: < [ proper_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] "
       "[ named LBL: h7 ARG0: x3 CARG: \"Kim\" ] "
       "[ neg LBL: h1 ARG0: e9 ARG1: h10 ] "
       "[ _eat_v_1 LBL: h11 ARG0: e2 ARG1: x3 ARG2: {obj} ] {apple}> "
       "HCONS: < h0 qeq h1 h5 qeq h7 h10 qeq h11 {qeq}> ]")
APPLE = ("[ _a_q LBL: h12 ARG0: x8 RSTR: h13 BODY: h14 ] [ _apple_n_1 LBL: h15 ARG0: x8 ] ",
         "h13 qeq h15 ")


def test_an_argument_edit_has_the_polarity_of_the_predicate_taking_it():
    """Kim did not eat. -> Kim did not eat an apple.: the verb is under not (down)."""
    bare = EAT.format(obj="i8", apple="", qeq="")
    apple = EAT.format(obj="x8", apple=APPLE[0], qeq=APPLE[1])
    assert _kinds_polarities(bare, apple) == [("argument_added", "hyponym", "down")]
    assert _kinds_polarities(apple, bare) == [("argument_dropped", "hypernym", "down")]
    assert _by_shape("drop", "Abrams is interviewing an applicant.").edits[0].polarity == "up"


DOGS = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past ] "
        "RELS: < [ {q} LBL: h4 ARG0: x3 [ x NUM: {num} ] RSTR: h5 BODY: h6 ] "
        "[ {noun} LBL: h7 ARG0: x3 ] {card}"
        "[ _bark_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]")
TWO = "[ card LBL: h7 ARG0: e9 ARG1: x3 CARG: \"2\" ] "


def test_number_edits_have_a_relation():
    """A dog barked. -> Dogs barked.: one and more than one exclude each other about one scene
    (a sibling, as different numbers are); Dogs barked. -> Two dogs barked.: more specific;
    A dog barked. -> Cats barked.: the number goes with the new word."""
    dog = DOGS.format(q="_a_q", num="sg", noun="_dog_n_1", card="")
    dogs = DOGS.format(q="udef_q", num="pl", noun="_dog_n_1", card="")
    two = DOGS.format(q="udef_q", num="pl", noun="_dog_n_1", card=TWO)
    cats = DOGS.format(q="udef_q", num="pl", noun="_cat_n_1", card="")
    assert ("quantifier", "sibling", "up") in _kinds_polarities(dog, dogs)
    assert _kinds_polarities(dogs, two) == [("quantifier", "hyponym", "up")]
    assert _kinds_polarities(two, dogs) == [("quantifier", "hypernym", "up")]
    assert ("quantifier", "same", "up") in _kinds_polarities(dog, cats)


def test_a_modifier_of_a_number_has_no_relation():
    """At least two dogs barked. -> Two dogs barked.: not more general, so no relation (and no
    polarity for natural logic to read)."""
    at_least = "[ _at+least_x_deg LBL: h7 ARG0: e10 ARG1: e9 ] "
    two = DOGS.format(q="udef_q", num="pl", noun="_dog_n_1", card=TWO)
    more = DOGS.format(q="udef_q", num="pl", noun="_dog_n_1", card=TWO + at_least)
    assert _kinds_polarities(more, two) == [("modifier_dropped", None, None)]
    on_verb = "[ _at+least_a_1 LBL: h1 ARG0: e10 ARG1: e2 ] "  # the ERG's adverb reading
    more = DOGS.format(q="udef_q", num="pl", noun="_dog_n_1", card=TWO + on_verb)
    assert _kinds_polarities(more, two) == [("modifier_dropped", None, None)]


def test_person_co_hyponyms_are_named_unrelated():
    """A child barked. -> A boy barked.: a boy is a child, so no exclusive sibling edit."""
    child = DOGS.format(q="_a_q", num="sg", noun="_child_n_1", card="")
    boy = DOGS.format(q="_a_q", num="sg", noun="_boy_n_1", card="")
    assert _kinds_polarities(child, boy) == [("lexical", "unrelated", "up")]
