"""Data tables in the rule language (docs/rules.md, "Tables"): a module declares a TSV file,
patterns test that a predicate or constant is a key of a column, outputs replace it by another
column's values (one alternative output per value), and every row of a predicates table is
checked against the ERG 2025 SEM-I with the table's file and line in the error."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.cli import main
from lit.errors import RuleError
from lit.rules import RuleEngine
from lit.rules.compiler import compile_file
from lit.status import Status

# "The woman evaluated herself." (ERG 2025 gold, csli 116)
WOMAN = simplemrs.decode(
    "[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past MOOD: indicative PROG: - PERF: - ] RELS: < "
    "[ _the_q<0:3> LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ] "
    "[ _woman_n_1<4:9> LBL: h7 ARG0: x3 ] [ _evaluate_v_1<10:19> LBL: h1 ARG0: e2 ARG1: x3 "
    "ARG2: x8 [ x PERS: 3 NUM: sg GEND: f IND: + PT: refl ] ] [ pron<20:27> LBL: h9 ARG0: x8 ] "
    "[ pronoun_q<20:27> LBL: h10 ARG0: x8 RSTR: h11 BODY: h12 ] > "
    "HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h9 > ]")

# "Abrams chased Browne." (ERG 2025 gold, mrs 41)
NAMES = simplemrs.decode(
    "[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: past MOOD: indicative PROG: - PERF: - ] RELS: < "
    "[ proper_q<0:6> LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ] "
    "[ named<0:6> LBL: h7 ARG0: x3 CARG: \"Abrams\" ] [ _chase_v_1<7:13> LBL: h1 ARG0: e2 "
    "ARG1: x3 ARG2: x9 [ x PERS: 3 NUM: sg IND: + ] ] [ proper_q<14:21> LBL: h10 ARG0: x9 "
    "RSTR: h11 BODY: h12 ] [ named<14:20> LBL: h13 ARG0: x9 CARG: \"Browne\" ] > "
    "HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 > ]")

SWAP = """module flip
versions 2025
table people "data/people.tsv"
value f from=male to=female
value m from=female to=male default
rule noun every
  context ?n = [ <people.{from}> ]
  output
    change ?n [ <people.{from} -> {to}> ]
rule pron every
  context [ pron ARG0: ?x [x GEND: f] ]
  when value = m
  output
    set ?x [ GEND: m ]
"""


def _module(tmp_path, text: str, tables: dict[str, str], name: str = "flip"):
    (tmp_path / "data").mkdir(exist_ok=True)
    for file, body in tables.items():
        (tmp_path / "data" / file).write_text(body)
    path = tmp_path / f"{name}.lit"
    path.write_text(text)
    return path


def _preds(m) -> list[str]:
    return [ep.predicate for ep in m.rels]


def test_every_match_is_rewritten_from_the_table(tmp_path):
    path = _module(tmp_path, SWAP, {"people.tsv": "# test\nfemale\tmale\n_woman_n_1\t_man_n_1\n"})
    engine = RuleEngine.load("2025", [path])
    out = engine.apply(WOMAN, "flip=m")
    assert out.status == Status.OK
    assert "_man_n_1" in _preds(out.mrs) and "_woman_n_1" not in _preds(out.mrs)
    assert out.mrs.variables["x8"]["GEND"] == "m"
    # nothing else changed: same EPs in the same order except the one predicate
    assert [p for p in _preds(out.mrs) if p != "_man_n_1"] == [
        p for p in _preds(WOMAN) if p != "_woman_n_1"]
    assert out.alternatives == (out.mrs,)
    assert WOMAN.rels[1].predicate == "_woman_n_1"  # the input is untouched


def test_a_key_with_several_values_gives_several_outputs(tmp_path):
    table = "female\tmale\n_woman_n_1\t_man_n_1\n_woman_n_1\t_gentleman_n_1\n_woman_n_1\t_man_n_1\n"
    path = _module(tmp_path, SWAP, {"people.tsv": table})
    out = RuleEngine.load("2025", [path]).apply(WOMAN, "flip=m")
    assert [m.rels[1].predicate for m in out.alternatives] == ["_man_n_1", "_gentleman_n_1"]


def test_a_key_without_a_value_is_not_applicable_not_half_rewritten(tmp_path):
    path = _module(tmp_path, SWAP, {"people.tsv": "female\tmale\n_woman_n_1\t\n"})
    out = RuleEngine.load("2025", [path]).apply(WOMAN, "flip=m")
    assert out.status == Status.NOT_APPLICABLE
    assert "has no male for _woman_n_1" in out.reason and "(people.tsv)" in out.reason


def test_strings_table_on_carg_and_a_negated_lookup(tmp_path):
    text = """module rename
versions 2025
table names "data/names.tsv" strings
not_applicable "rename: a name not in the table"
  context [ named CARG: !<names.old> ]
rule swap every
  context ?n = [ named CARG: <names.old> ]
  output
    change ?n [ CARG: <names.old -> new> ]
"""
    both = _module(tmp_path, text, {"names.tsv": "old\tnew\nAbrams\tKim\nBrowne\tLee\n"}, "rename")
    out = RuleEngine.load("2025", [both]).apply(NAMES, "rename")
    assert [ep.args.get("CARG") for ep in out.mrs.rels if ep.predicate == "named"] == ["Kim", "Lee"]
    (tmp_path / "data" / "names.tsv").write_text("old\tnew\nAbrams\tKim\n")
    out = RuleEngine.load("2025", [both]).apply(NAMES, "rename")
    assert out.status == Status.NOT_APPLICABLE and out.reason == "rename: a name not in the table"


def test_a_bad_row_fails_lit_rules_check_with_the_tables_file_and_line(tmp_path, capsys):
    table = ("female\tmale\n# a comment line counts\n_woman_n_1\t_man_n_1\n"
             "_waitres_n_1\t_waiter_n_1\n")
    path = _module(tmp_path, SWAP, {"people.tsv": table})
    with pytest.raises(RuleError) as err:
        compile_file(path)
    assert err.value.file.endswith("data/people.tsv") and err.value.line == 4
    assert "_waitres_n_1 is not a predicate of the ERG 2025 SEM-I" in str(err.value)
    assert main(["rules", "check", str(path)]) != 0
    assert "people.tsv:4:" in capsys.readouterr().err


@pytest.mark.parametrize("change, message", [
    ("<people.{from}>", "needs a target column"),
    ("<people.{from} -> nobody>", "has no column 'nobody'"),
    ("<persons.female -> male>", "unknown table persons"),
])
def test_lookup_mistakes_are_reported_where_written(tmp_path, change, message):
    text = SWAP.replace("<people.{from} -> {to}>", change)
    path = _module(tmp_path, text, {"people.tsv": "female\tmale\n"})
    with pytest.raises(RuleError, match=message) as err:
        compile_file(path)
    assert err.value.line == 9 and err.value.file == str(path)


def test_a_column_parameter_is_checked_for_every_value(tmp_path):
    text = SWAP.replace("value f from=male to=female", "value f from=male to=neutral")
    path = _module(tmp_path, text, {"people.tsv": "female\tmale\n"})
    with pytest.raises(RuleError, match="has no column 'neutral'"):
        compile_file(path)


def test_a_table_row_with_too_many_cells(tmp_path):
    path = _module(tmp_path, SWAP, {"people.tsv": "female\tmale\n_woman_n_1\t_man_n_1\t_x\n"})
    with pytest.raises(RuleError, match="3 cells, but the table has 2 columns") as err:
        compile_file(path)
    assert err.value.line == 2
