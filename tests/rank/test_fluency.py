"""Issue 24: never choose an added word. Words a transformation does not explain are defects
(lit.rank.explained), scorers are length-fair and combined by score, not rank, and a side whose
every verified candidate has a defect is not_fluent unless defects are allowed."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.results import GenerateResult, ParseResult, Reading
from lit.config import RunConfig
from lit.pipeline.realize import Job, Realizer
from lit.rank import AceOrderScorer
from lit.rank.explained import brought, implausible, unexplained, words
from lit.rank.freq import FrequencyScorer
from lit.rank.ranking import order
from lit.rules.engine import RuleEngine
from lit.status import Status
from tests.standin_ace import StandInAce


@pytest.fixture(scope="module")
def rules():
    return RuleEngine.load("2025")


def example(rules, module: str, spec: str):
    """(source sentence, source MRS, target MRS, the module's example pairs) of *module*'s
    first example for *spec*."""
    ex = next(e for e in rules.module(module).examples if e.spec == spec and e.source_mrs)
    source = simplemrs.decode(ex.source_mrs)
    pairs = tuple((e.source, e.target) for e in rules.module(module).examples)
    return ex, source, rules.apply(source, spec).mrs, pairs


@pytest.mark.parametrize("module,spec", [("tense", "tense=past"), ("tense", "tense=fut"),
                                         ("ques", "ques"), ("pass", "pass"), ("neg", "neg"),
                                         ("modal", "modal=may"), ("cleft", "cleft=ARG1")])
def test_what_a_rule_brings_explains_its_own_examples(rules, module, spec):
    ex, source, target, pairs = example(rules, module, spec)
    explains = brought(source, target, pairs)
    assert unexplained(ex.source, ex.target, explains) == ()
    # the added words are not explained by any of these rules
    assert unexplained(ex.source, "Of " + ex.target, explains) == ("unexplained word 'of'",)
    assert unexplained(ex.source, "Both " + ex.target, explains) == ("unexplained word 'both'",)


def test_explained_words_come_from_the_grammar_not_the_examples(rules):
    ex, source, target, _ = example(rules, "tense", "tense=past")  # A woman is driving a car.
    explains = brought(source, target)  # no examples: the trigger rules alone
    assert {"was", "were", "did"} <= explains  # TENSE changed: the ERG's tensed auxiliaries
    assert "by" not in explains and "of" not in explains and "both" not in explains
    _, source, target, _ = example(rules, "pass", "pass")
    assert "by" in brought(source, target)  # the passive's ICONS topic: the verb's by-phrase
    _, source, target, _ = example(rules, "modal", "modal=may")
    assert "may" in brought(source, target)  # the modal's own predicate


def test_inflection_and_dropped_words():
    none: frozenset[str] = frozenset()
    assert unexplained("Men were working.", "The men were working.", none) == (
        "unexplained word 'the'",)
    # irregular (the ERG's irregs table) and regular inflection of the source's own words
    assert unexplained("Men were working.", "A man was worked.", frozenset({"was", "were"})) == (
        "unexplained word 'a'",)
    assert unexplained("Three people are taking a photograph.",
                       "3 people are taking a photo.", none) == (
        "unexplained word '3'", "unexplained word 'photo'", "dropped word 'three'",
        "dropped word 'photograph'")
    assert words("The boy can't swim.") == ["the", "boy", "can", "not", "swim"]
    assert words("The woman's hands") == ["the", "woman", "'s", "hands"]
    # the detached clitic: "The woman ’s hands will be empty."
    assert unexplained("The woman's hands are empty.", "The woman ’s hands will be empty.",
                       frozenset({"will", "be", "are"})) == ("unexplained word 's'",
                                                      "dropped word \"'s\"")


def test_a_lower_case_word_read_as_a_name_is_no_reading():
    m = simplemrs.decode('[ TOP: h0 RELS: < [ named LBL: h1 ARG0: x3 CARG: "Jeans" ] > ]')
    assert "'jeans' as a name 'Jeans'" in implausible("A woman in a shirt and jeans.", m)
    assert implausible("Jeans are blue.", m) is None  # capitalised in the source itself


def test_scorers_are_length_fair(tmp_path):
    freq = FrequencyScorer()
    for clean, added in [("The dog was outside.", "Of the dog was outside."),
                         ("A group was gathered holding flowers.",
                          "A group was gathered holding of flowers.")]:
        (s,) = freq.score([[clean, added]])
        assert s[0] < s[1], (clean, added)


def test_gpt2_total_log_probability_never_improves_by_adding_a_word(tmp_path):
    from tests.rank.test_rank import build_tiny_gpt2

    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from lit.rank.gpt2 import PerplexityScorer

    scorer = PerplexityScorer(str(build_tiny_gpt2(tmp_path / "m")))
    base = ["The dog was outside.", "A group was gathered holding flowers."]
    longer = ["The dog was outside of it.", "A group was gathered holding of flowers."]
    (a, b) = scorer.score([base, longer])
    assert all(x < y for x, y in zip(a, b))  # a token's NLL is positive: the sum only grows


class Noisy:
    """A scorer that prefers the defective candidate by a negligible margin."""

    name = "noisy"
    scale = 10.0
    model_name = None

    def load(self):
        """Nothing to load."""

    def score(self, groups):
        return [[0.0 if g_i.startswith("Of") else 0.05 for g_i in g] for g in groups]


def test_a_negligible_scorer_margin_cannot_outweigh_closeness():
    src = "The dog is outside."
    cands = ["Of the dog was outside.", "The dog was outside."]
    (scores,) = Noisy().score([cands])
    ranked = order(cands, scores, src, scale=Noisy.scale)  # no explained-word check here
    assert ranked[0].surface == "The dog was outside."
    assert ranked[1].fluency == 0.0 and ranked[0].fluency == pytest.approx(0.005)
    # the rank term this replaces: 0.75 * 0.2 + 0.25 * 1 > 0.75 * 0.333 + 0.25 * 0


class Stub(StandInAce):
    """A service that generates *surfaces* and re-parses the *verifying* ones to the target."""

    def __init__(self, surfaces, verifying, target):
        self.surfaces, self.verifying, self.target = surfaces, verifying, target

    def generate(self, mrss, limit=None):
        return iter([GenerateResult(simplemrs.encode(m, lnk=False), Status.OK, None,
                                    tuple(self.surfaces), 0.0, 0.0) for m in mrss])

    def parse(self, sentences, n=1):
        mrs = simplemrs.encode(self.target, lnk=False)
        return iter([ParseResult(s, Status.OK, None,
                                 (Reading(mrs),) if s in self.verifying else (), 0.0, 0.0)
                     for s in sentences])


def realize(rules, spec, module, surfaces, verifying, **options):
    ex, source, target, pairs = example(rules, module, spec)
    realizer = Realizer(
        Stub(surfaces, verifying, target), AceOrderScorer(), options=RunConfig(**options)
    )
    (r,) = realizer.realize([Job(target, ex.source, rules.preferences(spec), None, source,
                                 pairs)])
    return ex, r


def test_every_verified_candidate_defective_is_not_fluent(rules):
    bad = "Of a woman was driving a car."
    good = "A woman was driving a car."
    _, r = realize(rules, "tense=past", "tense", [bad, good], {bad, good})
    assert r.status == Status.OK and r.output == good
    _, r = realize(rules, "tense=past", "tense", [bad, good], {bad})
    assert r.status == Status.NOT_FLUENT and r.output is None and r.verified
    assert bad in r.reason and "unexplained word 'of'" in r.reason
    kept = next(s for s in r.scores if s.surface == bad)  # in the record, with its defects
    assert kept.defects == ("unexplained word 'of'",)
    _, r = realize(rules, "tense=past", "tense", [bad, good], {bad}, allow_defects=True)
    assert r.status == Status.OK and r.output == bad


class Counted(Stub):
    """The Stub, recording the sentences re-parsed."""

    def __init__(self, surfaces, verifying, target):
        super().__init__(surfaces, verifying, target)
        self.parsed: list[str] = []

    def parse(self, sentences, n=1):
        sentences = list(sentences)
        self.parsed += sentences
        return super().parse(sentences, n)


def test_only_candidates_that_can_be_the_output_are_reparsed(rules):
    """Issue 55: a candidate with a defect can never be the output: after the defect-free
    ones only the best defective one is re-parsed (it tells not_fluent from not_verified)."""
    ex, source, target, pairs = example(rules, "tense", "tense=past")
    good, bad, worse = ("A woman was driving a car.", "Of a woman was driving a car.",
                        "Of both a woman was driving a car.")

    def run(verifying):
        ace = Counted([good, bad, worse], verifying, target)
        (r,) = Realizer(ace, AceOrderScorer()).realize(
            [Job(target, ex.source, rules.preferences("tense=past"), None, source, pairs)])
        return ace.parsed, r

    parsed, r = run({good})
    assert (parsed, r.status, r.output) == ([good], Status.OK, good)
    parsed, r = run({bad, worse})
    assert parsed == [good, bad] and r.status == Status.NOT_FLUENT and bad in r.reason
    parsed, r = run({worse})
    assert parsed == [good, bad] and r.status == Status.NOT_VERIFIED
    assert r.reason.endswith("none of 2 candidates re-parses (top 20 readings) to the "
                             "transformed MRS; the other 1, each with a defect, are not "
                             "re-parsed (none could be the output)")


def test_a_question_must_come_out_inverted(rules):
    flat, inverted = "A woman is driving a car?", "Is a woman driving a car?"
    _, r = realize(rules, "ques", "ques", [flat, inverted], {flat})
    assert r.status == Status.NOT_FLUENT and "not subject-auxiliary inversion" in r.reason
    _, r = realize(rules, "ques", "ques", [flat, inverted], {flat, inverted})
    assert r.status == Status.OK and r.output == inverted


def test_allow_defects_is_an_option_of_the_run():
    import argparse

    from lit.config import RunConfig
    from lit.commands.options import add_pipeline_arguments

    parser = argparse.ArgumentParser()
    add_pipeline_arguments(parser)
    assert RunConfig.from_args(parser.parse_args([])).allow_defects is False
    assert RunConfig.from_args(parser.parse_args(["--allow-defects"])).allow_defects is True


def test_a_pronoun_whose_gender_changes_explains_its_new_form():
    """gender=swap changes a pron's GEND and the grammar picks him/his/he: not unexplained
    (found live: 'I saw her.' -> 'I saw him.' was not_fluent)."""
    from delphin.codecs import simplemrs

    from lit.rank.explained import brought, unexplained

    src = simplemrs.decode(
        "[ LTOP: h0 INDEX: e2 [ e SF: prop TENSE: past ] RELS: < "
        "[ pron<0:1> LBL: h4 ARG0: x3 [ x PERS: 1 NUM: sg ] ] "
        "[ pronoun_q LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] "
        "[ _see_v_1 LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 [ x PERS: 3 NUM: sg GEND: f ] ] "
        "[ pron LBL: h9 ARG0: x8 ] [ pronoun_q LBL: h10 ARG0: x8 RSTR: h11 BODY: h12 ] > "
        "HCONS: < h0 qeq h1 h6 qeq h4 h11 qeq h9 > ]")
    tgt = simplemrs.decode(simplemrs.encode(src).replace("GEND: f", "GEND: m"))
    assert unexplained("I saw her.", "I saw him.", brought(src, tgt)) == ()
    assert unexplained("I saw her.", "I saw him.", brought(src, src)) == (
        "unexplained word 'him'", "dropped word 'her'")


def test_a_swap_of_two_nouns_relocates_their_words():
    """gender=swap on 'The man gave the woman his book.': man and woman change referents, so
    their change of place is the rule's (the realizer then neither flags nor restores it)."""
    from delphin.codecs import simplemrs

    from lit.rank.explained import relocates

    src = simplemrs.decode(
        "[ LTOP: h0 INDEX: e2 RELS: < [ _the_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] "
        "[ _man_n_1 LBL: h7 ARG0: x3 ] [ _give_v_1 LBL: h1 ARG0: e2 ARG1: x3 ARG2: x9 ARG3: x8 ] "
        "[ _the_q LBL: h10 ARG0: x8 RSTR: h11 BODY: h12 ] [ _woman_n_1 LBL: h13 ARG0: x8 ] "
        "[ _book_n_of LBL: h14 ARG0: x9 ] > HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 > ]")
    swapped = simplemrs.decode(simplemrs.encode(src).replace("_man_n_1", "_TMP_n_1")
                               .replace("_woman_n_1", "_man_n_1").replace("_TMP_n_1", "_woman_n_1"))
    assert relocates(src, swapped)
    assert not relocates(src, src)
