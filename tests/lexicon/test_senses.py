"""A substitution keeps the source word's sense (issue 24): 'There is a fire.' became 'There
is a case.' (o;sibling), a co-hyponym of fire under WordNet's grab-bag *happening*."""

from __future__ import annotations

from lit.lexicon import Lexicon, candidates, relation, sense
from lit.logic.edits import Edit


def test_siblings_meet_below_a_specific_hypernym():
    assert "_case_n_of" not in candidates("_fire_n_1", "sibling")
    assert candidates("_fire_n_1", "sibling") == []
    assert relation("_fire_n_1", "_case_n_of") == "unrelated"
    assert "_cat_n_1" in candidates("_dog_n_1", "sibling") or \
        relation("_dog_n_1", "_cat_n_1") == "sibling"
    assert candidates("_guitar_n_1", "sibling")  # musical instruments still meet


def test_ambiguous_nouns_get_no_substitutes_and_verbs_keep_their_first_sense():
    lex = Lexicon.load()
    assert "_bank_n_of" in lex.ambiguous or "_bank_n_1" in lex.ambiguous
    assert all(candidates(p, "hypernym") == [] for p in lex.ambiguous if p.split("_")[-2] == "n")
    assert "_dog_n_1" not in lex.ambiguous and candidates("_dog_n_1", "hypernym")
    assert "_young_a_1" in candidates("_old_a_1", "antonym")


def test_the_sense_used_is_named_and_recorded_in_the_edit():
    assert sense("_fire_n_1") == "fire.n.01"
    assert sense("_table_n_1") == "table.n.02"  # furniture, by override (sense 1 is data)
    edit = Edit("substitute", "_dog_n_1", "_animal_n_1", "ARG1 of _run_v_1", "up", "hypernym")
    assert "_dog_n_1 (dog.n.01) -> _animal_n_1 (animal.n.01)" in edit.describe()
    assert edit.as_dict()["old_sense"] == "dog.n.01"
