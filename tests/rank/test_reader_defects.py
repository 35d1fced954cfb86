"""What a reader sees (issue 45): a moved phrase, another form of a word the rule does not
touch, an article that disagrees with its word, a statement that starts with its auxiliary and
a moved comma are defects, and the surface repair puts back what it can. The sentences are
the verified junk LIT produced on unseen SNLI pairs before these checks."""

from __future__ import annotations

import pytest

from lit.rank.articles import agree_articles, article_defects, article_for
from lit.rank.closeness import measure
from lit.rank.explained import touched, unexplained
from lit.rank.surface import WordOrder, repair

WALLS = "Three women sit together near woven walls."


def test_a_phrase_moved_across_the_rules_words_and_the_sources_is_moved():
    junk = "Near weaved walls three women will sit together."
    defects = measure(WALLS, junk, WordOrder.STRICT).defects
    assert "moved 'near'" in defects and "moved 'walls'" in defects
    # a restructuring rule (passive, question, cleft) may move words across its own
    assert not [d for d in measure(WALLS, junk, WordOrder.KEPT).defects if "moved" in d]
    # ... and nothing moved is nothing moved
    assert measure(WALLS, "Three women will sit together near woven walls.",
                   WordOrder.STRICT).defects == ()


def test_a_strict_repair_puts_the_rules_word_where_the_word_it_replaces_was():
    fixed = repair("A woman is talking on the phone.", "On the phone a woman was talking.",
                   WordOrder.STRICT)
    assert fixed.surface == "A woman was talking on the phone."


@pytest.mark.parametrize("source, candidate, lemma, expected", [
    (WALLS, "Three women will sit together near weaved walls.", "sit",
     ["changed form 'woven' ('weaved')"]),
    ("A lit girl is walking.", "A lighted girl was walking.", "walk",
     ["changed form 'lit' ('lighted')"]),
    ("A lit girl is walking.", "A lit girl was walking.", "walk", []),
])
def test_an_untouched_word_keeps_its_form(source, candidate, lemma, expected):
    found = unexplained(source, candidate, frozenset({"will", "was"}), frozenset({lemma}))
    assert [d for d in found if d.startswith("changed form")] == expected


def test_a_touched_word_may_change_form():
    assert unexplained("A man sits.", "A man sat.", frozenset({"did"}), frozenset({"sit"})) == ()
    assert unexplained("A man sits.", "A man sat.", frozenset(), frozenset()) == (
        "changed form 'sits' ('sat')",)
    # an auxiliary's form is the grammar's choice (tense, agreement), not the rule's
    assert unexplained("The men have left.", "The men had left.", frozenset(),
                       frozenset({"leave"})) == ()


def test_the_lemmas_a_change_touches_come_from_the_mrs():
    from delphin.codecs import simplemrs

    source = simplemrs.decode(
        "[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres ] RELS: < [ _a_q LBL: h4 ARG0: x3 "
        "RSTR: h5 BODY: h6 ] [ _lit_a_1 LBL: h7 ARG0: e8 [ e TENSE: untensed ] ARG1: x3 ] "
        "[ _girl_n_1 LBL: h7 ARG0: x3 [ x NUM: sg ] ] [ _walk_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] > "
        "HCONS: < h0 qeq h1 h5 qeq h7 > ]")
    target = simplemrs.decode(simplemrs.encode(source).replace("TENSE: pres", "TENSE: past"))
    assert touched(source, target) == {"walk"}


def test_repair_puts_back_the_sources_form_of_an_untouched_word():
    fixed = repair(WALLS, "Three women will sit together near weaved walls.", WordOrder.STRICT,
                   frozenset({"sit"}))
    assert fixed.surface == "Three women will sit together near woven walls."
    assert fixed.changes == ("changed form 'woven' ('weaved')",)
    # a word the rule touches keeps the candidate's form
    assert repair("A man sits.", "A man sat.", WordOrder.STRICT, frozenset({"sit"})) is None


def test_a_and_an_agree_with_the_next_word():
    source = "A large elderly woman is sitting on a bench."
    junk = "It is an large elderly woman who is sitting on a bench."
    assert "article 'an' before 'large'" in measure(source, junk).defects
    assert agree_articles(junk, source) == "It is a large elderly woman who is sitting on a bench."
    # a repair that reorders words fixes the article it leaves behind
    fixed = repair(source, "It is an elderly large woman who is sitting on a bench.")
    assert fixed.surface == "It is a large elderly woman who is sitting on a bench."
    assert article_defects(
        None, "An hour, a unicorn, an umbrella, a one-way street, an FBI agent.") == ()
    assert [article_for(w) for w in ("apple", "hour", "university", "uninvited", "FBI", "8")] == [
        "an", "an", "a", "an", None, None]
    # the source's own article before the same word wins over the spelling
    assert article_defects("A historic day.", "It was a historic day.") == ()


def test_a_statement_never_starts_with_its_auxiliary():
    source = "A man has wrecked his racing bike in the dirt."
    junk = "Has his racing bike been wrecked by a man in the dirt."
    assert "a statement that starts with its auxiliary 'has'" in measure(source, junk).defects
    assert not [d for d in measure(source, "Has his bike been wrecked?").defects
                if "auxiliary" in d]  # a question
    assert not [d for d in measure("Is the man asleep?", "Is the man not asleep?").defects
                if "auxiliary" in d]


def test_a_passive_keeps_its_auxiliary_after_the_new_subject():
    source = "A man has wrecked his racing bike in the dirt."
    good = "His racing bike has been wrecked by a man in the dirt."
    assert not [d for d in measure(source, good, WordOrder.KEPT).defects if "moved" in d]


def test_a_comma_does_not_move():
    source = "Three women sit together, near woven walls."
    assert "moved ','" in measure(source, "Three women, sit together near woven walls.").defects
    assert "moved ','" not in measure(source, "Three women sat together, near woven walls.").defects


def test_a_prepositional_passive_is_a_defect():
    source = "A dog has turned into a sheep."
    assert "a preposition stranded before 'by': 'into'" in measure(
        source, "A sheep has been turned into by a dog.", WordOrder.KEPT).defects
    assert not [d for d in measure(source, "A sheep was chased by a dog.").defects
                if "stranded" in d]


def test_a_relative_pronoun_is_not_explained_by_a_change_of_tense():
    """Only a rule whose own examples make a clause (a cleft) brings *that*: a misreading
    that makes a relative clause of the sentence's start ("Two people that wearing ...")
    is caught by the word it adds."""
    from delphin.codecs import simplemrs

    from lit.rank.explained import brought

    source = simplemrs.decode(
        "[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres ] RELS: < [ _a_q LBL: h4 ARG0: x3 "
        "RSTR: h5 BODY: h6 ] [ _girl_n_1 LBL: h7 ARG0: x3 ] [ _walk_v_1 LBL: h1 ARG0: e2 "
        "ARG1: x3 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]")
    target = simplemrs.decode(simplemrs.encode(source).replace("TENSE: pres", "TENSE: past"))
    assert "that" not in brought(source, target)
    assert unexplained("Two people are about to get into train.",
                       "Two people that are about to get into trained.",
                       brought(source, target)) == ("unexplained word 'that'",)
