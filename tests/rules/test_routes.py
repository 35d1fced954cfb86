"""Realization routes (docs/rules.md, "Realization routes"): the twin MRSs the cleft and
passive modules build for what ERG 2018+ parses but will not generate, on gold ERG 2025
analyses, and the route construct of the rule language itself."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from delphin import predicate
from delphin.codecs import simplemrs

from lit.errors import RuleError
from lit.phenomena import cleft_2025_ep
from lit.rules.compiler import compile_text
from lit.rules.engine import Routed, RuleEngine


def _gold_clefts(gold_2025) -> list[tuple[str, object]]:
    """Gold ERG 2025 it-clefts of an argument: the cleft signature with a focused x that
    has a quantifier (PP and adverbial focus has no identity-copula twin)."""
    found = []
    for r in gold_2025:
        if "focus" not in r["mrs"]:
            continue
        m = simplemrs.decode(r["mrs"])
        verb = cleft_2025_ep(m)
        if verb is None:
            continue
        focus = next(i.right for i in m.icons if i.relation == "focus" and i.left == verb.iv)
        if any(ep.is_quantifier() and ep.iv == focus for ep in m.rels):
            found.append((r["sentence"], m))
    return found


def test_every_gold_argument_cleft_gets_an_identity_copula_twin(gold_2025):
    engine = RuleEngine.load("2025")
    clefts = _gold_clefts(gold_2025)
    assert len(clefts) >= 20
    for sentence, m in clefts:
        routed = engine.route(m)
        assert routed is not None and routed.name.endswith("cleft.relative_clause"), sentence
        twin = routed.twin
        verb = cleft_2025_ep(m)
        focus = next(i.right for i in m.icons if i.relation == "focus" and i.left == verb.iv)
        # the copula carries INDEX, "it" as ARG1, the clefted noun phrase as ARG2
        be = next(ep for ep in twin.rels if ep.iv == twin.index)
        assert be.predicate == "_be_v_id" and be.args["ARG2"] == focus, sentence
        it = be.args["ARG1"]
        assert {ep.predicate for ep in twin.rels if ep.iv == it} == {"pron", "pronoun_q"}
        assert twin.variables[it]["GEND"] == "n"
        # TOP is qeq the copula; the cleft's focus is gone, any other ICONS (a passive) stays
        assert (twin.top, be.label) in {(h.hi, h.lo) for h in twin.hcons}
        kept = [(i.left, i.relation, i.right) for i in m.icons
                if (i.left, i.relation, i.right) != (verb.iv, "focus", focus)]
        assert [(i.left, i.relation, i.right) for i in twin.icons] == kept
        # the clause is a restrictive relative: what TOP was qeq to is now the noun's label
        top_label = next(h.lo for h in m.hcons if h.hi == m.top)
        noun_label = next(h.lo for ep in m.rels if ep.is_quantifier() and ep.iv == focus
                          for h in m.hcons if h.hi == ep.args["RSTR"])
        moved = [ep.predicate for ep in m.rels if ep.label == top_label]
        assert moved and all(
            next(t for t in twin.rels if t.predicate == p and t.iv == ep.iv).label == noun_label
            for p, ep in ((ep.predicate, ep) for ep in m.rels if ep.label == top_label)), sentence
        # the copula's tense agrees with the clefted verb's (a future's copula is present)
        tense = m.variables[verb.iv]["TENSE"]
        assert twin.variables[twin.index]["TENSE"] == ("pres" if tense == "fut" else tense)
        # every EP of the cleft is in the twin: nothing is lost before verification
        preds = lambda x: Counter(predicate.normalize(ep.predicate) for ep in x.rels)  # noqa: E731
        assert preds(twin) - preds(m) == Counter(["_be_v_id", "pron", "pronoun_q"])
        assert not preds(m) - preds(twin)


def test_a_bare_past_cleft_twin_is_generated_as_plain_past(gold_2025):
    """A non-subject cleft of a bare past verb leaves PROG and PERF unspecified (gold); its
    twin's relative clause asks for the plain past, the target keeps them unspecified."""
    engine = RuleEngine.load("2025")
    seen = 0
    for sentence, m in _gold_clefts(gold_2025):
        verb = cleft_2025_ep(m)
        props = m.variables[verb.iv]
        if props.get("TENSE") != "past" or "PROG" in props:
            continue
        seen += 1
        routed = engine.route(m)
        assert [r.name for r in routed.routes] == [
            "cleft.bare_past", "cleft.copula_tense", "cleft.relative_clause"]
        assert routed.twin.variables[verb.iv]["PROG"] == "-", sentence
        assert "PROG" not in m.variables[verb.iv]  # the target is untouched
    assert seen >= 1


def test_a_cleft_made_by_the_module_gets_the_same_twin_as_the_gold_cleft():
    engine = RuleEngine.load("2025")
    example = engine.module("cleft").examples[0]
    made = engine.apply(simplemrs.decode(example.source_mrs), "cleft=ARG1").mrs
    gold = simplemrs.decode(example.target_mrs)
    from lit.equivalence import equivalent
    assert equivalent(engine.route(made).twin, engine.route(gold).twin)


def test_plain_mrss_take_no_route(gold_2025):
    """A sentence the grammar generates itself is generated directly."""
    engine = RuleEngine.load("2025")
    plain = [simplemrs.decode(r["mrs"]) for r in gold_2025[:200] if "ICONS" not in r["mrs"]]
    assert plain and all(engine.route(m) is None for m in plain)


PROGRESSIVE_PASSIVE = (
    "[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: + PERF: - ] RELS: < "
    "[ _a_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ] "
    "[ _apple_n_1 LBL: h7 ARG0: x3 ] "
    "[ _eat_v_1 LBL: h1 ARG0: e2 ARG1: x8 [ x PERS: 3 NUM: sg IND: + ] ARG2: x3 ] "
    "[ _a_q LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] [ _man_n_1 LBL: h12 ARG0: x8 ] > "
    "HCONS: < h0 qeq h1 h5 qeq h7 h10 qeq h12 > ICONS: < e2 topic x3 > ]"
)
# The reading of "An apple is being eaten by a man." that the stock ERG 2025 generates
# (rig parse, third reading): being as a compound noun, the agent in _by_p_state.
BEING_TWIN = (
    "[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: - PERF: - ] RELS: < "
    "[ _a_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ] "
    "[ _apple_n_1 LBL: h7 ARG0: x3 ] "
    "[ compound LBL: h1 ARG0: e8 [ e SF: prop TENSE: untensed MOOD: indicative PROG: - "
    "PERF: - ] ARG1: e2 ARG2: x9 [ x IND: + ] ] "
    "[ udef_q LBL: h10 ARG0: x9 RSTR: h11 BODY: h12 ] [ _being_n_1 LBL: h13 ARG0: x9 ] "
    "[ _eat_v_1 LBL: h1 ARG0: e2 ARG1: i14 ARG2: x3 ] "
    "[ _by_p_state LBL: h1 ARG0: e15 [ e SF: prop TENSE: untensed MOOD: indicative PROG: - "
    "PERF: - ] ARG1: e2 ARG2: x16 [ x PERS: 3 NUM: sg IND: + ] ] "
    "[ _a_q LBL: h17 ARG0: x16 RSTR: h18 BODY: h19 ] [ _man_n_1 LBL: h20 ARG0: x16 ] > "
    "HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 h18 qeq h20 > ICONS: < e2 topic x3 > ]"
)


def test_progressive_passive_twin_is_the_reading_the_grammar_generates():
    from lit.equivalence import equivalent
    routed = RuleEngine.load("2025").route(simplemrs.decode(PROGRESSIVE_PASSIVE))
    assert routed.name == "pass.by_agent+pass.being"
    assert equivalent(routed.twin, simplemrs.decode(BEING_TWIN))
    assert routed.admits("An apple is being eaten by a man.")
    assert not routed.admits("An apple is eaten by a man.")
    assert not routed.admits("Is an apple being eaten by a man.")  # no question with a period
    assert routed.admits("Is an apple being eaten by a man?")


def test_progressive_active_and_plain_passive_take_no_route():
    engine = RuleEngine.load("2025")
    active = PROGRESSIVE_PASSIVE.replace(" ICONS: < e2 topic x3 >", "")
    plain_passive = PROGRESSIVE_PASSIVE.replace("PROG: +", "PROG: -")
    assert engine.route(simplemrs.decode(active)) is None
    assert engine.route(simplemrs.decode(plain_passive)) is None


def test_cleft_surface_test_keeps_the_clefts_a_writer_would_write():
    route = next(r for r in RuleEngine.load("2025").module("cleft").routes
                 if r.name == "relative_clause")
    assert route.admits("It was the man that the dog bit.")
    assert route.admits("It is a woman who is training a dog.")
    assert not route.admits("It is the woman by is outdoors.")  # a preposition as relativizer
    assert not route.admits("It is the man, who is happy.")  # an added comma
    assert not route.admits("It was the dog by who the man was bitten.")
    assert not route.admits("The man that the dog bit was it.")


def test_cleft_rewrite_drops_the_comma_a_name_or_pronoun_gets():
    """A name takes no restrictive relative: the twin realizes only "It was Browne, who ...";
    the rewritten string is a cleft (and is verified like any other candidate)."""
    route = next(r for r in RuleEngine.load("2025").module("cleft").routes
                 if r.name == "relative_clause")
    assert route.rewrite("It was Browne, who managed the project.") == (
        "It was Browne who managed the project.")
    assert route.rewrite("It is two kids who enjoy their day, at the beach.") == (
        "It is two kids who enjoy their day, at the beach.")  # only a comma before the pronoun
    assert route.rewrite("The man, who sleeps, is it.") == "The man, who sleeps, is it."


def test_cleft_prefers_that_or_who():
    prefs = RuleEngine.load("2025").preferences("cleft=ARG1")
    assert [p.holds("It is a hat that the girl is wearing.") for p in prefs] == [True]
    assert [p.holds("It is someone in the photo who is wearing a hat.") for p in prefs] == [True]
    assert [p.holds("It is the man which is happy.") for p in prefs] == [False]


def test_no_cleft_of_an_existential():
    engine = RuleEngine.load("2025")
    there = simplemrs.decode(
        "[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: - PERF: - ] RELS: < "
        "[ _be_v_there LBL: h1 ARG0: e2 ARG1: x3 [ x PERS: 3 NUM: pl IND: + ] ] "
        "[ udef_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] [ _person_n_1 LBL: h7 ARG0: x3 ] > "
        "HCONS: < h0 qeq h1 h5 qeq h7 > ]")
    outcome = engine.apply(there, "cleft=ARG1")
    assert outcome.status == "not_applicable" and "existential" in outcome.reason


ROUTE_MODULE = '''module demo
route twin "the grammar will not generate it"
  rewrite "^Its " -> "It "
  surface "^It "
  context [ _x_v_1 ARG0: ?e ]
  output
    set ?e [ PROG: - ]
'''


def test_a_route_is_a_block_of_its_own_kind():
    module = compile_text(ROUTE_MODULE)
    assert module.blocks == () and [r.name for r in module.routes] == ["twin"]
    route = module.routes[0]
    assert route.reason == "the grammar will not generate it"
    assert route.admits("It is.") and not route.admits("Is it.")
    assert route.rewrite("Its is.") == "It is."


def test_a_route_says_how_many_candidates_its_twin_keeps():
    """``candidates N``: the twin keeps N times the usual candidates; with several routes, the
    most any asks for; a route that says nothing leaves the pipeline's default (None)."""
    plain = compile_text(ROUTE_MODULE).routes[0]
    counted = compile_text(ROUTE_MODULE.replace('surface "^It "',
                                                'surface "^It "\n  candidates 2')).routes[0]
    assert (plain.candidates, counted.candidates) == (None, 2)
    twin = simplemrs.decode("[ TOP: h0 RELS: < > ]")
    assert Routed(twin, (plain,)).candidates is None
    assert Routed(twin, (plain, counted)).candidates == 2
    assert Routed(twin, (counted, replace(counted, candidates=3))).candidates == 3


@pytest.mark.parametrize("text, message", [
    (ROUTE_MODULE.replace('surface "^It "', 'surface "^It "\n  candidates 0'),
     "candidates 0: a route keeps at least 1"),
    (ROUTE_MODULE.replace('surface "^It "', 'surface "^It "\n  candidates two'),
     "a whole number like 2"),
    (ROUTE_MODULE.replace("set ?e", "set ?f"), "?f is neither matched"),
    (ROUTE_MODULE.replace('"^It "', '"^(It "'), "bad regular expression"),
    (ROUTE_MODULE.replace('"^Its "', '"^Its ("'), "bad regular expression"),
])
def test_a_bad_route_is_reported_where_it_is_written(text, message):
    with pytest.raises(RuleError, match=message.replace("?", r"\?").replace("(", r"\(")):
        compile_text(text)


def test_erg_1214_cleft_is_its_own_ep_and_takes_no_route():
    """ERG 1214 generates _be_v_itcleft itself: its cleft module adds that EP and no route
    applies; the version difference lives in the rule files."""
    engine = RuleEngine.load("1214")
    example = engine.module("cleft").examples[0]
    made = engine.apply(simplemrs.decode(example.source_mrs), "cleft=ARG2")
    assert made.status == "ok"
    cleft = next(ep for ep in made.mrs.rels if ep.predicate == "_be_v_itcleft")
    assert cleft.iv == made.mrs.index and cleft.args["ARG1"] == "x11"
    assert made.mrs.variables[made.mrs.index]["TENSE"] == "past"  # the verb's tense
    assert engine.route(made.mrs) is None
    assert not [r for m in ("cleft", "pass") for r in engine.module(m).routes]
