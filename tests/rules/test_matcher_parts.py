"""The parts that write a rule's output into a draft MRS (lit.rules.matcher), one by one, on a
gold ERG 2025 analysis of "The cat chased it."."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.errors import InputError
from lit.rules.matcher import (
    Binding,
    Draft,
    Matcher,
    NoTableValue,
    Writer,
    fit_roles,
    fresh_names,
    remove_consumed,
)
from lit.rules.syntax import (
    Add,
    Change,
    Const,
    CopyProps,
    EPPattern,
    Fresh,
    HConsPattern,
    Lookup,
    PredExact,
    PredParam,
    PredRegex,
    Prop,
    PropLiteral,
    PropNot,
    PropParam,
    PropRef,
    Relabel,
    Remove,
    Role,
    Rule,
    SetSpecial,
    Unset,
    VarTerm,
)
from tests.conftest import DATA, read_jsonl

SENTENCE = "The cat chased it."
AT = {"line": 1, "column": 1}  # where a hand-made construct "is", for Located ones


@pytest.fixture(scope="module")
def mrs():
    row = next(r for r in read_jsonl(DATA / "erg-gold-2025.jsonl.gz")
               if r["sentence"] == SENTENCE)
    return simplemrs.decode(row["mrs"])


@pytest.fixture
def draft(mrs):
    return Draft(mrs)


def _index(mrs, pred: str) -> int:
    return next(i for i, ep in enumerate(mrs.rels) if ep.predicate == pred)


def _writer(mrs, draft, names=None, eps=None, chosen=None, params=None) -> Writer:
    matcher = Matcher(mrs, params or {}, "test.lit")
    return Writer(matcher, draft, names or {}, eps or {}, chosen or {})


def _rule(conditions=(), edits=()) -> Rule:
    return Rule("r", tuple(conditions), tuple(edits), "test.lit", 1)


def test_fresh_names_keeps_the_binding_and_makes_new_draft_variables(mrs, draft):
    b = Binding(vars={"?x": "x3"})
    names = fresh_names(draft, _rule([Fresh(("?e", "?h"), "e", **AT)]), b)
    assert names["?x"] == "x3" and names["?e"] != names["?h"]
    assert all(names[v].startswith("e") and names[v] not in mrs.variables for v in ("?e", "?h"))
    assert names["?e"] in draft.variables  # the draft knows them (with no properties yet)
    assert b.vars == {"?x": "x3"}  # the binding itself is not changed


def test_remove_consumed_takes_out_exactly_the_consumed_items(mrs, draft):
    chase = _index(mrs, "_chase_v_1")
    remove_consumed(draft, Binding(consumed=(("ep", chase), ("hcons", 0))))
    assert draft.rels[chase] is None and draft.hcons[0] is None
    assert sum(r is None for r in draft.rels) == 1 and draft.hcons[1] is not None
    assert "_chase_v_1" not in simplemrs.encode(draft.build())


def test_var_reads_index_and_top_as_they_are_now(mrs, draft):
    w = _writer(mrs, draft, names={"?x": "x3"})
    assert (w.var("?x"), w.var("INDEX"), w.var("TOP")) == ("x3", "e2", "h0")
    w.apply(0, SetSpecial("INDEX", "?x", **AT))
    assert w.var("INDEX") == "x3" == draft.index
    with pytest.raises(KeyError):
        w.var("?unbound")


def test_prop_values_from_literals_parameters_and_references(mrs, draft):
    w = _writer(mrs, draft, names={"?x": "x8"}, params={"tense": "fut"})
    assert w.prop_value(PropLiteral("past")) == "past"
    assert w.prop_value(PropParam("tense")) == "fut"
    assert w.prop_value(PropRef("?x", "GEND")) == "n"
    assert w.prop_value(PropRef("?x", "TENSE")) == ""  # x8 has no TENSE
    with pytest.raises(InputError, match="'!' cannot be used in an output property"):
        w.prop_value(PropNot("past"))


def test_set_props_keeps_a_features_spelling_and_drops_a_missing_reference(mrs, draft):
    draft.variables["e2"] = {"tense": "past", "SF": "prop"}
    w = _writer(mrs, draft, names={"?x": "x3"})
    w.set_props("e2", (Prop("TENSE", (PropLiteral("pres"),)),
                       Prop("SF", (PropRef("?x", "SF"),))))  # x3 has no SF: SF goes
    assert draft.variables["e2"] == {"tense": "pres"}
    w.set_props("e9", (Prop("PERF", (PropLiteral("+"),)),))  # a variable without properties
    assert draft.variables["e9"] == {"PERF": "+"}


def test_output_pred_from_a_name_a_parameter_or_the_chosen_lookup_value(mrs, draft):
    w = _writer(mrs, draft, chosen={(3, ""): "_dog_n_1"}, params={"pred": "_can_v_modal"})
    assert w.output_pred(PredExact("_see_v_1"), 0) == "_see_v_1"
    assert w.output_pred(PredParam("pred"), 0) == "_can_v_modal"
    assert w.output_pred(Lookup("animals", "from", target="to", **AT), 3) == "_dog_n_1"
    with pytest.raises(InputError, match="must be a name"):
        w.output_pred(PredRegex("_v_"), 0)


def test_roles_into_writes_label_arguments_constants_and_properties(mrs, draft):
    w = _writer(mrs, draft, names={"?h": "h1", "?x": "x8"}, chosen={(2, "ARG2"): "x3"})
    ep = {"predicate": "_see_v_1", "label": None, "args": {}}
    w.roles_into(ep, (
        Role("LBL", VarTerm("?h")),
        Role("ARG1", VarTerm("?x", props=(Prop("NUM", (PropLiteral("pl"),)),))),
        Role("ARG2", Lookup("t", "k", target="v", **AT)),
        Role("CARG", Const("Browne")),
    ), 2)
    assert ep["label"] == "h1" and ep["args"] == {"ARG1": "x8", "ARG2": "x3", "CARG": "Browne"}
    assert draft.variables["x8"]["NUM"] == "pl"


def test_an_added_ep_has_arg0_first_and_an_added_hcons_its_variables(mrs, draft):
    w = _writer(mrs, draft, names={"?h": "h1", "?e": "e2", "?x": "x3", "?t": "h0"})
    ep_item = EPPattern(None, None, PredExact("_sleep_v_1"),
                        (Role("ARG1", VarTerm("?x")), Role("ARG0", VarTerm("?e")),
                         Role("LBL", VarTerm("?h"))), **AT)
    w.apply(0, Add(ep_item, **AT))
    assert list(draft.rels[-1]["args"]) == ["ARG0", "ARG1"] and draft.rels[-1]["label"] == "h1"
    w.apply(1, Add(HConsPattern("?t", "qeq", "?h", **AT), **AT))
    assert draft.hcons[-1] == ("h0", "qeq", "h1")
    w.apply(2, Remove(HConsPattern("?t", "qeq", "?h", **AT), **AT))
    assert draft.hcons.count(None) == 2  # the gold h0 qeq h1 and the one just added


def test_change_and_remove_reach_the_named_ep(mrs, draft):
    cat, chase = _index(mrs, "_cat_n_1"), _index(mrs, "_chase_v_1")
    w = _writer(mrs, draft, eps={"?c": cat, "?v": chase})
    w.apply(0, Change("?c", PredExact("_dog_n_1"), (), **AT))
    w.apply(1, Remove(EPPattern("?v", None, None, (), **AT), **AT))
    assert draft.rels[cat]["predicate"] == "_dog_n_1" and draft.rels[chase] is None


def test_unset_copy_and_relabel(mrs, draft):
    w = _writer(mrs, draft, names={"?e": "e2", "?x": "x3", "?y": "x8", "?old": "h7",
                                   "?new": "h1"})
    w.apply(0, Unset("?e", ("TENSE", "MOOD"), **AT))
    assert "TENSE" not in draft.variables["e2"] and draft.variables["e2"]["SF"] == "prop"
    w.apply(1, CopyProps("?y", "?x", **AT))
    assert draft.variables["x3"] == draft.variables["x8"]
    assert draft.variables["x3"] is not draft.variables["x8"]  # a copy, not the same dict
    w.apply(2, Relabel("?old", "?new", **AT))
    cat = _index(mrs, "_cat_n_1")
    assert draft.rels[cat]["label"] == "h1"
    assert not any(r and r["label"] == "h7" for r in draft.rels)


def test_fit_roles_drops_an_unexpressed_role_and_adds_a_required_one(draft):
    ep = {"predicate": "_daughter_n_1", "args": {"ARG0": "x3", "ARG1": "i20"}}
    fit_roles(draft, ep)  # _son_n_of's ARG1 has no place on _daughter_n_1
    assert ep["args"] == {"ARG0": "x3"}
    ep = {"predicate": "_son_n_of", "args": {"ARG0": "x3"}}
    fit_roles(draft, ep)
    assert set(ep["args"]) == {"ARG0", "ARG1"} and ep["args"]["ARG1"].startswith("i")
    assert ep["args"]["ARG1"] in draft.variables


def test_fit_roles_refuses_to_drop_an_expressed_role(draft):
    ep = {"predicate": "_daughter_n_1", "args": {"ARG0": "x3", "ARG1": "x8"}}
    with pytest.raises(NoTableValue, match="expressed"):
        fit_roles(draft, ep)
    unknown = {"predicate": "_zzz_n_1", "args": {"ARG0": "x3", "ARG1": "x8"}}
    fit_roles(draft, unknown)  # not in the SEM-I: left as it is
    assert unknown["args"] == {"ARG0": "x3", "ARG1": "x8"}
