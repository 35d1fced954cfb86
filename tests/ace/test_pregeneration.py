"""The pre-generation check (issue 23): an MRS with a predicate outside the grammar's
generation index fails at once with that reason; ACE is never asked to generate it."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.semindex import NOT_IN_INDEX, SemanticIndex, probe_mrs
from lit.ace.service import AceService, GenerateResult
from lit.config import RunConfig
from lit.pipeline import Realizer
from lit.rank import AceOrderScorer
from lit.status import Status
from tools.fault_run import without_timings


@pytest.fixture
def service(fake_ace_config):
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=30)) as service:
        yield service


@pytest.fixture(scope="module")
def realizable(oracle_pairs) -> str:
    """A target MRS the fake ACE realizes, with a noun to replace."""
    return next(p["target_mrs_nolnk"] for p in oracle_pairs
                if p["realizations"] and "_dog_n_1" in p["target_mrs_nolnk"])


def test_the_probe_is_a_simplemrs_with_one_bare_ep_per_predicate():
    m = simplemrs.decode(probe_mrs({"_dog_n_1": "x", "_bark_v_1": "e", "_a/b_u_unknown": "x"}))
    assert [ep.predicate for ep in m.rels] == ["_dog_n_1", "_bark_v_1", "_a/b_u_unknown"]
    assert [ep.iv[0] for ep in m.rels] == ["x", "e", "x"]
    assert all(set(ep.args) == {"ARG0"} for ep in m.rels)


def test_unindexed_names_the_predicates_ace_would_refuse(service, realizable):
    bad = simplemrs.decode(realizable.replace("_dog_n_1", "_notindexed_n_1"))
    good = simplemrs.decode(realizable)
    assert service.unindexed([good, bad]) == [(), ("_notindexed_n_1",)]
    assert service.generation_index.probes == 1
    assert service.unindexed([bad, good]) == [("_notindexed_n_1",), ()]
    assert service.generation_index.probes == 1  # each predicate is probed once


@pytest.mark.parametrize("status", [Status.TIMEOUT, Status.RESOURCE, Status.ACE_ERROR])
def test_a_probe_that_fails_otherwise_judges_nothing(status):
    said = f"{NOT_IN_INDEX}; WARNING: EP '_notindexed_n_1' is not covered"
    probes = []

    def probe(text, limit):
        probes.append(text)
        return GenerateResult(text, status, said, (), None, 1.0)

    index = SemanticIndex(probe)
    m = simplemrs.decode('[ TOP: h0 INDEX: e2 RELS: < [ _notindexed_n_1 LBL: h1 ARG0: x3 ] > ]')
    assert index.missing([m]) == [()] and index.known == {}
    assert index.missing([m]) == [()] and len(probes) == 2  # asked again: nothing was learnt


def test_the_pipeline_refuses_an_unindexed_mrs_without_generating_it(service, realizable):
    bad = simplemrs.decode(realizable.replace("_dog_n_1", "_notindexed_n_1"))
    realizer = Realizer(service, AceOrderScorer())
    refused, kept = realizer.realize([bad, simplemrs.decode(realizable)])
    assert refused.status is Status.NO_GENERATION
    assert refused.reason.startswith(f"{NOT_IN_INDEX}: _notindexed_n_1 ")
    assert refused.candidates == ()
    assert kept.status is Status.OK
    assert realizer.stats["MRSs refused before generation"] == 1
    assert realizer.stats["MRSs generated"] == 1


@pytest.fixture(scope="module")
def some_pairs(tmp_path_factory):
    """The oracle's first 15 NLI pairs as a `lit nli` input file."""
    import json

    from tests.conftest import ORACLE, read_jsonl

    rows = list(read_jsonl(ORACLE / "nli-pairs.jsonl.gz"))[:15]
    path = tmp_path_factory.mktemp("pairs") / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


SIDE_SPECS = ["f;p", "p;f", "pa;pa", "m;o", "f;p +i", "p;f +pa"]


def _nli(config, pairs, every_side: bool):
    from lit.pipeline.engine import Engine
    from lit.tasks.reader import read_nli
    from tools.bench_yield import realize_every_side

    with Engine(config.ace, config.grammar, "2018", scorer="ace", workers=2) as engine:
        if every_side:
            realize_every_side(engine.pipeline)
        records = list(engine.nli(list(read_nli(pairs)), SIDE_SPECS))
        return records, dict(engine.pipeline.realizer.stats)


def test_a_hypothesis_no_pair_can_use_is_never_realized(fake_ace_config, some_pairs):
    """A pair needs both sides: a hypothesis side whose every pair has a failed premise side
    is not generated nor verified (issue 23), and nothing else about the records changes."""
    every, every_stats = _nli(fake_ace_config, some_pairs, every_side=True)
    needed, needed_stats = _nli(fake_ace_config, some_pairs, every_side=False)
    assert [without_timings(r) for r in every] == [without_timings(r) for r in needed]
    skipped = [t for r in needed for t in r["transforms"]
               if (t["reason"] or "").startswith("premise: ") and t["premise"]["mrs"]]
    assert skipped, "no pair here has a failed premise side"
    assert all(t["hypothesis"]["output"] is None and t["hypothesis"]["mrs"] is None
               for t in skipped)
    assert needed_stats["MRSs generated"] < every_stats["MRSs generated"]
    assert needed_stats["candidates re-parsed"] < every_stats["candidates re-parsed"]


def test_a_record_does_not_depend_on_the_pairs_batched_with_it(fake_ace_config, some_pairs):
    """A pair whose premise failed leaves its hypothesis side out even when another pair of
    its batch shares that hypothesis and had it realized: its record is the same alone."""
    from dataclasses import replace

    from lit.pipeline.engine import Engine
    from lit.tasks.reader import read_nli

    items = list(read_nli(some_pairs))
    with Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", scorer="ace",
                workers=2) as engine:
        records = engine.pipeline.nli(items, SIDE_SPECS)
        for k, spec in enumerate(SIDE_SPECS):
            failed = [it for it, r in zip(items, records)
                      if (r["transforms"][k]["reason"] or "").startswith("premise: ")
                      and r["transforms"][k]["premise"]["mrs"]]
            good = [it for it, r in zip(items, records) if r["transforms"][k]["status"] == "ok"]
            if failed and good:
                break
        else:
            pytest.fail("no spec here has both a failed premise side and an ok pair")
        twin = replace(good[0], id="twin", texts=(good[0].premise, failed[0].hypothesis))
        batched = engine.pipeline.nli([failed[0], twin], [spec])
        alone = engine.pipeline.nli([failed[0]], [spec])
    assert batched[1]["transforms"][0]["hypothesis"]["mrs"]  # the twin needed it
    assert batched[0]["transforms"] == alone[0]["transforms"]


def test_what_the_grammar_parsed_needs_no_probe(service, realizable):
    """Predicates of a parse are in the grammar's index: vouched for, they cost no probe;
    an unknown word's generic predicate is still probed."""
    good = simplemrs.decode(realizable)
    service.vouch([good])
    assert service.unindexed([good]) == [()]
    assert service.generation_index.probes == 0
    generic = simplemrs.decode(realizable.replace("_dog_n_1", '"_cartwheel/NN_u_unknown"'))
    service.vouch([generic])
    service.unindexed([generic])
    assert service.generation_index.probes == 1
