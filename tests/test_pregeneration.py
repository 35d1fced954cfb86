"""The pre-generation check (issue 23): an MRS with a predicate outside the grammar's
generation index fails at once with that reason; ACE is never asked to generate it."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.semindex import NOT_IN_INDEX, SemanticIndex, probe_mrs
from lit.ace.service import AceService, GenerateResult
from lit.pipeline import Realizer
from lit.rank import AceOrderScorer
from lit.status import Status


@pytest.fixture
def service(fake_ace_config):
    with AceService(fake_ace_config, workers=1, timeout=30) as service:
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
