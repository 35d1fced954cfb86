"""A contrast pair is a minimal pair (issue 53): the output is its source with exactly the rule's
edit. On live ERG 2025 answers recorded on the rig (tools/record_minimal_pair_transcripts.py,
tests/data/live/minimal-pairs-erg2025-rig.jsonl.gz) and replayed by the fake ACE: the junk a
new user found on held-out SNLI test pairs is refused, each for its named reason, and a
legitimate edit the old special-case check refused is made. The transcripts hold what the
code before issue 53 asked of ACE too: there each of these cases came out the other way."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from delphin.codecs import simplemrs

import lit
from lit.pipeline.reading import form_not_shown, moved_phrase, weigh
from lit.pipeline.summary import Summary
from lit.rank.explained import implausible, moved_arguments
from lit.rank.minimal import Edit, agreement, refusals
from lit.rank.surface import WordOrder
from lit.rules import RuleEngine
from lit.spec import parse_spec
from lit.status import Status
from tests.fake_ace.fixtures import replaying

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "data/live/minimal-pairs-erg2025-rig.jsonl.gz"
_MRS = re.compile(r'\(:mrs \.\s*"((?:[^"\\]|\\.)*)"\)')
_DERIVATION = re.compile(r'\(:derivation \.\s*"((?:[^"\\]|\\.)*)"\)')

EARTH = "A man operates a piece of earth-moving equipment near a waterway."
YARD = "Men are doing yard work"
SODA = "A girl in a black sweater and jeans pours water into an empty soda bottle."
OCEAN = "A girl pours water into the ocean."
RAKING = "A group of young men are raking lives in front of a home."
DOGS = "The dogs did not bark."


def _unescape(s: str) -> str:
    return s.replace('\\"', '"').replace("\\\\", "\\")


def readings(sentence: str, n: int = 5):
    """(index, MRS, SimpleMRS, derivation) of the recorded parse of *sentence*, first *n*."""
    with gzip.open(TRANSCRIPTS, "rt", encoding="utf-8") as f:
        (rec,) = [r for r in map(json.loads, f) if r["mode"] == "parse" and r["input"] == sentence]
    texts = [_unescape(m) for m in _MRS.findall(rec["stdout"])][:n]
    derivations = [_unescape(d) for d in _DERIVATION.findall(rec["stdout"])][:n]
    return [(k, simplemrs.decode(t), t, d) for k, (t, d) in enumerate(zip(texts, derivations))]


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    ace, grammar = replaying(tmp_path_factory.mktemp("minimal-ace"), TRANSCRIPTS)
    with lit.Engine(ace, grammar, "2025", scorer="ace", workers=1) as engine:
        yield engine


# --- the five cases, end to end -----------------------------------------------------------------

def test_a_name_inside_a_hyphenated_word_is_doubted_so_nothing_is_made(engine):
    # before: "A man may operate a piece of earth-moving equipment to be near a waterway."
    for spec in ("modal=may", "tense=past"):
        r = engine.transform(EARTH, spec)
        assert r["status"] == Status.UNTRUSTED_READING, r["output"]
        assert "the lower-case 'earth' as a name 'Earth'" in r["reason"]


def test_a_number_the_source_does_not_write_is_doubted_and_the_next_reading_used(engine):
    # before: "Yard work are being done by men." (reading 0: the plural-only _works_n_1)
    r = engine.transform(YARD, "pass")
    assert r["status"] == Status.OK and r["output"] == "Yard work is being done by men."
    assert r["reading"] == 1
    doubt = r["reading_evidence"][0]["doubt"]
    assert doubt == "it reads 'work' as 'works', a form the sentence does not write"


def test_a_phrase_the_verb_owns_is_not_carried_along_by_the_passive(engine):
    # before: "Water into the ocean is poured by a girl."
    r = engine.transform(OCEAN, "pass")
    assert r["status"] == Status.OK and r["output"] == "Water is poured by a girl into the ocean."
    assert r["reading"] == 1
    # before: "Water into an empty soda bottle is poured by a girl in a black sweater and jeans."
    r = engine.transform(SODA, "pass")
    assert r["status"] == Status.UNTRUSTED_READING and r["output"] is None
    assert "'jeans' as a name 'Jean'" in r["reason"]


def test_a_changed_agreement_is_refused_and_a_kept_one_made(engine):
    # before: "It was a group of young men who was raking lives in front of a home."
    r = engine.transform(RAKING, "tense=past+cleft")
    assert r["status"] == Status.NOT_FLUENT and r["output"] is None
    assert "changed agreement 'are' ('was')" in r["reason"]
    r = engine.transform(RAKING, "tense=past")
    assert r["status"] == Status.OK
    assert r["output"] == "A group of young men were raking lives in front of a home."


def test_removing_did_not_moves_the_tense_onto_the_verb(engine):
    # before: not_fluent, "changed form 'bark' ('barked')"
    r = engine.transform(DOGS, "aff")
    assert r["status"] == Status.OK and r["output"] == "The dogs barked."


# --- each check on its own, on the recorded readings ---------------------------------------------

def _apply(m, spec: str):
    return RuleEngine.load("2025").apply(m, parse_spec(spec)).mrs


def test_an_insertion_outside_the_verb_group_is_named_with_its_place():
    """Even on the misreading, the word the rule did not add is refused where it stands."""
    _, m, _, _ = readings(EARTH)[0]
    edit = Edit.of(EARTH, m, _apply(m, "modal=may"), WordOrder.STRICT)
    assert edit.defects(EARTH, "A man may operate a piece of earth-moving equipment "
                        "to be near a waterway.") == (
        "unexplained insertion 'to be' before 'near'",)
    assert edit.defects(EARTH, "A man may operate a piece of earth-moving equipment near a "
                        "waterway.") == ()
    dogs = readings(DOGS)[0][1]
    edit = Edit.of(DOGS, dogs, _apply(dogs, "aff"), WordOrder.STRICT)
    assert edit.defects(DOGS, "The dogs barked.") == ()
    assert edit.defects(DOGS, "Loudly the dogs barked.") == (
        "unexplained word 'loudly'", "unexplained insertion 'Loudly' before 'The'")
    # the verb group is "did not bark": what it loses is the rule's, the subject is not
    assert edit.defects(DOGS, "Dogs barked.") == (
        "dropped word 'the'", "unexplained deletion 'The'")


def test_the_reading_checks_on_their_own():
    weighed = weigh(YARD, readings(YARD))
    assert form_not_shown(YARD, weighed[0], weighed[1:]) is not None
    assert form_not_shown(YARD, weighed[1], weighed[:1]) is None
    assert implausible(EARTH, readings(EARTH)[0][1]) == (
        "it reads the lower-case 'earth' as a name 'Earth'")
    weighed = weigh(OCEAN, readings(OCEAN))
    moved = moved_arguments(weighed[0].mrs, _apply(weighed[0].mrs, "pass"))
    assert moved_phrase(OCEAN, weighed[0], weighed[1:], moved) == (
        "moved phrase: it puts 'into the ocean' inside the moved 'water'; reading 1 gives it "
        "to the verb")
    assert moved_phrase(OCEAN, weighed[1], weighed[:1], moved) is None
    # with no reading to give it to the verb, a PP of place or direction still speaks
    assert moved_phrase(OCEAN, weighed[0], [], moved) == (
        "moved phrase: it puts 'into the ocean' inside the moved 'water', a place or "
        "direction the verb's event may own")
    # a rule that moves nothing carries nothing: tense keeps the reading
    assert not moved_arguments(weighed[0].mrs, _apply(weighed[0].mrs, "tense=past"))


def test_agreement_counts_the_number_a_form_shows_and_leaves_a_clefts_copula():
    assert agreement(RAKING, "A group of young men was raking lives.") == [
        "changed agreement 'are' ('was')"]
    assert agreement(RAKING, "It was a group of young men who were raking lives.") == []
    assert agreement(RAKING, "A group of young men may be raking lives.") == []
    assert agreement("A man is running.", "A man was running.") == []
    assert agreement("Two men have left.", "Two men has left.") == [
        "changed agreement 'have' ('has')"]


BEST = "premise: every verified candidate has a defect; the best, 'X y z.', has: "


def test_the_summary_counts_refusals_by_kind():
    reasons = [
        ("not_fluent", BEST + "unexplained insertion 'to be' before 'near'"),
        ("not_fluent", BEST + "changed agreement 'are' ('was'); moved ','"),
        ("untrusted_reading", "premise: reading 0: moved phrase: it puts 'into the ocean' ..."),
        ("untrusted_reading", "premise: no reading in the top 5 is trusted: reading 0: ..."),
        ("not_fluent", BEST + "moved ','"),
    ]
    assert [refusals(s, r) for s, r in reasons] == [
        ["unexplained edit"], ["property changed"], ["moved phrase"], ["reading doubted"],
        ["other defect"]]
    summary = Summary()
    summary.add({"id": "1", "input": {}, "status": "ok", "transforms": [
        {"spec": "p;f", "status": s, "reason": r} for s, r in reasons]})
    assert summary.to_json()["refusals"] == {
        "unexplained edit": 1, "property changed": 1, "moved phrase": 1, "reading doubted": 1,
        "other defect": 1}
    assert "refused transforms by kind: unexplained edit 1, property changed 1" in summary.format()


# --- kinds found while judging held-out slices ---------------------------------------------------

def test_a_moved_phrase_with_an_anaphor_is_not_moved(engine):
    r = engine.transform("Several horsemen are riding past each other carrying flags.", "pass")
    assert r["status"] == Status.UNTRUSTED_READING and r["output"] is None
    assert "holds the anaphor 'each other'" in r["reason"]


def test_a_coordinated_verb_read_as_a_noun_is_doubted():
    sentence = ("A girl in green looks at the camera and stands in front of a huge crowd of "
                "indescript faces.")
    weighed = weigh(sentence, readings(sentence))
    assert weighed[0].doubt == ("it reads 'stands' as a conjoined noun; reading 2 reads it as "
                                "a verb conjoined with the main verb")
    assert weighed[2].doubt is None  # the verbs conjoined: tense=past is not_applicable to it


def test_a_pp_of_direction_stays_with_the_verb(engine):
    # before: "Their horses to the finish line are being raced by the men."
    r = engine.transform("The men are racing their horses to the finish line", "pass")
    assert r["status"] == Status.OK
    assert r["output"] == "Their horses are being raced by the men to the finish line."


def test_an_aspect_word_comes_only_with_a_new_aspect(engine):
    # before: "There will be being no child sitting in a red and yellow toy car."
    r = engine.transform("There is no child sitting in a red and yellow toy car.", "tense=fut")
    assert r["output"] == "There will be no child sitting in a red and yellow toy car."
    # the source's own *being* stays (be no longer takes it from the candidate)
    r = engine.transform("A car is being driven by a man.", "tense=fut")
    assert r["output"] == "A car will be being driven by a man."


def test_a_focused_noun_keeps_its_spelling(engine):
    # before: "It is someone that will be ..." for *Somebody*
    r = engine.transform("Somebody is jumping in the air.", "tense=fut+cleft")
    assert r["status"] == Status.OK and r["output"].startswith("It is somebody ")
