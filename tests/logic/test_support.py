"""lit.logic.support: the premise's stand on what an edit brought into the hypothesis, read
word by word with the shipped lexicon's relations (real ERG 2025 predicates)."""

from __future__ import annotations

import pytest

from lit.logic.support import content, edit_stand, premise_stand


def test_only_open_class_words_count():
    preds = ["_a_q", "_red_a_1", "_in_p_loc", "compound", "udef_q", "_jazz_n_1", "_be_v_id",
             "_amish/jj_u_unknown", "_look_v_up", "_very_x_deg", "_red_a_1", "named(Seattle)",
             "card(3)", "poss"]
    assert content(preds) == ["_red_a_1", "_jazz_n_1", "_amish/jj_u_unknown", "_look_v_up",
                              "named(Seattle)", "card(3)"]


@pytest.mark.parametrize("new, premise, stand", [
    # "A man and his dog ..." -> "... his puppy": the premise names only something more general
    (["_puppy_n_1"], ["_man_n_1", "_dog_n_1", "_grill_v_1"], "silent"),
    # "A dog carries a stick" -> "A cat is carrying ...": the premise's dog excludes a cat
    (["_cat_n_1"], ["_dog_n_1", "_carry_v_1", "_stick_n_1"], "excludes"),
    # a new "animal" where the premise has a dog: a more specific word supports it
    (["_animal_n_1"], ["_dog_n_1"], "supports"),
    (["_red_a_1"], ["_red_a_1", "_shirt_n_1"], "supports"),
    # "The boy pointed at a man.": the preposition says nothing, the man is new
    (["_at_p_state", "_a_q", "_man_n_1"], ["_boy_n_1", "_point_v_to"], "silent"),
    # one silent word is enough: "... holding hands" where the premise has no hand
    (["_hold_v_1", "_hand_n_1"], ["_hold_v_1", "_umbrella_n_1"], "silent"),
    # a word the premise both supports and excludes (dog and cat both there) is supported
    (["_cat_n_1"], ["_dog_n_1", "_cat_n_1"], "supports"),
    # nothing open-class added: nothing to check
    (["_in_p_loc", "_the_q"], ["_dog_n_1"], None),
])
def test_premise_stand(new, premise, stand):
    assert premise_stand(new, premise) == stand


def test_a_different_kind_of_object_in_the_premise_is_silent_not_exclusive():
    """One scene holds many things: "... holding a microphone" says nothing against a new
    sandwich or bench (disjoint kinds), while a sibling recasts the same thing and abstains."""
    assert premise_stand(["_bench_n_1"], ["_man_n_1", "_plane_n_1"]) == "silent"


@pytest.mark.parametrize("hypothesis, before, after, stand", [
    # Kaushik et al.'s dev row 26: "... drinking out of a metal cup." -> "... drinking coffee
    # out of a metal cup.", hypothesis "The young man is drinking coffee.": now supported
    (["_young_a_1", "_man_n_1", "_drink_v_1", "_coffee_n_1"],
     ["_young_a_1", "_man_n_1", "_drink_v_1", "_metal_n_1", "_cup_n_1"],
     ["_young_a_1", "_man_n_1", "_drink_v_1", "_coffee_n_1", "_metal_n_1", "_cup_n_1"],
     "supports"),
    # a short man where the hypothesis has a tall one (antonyms either way round): excluded
    (["_tall_a_1", "_man_n_1"], ["_old_a_1", "_man_n_1"],
     ["_short_a_of", "_old_a_1", "_man_n_1"], "excludes"),
    # "Lady standing outside ..." -> "Lady outside ...", hypothesis "the lady is standing"
    (["_lady_n_1", "_stand_v_1"], ["_lady_n_1", "_stand_v_1", "_outside_p"],
     ["_lady_n_1", "_outside_p"], "silent"),
    # the edit changes nothing the hypothesis says: no stand
    (["_man_n_1"], ["_man_n_1", "_red_a_1"], ["_man_n_1", "_blue_a_1"], None),
    # a name must be the same name: "the bird is Red" is not supported by any bird
    (["_bird_n_1", "named(Red)"], ["_player_n_of"], ["_player_n_of", "_bird_n_1"], None),
    # train row 1309: "A two year old toddler ..." for "... about three years old": numbers
    # exclude each other
    (["_toddler_n_1", "card(3)", "_year_n_1", "_old_a_1"], ["_toddler_n_1"],
     ["_toddler_n_1", "card(2)", "_year_n_1", "_old_a_1"], "excludes"),
])
def test_edit_stand(hypothesis, before, after, stand):
    assert edit_stand(hypothesis, before, after) == stand
