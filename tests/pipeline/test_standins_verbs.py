"""Unknown verbs (issue 45): generated through a regular known verb of the same argument
structure, put back in the realization's inflection, and verified by lemma."""

from __future__ import annotations

import warnings

import pytest
from delphin import semi
from delphin.codecs import simplemrs

from lit.equivalence import equivalent, fingerprint
from lit.morphology import VERB_TAGS, verb_forms
from lit.mrs.graph import canonical_form, invariant, predicate_label
from lit.pipeline.standins import restore, standins, substitute
from tests.conftest import DATA

#: "The woman dressed the child." (ERG 2025 shape of an unknown transitive verb), with *VERB*,
#: *TAG* and the event's TENSE to fill in.
TRANSITIVE = (
    '[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: {tense} MOOD: indicative PROG: - PERF: - ]'
    ' RELS: < [ _the_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]'
    ' [ _woman_n_1 LBL: h7 ARG0: x3 ] [ "_{verb}/{tag}_u_unknown" LBL: h1 ARG0: e2 ARG1: x3'
    ' ARG2: x8 [ x PERS: 3 NUM: sg IND: + ] ] [ _the_q LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ]'
    ' [ _child_n_1 LBL: h12 ARG0: x8 ] > HCONS: < h0 qeq h1 h5 qeq h7 h10 qeq h12 > ]')
#: "The child was dressed." (passive: an unexpressed ARG1, an x ARG2).
PASSIVE = (
    '[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past MOOD: indicative PROG: - PERF: - ]'
    ' RELS: < [ _the_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]'
    ' [ _child_n_1 LBL: h7 ARG0: x3 ] [ "_dressed/VBN_u_unknown" LBL: h1 ARG0: e2 ARG1: i8'
    ' ARG2: x3 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]')
#: "A man is skateboarding." (intransitive: the ERG leaves an unexpressed ARG2 i).
INTRANSITIVE = (
    '[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: + PERF: - ]'
    ' RELS: < [ _a_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]'
    ' [ _man_n_1 LBL: h7 ARG0: x3 ] [ "_{verb}/VBG_u_unknown" LBL: h1 ARG0: e2 ARG1: x3'
    ' ARG2: i8 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]')


def _transitive(verb: str, tag: str, tense: str = "past"):
    return simplemrs.decode(TRANSITIVE.format(verb=verb, tag=tag, tense=tense))


def _ep(mrs, pred):
    return next(ep for ep in mrs.rels if ep.predicate == pred)


def test_verb_standins_are_regular_erg_verbs_of_their_argument_structure():
    with warnings.catch_warnings():  # a few harmless SemIWarnings
        warnings.simplefilter("ignore")
        s = semi.load(str(DATA / "erg-2025-semi" / "erg.smi"))
    verbs = [v for v in standins() if v.pos in ("vi", "vt")]
    assert {(v.pos, v.initial) for v in verbs} == {
        (pos, initial) for pos in ("vi", "vt") for initial in ("consonant", "vowel")}
    roles = {"vi": [("ARG0", "e"), ("ARG1", "x")],
             "vt": [("ARG0", "e"), ("ARG1", "x"), ("ARG2", "x")]}
    for v in verbs:
        (synopsis,) = s.predicates[v.predicate]
        assert [(r.name, r.value) for r in synopsis if not r.optional] == roles[v.pos], v
        forms = verb_forms(v.forms[0], "vb")
        assert v.forms == tuple(forms[t] for t in ("vb", "vbz", "vbd", "vbn", "vbg")), v


@pytest.mark.parametrize(("form", "tag", "lemma", "forms"), [
    ("dressed", "vbd", "dress", ("dresses", "dressed", "dressing")),
    ("dressed", "VBN", "dress", ("dresses", "dressed", "dressing")),
    ("hoped", "vbd", "hope", ("hopes", "hoped", "hoping")),  # hop would give hopped
    ("hopped", "vbd", "hop", ("hops", "hopped", "hopping")),
    ("carried", "vbd", "carry", ("carries", "carried", "carrying")),
    ("skateboarding", "vbg", "skateboard", ("skateboards", "skateboarded", "skateboarding")),
    ("dances", "vbz", "dance", ("dances", "danced", "dancing")),
    ("admitted", "vbd", "admit", ("admits", "admitted", "admitting")),  # doubling shown
    ("visited", "vbd", "visit", ("visits", "visited", "visiting")),
    ("dying", "vbg", "die", ("dies", "died", "dying")),
])
def test_lemma_and_forms_of_a_regular_unknown_verb(form, tag, lemma, forms):
    found = verb_forms(form, tag)
    assert found["vb"] == found["vbp"] == lemma
    assert (found["vbz"], found["vbd"], found["vbg"]) == forms
    assert found["vbn"] == found["vbd"]
    assert found[tag.lower()] == form  # the source's own form always comes back


def test_each_form_of_a_lemma_has_that_lemma():
    for lemma in ("dress", "hope", "hop", "carry", "skateboard", "dance", "die", "panic"):
        forms = verb_forms(lemma, "vb")
        assert {verb_forms(forms[t], t)["vb"] for t in VERB_TAGS} == {lemma}, forms


def test_forms_without_a_regular_analysis():
    assert verb_forms("slung", "vbd") is None  # irregular
    assert verb_forms("didn’t", "vbd") is None and verb_forms("aren’t", "vbp") is None
    assert verb_forms("dressed", "jj") is None  # not a verb's tag


def test_a_verb_stand_in_has_the_unknown_verbs_argument_structure():
    known, (sub,) = substitute(_transitive("dressed", "VBD"), "The woman dressed the child.")
    assert sub.standin == "_rinse_v_1" and sub.word == "dressed"
    assert dict(_ep(known, "_rinse_v_1").args) == {"ARG0": "e2", "ARG1": "x3", "ARG2": "x8"}

    known, (sub,) = substitute(simplemrs.decode(PASSIVE), "The child was dressed.")
    assert sub.standin == "_rinse_v_1"  # an x ARG2: transitive, whatever ARG1 is
    assert dict(_ep(known, "_rinse_v_1").args) == {"ARG0": "e2", "ARG1": "i8", "ARG2": "x3"}

    mrs = simplemrs.decode(INTRANSITIVE.format(verb="skateboarding"))
    known, (sub,) = substitute(mrs, "A man is skateboarding.")
    assert sub.standin == "_wander_v_1"  # an unexpressed ARG2: intransitive, generated without
    assert dict(_ep(known, "_wander_v_1").args) == {"ARG0": "e2", "ARG1": "x3"}
    assert substitute(known)[1] == ()

    known, (sub,) = substitute(simplemrs.decode(INTRANSITIVE.format(verb="ice-skating")))
    assert sub.standin == "_expand_v_1"  # an initial vowel: a vowel-initial stand-in
    known, (sub,) = substitute(_transitive("exfoliated", "VBD"))
    assert sub.standin == "_erase_v_1"


def test_a_verb_is_not_stood_in_without_a_fitting_stand_in():
    regular = _transitive("zorbed", "VBD")
    assert [s.standin for s in substitute(regular)[1]] == ["_rinse_v_1"]
    irregular = _transitive("slung", "VBD")
    assert substitute(irregular) == (irregular, ())
    clausal = simplemrs.decode(TRANSITIVE.format(verb="zorbed", tag="VBD", tense="past")
                               .replace("ARG2: x8 [ x PERS: 3 NUM: sg IND: + ]", "ARG2: h13"))
    assert substitute(clausal)[1] == ()
    # the source has the stand-in's word (in any form): no other stand-in of the class serves
    assert substitute(_transitive("dressed", "VBD"), "She rinses it; she dressed him.")[1] == ()


def test_restore_puts_the_verb_back_in_the_realizations_inflection():
    _, subs = substitute(simplemrs.decode(PASSIVE), "The child was dressed.")
    assert restore("The child was rinsed.", subs) == "The child was dressed."  # unchanged
    assert restore("The child will be rinsed.", subs) == "The child will be dressed."
    assert restore("Someone will rinse the child.", subs) == "Someone will dress the child."
    assert restore("Someone rinses the child.", subs) == "Someone dresses the child."
    assert restore("Rinsing the child, she sang.", subs) == "Dressing the child, she sang."

    _, subs = substitute(simplemrs.decode(INTRANSITIVE.format(verb="skateboarding")))
    assert restore("A man is wandering.", subs) == "A man is skateboarding."
    assert restore("A man wandered.", subs) == "A man skateboarded."

    _, subs = substitute(_transitive("hoped", "VBD"))
    assert restore("The woman will rinse the child.", subs) == "The woman will hope the child."


def test_equivalence_takes_another_form_of_an_unknown_verb_for_the_same_predicate():
    """tense=future on "The woman dressed the child.": the target keeps the source's
    _dressed/vbd_u_unknown, the re-parse of "The woman will dress the child." has
    _dress/vb_u_unknown."""
    target = _transitive("dressed", "VBD", tense="fut")
    reparse = _transitive("dress", "VB", tense="fut")
    assert equivalent(target, reparse)
    assert fingerprint(target) == fingerprint(reparse)
    assert canonical_form(target) == canonical_form(reparse)
    assert invariant(target) == invariant(reparse)
    assert predicate_label('"_dressed/VBD_u_unknown"') == predicate_label("_dress/vb_u_unknown")
    # still compared: the verb, its tense, and the part of speech
    assert not equivalent(target, _transitive("press", "VB", tense="fut"))
    assert not equivalent(target, _transitive("dress", "VB", tense="past"))
    assert not equivalent(_transitive("hoped", "VBD"), _transitive("hopped", "VBD"))
    assert not equivalent(target, _transitive("dressed", "JJ", tense="fut"))
    assert predicate_label("_dressed/jj_u_unknown") == "_dressed/jj_u_unknown"
    assert predicate_label("_woman_n_1") == "_woman_n_1"
