"""Realization routes end to end on recorded ERG 2025 answers (tools/record_route_transcripts.py,
tests/data/live/routes-erg2025-rig.jsonl.gz) replayed by the fake ACE: the pipeline generates
the twin, keeps what the route admits, verifies against the target and names the route."""

from __future__ import annotations

from pathlib import Path

import pytest

import lit
from tests.fake_ace.fixtures import replaying

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "data/live/routes-erg2025-rig.jsonl.gz"


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    ace, grammar = replaying(tmp_path_factory.mktemp("route-ace"), TRANSCRIPTS)
    with lit.Engine(ace, grammar, "2025", scorer="ace", workers=1) as engine:
        yield engine


@pytest.mark.parametrize("sentence, spec, output, route", [
    ("A woman is training a dog.", "cleft=ARG1", "It is a woman {} is training a dog.",
     "cleft.copula_tense+cleft.relative_clause"),
    ("A woman is training a dog.", "cleft=ARG2", "It is a dog {} a woman is training.",
     "cleft.copula_tense+cleft.relative_clause"),
    # a name gets only "It was Browne, who ...": the route's rewrite drops the comma
    ("Browne managed the project.", "cleft=ARG1", "It was Browne {} managed the project.",
     "cleft.copula_tense+cleft.relative_clause"),
    ("A man is eating an apple.", "pass", "An apple is being eaten by a man.",
     "pass.by_agent+pass.being"),
])
def test_route_realizes_and_verifies_against_the_target(engine, sentence, spec, output, route):
    """The scorer here is ACE's order; "that" and "who" both meet the cleft's preference
    ({} in *output*), "which" never does."""
    record = engine.transform(sentence, spec)
    assert (record["status"], record["verified"]) == ("ok", True)
    assert record["output"] in {output.format(w) for w in ("that", "who")}, record["output"]
    assert record["route"] == route
    # verified against the target: the record's MRS is the cleft/passive, not the twin
    assert "_be_v_id" not in record["mrs"] and "_being_n_1" not in record["mrs"]
    # no candidate a writer would not write: no comma (the sources have none)
    assert not [c for c in record["candidates"] if "," in c]


def test_no_admissible_twin_realization_is_the_reason(engine):
    record = engine.transform("The dog did not bite the man.", "cleft=ARG1")
    assert record["status"] == "no_generation" and record["output"] is None
    assert record["route"] == "cleft.copula_tense+cleft.relative_clause"
    assert record["reason"] == ("route cleft.copula_tense+cleft.relative_clause: none of the "
                                "twin's 1 realizations has the surface the route requires")
