"""A side that fails from the top parse reading tries the next readings (--readings)."""

from __future__ import annotations

from delphin.codecs import simplemrs

from lit.ace.service import GenerateResult, ParseResult, Reading
from lit.labels import LabelRules
from lit.pipeline.core import Pipeline
from lit.rank import AceOrderScorer
from lit.rules.engine import RuleEngine
from lit.status import Status

SENTENCE = "The dog barks."
READING = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: {tense} MOOD: indicative PROG: - PERF: - ]"
           " RELS: < [ _the_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]"
           " [ {noun} LBL: h7 ARG0: x3 ] [ _bark_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] >"
           " HCONS: < h0 qeq h1 h5 qeq h7 > ]")
TOP = READING.format(tense="pres", noun="_dog_n_1")
SECOND = READING.format(tense="pres", noun="_dog_n_2")
PAST_SECOND = READING.format(tense="past", noun="_dog_n_2")
OTHER_TENSE = READING.format(tense="past", noun="_dog_n_3")


class Grammar:
    """A grammar that can generate the second reading's sense of *dog* but not the first's."""

    config = None

    def parse(self, sentences, n=1):
        for s in sentences:
            readings = (TOP, OTHER_TENSE, SECOND) if s == SENTENCE else (PAST_SECOND,)
            yield ParseResult(s, Status.OK, None, tuple(map(Reading, readings[:n])), 0.0, 0.0)

    def generate(self, mrss, limit=None):
        for m in mrss:
            text = simplemrs.encode(m) if not isinstance(m, str) else m
            if "_dog_n_2" in text:
                yield GenerateResult(text, Status.OK, None, ("The dog barked.",), 0.0, 0.0)
            else:
                yield GenerateResult(text, Status.NO_GENERATION, "ACE generated nothing", (),
                                     0.0, 0.0)


def pipeline(readings: int) -> Pipeline:
    return Pipeline(Grammar(), RuleEngine.load("2025"), AceOrderScorer(), grammar_version="2025",
                    label_rules=LabelRules.load(), readings=readings)


def test_top_reading_only_by_default():
    (record,) = pipeline(1).transform([SENTENCE], "tense=past")
    assert record["status"] == "no_generation" and record["reading"] == 0


def test_a_later_reading_with_the_same_phenomena_rescues_the_side():
    (record,) = pipeline(3).transform([SENTENCE], "tense=past")
    assert record["status"] == "ok", record["reason"]
    assert record["output"] == "The dog barked." and record["verified"]
    assert record["reading"] == 2  # reading 1 is past tense: other phenomena, never tried
    assert "_dog_n_2" in record["mrs"]
