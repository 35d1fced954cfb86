"""lit.logic.edits.natural_relation: the lexicon's relation as natural logic reads it."""

from __future__ import annotations

from lit.lexicon import person, relation
from lit.logic.edits import natural_relation


def test_person_co_hyponyms_are_not_exclusive():
    """A child may be a boy, a man a student: WordNet's co-hyponyms below person.n.01 are
    mostly compatible roles, so natural logic reads them as unrelated, not as siblings."""
    assert relation("_child_n_1", "_boy_n_1") == "sibling"
    assert person("_child_n_1") and person("_boy_n_1") and not person("_dog_n_1")
    assert natural_relation("_child_n_1", "_boy_n_1") == "unrelated"
    assert natural_relation("_man_n_1", "_boy_n_1") == "unrelated"


def test_other_relations_are_the_lexicons():
    assert natural_relation("_dog_n_1", "_cat_n_1") == "sibling"
    assert natural_relation("_man_n_1", "_woman_n_1") == "antonym"  # the exclusive person pairs
    assert natural_relation("_dog_n_1", "_animal_n_1") == "hypernym"
    assert natural_relation("_child_n_1", "_boy_n_1", "hyponym") == "hyponym"  # as given
