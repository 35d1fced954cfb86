"""The rule language: compiling, errors with file:line:column, extension by new files, CLI."""

from __future__ import annotations

import json

import pytest
from delphin.codecs import simplemrs

from lit.cli import main
from lit.equivalence import equivalent
from lit.errors import InputError
from lit.rules.engine import RuleEngine, builtin_rules_dir
from lit.rules.compiler import compile_file, compile_text
from lit.status import Status
from tests.conftest import ORACLE, read_jsonl


@pytest.fixture(scope="module")
def s02():
    row = next(s for s in read_jsonl(ORACLE / "sources.jsonl.gz") if s["id"] == "s02")
    return simplemrs.decode(row["mrs"])  # A woman is driving a car.


def test_every_shipped_rule_file_compiles():
    files = sorted(builtin_rules_dir().glob("*.lit"))
    assert len(files) >= 12
    for f in files:
        assert compile_file(f).blocks or f.name == "o.lit"


@pytest.mark.parametrize(
    "text, where, expected",
    [
        ("module x\nrule r\n  context [ @index ARG1 ?x ]\n", "3:25", "expected"),
        ("module x\nrule r\n  context [ @index ARG1: ?x \n", "3:26",
         "unexpected end of file; expected '[', ']'"),
        ("module x\nvalue a\nrule r\n  context [ @index ARG1: ?x ]\n  output add [ _a_q LBL: ?h ]\n",
         "5:14", "?h is neither matched nor declared with 'fresh'"),
        ("module x\nrule r\n  context [ {role}: ?x ]\n", "3:11", "unknown parameter {role}"),
        ("module x\nrule r\n  context [ /_v_(/ ARG1: ?x ]\n", "3:13", "bad regular expression"),
        ("module x\nrule r\n  context [ @index ARG1: ?x ] %\n", "3:31", "unexpected character"),
        ("modul x\n", "1:1", "expected"),
        ("module x\nversions 2019\n", "2:10", "grammar version"),
        ("module x\nrule r\n  context [ @index ]\n  output remove [ neg ]\n", "4:17",
         "'remove' needs a named EP"),
    ],
)
def test_errors_name_file_line_column(tmp_path, text, where, expected):
    path = tmp_path / "bad.lit"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        compile_file(path)
    message = str(err.value)
    assert message.startswith(f"{path}:{where}:"), message
    assert expected in message


def test_no_python_in_rule_files():
    """Rule text is data: anything that is not the rule language is a syntax error."""
    with pytest.raises(InputError, match="unexpected"):
        compile_text('module x\nrule r\n  context __import__("os").system("true")\n', "evil.lit")


OUGHT = """
# A new modal, added by a rule file alone: the modal module's rules do the work.
module modal
versions 2025 2018
value ought pred=_ought_v_modal tense=pres
"""

DECLARATIVE = """
module tell
description "Turn a polar question back into a statement (LIT's own is decl)."
versions 2025 2018
otherwise "tell: the main clause is not a question"

rule tell
  context INDEX [ SF: ques ]
  output
    set INDEX [ SF: prop ]
"""


def test_a_new_modal_needs_only_a_rule_file(tmp_path, s02):
    (tmp_path / "modal-ought.lit").write_text(OUGHT)
    engine = RuleEngine.load("2025", [tmp_path])
    outcome = engine.apply(s02, "modal=ought")
    assert outcome.status is Status.OK
    assert "_ought_v_modal" in [ep.predicate for ep in outcome.mrs.rels]
    assert engine.apply(outcome.mrs, "modal=may").reason == "modal: already modal"
    with pytest.raises(InputError, match="unknown value 'ought'"):
        RuleEngine.load("2025").apply(s02, "modal=ought")  # not without the extra file


def test_a_new_module_needs_only_a_rule_file(tmp_path, s02):
    (tmp_path / "tell.lit").write_text(DECLARATIVE)
    engine = RuleEngine.load("2018", [tmp_path])
    question = engine.apply(s02, "ques").mrs
    back = engine.apply(question, "tell")
    assert back.status is Status.OK
    assert back.mrs.variables[back.mrs.index]["SF"] == "prop"
    assert engine.apply(s02, "tell").reason == "tell: the main clause is not a question"
    assert "tell" in [m.name for m in engine.modules]


def test_a_value_defined_twice_is_an_error(tmp_path):
    (tmp_path / "modal-may.lit").write_text("module modal\nvalue may pred=_may_v_modal\n")
    with pytest.raises(InputError, match="value\\(s\\) may already defined"):
        RuleEngine.load("2025", [tmp_path])


def test_engine_is_compiled_once_and_reports_unknown_steps(s02):
    assert RuleEngine.load("2025") is RuleEngine.load("2025")
    engine = RuleEngine.load("2025")
    with pytest.raises(InputError, match="unknown transformation 'frobnicate'"):
        engine.apply(s02, "frobnicate")
    with pytest.raises(InputError, match="tense needs a value"):
        engine.apply(s02, "tense")
    with pytest.raises(InputError, match="takes no value"):
        engine.apply(s02, "ques=yes")
    with pytest.raises(InputError, match="unknown grammar version"):
        RuleEngine.load("2019")


def test_apply_reports_each_step_and_stops_at_the_first_that_does_not_apply(s02):
    outcome = RuleEngine.load("2025").apply(s02, "f+pa+pa")
    assert outcome.status is Status.NOT_APPLICABLE
    assert outcome.reason == "pass: already passive"
    assert [s.status for s in outcome.steps] == [Status.OK, Status.OK, Status.NOT_APPLICABLE]
    identity = RuleEngine.load("2025").apply(s02, "o")
    assert identity.status is Status.OK and identity.mrs is s02


def test_cli_transform_mrs_mode(tmp_path, s02, capsys):
    lines = [simplemrs.encode(s02), "[ not an MRS", simplemrs.encode(s02)]
    src = tmp_path / "in.mrs"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    code = main(["transform", "--mrs", str(src), "--spec", "f;p"[0] + "+pa",
                 "--grammar-version", "2018", "-o", str(out)])
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0  # every line got its record; the bad one says why
    assert [r["status"] for r in records] == ["ok", "invalid_input", "ok"]
    assert "line 2" in records[1]["reason"]
    assert records[0]["spec"] == "tense=fut+pass"
    assert set(records[0]) == {"input", "status", "reason", "spec", "mrs", "output", "verified",
                               "candidates", "ranking", "chosen_because", "capped",
                               "stand_ins", "reading", "reading_evidence", "alternatives", "route"}
    assert records[0]["output"] is None and records[0]["mrs"].startswith("[ TOP")
    assert "topic" in records[0]["mrs"]


def test_cli_transform_not_applicable_and_bad_spec(tmp_path, s02, capsys):
    src = tmp_path / "in.mrs"
    src.write_text(simplemrs.encode(s02) + "\n")
    assert main(["transform", "--mrs", str(src), "--spec", "tense=pres"]) == 0  # recorded
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["reason"]) == ("not_applicable", "tense=pres: already pres")
    assert main(["transform", "--mrs", str(src), "--spec", "tense=+"]) == 2
    assert "column" in capsys.readouterr().err


def test_cli_rules_list_and_check(tmp_path, capsys):
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    for name in ("cleft", "tense", "modal", "neg", "ques", "pass", "swap", "prog", "perf"):
        assert f"\n{name}" in listing
    assert "paper code: pa" in listing and "A woman is driving a car." in listing
    good = builtin_rules_dir() / "neg.lit"
    assert main(["rules", "check", str(good)]) == 0
    assert "ok: module neg" in capsys.readouterr().out
    bad = tmp_path / "bad.lit"
    bad.write_text("module x\nrule r\n  context [ @index ARG1: ?x \n")
    assert main(["rules", "check", str(bad)]) == 2
    assert f"{bad}:3:26: unexpected end of file" in capsys.readouterr().err


def test_the_guide_shows_a_real_module_in_full():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    module = (builtin_rules_dir() / "modal.lit").read_text()
    assert f"```\n{module}```" in guide, "docs/rules.md must show modal.lit as it is"


@pytest.mark.parametrize(
    "output, expected",
    [
        ("add [ /_v_/ LBL: ?l ]", "an output predicate must be a name"),
        ("add [ neg ARG0: ?l ]", "the added EP needs LBL"),
        ("set ?l [ TENSE: past|pres ]", "set TENSE: give exactly one value"),
        ("set ?l [ TENSE: !past ]", "set TENSE: give exactly one value"),
    ],
)
def test_output_mistakes_are_caught_when_compiling(output, expected):
    text = f"module x\nrule r\n  context [ @index LBL: ?l ]\n  output\n    {output}\n"
    with pytest.raises(InputError, match=f"x.lit:5:9: {expected}"):
        compile_text(text, "x.lit")


def test_cli_transform_reads_stdin(monkeypatch, s02, capsys):
    import io

    data = (simplemrs.encode(s02) + "\n").encode("utf-8")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["transform", "--mrs", "-", "--spec", "i", "--grammar-version", "2025"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["status"] == "ok" and record["spec"] == "cleft"
    assert "focus" in record["mrs"]


UNNEGATE = """
# Remove sentential negation: the neg EP and its qeq are consumed (input), and the clause
# it scoped over takes neg's label back.
module unneg
versions 2025 2018
otherwise "unneg: the main clause is not negated"

rule drop
  input  [ @neg LBL: ?l ARG1: ?a ] ?a qeq ?l2
  output
    relabel ?l2 -> ?l
"""


def test_input_items_are_consumed_and_anchors_work(tmp_path, s02):
    (tmp_path / "unneg.lit").write_text(UNNEGATE)
    engine = RuleEngine.load("2018", [tmp_path])
    negated = engine.apply(s02, "neg").mrs
    back = engine.apply(negated, "unneg")
    assert back.status is Status.OK
    assert equivalent(back.mrs, s02)
    assert engine.apply(s02, "unneg").reason == "unneg: the main clause is not negated"
    assert [m.code for m in engine.modules if m.name in ("neg", "unneg")] == ["n", None]
