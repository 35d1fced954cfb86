"""A side that fails from the top parse reading in a way that speaks about the reading tries
the next readings (--readings); one whose change the grammar cannot generate does not."""

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
from tests.standin_ace import StandInAce

SENTENCE = "The dog barks."
READING = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: {tense} MOOD: indicative PROG: - PERF: - ]"
           " RELS: < [ _the_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]"
           " [ {noun} LBL: h7 ARG0: x3 ] [ _bark_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] >"
           " HCONS: < h0 qeq h1 h5 qeq h7 > ]")
TOP = READING.format(tense="pres", noun="_dog_n_1")
SECOND = READING.format(tense="pres", noun="_dog_n_2")
PAST_SECOND = READING.format(tense="past", noun="_dog_n_2")
OTHER_TENSE = READING.format(tense="past", noun="_dog_n_3")


PAST_FIRST = READING.format(tense="past", noun="_dog_n_1")


class Grammar(StandInAce):
    """A grammar that realizes the second reading's sense of *dog* as it should; the first's
    only as "The Dog barked." (*top* "defective": verified, but with a defect), as a
    sentence that reads back as the second sense ("unverified"), or not at all ("nothing")."""

    def __init__(self, top: str = "defective"):
        self.top = top

    def parse(self, sentences, n=1):
        for s in sentences:
            readings = ((TOP, OTHER_TENSE, SECOND) if s == SENTENCE else
                        (PAST_FIRST,) if s == "The Dog barked." else (PAST_SECOND,))
            yield ParseResult(s, Status.OK, None, tuple(map(Reading, readings[:n])), 0.0, 0.0)

    def generate(self, mrss, limit=None):
        for m in mrss:
            text = simplemrs.encode(m) if not isinstance(m, str) else m
            said = None
            if "_dog_n_2" in text:
                said = "The dog barked." if "TENSE: past" in text else "The dog barks."
            elif self.top == "defective":
                said = "The Dog barked." if "TENSE: past" in text else "The dog barks."
            elif self.top == "unverified":
                said = "The dog barked."
            if said:
                yield GenerateResult(text, Status.OK, None, (said,), 0.0, 0.0)
            else:
                yield GenerateResult(text, Status.NO_GENERATION, "ACE generated nothing", (),
                                     0.0, 0.0)


def pipeline(readings: int, top: str = "defective") -> Pipeline:
    return Pipeline(
        Grammar(top),
        RuleEngine.load("2025"),
        AceOrderScorer(),
        label_rules=LabelRules.load(),
        options=RunConfig(grammar_version="2025", readings=readings),
    )


def test_the_top_reading_only_with_one_reading():
    (record,) = pipeline(1).transform([SENTENCE], "tense=past")
    assert record["status"] == "not_fluent" and record["reading"] == 0
    assert "changed case" in record["reason"]


def test_a_later_reading_with_the_same_phenomena_rescues_the_side():
    (record,) = pipeline(3).transform([SENTENCE], "tense=past")
    assert record["status"] == "ok", record["reason"]
    assert record["output"] == "The dog barked." and record["verified"]
    assert record["reading"] == 2  # reading 1 is past tense: other phenomena, never tried
    assert "_dog_n_2" in record["mrs"]
    tried = [e["tried"] for e in record["reading_evidence"]]
    assert tried[0].startswith("not_fluent") and tried[1] is None and tried[2] == "ok"


@pytest.mark.parametrize("top, status", [("nothing", "no_generation"),
                                         ("unverified", "not_verified")])
def test_a_change_the_grammar_cannot_realize_is_not_tried_on_other_readings(top, status):
    (record,) = pipeline(3, top).transform([SENTENCE], "tense=past")
    assert record["status"] == status and record["reading"] == 0
    tried = [e["tried"] for e in record["reading_evidence"]]
    assert tried[0].startswith(status) and tried[1:] == [None, None]
