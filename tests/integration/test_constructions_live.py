"""Lexical and valence types on the live rig (issue 43): ACE's parses carry UDX derivations, so
the main verb of an intransitive sentence is a one-argument verb and that of a transitive one is
not, and the recorded SNLI derivations are what the rig gives today."""

from __future__ import annotations

import pytest
from delphin import derivation
from delphin.codecs import simplemrs

from lit.analyze.fragments import sentence_fragments
from lit.analyze.letypes import type_table
from lit.status import Status
from tests.analyze.test_pairs import SNLI_PARSES
from tests.conftest import read_jsonl

pytestmark = pytest.mark.integration


def fragments(service, sentence: str) -> set[str]:
    result = next(service.parse([sentence], n=1))
    assert result.status == Status.OK, (result.status, result.reason)
    reading = result.readings[0]
    assert "@" in reading.derivation  # entry@type: UDX
    return sentence_fragments(simplemrs.decode(reading.mrs),
                              derivation.from_string(reading.derivation), type_table("2025"))


def test_an_intransitive_main_verb_is_a_one_argument_verb(live_service):
    sleeps = fragments(live_service, "The dog sleeps on the couch.")
    assert {"frame:main.v=ARG1", "frame:main.synsem=onearg_verb",
            "frame:main.letype=v_-_*"} <= sleeps
    cuts = fragments(live_service, "The woman cut the cake.")
    assert "frame:main.v=ARG1,ARG2" in cuts and "frame:main.synsem=trans_lt" in cuts
    assert not any(f.startswith("frame:main.synsem=onearg") for f in cuts)


def test_the_recorded_derivations_are_todays(live_service):
    recorded = [r for r in read_jsonl(SNLI_PARSES)[1:] if r["derivation"]][:12]
    results = live_service.parse([r["sentence"] for r in recorded], n=20)
    for r, result in zip(recorded, results):
        assert r["derivation"] in {x.derivation for x in result.readings}, r["sentence"]
