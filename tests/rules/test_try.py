"""`lit rules try`, the rule author's workbench, on the shipped gold ERG 2025 MRSs (no ACE)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from delphin.codecs import simplemrs

from lit.cli import build_parser, main
from lit.mrs import Method, align
from lit.rules.compiler import builtin_rules_dir
from lit.rules.engine import RuleEngine
from lit.spec import Spec, Step
from lit.workbench import sources, trial
from lit.workbench.mrsdiff import changed_eps, edits
from tests.conftest import DATA
from tools.robustness import sweep

RULES = builtin_rules_dir()
#: Enough gold MRSs for every outcome of the modules tested here, few enough to stay quick.
LIMIT = 1500


def _try(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["rules", "try", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def gold():
    return sources.load(sources.GOLD, LIMIT)[1]


def test_gold_is_the_default_source_and_read_once():
    name, items = sources.load(None)
    assert name.startswith("gold ERG 2025 MRSs") and len(items) == 10472
    assert items[0].id == "mrs/11" and items[0].sentence == "It rained."
    assert sources.load("gold")[1] is items  # decoded once per process
    args = build_parser().parse_args(["rules", "try", "x.lit"])
    assert args.on == sources.GOLD  # `lit rules try` reads the gold MRSs unless told otherwise


@pytest.mark.parametrize("module", ["neg", "tense"])
def test_counts_per_reason_match_a_direct_sweep(capsys, gold, module):
    """The figures of tools/robustness.py (applied per step) and, per reason, those of
    RuleEngine.apply over the same gold MRSs."""
    code, out, _ = _try(capsys, str(RULES / f"{module}.lit"), "--limit", str(LIMIT), "--json")
    assert code == 0
    found = json.loads(out)
    engine = RuleEngine.load("2025")
    info = engine.module(module)
    steps = [Step(module, v) for v in info.params] or [Step(module)]
    assert [s["spec"] for s in found["specs"]] == [str(s) for s in steps]
    applied = sweep([i.mrs for i in gold], engine, steps, [], 0)["applied"]
    for step, spec in zip(steps, found["specs"]):
        reasons = Counter(engine.apply(i.mrs, Spec((step,))).reason for i in gold)
        assert spec["counts"]["applied"] == applied[str(step)] == reasons.pop(None)
        got = {r["reason"]: r["count"] for r in spec["reasons"]["not_applicable"]}
        assert got == dict(reasons)
        assert sum(spec["counts"].values()) == spec["inputs"] == LIMIT
        # each reason's example is its first input
        first = next(i for i in gold
                     if engine.apply(i.mrs, Spec((step,))).reason == spec["reasons"][
                         "not_applicable"][0]["reason"])
        assert spec["reasons"]["not_applicable"][0]["example"]["id"] == first.id


def test_text_summary_names_reasons_and_examples(capsys):
    code, out, err = _try(capsys, str(RULES / "neg.lit"), "neg", "--limit", "200")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (f"module neg ({RULES / 'neg.lit'}) on 200 input(s) from gold ERG 2025 "
                        "MRSs (erg-gold-2025.jsonl.gz)")
    assert lines[1].startswith("examples: ") and lines[1].endswith(" hold")
    assert "neg: 200 input(s)" in lines
    assert any(line.startswith("  applied ") and "e.g. mrs/11 It rained." in line
               for line in lines)
    assert "             e.g. mrs/" in out
    assert "200 input(s) x 1 spec(s) in" in err


#: "Abrams barked." (gold mrs/21) under modal=may: every kind of edit but ICONS.
BARKED = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past MOOD: indicative PROG: - PERF: - ] "
          "RELS: < [ proper_q<0:6> LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 "
          'BODY: h6 ] [ named<0:6> LBL: h7 ARG0: x3 CARG: "Abrams" ] [ _bark_v_1<7:14> LBL: h1 '
          "ARG0: e2 ARG1: x3 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]")


def test_diff_of_a_known_rule_in_full():
    source = simplemrs.decode(BARKED)
    result = RuleEngine.load("2025").apply(source, "modal=may").mrs
    assert edits(source, result) == [
        "change [ _bark_v_1 ARG0: e2 ] [ LBL: h8 ]",
        "add [ _may_v_modal LBL: h1 ARG0: e10 [e SF: prop TENSE: pres MOOD: indicative "
        "PROG: - PERF: -] ARG1: h9 ]",
        "add h9 qeq h8",
        "set e2 [ TENSE: untensed ]",  # SF: prop is set too, but it was prop already
        "INDEX = e10",
    ]
    alignment = align(source, result, Method.COPY)
    assert alignment.removed == () and alignment.added == (3,)
    assert changed_eps(source, result, alignment) == ({2}, {2, 3})


CHASED = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past MOOD: indicative PROG: - PERF: - ] "
          "RELS: < [ proper_q<0:6> LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 "
          'BODY: h6 ] [ named<0:6> LBL: h7 ARG0: x3 CARG: "Abrams" ] [ _chase_v_1<7:13> '
          "LBL: h1 ARG0: e2 ARG1: x3 ARG2: x9 [ x PERS: 3 NUM: sg IND: + ] ] [ proper_q<14:21> "
          'LBL: h10 ARG0: x9 RSTR: h11 BODY: h12 ] [ named<14:20> LBL: h13 ARG0: x9 CARG: '
          '"Browne" ] > HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 > ]')


def test_diff_of_icons_and_of_a_new_variable_outside_any_ep():
    """"Abrams chased Browne." (gold mrs/41): a passive adds a topic; an ERG 2025 cleft adds a
    focus, a fresh INDEX no EP carries, and drops the verb's aspect."""
    source = simplemrs.decode(CHASED)
    engine = RuleEngine.load("2025")
    assert edits(source, engine.apply(source, "pass").mrs) == ["add e2 topic x9"]
    assert edits(source, engine.apply(source, "cleft=ARG2").mrs) == [
        "add e2 focus x9", "unset e2 PROG PERF", "set e14 [ SF: prop ]", "INDEX = e14"]


def test_diff_option_prints_fired_blocks_and_edits(capsys):
    code, out, _ = _try(capsys, str(RULES / "modal.lit"), "modal=may", "--limit", "3",
                        "--diff", "--examples", "1")
    assert code == 0
    block = out.split("\n  mrs/11 It rained.\n")[1].splitlines()
    assert block[0].startswith("    fired: modal.lit:") and block[0].endswith(" rule wrap")
    assert "    INDEX = e" in "\n".join(block)
    assert out.count("    fired: ") == 1  # --examples 1


def _broken_swap(tmp_path: Path) -> Path:
    """swap.lit with a wrong role in its active rule: ARG3 where {b} belongs."""
    text = (RULES / "swap.lit").read_text()
    rule = "rule active\n  context ?v = [ @index {a}: ?x [x] {b}: ?y [x] ]"
    assert rule in text
    broken = tmp_path / "swap.lit"
    broken.write_text(text.replace(rule, rule.replace("{b}: ?y", "ARG3: ?y")))
    return broken


def test_a_wrong_role_shows_up_as_changed_outcomes(capsys, tmp_path):
    broken = _broken_swap(tmp_path)
    code, out, _ = _try(capsys, str(broken), "swap", "--against", str(RULES / "swap.lit"),
                        "--limit", str(LIMIT), "--json")
    found = json.loads(out)
    # the module's own examples catch it too (exit 1): the active ARG1,ARG2 one fails; the
    # passive one goes through another rule, and for swap=ARG1,ARG3 {b} is ARG3 anyway
    assert code == 1
    assert [(e["source"], e["holds"]) for e in found["examples"]] == [
        ("A woman is driving a car.", False), ("The cake was eaten by the children.", True),
        ("Alice gave Bob a book.", True)]
    spec = found["specs"][0]
    changed = spec["changed"]
    kinds = Counter(c["how"] for c in changed)
    # transitive verbs: the broken rule no longer matches; ditransitives: another result
    assert kinds["applied -> not_applicable"] > 100
    engine = RuleEngine.load("2025")
    gold = {i.id: i for i in sources.load(sources.GOLD, LIMIT)[1]}
    for c in changed:
        old = trial.apply_one(engine, Spec((Step("swap"),)), gold[c["id"]])
        # applied, or "changes nothing" ("Who interviewed whom?"): by the rule broken
        assert old.fired and old.fired[-1].endswith("rule active"), c
    # the inputs only the passive rules handled are untouched
    ids = {c["id"] for c in changed}
    for item in gold.values():
        old = trial.apply_one(engine, Spec((Step("swap"),)), item)
        if old.kind == trial.APPLIED and "active" not in old.fired[-1]:
            assert item.id not in ids


def test_against_the_same_module_changes_nothing(capsys):
    code, out, _ = _try(capsys, str(RULES / "swap.lit"), "swap", "--against",
                        str(RULES / "swap.lit"), "--limit", "300")
    assert code == 0
    assert "  against the old module: 0 input(s) changed outcome" in out


def test_a_rule_that_raises_is_an_error_for_its_input_not_the_run(capsys, tmp_path):
    bad = tmp_path / "bad.lit"
    # {value} is declared (every module has it) but this module has no values to fill it
    bad.write_text('module bad\nversions 2025\nrule r\n  context [ @index ARG0: ?e ]\n'
                   "  output\n    set ?e [ TENSE: {value} ]\n")
    code, out, _ = _try(capsys, str(bad), "--limit", "20")
    assert code == 1  # the run says so in its exit status
    assert "  error                 20 100.0%" in out.splitlines()
    assert f"         20  bad: InputError: {bad}: parameter {{value}} has no value for this step" \
        in out.splitlines()


def test_examples_of_the_module_are_checked(capsys, tmp_path):
    text = (RULES / "modal.lit").read_text()
    code, out, _ = _try(capsys, str(RULES / "modal.lit"), "modal=may", "--limit", "1")
    assert code == 0 and "examples: 3 of 3 hold" in out.splitlines()[1]
    wrong = tmp_path / "modal.lit"
    wrong.write_text(text.replace("value may    pred=_may_v_modal    tense=pres default",
                                  "value may    pred=_might_v_modal    tense=pres default"))
    code, out, _ = _try(capsys, str(wrong), "modal=may", "--limit", "1")
    assert code == 1
    assert "examples: 2 of 3 hold" in out
    assert "FAILS modal=may: 'A woman is driving a car.' -> 'A woman may be driving a car.': " \
           "the result is not the target: EPs differ" in out


def test_a_spec_must_use_the_module(capsys):
    assert main(["rules", "try", str(RULES / "neg.lit"), "tense=past"]) == 2
    assert "does not use module neg" in capsys.readouterr().err


def test_lit_parse_outputs_are_sources(capsys, tmp_path, gold_2025):
    rows = gold_2025[:3]
    as_json = tmp_path / "parsed.jsonl"
    as_json.write_text("".join(json.dumps({"input": r["sentence"], "status": "ok",
                                           "readings": [{"mrs": r["mrs"]}]}) + "\n"
                               for r in rows)
                       + json.dumps({"input": "Xyzzy.", "status": "no_parse",
                                     "reason": "no reading", "readings": []}) + "\n")
    as_mrs = tmp_path / "parsed.mrs"
    as_mrs.write_text("\n\n".join(r["mrs"] for r in rows)
                      + "\n\n# no_parse: no reading [input: Xyzzy.]\n")
    for path in (as_json, as_mrs):
        name, items = sources.load(str(path))
        assert name == str(path) and len(items) == 4
        assert [i.mrs is not None for i in items] == [True, True, True, False]
        assert "no_parse" in items[3].problem
    code, out, _ = _try(capsys, str(RULES / "neg.lit"), "--on", str(as_json))
    assert code == 0
    assert "  no_mrs                 1  25.0%" in out
    assert items[0].sentence is None and sources.load(str(as_json))[1][0].sentence == \
        rows[0]["sentence"]


def test_sentences_need_ace(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("LIT_ACE", raising=False)
    monkeypatch.delenv("LIT_GRAMMAR", raising=False)
    text = tmp_path / "sentences.txt"
    text.write_text("The cat is in the garden.\n")
    assert main(["rules", "try", str(RULES / "neg.lit"), "--on", str(text)]) == 2
    assert "error" in capsys.readouterr().err


def test_watch_runs_again_when_the_file_is_saved(capsys, tmp_path):
    """--watch: the first run, then one per save (here: a guard added between polls)."""
    from argparse import Namespace

    from lit.workbench.session import run

    module = tmp_path / "neg.lit"
    module.write_text((RULES / "neg.lit").read_text())
    saved = []

    def sleep(_seconds):
        if not saved:
            text = module.read_text().replace(
                '\notherwise "', '\nnot_applicable "neg: every input refused"\n  context [ * ]'
                '\n\notherwise "', 1)
            module.write_text(text)
            saved.append(True)

    args = Namespace(files=[str(module), "neg"], on="gold", limit=50, diff=False, examples=1,
                     json=False, html=None, against=None, watch=True, realize=0,
                     grammar_version="2025", rules=[])
    assert run(args, runs=2, sleep=sleep) == 0
    out = capsys.readouterr().out
    first, second = out.split("module neg (")[1:]
    assert "neg: every input refused" not in first
    assert "     50  neg: every input refused" in second
    assert "examples: 0 of " in second  # the guard refuses the examples too


def test_gold_file_is_the_test_data(tmp_path):
    assert sources.gold_path().resolve() == (DATA / "erg-gold-2025.jsonl.gz").resolve()


def test_sentences_are_parsed_and_results_realized_with_ace(capsys, tmp_path, fake_ace_config):
    """A file of sentences is parsed (the fake ACE replays ERG 2018 transcripts) and
    --realize generates, ranks and verifies as `lit transform` does."""
    text = tmp_path / "sentences.txt"
    text.write_text("A woman is driving a car.\n")
    code, out, _ = _try(capsys, str(RULES / "modal.lit"), "modal=may", "--on", str(text),
                        "--grammar-version", "2018", "--ace", str(fake_ace_config.ace),
                        "--grammar", str(fake_ace_config.grammar), "--workers", "1",
                        "--realize", "1", "--scorer", "ace", "--diff")
    assert code == 0, out
    assert "\n  line 1 A woman is driving a car.\n" in out
    assert "    realized: 'A woman may be driving a car.' (verified)" in out
    # ACE's readings of the sentence, weighed as `lit transform` weighs them: the one LIT
    # would transform is the input's own (issue 45)
    evidence = [line for line in out.splitlines() if line.startswith("      reading ")]
    assert evidence and ", chosen, gold): nothing speaks against it" in evidence[0]


def test_a_file_adding_a_value_runs_with_its_modules_rules(capsys, tmp_path):
    """docs/rules.md's one-file extension (a new modal) is tried with modal's own rules; a
    copy of a module (the same values) replaces it, as the broken swap above did."""
    ought = tmp_path / "modal-ought.lit"
    ought.write_text("module modal\nversions 2025 2018\n"
                     "value ought pred=_ought_v_modal tense=pres\n")
    code, out, _ = _try(capsys, str(ought), "--limit", "3", "--diff", "--examples", "1")
    assert code == 0
    assert "modal=ought: 3 input(s)" in out.splitlines()
    assert "    add [ _ought_v_modal LBL: h1 ARG0: e5 [e SF: prop TENSE: pres MOOD: indicative " \
           "PROG: - PERF: -] ARG1: h4 ]" in out.splitlines()
    assert out.splitlines()[-6].startswith("    fired: modal.lit:")


@pytest.mark.parametrize("argv, message", [
    ([], "lit rules try needs a rule FILE and at most one SPEC"),
    (["--grammar-version", "2018"], "the gold MRSs are ERG 2025 analyses; for ERG 2018 give "
     "--on a file of its MRSs"),
    (["--on", "no-such-file.jsonl"], "--on no-such-file.jsonl: no such file"),
])
def test_bad_input_is_named(capsys, argv, message):
    files = [] if not argv else [str(RULES / "neg.lit")]
    assert main(["rules", "try", *files, *argv]) == 2
    assert message in capsys.readouterr().err
