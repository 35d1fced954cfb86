"""Surface repair (issue 34): align a realization with its source and put the source's surface
back wherever the rule did not change the words; the realizer verifies each repair like any
candidate and records what it changed."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.service import GenerateResult, ParseResult, Reading
from lit.config import RunConfig
from lit.pipeline.realize import REPAIRS, Job, Realizer
from lit.rank import AceOrderScorer
from lit.rank.closeness import edit_distance, measure
from lit.rank.freq import FrequencyScorer
from lit.rank.surface import WordOrder, align_words, differences, moves_words, repair, tokenize
from tests.standin_ace import StandInAce

GROUP = "A small group of young black men, some in traditional African dress, are assembled outdoors."



def fixed(source: str, candidate: str) -> str | None:
    r = repair(source, candidate)
    return r.surface if r else None


def test_reordered_modifiers_are_put_back_in_the_sources_order():
    cand = "A small group of black young men, some in African traditional dress, may be assembled outdoors."
    assert differences(align_words(GROUP, cand)) == ["moved 'black'", "moved 'african'"]
    r = repair(GROUP, cand)
    assert r.surface == ("A small group of young black men, some in traditional African dress, "
                         "may be assembled outdoors.")
    assert r.original == cand and r.changes == ("moved 'black'", "moved 'african'")
    assert fixed("A man with a shopping cart is studying the shelves.",
                 "Was a man with a cart shopping studying the shelves?") == (
        "Was a man with a shopping cart studying the shelves?")


def test_dropped_and_added_commas_and_non_words_are_put_right_around_the_rules_words():
    cand = "A small group of young black mans some in traditional African dress may be assembled outdoors."
    assert differences(align_words(GROUP, cand)) == ["dropped ','", "dropped ','"]
    assert fixed(GROUP, cand) == (
        "A small group of young black men, some in traditional African dress, may be assembled "
        "outdoors.")  # the comma goes before the rule's "may be", where the source had it
    assert fixed("The men are here.", "The men, will be here.") == "The men will be here."
    assert "non-word 'Mans'" in repair("Men were working.", "Mans will be working.").changes


@pytest.mark.parametrize("source, candidate, defect, repaired", [
    ("A woman in a white t-shirt points at a geyser.",
     "A woman in a white t shirt may point at a geyser.",
     "split hyphen 't-shirt' ('t shirt')", "A woman in a white t-shirt may point at a geyser."),
    ("A man pulls a bicycle-driven cart.", "A man pulled a driven bicycle cart.",
     "split hyphen 'bicycle-driven' ('driven bicycle')", "A man pulled a bicycle-driven cart."),
    ("He sent an e-mail.", "He will send an email.", "joined hyphen 'e-mail' ('email')",
     "He will send an e-mail."),
    ("A child eats ice cream.", "A child ate icecream.", "joined 'ice cream' ('icecream')",
     "A child ate ice cream."),
    ("A well known man sings.", "A well-known man sang.", "added hyphen 'well known' "
     "('well-known')", "A well known man sang."),
])
def test_hyphenated_compounds(source, candidate, defect, repaired):
    assert defect in measure(source, candidate).defects
    assert fixed(source, candidate) == repaired
    assert measure(source, repaired).defects == ()


def test_names_keep_the_sources_case_and_a_sentence_start_its_own():
    assert differences(align_words("Alice met Bob in Paris.", "Alice will meet Bob in paris.")) == [
        "changed case 'Paris' ('paris')"]
    assert fixed("Alice met Bob in Paris.", "Alice will meet Bob in paris.") == (
        "Alice will meet Bob in Paris.")
    assert fixed("A man walks through a city alley.", "A man may walk through a city Alley.") == (
        "A man may walk through a city alley.")
    # the source's first word is capitalised for its place, not for itself
    assert differences(align_words("A man ran.", "Did a man run?")) == []
    assert differences(align_words("Alice saw Bob.", "Did Alice see Bob?")) == []
    assert fixed("A woman is talking on the phone.", "On the phone a woman was talking.") == (
        "A woman on the phone was talking.")  # "talking" moved across the rule's "was": kept


def test_numbers_and_apostrophes_are_written_as_the_source_wrote_them():
    assert [t.text for t in tokenize("He paid 1,000 dollars, or 3.5 each.")] == [
        "He", "paid", "1,000", "dollars", ",", "or", "3.5", "each", "."]
    assert measure("He paid 1,000 dollars.", "He will pay 1000 dollars.").defects == (
        "changed spelling '1,000' ('1000')",)
    assert fixed("He paid 1,000 dollars.", "He will pay 1000 dollars.") == (
        "He will pay 1,000 dollars.")
    assert fixed("The woman's hands are empty.", "The woman ’s hands will be empty.") == (
        "The woman's hands will be empty.")
    assert fixed("Two men are here.", "2 men were here.") is None  # a different word: the rule's


def test_quotes_are_put_back_where_the_source_had_them():
    source = 'A sign says "stop" in red.'
    cand = "A sign said stop in red."
    assert measure(source, cand).defects == ("dropped '\"'", "dropped '\"'")
    assert fixed(source, cand) == 'A sign said "stop" in red.'
    assert fixed('"Hello," she says.', "Hello she said.") == '"Hello," she said.'


def test_the_rules_words_go_where_the_words_they_replace_were():
    # a cleft's relative pronoun stays after the moved participle, not inside it
    assert fixed("A blond singer wearing a black shirt is singing into the microphone.",
                 "It is a blond singer that is singing into the microphone wearing a black "
                 "shirt.") == ("It is a blond singer wearing a black shirt that is singing into "
                               "the microphone.")
    assert fixed('A sign says "stop" now, today.', "A sign said stop now today.") == (
        'A sign said "stop" now, today.')


def test_the_rules_own_moves_and_words_are_not_defects_and_not_repaired():
    for source, cand in [("A man drove a car.", "A car was driven by a man."),
                         ("The boy can swim.", "Can the boy swim?"),
                         ("She is driving.", "Is she driving?"),
                         ("A woman is walking.", "It is a woman who is walking."),
                         ("A biker wearing a t-shirt is jumping.",
                          "A biker wearing a t-shirt will be jumping.")]:
        assert differences(align_words(source, cand)) == [], cand
        assert repair(source, cand) is None, cand


def test_a_rule_that_moves_words_has_its_moves_kept():
    swap = (("A woman is driving a car.", "A car is driving a woman."),)
    assert moves_words(swap) and not moves_words(
        (("A woman is driving a car.", "A car is being driven by a woman."),
         ("The boy can swim.", "Can the boy swim?"),
         ("The teacher praised the students.", "It is the students who the teacher praised.")))
    source, cand = "A man sees a young black dog.", "A young black dog sees a man."
    moved = measure(source, cand).defects
    assert moved and all(d.startswith("moved ") for d in moved)
    assert measure(source, cand, WordOrder.FREE).defects == ()
    assert repair(source, cand, WordOrder.FREE) is None
    grammar = Grammar(["A black young man will run."], verifies=set())
    (r,) = Realizer(grammar, AceOrderScorer()).realize(
        [Job(simplemrs.decode(TARGET), SOURCE, examples=swap)])
    assert r.candidates == ("A black young man will run.",) and r.scores[0].defects == ()


def test_distance_counts_a_swap_of_neighbours_as_one_edit():
    src = "a young black man".split()
    assert edit_distance(src, "a black young man".split(), transpositions=True) == 1
    assert edit_distance(src, "a black young man".split()) == 2
    assert edit_distance(src, "young a man black".split(), transpositions=True) == 2
    source = "A young black man is running."
    assert (measure(source, "A young black man was running.").distance
            < measure(source, "A black young man was running.").distance)


# --- the realizer: repair, then verify -----------------------------------------------------

TARGET = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: fut MOOD: indicative PROG: - PERF: - ]"
          " RELS: < [ _a_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]"
          " [ _young_a_1 LBL: h7 ARG0: e8 ARG1: x3 ] [ _black_a_1 LBL: h7 ARG0: e9 ARG1: x3 ]"
          " [ _man_n_1 LBL: h7 ARG0: x3 ] [ _run_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] >"
          " HCONS: < h0 qeq h1 h5 qeq h7 > ]")
OTHER = TARGET.replace("_run_v_1", "_walk_v_1")
SOURCE = "A young black man runs."


class Grammar(StandInAce):
    """Generates *realizations*; a sentence re-parses to the target iff it is in *verifies*."""

    def __init__(self, realizations: list[str], verifies: set[str]):
        self.realizations, self.verifies = realizations, verifies
        self.parsed: list[str] = []

    def generate(self, mrss, limit=None):
        for m in mrss:
            yield GenerateResult(simplemrs.encode(m), "ok", None, tuple(self.realizations), 0, 0)

    def parse(self, sentences, n=1):
        for s in sentences:
            self.parsed.append(s)
            yield ParseResult(s, "ok", None, (Reading(TARGET if s in self.verifies else OTHER),),
                              0, 0)


@pytest.mark.parametrize("scorer", [AceOrderScorer(), FrequencyScorer()], ids=lambda s: s.name)
def test_a_verified_repair_beats_every_reordered_candidate(scorer):
    reordered = ["A black young man will run.", "A black, young man will run."]
    grammar = Grammar(reordered, verifies={*reordered, "A young black man will run."})
    (r,) = Realizer(grammar, scorer).realize([Job(simplemrs.decode(TARGET), SOURCE)])
    assert r.output == "A young black man will run." and r.verified
    winner = r.scores[r.candidates.index(r.output)]
    assert winner.defects == () and winner.repair.original in reordered
    assert winner.to_json()["repaired"]["changes"][0] == "moved 'black'"
    assert "the source's surface put back into" in r.chosen_because
    assert grammar.parsed[0] == r.output  # the repair ranks first: one re-parse decided


def test_a_repair_that_does_not_verify_is_dropped_and_the_best_candidate_stays():
    grammar = Grammar(["A black young man will run."], verifies={"A black young man will run."})
    (r,) = Realizer(grammar, AceOrderScorer(), options=RunConfig(allow_defects=True)).realize(
        [Job(simplemrs.decode(TARGET), SOURCE)])
    assert r.output == "A black young man will run."
    assert "A young black man will run." in r.candidates  # tried: re-parsed, not equivalent
    assert grammar.parsed == ["A young black man will run.", "A black young man will run."]


def test_only_the_best_few_defective_candidates_are_repaired():
    words = ["fast", "now", "there", "home", "away", "off"]
    grammar = Grammar([f"A black young man will run {w}." for w in words], verifies=set())
    realizer = Realizer(grammar, AceOrderScorer())
    (r,) = realizer.realize([Job(simplemrs.decode(TARGET), SOURCE)])
    repaired = [s for s in r.scores if s.repair]
    assert realizer.stats["candidates repaired"] == len(repaired) == REPAIRS < len(words)
    assert all(s.surface.startswith("A young black man will run") for s in repaired)
    (r,) = Realizer(grammar, AceOrderScorer()).realize([Job(simplemrs.decode(TARGET))])
    assert not any(s.repair for s in r.scores)  # no source, nothing to repair against


def test_a_source_in_lower_case_keeps_its_first_word_where_both_start_the_sentence():
    """*three children are locked in a cage.* (an SNLI test hypothesis) -> the generator's
    capital is put back to the source's case; a rule's first word keeps its own."""
    src = "three children are locked in a cage."
    r = repair(src, "Three children may be locked in a cage.", WordOrder.STRICT)
    assert r is not None and r.surface == "three children may be locked in a cage."
    assert r.changes == ("changed case 'three' ('Three')",)
    assert repair(src, "Are three children locked in a cage?") is None
    assert differences(align_words("Three men sit.", "Three men sat.")) == []
