"""Rule libraries (`use`), predicate classes, named guards, errors that point into them, the
one ERG 2025 cleft test, and realization preferences (docs/rules.md)."""

from __future__ import annotations

import re

import pytest
from delphin.codecs import simplemrs

from lit.errors import RuleError
from lit.phenomena import ANCHORS, cleft_2025_ep, describe
from lit.rules import Preference, RuleEngine
from lit.rules.compiler import builtin_rules_dir, compile_file, compile_text
from lit.rules.syntax import Guard
from lit.spec import parse_spec
from lit.status import Status

MODULE = """module demo
use shared
versions 2025
value ARG2 default
rule r
  context [ %verb ARG0: INDEX ]
  output
    set INDEX [ SF: ques ]
not_applicable copula
"""


def _library(tmp_path, body: str) -> None:
    (tmp_path / "shared.litlib").write_text("library shared\nclass verb = /_v_/\n" + body)


def _compile_demo(tmp_path):
    path = tmp_path / "demo.lit"
    path.write_text(MODULE)
    return compile_file(path)


def test_a_library_guard_and_class_are_used_by_name(tmp_path):
    _library(tmp_path, 'guard copula "{step}: a copula"\n  context [ @index /^_be_v_/ ]\n')
    module = _compile_demo(tmp_path)
    guard = module.blocks[1]
    assert isinstance(guard, Guard) and guard.reason == "{step}: a copula"
    assert guard.file == str(tmp_path / "shared.litlib") and guard.line == 3
    assert module.blocks[0].file == str(tmp_path / "demo.lit")


@pytest.mark.parametrize(
    "body, line, column, expected",
    [
        # a syntax error inside the library
        ('guard copula "x"\n  context [ @index ARG1 ?x ]\n', 4, 25, "unexpected '?x'"),
        # an unknown parameter, checked against the module that uses the library
        ('guard copula "x"\n  context [ @index {role}: ?x ]\n', 4, 11, "unknown parameter {role}"),
        # an unbound variable
        ('guard copula "x"\n  context [ @index ]\n  where ?a == ?b\n', 5, 9,
         "?a is not bound by context or input"),
        # an unknown anchor
        ('guard copula "x"\n  context [ @main ]\n', 4, 11, "unknown anchor @main"),
    ],
)
def test_errors_in_a_used_library_name_its_file_line_and_column(
    tmp_path, body, line, column, expected
):
    _library(tmp_path, body)
    with pytest.raises(RuleError) as err:
        _compile_demo(tmp_path)
    library = str(tmp_path / "shared.litlib")
    assert (err.value.file, err.value.line, err.value.column) == (library, line, column)
    assert expected in err.value.expected
    assert str(err.value).startswith(f"{library}:{line}:{column}: ")


@pytest.mark.parametrize(
    "text, where, expected",
    [
        ("module x\nuse nowhere\n", (2, 5), "unknown rule library 'nowhere'; expected one of: "),
        ("module x\nrule r\n  context [ %modal ]\n", (3, 13), "unknown predicate class %modal"),
        ("module x\nnot_applicable fragment\n", (2, 16), "unknown guard fragment"),
        ("library x\n", (1, 1), "a library is not a module"),
    ],
)
def test_linking_errors_name_the_module(text, where, expected):
    with pytest.raises(RuleError) as err:
        compile_text(text, "x.lit")
    assert (err.value.file, err.value.line, err.value.column) == ("x.lit", *where)
    assert expected in str(err.value)


def test_each_guard_is_written_once_in_the_shipped_modules():
    """Guards shared by modules live in a library: no guard text repeats across files."""
    seen: dict[str, str] = {}
    for path in sorted(builtin_rules_dir().glob("*.lit*")):
        text = re.sub(r"#[^\n]*", "", path.read_text())
        for block in re.findall(r'(?:not_applicable|guard \w+) "[^"]*"\n(?:  .*\n)+', text):
            assert block not in seen, f"{path.name} repeats a guard of {seen.get(block)}"
            seen[block] = path.name
    regexes = re.findall(r"\[ (?:@\w+ )?(/[^/]+/)", "".join(
        re.sub(r"#[^\n]*", "", p.read_text()) for p in builtin_rules_dir().glob("*.lit")))
    assert "/^_[a-z]+_v_modal$/" not in regexes  # the class %modal, written once


def test_merged_modules_keep_each_blocks_file(tmp_path):
    (tmp_path / "modal-ought.lit").write_text(
        "module modal\nversions 2025\nvalue ought pred=_ought_v_modal tense=pres\n"
        'not_applicable "ought: test"\n  context [ _ought_v_modal ]\n')
    module = RuleEngine.load("2025", [tmp_path]).module("modal")
    assert module.paths[-1] == str(tmp_path / "modal-ought.lit")
    assert module.blocks[-1].file == str(tmp_path / "modal-ought.lit")
    assert {b.file for b in module.blocks[:-1]} >= {str(builtin_rules_dir() / "modal.lit")}


# ---------------------------------------------------------------------------- the cleft test

#: csli 285 (ERG 2025 gold): a topicalization, not a cleft, with an ICONS focus on INDEX.
TOPICALIZED = (
    '[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: - PERF: - ] RELS: < '
    '[ _that_q_dem LBL: h4 ARG0: x5 [ x PERS: 3 NUM: sg IND: + ] RSTR: h6 BODY: h7 ] '
    '[ _office_n_of LBL: h8 ARG0: x5 ARG1: i9 ] '
    '[ _the_q LBL: h10 ARG0: x3 [ x PERS: 3 NUM: pl IND: + ] RSTR: h11 BODY: h12 ] '
    '[ _consultant_n_1 LBL: h13 ARG0: x3 ] [ _work_v_1 LBL: h1 ARG0: e2 ARG1: x3 ARG2: i14 ] '
    '[ _in_p_state LBL: h1 ARG0: e15 [ e SF: prop TENSE: untensed MOOD: indicative PROG: - '
    'PERF: - ] ARG1: e2 ARG2: x5 ] > HCONS: < h0 qeq h1 h6 qeq h8 h11 qeq h13 > '
    'ICONS: < e2 focus x5 > ]'
)


def test_a_focus_alone_is_not_an_erg_2025_cleft():
    m = simplemrs.decode(TOPICALIZED)
    assert cleft_2025_ep(m) is None and describe(m, "2025").cleft is False
    assert ANCHORS["cleft_2025"] is cleft_2025_ep
    outcome = RuleEngine.load("2025").apply(m, "cleft")
    assert outcome.status is Status.NOT_APPLICABLE
    assert outcome.reason == "cleft: the main verb's event already has a focus"


def test_an_erg_2025_cleft_is_one_for_rules_and_phenomena_alike():
    engine = RuleEngine.load("2025")
    source = next(e for e in engine.module("cleft").examples if e.source_mrs)
    cleft = engine.apply(simplemrs.decode(source.source_mrs), "cleft").mrs
    assert cleft_2025_ep(cleft) is not None and describe(cleft, "2025").cleft is True
    assert engine.apply(cleft, "cleft").reason == "cleft: already an it-cleft"


# ---------------------------------------------------------------------------- preferences


@pytest.mark.parametrize(
    "surface, holds",
    [
        ("Is a woman driving a car?", True),
        ("Did a woman not drive a car?", True),
        ("Will a car be driven?", True),
        ("Won't a car be driven?", True),
        ("A woman is driving a car?", False),
    ],
)
def test_ques_prefers_subject_auxiliary_inversion(surface, holds):
    (preference,) = RuleEngine.load("2025").preferences("ques")
    assert isinstance(preference, Preference)
    assert preference.name == "subject-auxiliary inversion"
    assert preference.file == str(builtin_rules_dir() / "ques.lit") and preference.line > 0
    assert preference.holds(surface) is holds


def test_preferences_are_the_union_over_steps_in_order(tmp_path):
    (tmp_path / "neg-prefer.lit").write_text(
        'module neg\nversions 2025\nprefer "contracted" matches "n\'t\\\\b"\n')
    engine = RuleEngine.load("2025", [tmp_path])
    names = [p.name for p in engine.preferences(parse_spec("neg+ques+neg"))]
    assert names == ["contracted", "subject-auxiliary inversion"]
    contracted = engine.preferences("neg")[0]
    assert contracted.holds("A dog ISN'T running.") and not contracted.holds("A dog is not.")
    assert engine.preferences("o") == () and engine.preferences("tense=past") == ()


def test_a_bad_preference_regex_is_an_error_at_its_position():
    with pytest.raises(RuleError) as err:
        compile_text('module x\nprefer "p" matches "(("\n', "x.lit")
    assert (err.value.line, err.value.column) == (2, 20)
