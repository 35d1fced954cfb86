"""Tense and modal steps on negated sentences, generated and verified on the live rig (before
rules/tense.lit and modal.lit moved neg's own ERG 2025 tense, ACE generated nothing)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("source, spec, target", [
    ("Alice does not see Bob.", "tense=fut", "Alice will not see Bob."),
    ("Abrams does not know the answer.", "tense=past", "Abrams did not know the answer."),
    ("Alice did not see Bob.", "modal=could", "Alice could not see Bob."),
    ("Alice sees Bob.", "tense=fut+neg", "Alice will not see Bob."),
])
def test_negated_clause_changes_tense_live(verified, source, spec, target):
    assert verified(source, spec)["output"] == target
