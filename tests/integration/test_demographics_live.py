"""The demographic modules end to end on the live grammar (issue 14; docs/fairness.md): the
generator picks he/him/his/himself by case from GEND alone, and one entity stays consistent.

Checked live on the rig (ACE 0.9.30 + reconstructed ERG 2025), 2026-11-23. The rig's lexicon
lacks "waitress": it parses as the unknown word _waitress/NN_u_unknown, whose gender LIT cannot
know, so gender=swap refuses the sentence (not_applicable) rather than rewriting "the man" and
"her" around it; on the full ERG 2025 (_waitress_n_1 in the SEM-I) the rewrite applies.
"""

from __future__ import annotations

import pytest

import lit

pytestmark = pytest.mark.integration

WAITRESS = ("rig lexicon lacks 'waitress' (parsed as _waitress/NN_u_unknown): gender=swap is "
            "not_applicable on the rig, by the unknown-noun guard of rules/gender.lit")

CASES = [
    ("I saw her.", "gender=swap", "I saw him."),
    ("I saw her dog.", "gender=swap", "I saw his dog."),
    ("She washed herself.", "gender=swap", "He washed himself."),
    pytest.param("The waitress handed the man her menu.", "gender=swap",
                 "The waiter handed the woman his menu.",
                 marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=WAITRESS)),
    ("The man gave the woman his book.", "gender=swap", "The woman gave the man her book."),
    ("She washed herself.", "gender=x", "They washed themselves."),
    ("A black woman greeted an old man.", "race=asian", "An Asian woman greeted an old man."),
    ("A black woman greeted an old man.", "age=swap", "A black woman greeted a young man."),
    ("Mary is a student.", "name=swap", "James is a student."),
]


@pytest.mark.parametrize("source, spec, target", CASES)
def test_demographic_perturbation_live(verified, source, spec, target):
    record = verified(source, spec)
    assert record["output"] == target, record["candidates"]


def test_unknown_noun_is_refused_not_half_rewritten(live_engine):
    record = live_engine.transform("The waitress handed the man her menu.", "gender=swap")
    assert record["status"] == lit.Status.NOT_APPLICABLE
    assert "does not know" in record["reason"]
