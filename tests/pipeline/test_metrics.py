"""Tailor-style metrics (lit.pipeline.metrics, issue 15) on hand-made `lit nli` records."""

from __future__ import annotations

import pytest

from lit.pipeline.metrics import TailorMetrics, mrs_distance
from lit.pipeline.summary import Summary
from lit.rank.freq import FrequencyScorer
from lit.records import Record

DOG = ("[ TOP: h0 INDEX: e2 RELS: < [ _a_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] "
       "[ _dog_n_1 LBL: h7 ARG0: x3 ] [ _bark_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] > "
       "HCONS: < h0 qeq h1 h5 qeq h7 > ]")
ANIMAL = DOG.replace("_dog_n_1", "_animal_n_1")


def _side(output, mrs=None, verified=True):
    return {"output": output, "mrs": mrs, "verified": verified}


def _record(transforms, premise="A dog barks.", hypothesis="A dog barks."):
    return Record.from_json({"id": "x", "status": "ok",
                             "input": {"premise": premise, "hypothesis": hypothesis},
                             "transforms": transforms})


def _t(spec, status, premise, hypothesis):
    return {"spec": spec, "status": status, "premise": premise, "hypothesis": hypothesis,
            "label": None}


def test_mrs_distance_counts_eps_in_one_and_not_the_other():
    assert mrs_distance(DOG, DOG) == 0
    assert mrs_distance(DOG, ANIMAL) == 2


def test_closeness_fluency_and_controllability_per_spec():
    m = TailorMetrics()
    m.add(_record([
        _t("o;hyper", "ok", _side("A dog barks.", DOG), _side("An animal barks.", ANIMAL)),
        _t("o;quant=no", "no_generation", _side("A dog barks.", DOG), _side(None)),
        _t("o;hypo", "not_applicable", _side(None), _side(None)),
    ]))
    m.add(_record([_t("o;hyper", "not_verified", _side("A dog barks.", DOG),
                      _side("An animal barks.", ANIMAL, verified=False))]))
    got = m.to_json()
    hyper = got["o;hyper"]
    assert hyper["closeness_tokens"] == 2 and hyper["closeness_mrs"] == 2
    freq = FrequencyScorer()
    ratio = 10 ** (freq.per_word("An animal barks.") - freq.per_word("A dog barks."))
    assert ratio > 1 and hyper["fluency_ratio"] == pytest.approx(ratio, abs=1e-3)
    assert hyper["controllability"] == 0.5 and hyper["pairs"]["applied"] == 2
    assert got["o;quant=no"]["controllability"] == 0.0
    assert got["o;quant=no"]["closeness_tokens"] is None
    assert "o;hypo" not in got  # the rules did not apply: nothing to measure


def test_no_mrs_distance_without_the_original_mrs():
    m = TailorMetrics()
    m.add(_record([_t("p;f", "ok", _side("A dog barked.", DOG), _side("A cat will bark.", DOG))],
                  hypothesis="A cat barks."))
    got = m.to_json()["p;f"]
    # premise "A dog barks." -> "A dog barked." (1), hypothesis "A cat barks." -> "A cat will
    # bark." (2); no MRS distance: neither side is the original sentence unchanged
    assert got["closeness_mrs"] is None and got["closeness_tokens"] == 1.5


def test_the_summary_shows_the_metrics():
    s = Summary()
    s.add(_record([_t("o;hyper", "ok", _side("A dog barks.", DOG),
                      _side("An animal barks.", ANIMAL))]))
    assert "tailor: closeness 2.00 tokens, 2.00 EPs" in s.format()
    assert s.to_json()["specs"][0]["tailor"]["controllability"] == 1.0


def test_the_report_has_a_tailor_section_only_when_a_spec_applied():
    from lit.report.build import build_report

    applied = _record([_t("o;hyper", "ok", _side("A dog barks.", DOG),
                          _side("An animal barks.", ANIMAL))])
    html = build_report([applied])
    assert '<section id="tailor">' in html and "<code>o;hyper</code>" in html
    nothing = _record([_t("o;hypo", "not_applicable", _side(None), _side(None))])
    assert '<section id="tailor">' not in build_report([nothing])
