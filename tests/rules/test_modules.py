"""Each module's own examples, and properties every module must have (docs/design.md §4)."""

from __future__ import annotations

import itertools

import pytest
from delphin.codecs import simplemrs

from lit.config import GRAMMAR_VERSIONS
from lit.equivalence import equivalent
from lit.phenomena import describe
from lit.rules.engine import RuleEngine
from lit.status import Status
from tests.conftest import ORACLE, read_jsonl



def _examples():
    for version in GRAMMAR_VERSIONS:
        for info in RuleEngine.load(version).modules:
            for i, ex in enumerate(info.examples):
                if ex.source_mrs and version in (ex.versions or info.versions):
                    yield pytest.param(version, ex, id=f"{version}-{info.name}-{i}-{ex.spec}")


@pytest.mark.parametrize("version, example", list(_examples()))
def test_module_examples(version, example):
    source = simplemrs.decode(example.source_mrs)
    before = simplemrs.encode(source)
    outcome = RuleEngine.load(version).apply(source, example.spec)
    assert outcome.status is Status.OK, outcome.reason
    assert equivalent(outcome.mrs, simplemrs.decode(example.target_mrs)), (
        f"{example.source} -> {example.target}: got {simplemrs.encode(outcome.mrs, lnk=False)}"
    )
    assert simplemrs.encode(source) == before  # the input is never mutated


@pytest.mark.parametrize("version", ["2025", "2018"])
def test_every_module_has_a_tested_example(version):
    engine = RuleEngine.load(version)
    names = {m.name for m in engine.modules}
    assert {"o", "cleft", "tense", "prog", "perf", "modal", "neg", "ques", "pass", "swap"} <= names
    for info in engine.modules:
        assert info.description and info.versions
        assert any(ex.source_mrs for ex in info.examples), f"{info.name} has no MRS example"


def test_paper_codes_match_the_spec_aliases():
    from lit.spec import ALIASES

    for info in RuleEngine.load("2025").modules:
        for code, value in info.codes:
            assert ALIASES[code] == (info.name, value), code


@pytest.fixture(scope="module")
def sources():
    return {s["id"]: simplemrs.decode(s["mrs"]) for s in read_jsonl(ORACLE / "sources.jsonl.gz")
            if s["parsed"]}


@pytest.mark.parametrize("spec", ["neg", "modal=may", "pass", "cleft", "ques", "tense=fut",
                                  "prog=+", "perf=+", "neg=no", "pass=ARG3"])
@pytest.mark.parametrize("version", ["2025", "2018"])
def test_no_step_stacks_onto_itself(sources, spec, version):
    """No "may may", no double negation, no passive of a passive, no cleft of a cleft...:
    a step applied to its own result never applies again (swap undoes itself instead)."""
    engine = RuleEngine.load(version)
    applied = 0
    for m in sources.values():
        once = engine.apply(m, spec)
        if once.status is Status.OK:
            applied += 1
            twice = engine.apply(once.mrs, spec)
            assert twice.status is Status.NOT_APPLICABLE, (spec, simplemrs.encode(once.mrs))
            assert twice.reason
    assert applied > 0


def test_swap_twice_gives_back_the_source(sources):
    engine = RuleEngine.load("2018")
    for m in sources.values():
        once = engine.apply(m, "swap")
        if once.status is Status.OK:
            assert equivalent(engine.apply(once.mrs, "swap").mrs, m)


def test_all_twelve_tense_aspect_combinations_are_reachable(sources):
    """From a simple past clause, tense × prog × perf reach all 12 combinations."""
    engine = RuleEngine.load("2018")
    m = sources["s16"]  # The teacher praised the students. (past, -, -)
    seen = set()
    for tense, prog, perf in itertools.product(("past", "pres", "fut"), "+-", "+-"):
        steps = [f"tense={tense}"] * (tense != "past") + [f"prog={prog}"] * (prog == "+")
        steps += [f"perf={perf}"] * (perf == "+")
        outcome = engine.apply(m, "+".join(steps) or "o")
        assert outcome.status is Status.OK, outcome.reason
        d = describe(outcome.mrs, "2018")
        seen.add((d.tense, d.prog, d.perf))
    assert len(seen) == 12


def test_modal_marks_aspect_on_both_events_and_untenses_the_verb(sources):
    out = RuleEngine.load("2018").apply(sources["s02"], "modal=would").mrs
    d = describe(out, "2018")
    assert (d.modal, d.tense, d.prog) == ("would", "tensed", "+")
    verb = next(ep for ep in out.rels if ep.predicate == "_drive_v_1")
    assert out.variables[verb.iv]["TENSE"] == "untensed"
    assert out.variables[verb.iv]["PROG"] == "+"


def test_modal_goes_under_an_existing_negation(sources):
    """"Alice did not see Bob." + may -> neg > may > see ("Alice may not see Bob.")."""
    out = RuleEngine.load("2018").apply(sources["s55"], "modal=may").mrs
    d = describe(out, "2018")
    assert d.modal == "may" and d.negated


def test_neg_no_turns_an_indefinite_subject_into_no(sources):
    engine = RuleEngine.load("2025")
    out = engine.apply(sources["s02"], "neg=no").mrs  # A woman is driving a car.
    assert [ep.predicate for ep in out.rels].count("_no_q") == 1
    # a definite or numbered subject has no such alternative
    for sid in ("s10", "s08"):  # The man ...; Two women ...
        outcome = engine.apply(sources[sid], "neg=no")
        assert outcome.status is Status.NOT_APPLICABLE
        assert "not indefinite" in outcome.reason
    # and a subject already "no" is negated already
    assert engine.apply(out, "neg").reason.startswith("neg: already negated")


def test_recipient_passive_and_ditransitive_swap(sources):
    engine = RuleEngine.load("2018")
    m = sources["s51"]  # Alice gave Bob a book.
    give = next(ep for ep in m.rels if ep.predicate == "_give_v_1")
    out = engine.apply(m, "pass=ARG3").mrs
    assert [(ic.relation, ic.right) for ic in out.icons] == [("topic", give.args["ARG3"])]
    swapped = engine.apply(m, "swap=ARG1,ARG3").mrs
    new_give = next(ep for ep in swapped.rels if ep.predicate == "_give_v_1")
    assert (new_give.args["ARG1"], new_give.args["ARG3"]) == (give.args["ARG3"], give.args["ARG1"])


def test_erg_2025_cleft_has_a_bare_index(sources):
    out = RuleEngine.load("2025").apply(sources["s02"], "cleft=ARG2").mrs
    assert not any(ep.iv == out.index for ep in out.rels)
    d = describe(out, "2025")
    assert d.cleft and d.tense == "pres" and d.index_predicate == "_drive_v_1"
    # the tense of a 2025 cleft is the verb's; tense and question still apply
    assert describe(RuleEngine.load("2025").apply(out, "tense=past").mrs, "2025").tense == "past"
    assert describe(RuleEngine.load("2025").apply(out, "ques").mrs, "2025").question


def test_a_verb_without_arguments_under_a_modal():
    """"It rained." (ERG 2025 gold): _rain_v_1 has no ARG1; steps after a modal still work."""
    from tests.conftest import DATA

    gold = read_jsonl(DATA / "erg-gold-2025.jsonl.gz")
    row = next(r for r in gold if r["sentence"] == "It rained.")
    engine = RuleEngine.load("2025")
    m = simplemrs.decode(row["mrs"])
    assert engine.apply(m, "modal=may+neg").status is Status.OK
    assert engine.apply(m, "modal=would+prog=+").status is Status.OK
    assert engine.apply(m, "modal=may+tense=past").reason == "tense on a modal clause"
    assert engine.apply(m, "pass").reason == "pass: index EP has no x-type ARG2"
