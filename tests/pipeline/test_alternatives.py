"""A transformation with several outputs (a table lookup: one per hypernym) is realized in
table order until one verifies, at most --max-alternatives of them (docs/pipeline.md)."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.service import GenerateResult, ParseResult, Reading
from lit.config import RunConfig
from lit.labels import LabelRules
from lit.pipeline.core import Pipeline
from lit.rank import AceOrderScorer
from lit.rules.engine import RuleEngine
from lit.status import Status
from lit.tasks.item import TaskItem
from tests.standin_ace import StandInAce

SENTENCE = "A dog is barking."
READING = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: + PERF: - ]"
           " RELS: < [ _a_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]"
           " [ {noun} LBL: h7 ARG0: x3 ] [ _bark_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] >"
           " HCONS: < h0 qeq h1 h5 qeq h7 > ]")
#: hyper.tsv's rows for _dog_n_1, in table order: animal, beast, creature
WORDS = {"_dog_n_1": "dog", "_animal_n_1": "animal", "_beast_n_1": "beast",
         "_creature_n_1": "creature"}


class Grammar(StandInAce):
    """Parses "A X is barking." to the reading with X's predicate; generates only the nouns
    in *generates* (ACE's "no realization" for the others)."""

    def __init__(self, generates: set[str]):
        self.generates = generates
        self.generated: list[str] = []

    def parse(self, sentences, n=1):
        for s in sentences:
            noun = next(p for p, w in WORDS.items() if f" {w} " in f" {s.lower()} ")
            yield ParseResult(s, Status.OK, None, (Reading(READING.format(noun=noun)),), 0, 0)

    def generate(self, mrss, limit=None):
        for m in mrss:
            noun = next(p for p in WORDS if any(ep.predicate == p for ep in m.rels))
            self.generated.append(noun)
            text = simplemrs.encode(m)
            if noun in self.generates:
                article = "An" if WORDS[noun][0] in "aeiou" else "A"
                yield GenerateResult(text, Status.OK, None,
                                     (f"{article} {WORDS[noun]} is barking.",), 0, 0)
            else:
                yield GenerateResult(text, Status.NO_GENERATION, "ACE generated nothing", (), 0, 0)


def pipeline(grammar: Grammar, max_alternatives: int = 3) -> Pipeline:
    """No round trip: these tests count the transformed MRSs generated."""
    return Pipeline(
        grammar,
        RuleEngine.load("2025"),
        AceOrderScorer(),
        label_rules=LabelRules.load(),
        options=RunConfig(
            grammar_version="2025", max_alternatives=max_alternatives, round_trip=False
        ),
    )


def test_the_first_alternative_that_verifies_is_the_output_with_its_provenance():
    grammar = Grammar({"_beast_n_1", "_creature_n_1"})
    (record,) = pipeline(grammar).transform([SENTENCE], "hyper")
    assert record["status"] == "ok", record["reason"]
    assert record["output"] == "A beast is barking." and record["verified"]
    assert "_beast_n_1" in record["mrs"]
    alt = record["alternatives"]
    assert alt["used"] == 1 and alt["tried"] == 2 and alt["available"] >= 3
    assert alt["failed"] == [{"index": 0, "predicates": ["_animal_n_1"],
                              "status": "no_generation", "reason": "ACE generated nothing"}]
    assert grammar.generated == ["_animal_n_1", "_beast_n_1"]  # creature never generated


def test_the_first_alternative_is_kept_when_it_verifies():
    (record,) = pipeline(Grammar(set(WORDS))).transform([SENTENCE], "hyper")
    assert record["output"] == "An animal is barking."
    assert record["alternatives"]["used"] == 0 and record["alternatives"]["failed"] == []


@pytest.mark.parametrize("limit", [1, 2])
def test_at_most_max_alternatives_are_tried_and_the_first_failure_is_reported(limit):
    grammar = Grammar({"_creature_n_1"})  # only the third would generate
    (record,) = pipeline(grammar, max_alternatives=limit).transform([SENTENCE], "hyper")
    assert record["status"] == "no_generation" and record["output"] is None
    assert "_animal_n_1" in record["mrs"]  # the first alternative's failure
    assert record["alternatives"]["used"] is None
    assert record["alternatives"]["tried"] == limit
    assert [f["predicates"] for f in record["alternatives"]["failed"]] == [
        ["_animal_n_1"], ["_beast_n_1"]][:limit]
    assert "_creature_n_1" not in grammar.generated


def test_a_single_output_has_no_alternatives_field():
    (record,) = pipeline(Grammar(set(WORDS))).transform([SENTENCE], "tense=past")
    assert record["alternatives"] is None


def test_generation_is_cached_across_alternatives_and_batches():
    grammar = Grammar({"_beast_n_1"})
    p = pipeline(grammar)
    p.transform([SENTENCE], "hyper")
    p.transform([SENTENCE], "hyper")
    assert grammar.generated == ["_animal_n_1", "_beast_n_1"]


def test_the_label_is_decided_on_the_alternative_realized():
    item = TaskItem("1", 1, {}, (SENTENCE, SENTENCE))
    (record,) = pipeline(Grammar({"_beast_n_1"})).nli([item], ["o;hyper"])
    (t,) = record["transforms"]
    assert t["status"] == "ok", t["reason"]
    assert t["hypothesis"]["output"] == "A beast is barking."
    assert t["label"] == "entailment" and "_beast_n_1" in t["label_rationale"]
