"""lit.lexicon.disjoint, lit.lexicon.colour and lit.logic.edits.natural_relation: kinds of
whole object WordNet does not relate are different things, two basic colours exclude each
other (the shipped ERG 2025 mapping)."""

from __future__ import annotations

import pytest

from lit.lexicon import disjoint
from lit.logic.edits import natural_relation


@pytest.mark.parametrize("a, b, relation", [
    ("_bench_n_1", "_plane_n_1", "disjoint"),      # artifacts of unrelated kinds
    ("_street_n_1", "_beach_n_1", "disjoint"),     # a made place and a natural one
    ("_street_n_1", "_river_n_of", "unrelated"),   # a body of water is no object in WordNet
    ("_child_n_1", "_dog_n_1", "disjoint"),        # a person is no animal
    ("_dog_n_1", "_cat_n_1", "sibling"),           # WordNet's own co-hyponyms stay siblings
    ("_dog_n_1", "_animal_n_1", "hypernym"),
    ("_man_n_1", "_student_n_of", "unrelated"),    # two persons: compatible roles
    ("_human_n_1", "_teacher_n_of", "unrelated"),  # WordNet's human is no person.n.01
    ("_fruit_n_1", "_meat_n_1", "unrelated"),      # matter, not whole objects
    ("_dog_n_1", "_music_n_1", "unrelated"),       # an abstraction
])
def test_natural_relation_of_nouns(a, b, relation):
    assert natural_relation(a, b) == relation


def test_disjoint_is_symmetric_and_never_holds_of_one_kind():
    assert disjoint("_bench_n_1", "_plane_n_1") and disjoint("_plane_n_1", "_bench_n_1")
    assert not disjoint("_bench_n_1", "_bench_n_1")
    assert not disjoint("_bench_n_1", "_no+such+word_n_1")  # unmapped


def _group(modifier: str, head: str = "_group_n_of") -> str:
    """'A MODIFIER HEAD plays.' in the ERG's analysis (a compound's modifier is its ARG2)."""
    return ("[ TOP: h0 INDEX: e2 RELS: < [ _a_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ]"
            " [ compound LBL: h7 ARG0: e8 ARG1: x3 ARG2: x9 ]"
            " [ udef_q LBL: h10 ARG0: x9 RSTR: h11 BODY: h12 ]"
            f" [ {modifier} LBL: h13 ARG0: x9 ] [ {head} LBL: h7 ARG0: x3 ]"
            " [ _play_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] >"
            " HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 > ]")


def test_a_compound_modifier_names_no_thing():
    """'a rock group' -> 'a bench group': rock and bench are different kinds of object, but
    the rock of 'rock group' is no rock, so the edit is unrelated, not disjoint (Kaushik et
    al.'s train row 1015 read "well-known" with a noun *well*, then "rock group")."""
    from delphin.codecs import simplemrs

    from lit.diff import diff_mrs
    from lit.logic.edits import names_a_thing

    rock = simplemrs.decode(_group("_rock_n_1"))
    noun = {ep.predicate: ep for ep in rock.rels}
    assert not names_a_thing(rock, noun["_rock_n_1"]) and names_a_thing(rock, noun["_group_n_of"])
    swapped = diff_mrs(rock, simplemrs.decode(_group("_bench_n_1")))
    assert [(e.kind, e.relation) for e in swapped.edits] == [("lexical", "unrelated")]
    heads = diff_mrs(simplemrs.decode(_group("_rock_n_1", "_bench_n_1")),
                     simplemrs.decode(_group("_rock_n_1", "_plane_n_1")))
    assert [(e.kind, e.relation) for e in heads.edits] == [("lexical", "disjoint")]


@pytest.mark.parametrize("a, b, relation", [
    ("_red_a_1", "_blue_a_1", "sibling"),     # two basic colours exclude each other
    ("_white_a_1", "_blue_a_1", "sibling"),
    ("_gray_a_1", "_grey_a_1", "same"),       # one colour, two spellings
    ("_black_a_1", "_white_a_1", "antonym"),  # WordNet's own antonyms stay so
    ("_red_a_1", "_big_a_1", "unrelated"),    # a colour and a size
])
def test_basic_colours(a, b, relation):
    assert natural_relation(a, b) == relation


def test_colour_reads_the_shipped_table():
    from lit.lexicon import colour

    assert colour("_grey_a_1") == colour("_gray_a_1") == "gray"
    assert colour("_red_a_1") == "red" and colour("_navy_a_1") is None
    assert colour("_red_n_1") is None  # adjectives only
