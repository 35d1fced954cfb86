"""The shipped WordNet -> ERG mapping (lit.lexicon): coverage of the gold ERG 2025 MRSs,
relations and candidates on words whose WordNet relations are textbook cases."""

from __future__ import annotations

import re

import pytest

from lit.lexicon import DEFAULT_MIN_ZIPF, Lexicon, candidates, relation, synset, zipf
from lit.lexicon import semi
from tests.conftest import DATA, read_jsonl

#: Noun and verb predicates as they appear in gold SimpleMRS (with their <from:to> span).
_NV_PRED = re.compile(r"\[ (_[^<\s]+?_[nv](?:_[^<\s]*)?)<")


def test_mapping_covers_90_percent_of_gold_noun_and_verb_predicates() -> None:
    preds: dict[str, int] = {}
    for rec in read_jsonl(DATA / "erg-gold-2025.jsonl.gz"):
        for m in _NV_PRED.finditer(rec["mrs"]):
            preds[m.group(1)] = preds.get(m.group(1), 0) + 1
    mapped = Lexicon.load().preds
    distinct = sum(p in mapped for p in preds) / len(preds)
    tokens = sum(n for p, n in preds.items() if p in mapped) / sum(preds.values())
    print(f"WordNet mapping covers {distinct:.1%} of {len(preds)} distinct gold noun/verb "
          f"predicates ({tokens:.1%} of occurrences)")
    assert distinct >= 0.90 and tokens >= 0.90


@pytest.mark.parametrize("a, b, rel", [
    ("_dog_n_1", "_animal_n_1", "hypernym"),
    ("_animal_n_1", "_dog_n_1", "hyponym"),
    ("_dog_n_1", "_cat_n_1", "sibling"),
    ("_car_n_1", "_truck_n_1", "sibling"),
    ("_man_n_1", "_woman_n_1", "antonym"),
    ("_tall_a_1", "_short_a_1", "antonym"),
    ("_sleep_v_1", "_wake_v_1", "antonym"),
    ("_walk_v_1", "_move_v_1", "hypernym"),
    ("_dog_n_1", "_dog_n_1", "same"),
    ("_dog_n_1", "_car_n_1", "unrelated"),
    ("_dog_n_1", "_the_q", "unrelated"),
])
def test_relation(a: str, b: str, rel: str) -> None:
    assert relation(a, b) == rel


def test_hypernym_candidates_skip_rare_words_unless_asked() -> None:
    offered = candidates("_dog_n_1", "hypernym")
    assert offered[0] == "_animal_n_1"
    assert "_canine_n_1" not in offered and zipf("_canine_n_1") < DEFAULT_MIN_ZIPF
    assert "_canine_n_1" in candidates("_dog_n_1", "hypernym", min_zipf=0)


def test_candidates_are_semi_predicates_of_the_same_part_of_speech() -> None:
    table = semi.table()
    for pred in ("_dog_n_1", "_man_n_1", "_run_v_1", "_walk_v_1", "_big_a_1", "_car_n_1"):
        for rel in ("hypernym", "hyponym", "sibling", "antonym"):
            for cand in candidates(pred, rel, min_zipf=0):
                assert cand in table, (pred, rel, cand)
                assert cand.split("_")[-2] == pred.split("_")[-2]
                assert relation(pred, cand) in (rel, "antonym"), (pred, rel, cand)


def test_max_candidates_and_unknown_predicates() -> None:
    assert len(candidates("_dog_n_1", "sibling", max_candidates=2)) == 2
    assert candidates("_zzz_n_1", "hypernym") == []
    assert synset("_dog_n_1") == "n02084071"
    with pytest.raises(ValueError, match="not a substitution relation"):
        candidates("_dog_n_1", "meronym")


def test_the_abstract_top_of_the_noun_hierarchy_is_never_offered() -> None:
    offered = candidates("_dog_n_1", "hypernym", min_zipf=0)
    assert not {"_entity_n_1", "_object_n_1", "_thing_n_of-about"} & set(offered)


def test_register_variants_are_never_offered() -> None:
    # WordNet files guy and cop as hyponyms of man and policeman, but they are synonyms in
    # use: "A guy ..." for "A man ..." would be labelled neutral where it is entailment.
    assert "_guy_n_1" not in candidates("_man_n_1", "hyponym", min_zipf=0)
    assert "_cop_n_1" not in candidates("_policeman_n_1", "hyponym", min_zipf=0)
    assert relation("_policeman_n_1", "_cop_n_1") == "hyponym"  # still related, not offered
    assert "_puppy_n_1" in candidates("_dog_n_1", "hyponym")


def test_person_nouns_that_are_adjectives_are_no_hyponym_candidates() -> None:
    # "A national rides his bicycle" / "A senior is ..." came out of hypo on SNLI premises
    offered = candidates("_person_n_1", "hyponym", min_zipf=0)
    assert offered and not {"_national_n_1", "_white_n_1", "_modern_n_1", "_senior_n_1"} & set(
        offered)
    assert "_adult_n_1" in candidates("_man_n_1", "hypernym")  # hypernyms keep theirs


def test_girl_is_a_child_so_woman_is_no_hypernym() -> None:
    # tools/wordnet-overrides.tsv: SNLI's girl is WordNet's sense 2 (female child)
    assert relation("_girl_n_1", "_woman_n_1") != "hypernym"
    assert "_woman_n_1" not in candidates("_girl_n_1", "hypernym", min_zipf=0)
    assert relation("_girl_n_1", "_boy_n_1") == "antonym"
