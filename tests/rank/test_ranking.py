"""Ranking: preferences, defects and closeness decide among candidates, whatever the scorer."""

from __future__ import annotations

import pytest
from delphin import semi
from delphin.codecs import simplemrs

from lit.pipeline.standins import restore, standins, substitute
from lit.rank import AceOrderScorer, get_scorer
from lit.rank.closeness import measure, nonwords
from lit.rank.freq import FrequencyScorer
from lit.rank.ranking import order, why
from tests.conftest import DATA, Reversed


class Initial:
    """A stand-in for a rule module's `prefer ... initial (...)`."""

    name = "inverted"

    def holds(self, surface: str) -> bool:
        return surface.split()[0].lower() in {"did", "is", "will"}


SCORERS = [AceOrderScorer(), FrequencyScorer(), Reversed()]


def test_nonwords_come_from_the_ergs_irregular_forms():
    table = nonwords()
    assert table["mans"] == "men" and table["womans"] == "women"
    assert table["childs"] == "children" and table["teached"] == "taught"
    assert "dreamed" not in table  # the ERG lists both dreamed and dreamt


def test_defects_are_measured_against_the_source():
    src = "A man with a shopping cart is studying the shelves."
    assert measure(src, "A man with a shopping cart was studying the shelves.").defects == ()
    assert measure(src, "A man with a cart shopping was studying the shelves.").defects == (
        "moved 'cart'",)
    assert measure(src, "A man, with a shopping cart, was studying the shelves.").defects == (
        "added ','", "added ','")
    assert measure("Men were working.", "Mans will be working.").defects == (
        "non-word 'mans' (men)",)
    assert measure("The mans are here.", "The mans were here.").defects == ()  # the source's own
    assert measure(src, "Was a man with a shopping cart studying the shelves?").defects == ()
    # the ERG's stutter realizations (seen on the rig for "I saw her dog." with gender=swap)
    assert measure("I saw her dog.", "I I saw his dog.").defects == ("repeated 'i'",)
    assert measure("I saw her dog.", "I-I saw his dog.").defects == ("repeated 'i'",)
    assert measure("They had had enough.", "They have had enough.").defects == ()
    assert measure("They had had enough.", "They had had had enough.").defects == ()


@pytest.mark.parametrize("scorer", SCORERS, ids=lambda s: s.name)
def test_no_defect_wins_when_a_clean_candidate_exists(scorer):
    src = "Men were working on equipment."
    cands = ["Mans will be working on equipment.", "Mans, will be working on equipment.",
             "Men will be working on equipment."]
    (scores,) = scorer.score([cands])
    ranked = order(cands, scores, src)
    assert ranked[0].surface == "Men will be working on equipment."
    assert "defects" in why(ranked[0], ranked, 0) or ranked[0].fluency == 0


@pytest.mark.parametrize("scorer", SCORERS, ids=lambda s: s.name)
def test_preferences_come_first(scorer):
    cands = ["A woman drove a car?", "A car was driven by a woman?", "Did a woman drive a car?"]
    (scores,) = scorer.score([cands])
    ranked = order(cands, scores, "A woman drove a car.", [Initial()])
    assert ranked[0].surface == "Did a woman drive a car?"
    assert ranked[0].preferred == ("inverted",)


def test_closeness_breaks_ties_between_clean_candidates():
    cands = ["A woman at home was talking on her telephone in the kitchen.",
             "A woman was talking on the phone."]
    ranked = order(cands, [0.0, 1.0], "A woman is talking on the phone.")
    assert ranked[0].surface == "A woman was talking on the phone."
    assert why(ranked[0], ranked, 1).startswith("closer to the source")
    assert "1 better-ranked candidate did not verify" in why(ranked[0], ranked, 1)
    only_scorer = order(cands, [0.0, 1.0], "A woman is talking on the phone.",
                        closeness_weight=0.0)
    assert only_scorer[0].surface == cands[0]


def test_frequency_scorer_prefers_real_plurals():
    (s,) = FrequencyScorer().score([["Two womans ran.", "Two women ran."]])
    assert s[1] < s[0]


def test_gpt2_that_cannot_load_falls_back_to_freq(monkeypatch, capsys):
    from lit.errors import ConfigurationError
    from lit.rank import gpt2

    def fail(self):
        raise ConfigurationError("no network")

    monkeypatch.setattr(gpt2.PerplexityScorer, "load", fail)
    assert get_scorer("gpt2").name == "freq"
    assert "--scorer freq" in capsys.readouterr().err
    with pytest.raises(ConfigurationError):  # a model the user named must load
        get_scorer("gpt2", model="some/model").load()


def test_standins_are_erg_2025_predicates():
    s = semi.load(str(DATA / "erg-2025-semi" / "erg.smi"))
    for standin in standins():
        assert standin.predicate in s.predicates, standin.predicate


def test_unknown_words_are_generated_through_standins_and_put_back():
    mrs = simplemrs.decode(
        '[ TOP: h0 INDEX: e2 RELS: < [ _the_q LBL: h4 ARG0: x3 [ x NUM: pl ] RSTR: h5 BODY: h6 ]'
        ' [ "_onlookers/NNS_u_unknown" LBL: h7 ARG0: x3 ] [ _a_q LBL: h9 ARG0: x8 RSTR: h10'
        ' BODY: h11 ] [ "_cartwheel/NN_u_unknown" LBL: h12 ARG0: x8 ] [ "_zorbed/VBD_u_unknown"'
        ' LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ] > HCONS: < h0 qeq h1 > ]')
    known, subs = substitute(mrs, "The onlookers zorbed a cartwheel near a bucket.")
    preds = [ep.predicate for ep in known.rels]
    assert "_umbrella_n_1" in preds  # vowel-initial word: a vowel-initial stand-in (an/a)
    assert "_ladder_n_1" in preds  # not "bucket": the source has that word
    assert "_rinse_v_1" in preds  # a regular verb with an x ARG2: a transitive stand-in
    assert [s.word for s in subs] == ["onlookers", "cartwheel", "zorbed"]
    assert restore("Umbrellas rinsed a ladder.", subs) == "Onlookers zorbed a cartwheel."
    assert substitute(known)[1] == ()
