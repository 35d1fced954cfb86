"""The spec syntax of docs/design.md §4: its example strings are the parser tests."""

from __future__ import annotations

import pytest

from lit.errors import InputError
from lit.spec import PairSpec, Spec, Step, parse_pair, parse_spec


def steps(text: str) -> list[tuple[str, str | None]]:
    return [(s.name, s.value) for s in parse_spec(text).steps]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("tense=fut+pass", [("tense", "fut"), ("pass", None)]),
        ("prog=+", [("prog", "+")]),
        ("prog=++pass", [("prog", "+"), ("pass", None)]),
        ("perf=-+neg", [("perf", "-"), ("neg", None)]),
        ("cleft=ARG2", [("cleft", "ARG2")]),
        ("swap=ARG1,ARG3", [("swap", "ARG1,ARG3")]),
        ("pass=ARG3", [("pass", "ARG3")]),
        ("neg+ques", [("neg", None), ("ques", None)]),
        ("prog=on", [("prog", "+")]),
        ("perf=off+pass", [("perf", "-"), ("pass", None)]),
        ("modal=may+pass", [("modal", "may"), ("pass", None)]),
        (" tense=past + cleft=ARG1 ", [("tense", "past"), ("cleft", "ARG1")]),
    ],
)
def test_design_examples(text, expected):
    assert steps(text) == expected


@pytest.mark.parametrize(
    "code, expected",
    [
        ("o", ("o", None)),
        ("i", ("cleft", None)),
        ("pa", ("pass", None)),
        ("p", ("tense", "past")),
        ("f", ("tense", "fut")),
        ("m", ("modal", "may")),
        ("n", ("neg", None)),
        ("q", ("ques", None)),
        ("s", ("swap", None)),
    ],
)
def test_paper_codes_are_aliases(code, expected):
    assert steps(code) == [expected]


def test_canonical_text_round_trips():
    for text in ("tense=fut+pass", "prog=++pass", "perf=-+neg", "swap=ARG1,ARG3", "neg+ques"):
        spec = parse_spec(text)
        assert parse_spec(str(spec)) == spec
    assert str(parse_spec("f+pa")) == "tense=fut+pass"
    assert str(parse_spec("prog=on")) == "prog=+"


def test_pair_shared_suffix_applies_to_both_sides():
    assert parse_pair("f;p +i") == parse_pair("f+i;p+i")
    pair = parse_pair("f;p +i")
    assert str(pair) == "tense=fut+cleft;tense=past+cleft"


def test_pair_glued_plus_belongs_to_hypothesis():
    pair = parse_pair("f;p+i")
    assert pair == PairSpec(parse_spec("f"), parse_spec("p+i"))
    assert pair.hypothesis == Spec((Step("tense", "past"), Step("cleft", None)))


def test_pair_with_polar_values():
    pair = parse_pair("prog=+;prog=- +pass")
    assert pair.premise == parse_spec("prog=++pass")
    assert pair.hypothesis == parse_spec("prog=-+pass")


@pytest.mark.parametrize(
    "text, column",
    [
        ("tense=fut+", 11),
        ("+pass", 1),
        ("prog", 1),
        ("prog=x", 1),
        ("tense=", 7),
        ("neg ques", 5),
        ("p=past", 1),
        ("tense=fut;pass", 10),
        ("", 1),
    ],
)
def test_errors_name_the_column(text, column):
    with pytest.raises(InputError, match=rf"column {column}\b"):
        parse_spec(text)


@pytest.mark.parametrize("text", ["f", "f;p;q", ";p", "f;", "f;p +"])
def test_bad_pairs(text):
    with pytest.raises(InputError, match="column"):
        parse_pair(text)
