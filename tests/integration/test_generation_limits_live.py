"""Issue 23 on the live grammar: the pre-generation index check agrees with ACE, and a run
whose generations a memory cap stopped is retried by `--resume` with a larger cap."""

from __future__ import annotations

import json

import pytest
from delphin.codecs import simplemrs

import lit
from lit.ace.semindex import NOT_IN_INDEX
from lit.ace.service import AceService
from lit.config import RunConfig
from lit.status import Status

pytestmark = pytest.mark.integration

SOURCE = "A woman drinks her coffee in a small cafe."


@pytest.fixture(scope="module")
def source_mrs(live_service):
    (parsed,) = live_service.parse([SOURCE])
    assert parsed.status is Status.OK, parsed.reason
    return simplemrs.encode(simplemrs.decode(parsed.readings[0].mrs), lnk=False)


def test_the_index_check_refuses_what_ace_refuses_and_nothing_else(live_service, source_mrs):
    unknown = simplemrs.decode(source_mrs.replace("_coffee_n_1", "_florb_n_1"))
    unknown_word = simplemrs.decode(source_mrs.replace("_coffee_n_1", '"_florb/nn_u_unknown"'))
    known = simplemrs.decode(source_mrs)
    assert live_service.unindexed([known, unknown, unknown_word]) == [
        (), ("_florb_n_1",), ("_florb/nn_u_unknown",)]
    generated = list(live_service.generate([known, unknown], limit=4))
    assert generated[0].status is Status.OK and generated[0].surfaces
    assert generated[1].status is Status.NO_GENERATION and NOT_IN_INDEX in generated[1].reason


def test_a_run_stopped_by_a_memory_cap_is_retried_with_a_larger_one(rig_config, tmp_path,
                                                                     capsys):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"pairID": "cafe", "sentence1": SOURCE,
                                 "sentence2": "A woman drinks coffee.",
                                 "gold_label": "entailment"}) + "\n")
    out = tmp_path / "out.jsonl"
    config = lit.RunConfig(ace=str(rig_config.ace), grammar=str(rig_config.grammar),
                           grammar_version="2025", scorer="ace", workers=1)

    def run(megabytes: int, resume: bool) -> dict:
        service = AceService(
            rig_config,
            RunConfig(
                workers=1, generate_unpack_megabytes=megabytes, generate_chart_megabytes=megabytes
            ),
        )
        with lit.Engine(config=config, service=lambda: service) as engine:
            lit.run_nli(pairs, out, ["m;o"], engine=engine, resume=resume)
        (record,) = [json.loads(line) for line in out.read_text().splitlines()]
        return record["transforms"][0]

    starved = run(5, resume=False)
    assert starved["status"] == "resource", starved
    assert "5 MB" in starved["reason"]
    capsys.readouterr()
    retried = run(500, resume=True)
    assert "retrying the 1 record(s) a limit stopped" in capsys.readouterr().err
    assert retried["status"] == "ok", retried
