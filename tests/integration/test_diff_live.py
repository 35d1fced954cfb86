"""`lit diff` on the live grammar (issue 42): real pairs, parsed by ACE, named by LIT's rule
modules or by their shape."""

from __future__ import annotations

import json

import pytest

from lit.cli import main

pytestmark = pytest.mark.integration

PAIRS = [
    ("The dog is barking.", "The dog was barking.", ["tense"]),
    ("A woman is driving a car.", "A woman is not driving a car.", ["neg"]),
    ("A man is sitting on a bench.", "A woman is sitting on a bench.", ["antonym"]),
    ("A little boy in a red shirt is kicking the ball.", "A little boy is kicking the ball.",
     ["drop"]),
    ("Two men are sitting on a bench.", "Two men are standing next to a bench.",
     ["antonym", "lexical"]),
    ("A woman is driving a car.", "A car is being driven by a woman.", ["pass"]),
]


@pytest.mark.parametrize(("a", "b", "kinds"), PAIRS, ids=[p[1] for p in PAIRS])
def test_lit_diff_names_real_pairs(a, b, kinds, capsys):
    assert main(["diff", "--json", "--grammar-version", "2025", "--workers", "2", a, b]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "ok", record["reason"]
    assert [e["kind"] for e in record["diff"]["edits"]] == kinds, record["diff"]
    assert record["diff"]["named"] is True
