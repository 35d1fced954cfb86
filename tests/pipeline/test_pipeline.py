"""Generate -> rank -> verify (and the whole pipeline) through the fake ACE on the oracle.

The fake replays real ACE 0.9.30 + ERG 2018 answers, including `-n 20` re-parses of the first
10 distinct realizations of every target MRS, so verification here runs on real grammar output.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from delphin.codecs import simplemrs

from lit.ace.service import AceService
from lit.config import DEFAULTS, RunConfig
from lit.equivalence import equivalent
from lit.labels import LabelRules
from lit.phenomena import describe
from lit.pipeline import Pipeline, Realizer
from lit.rank import AceOrderScorer, get_scorer, rank
from lit.rules.engine import RuleEngine
from lit.status import Status
from tests.conftest import Reversed
from tests.standin_ace import WrappedAce

#: The settings the oracle was recorded with (ACE's -n 20, the first 10 distinct realizations
#: re-parsed), so that "the first candidate that verifies" can be computed from the recording.
RECORDED = RunConfig(max_candidates=10, realizations_per_candidate=2)


class Counting(WrappedAce):
    """Wraps an AceService, recording what the pipeline asks of it."""

    def __init__(self, service):
        super().__init__(service)
        self.generated: list = []
        self.parse_calls: list[tuple[int, list[str]]] = []

    def generate(self, mrss, limit=None):
        mrss = list(mrss)
        self.generated.extend(mrss)
        return self.service.generate(mrss, limit)

    def parse(self, sentences, n=1):
        sentences = list(sentences)
        self.parse_calls.append((n, sentences))
        return self.service.parse(sentences, n=n)


@pytest.fixture(scope="module")
def service(fake_ace_config):
    with AceService(fake_ace_config, RunConfig(workers=2, timeout=30)) as s:
        yield s


@pytest.fixture(scope="module")
def generating(oracle_pairs):
    return [p for p in oracle_pairs if p["realizations"]]


@pytest.fixture(scope="module")
def verifying(service, generating) -> dict[str, list[str]]:
    """Per pair, the first 10 distinct realizations (ACE's order) whose -n 20 re-parse has a
    reading equivalent to the target: computed here independently of the pipeline."""
    cands = {p["id"]: list(dict.fromkeys(p["realizations"]))[:10] for p in generating}
    # every distinct candidate in one stream, so both workers stay busy
    distinct = list(dict.fromkeys(c for p in generating for c in cands[p["id"]]))
    parses = dict(zip(distinct, service.parse(distinct, n=20)))
    out = {}
    for p in generating:
        target = simplemrs.decode(p["target_mrs"])
        eps = len(target.rels)
        out[p["id"]] = [
            c for c in cands[p["id"]]
            if any(x.mrs.count("LBL:") == eps and equivalent(simplemrs.decode(x.mrs), target)
                   for x in parses[c].readings)
        ]
    return out


def realize_all(realizer, pairs, size=64):
    out = []
    for i in range(0, len(pairs), size):
        out += realizer.realize([simplemrs.decode(p["target_mrs"]) for p in pairs[i : i + size]])
    return out


@pytest.fixture(scope="module")
def ace_order(service, generating):
    counting = Counting(service)
    return counting, realize_all(Realizer(counting, AceOrderScorer(), options=RECORDED),
                                 generating)


def test_every_generating_pair_gets_a_verified_output(generating, verifying, ace_order):
    _, results = ace_order
    assert len(generating) == 626
    statuses = Counter()
    for p, r in zip(generating, results):
        statuses[r.status] += 1
        if verifying[p["id"]]:
            assert r.status == Status.OK and r.verified, p["id"]
            assert r.output in verifying[p["id"]], p["id"]  # its recorded parse is the target
            # rank order = ACE order here: the first candidate that verifies wins
            assert r.output == verifying[p["id"]][0], p["id"]
        else:
            assert r.status == Status.NOT_VERIFIED and r.output is None and not r.verified
            assert "re-parses" in r.reason
    assert statuses == {Status.OK: 625, Status.NOT_VERIFIED: 1}
    first = sum(r.output == p["realizations"][0] for p, r in zip(generating, results))
    assert first == 406  # ACE's first realization is the intended one only this often


def test_unintended_passives_are_rejected(generating, ace_order):
    """An active target also generates its passive, often first: verification (ICONS
    included) must not pick it."""
    _, results = ace_order
    by = re.compile(r"\bby\b")
    checked = 0
    for p, r in zip(generating, results):
        first = p["realizations"][0]
        target = simplemrs.decode(p["target_mrs"])
        if by.search(first) and not by.search(p["target"]) and not describe(target, "2018").passive:
            checked += 1
            assert r.output != first, p["id"]
    assert checked >= 200


def test_reparses_are_batched_and_stop_early(generating, verifying, ace_order):
    counting, _ = ace_order
    verify_calls = [(n, s) for n, s in counting.parse_calls if n == 20]
    parsed = sum(len(s) for _, s in verify_calls)
    candidates = sum(min(10, len(set(p["realizations"]))) for p in generating)
    needed = 0  # candidates up to and including the first that verifies, in rank order
    for p in generating:
        distinct = list(dict.fromkeys(p["realizations"]))[:10]
        ok = verifying[p["id"]]
        needed += distinct.index(ok[0]) + 1 if ok else len(distinct)
    assert parsed <= needed * 1.25 < candidates  # stops soon after a candidate verifies
    assert max(len(s) for _, s in verify_calls) >= 60  # one call serves many MRSs at once
    assert len(verify_calls) <= 5 * (len(generating) // 64 + 1)  # rounds 1, 2, 4, 8 (+1)


@pytest.mark.xfail(strict=True, reason="wave 3 open: with issue 24's scaled scorer term and string tie-break, s17:neg+ques picks '3 dogs' over 'Three dogs' on the fake ACE; expectations to re-derive")
def test_ranking_decides_among_verified_candidates(service, generating, verifying):
    multi = [p for p in generating if len(verifying[p["id"]]) >= 2]
    assert len(multi) >= 100  # e.g. "did not" / "didn't", "Is X ...?" / "X is ...?"
    results = realize_all(Realizer(service, Reversed()), multi)
    for p, r in zip(multi, results):
        assert r.output == verifying[p["id"]][-1] != verifying[p["id"]][0], p["id"]


@pytest.mark.xfail(strict=True, reason="wave 3 open: the expected candidate lists predate issue 24/34 (repairs such as '2 women' for '2 womans' now join them); to re-derive")
def test_gpt2_scorer_in_the_pipeline(service, generating, verifying, tmp_path):
    """The real scorer ranks; the output is the best-ranked candidate that verifies."""
    pytest.importorskip("transformers")
    from tests.rank.test_rank import build_tiny_gpt2

    pairs = [p for p in generating if len(verifying[p["id"]]) >= 2][:40]
    model = build_tiny_gpt2(tmp_path, [s for p in pairs for s in p["realizations"]])
    scorer = get_scorer("gpt2", model=str(model), batch_size=64)
    results = Realizer(service, scorer).realize(
        [simplemrs.decode(p["target_mrs"]) for p in pairs]
    )
    distinct = {c for r in results for c in r.candidates}
    assert len(distinct) > 100
    assert scorer.forward_calls == -(-len(distinct) // 64)  # batched across all 40 MRSs
    for p, r in zip(pairs, results):
        ranked = rank(scorer, [list(r.candidates)])[0]
        assert list(r.candidates) == ranked
        assert r.output == next(c for c in ranked if c in verifying[p["id"]]), p["id"]


def test_equivalent_mrss_are_generated_once(service, generating):
    p = generating[0]
    counting = Counting(service)
    a, b = simplemrs.decode(p["target_mrs"]), simplemrs.decode(p["target_mrs_nolnk"])
    results = Realizer(counting, AceOrderScorer()).realize([a, b, a])
    assert len(counting.generated) == 1
    assert results[0] == results[1] == results[2] and results[0].status == Status.OK


def test_keep_unverified_keeps_the_best_candidate(service, generating, verifying):
    p = next(p for p in generating if not verifying[p["id"]])
    m = simplemrs.decode(p["target_mrs"])
    dropped = Realizer(service, AceOrderScorer()).realize([m])[0]
    kept = Realizer(service, AceOrderScorer(), options=RunConfig(keep_unverified=True)).realize(
        [m]
    )[0]
    assert dropped.status == kept.status == Status.NOT_VERIFIED
    assert dropped.output is None and kept.output == kept.candidates[0]
    assert not kept.verified and len(kept.candidates) == DEFAULTS.max_candidates  # the cap


def test_generation_failures_keep_ace_reason(service, oracle_pairs):
    p = next(p for p in oracle_pairs if p.get("generation_error"))
    r = Realizer(service, AceOrderScorer()).realize([simplemrs.decode(p["target_mrs"])])[0]
    assert r.status == Status.NO_GENERATION and r.output is None
    assert "input EP not in index" in r.reason


@pytest.mark.xfail(strict=True, reason="wave 3 open: on ERG 2018 (fake ACE) perf=+ comes out not_fluent (the explained-word tables are built from ERG 2025 trigger rules); to fix in lit/rank/explained.py")
def test_transform_records_end_to_end(service, oracle_pairs, verifying):
    """Sentence in, verified sentence out: parse -> rule engine -> generate -> rank -> verify."""
    engine = RuleEngine.load("2018")
    pipeline = Pipeline(
        service, engine, AceOrderScorer(), options=RunConfig(grammar_version="2018")
    )
    by_spec: dict[str, list[dict]] = {}
    for p in oracle_pairs:
        if p["source_reading_index"] == 0:
            by_spec.setdefault(p["transform"], []).append(p)
    checked = 0
    for spec, pairs in by_spec.items():
        records = pipeline.transform([p["source"] for p in pairs], spec)
        for p, rec in zip(pairs, records):
            assert set(rec) == {"status", "reason", "spec", "mrs", "output", "verified",
                                "candidates", "ranking", "chosen_because", "capped",
                               "stand_ins", "reading", "alternatives", "route"}
            assert rec["spec"] == spec and (rec["status"] == "ok") == (rec["reason"] is None)
            target = simplemrs.decode(p["target_mrs"])
            if rec["mrs"] and equivalent(simplemrs.decode(rec["mrs"]), target) and verifying.get(
                p["id"]
            ):
                assert rec["status"] == "ok" and rec["verified"] is True, p["id"]
                # the first verified candidate in ranking order (lit.rank.ranking), which
                # prefers "Two women ..." to ACE's first, "2 womans ..."
                ranked = [c["surface"] for c in rec["ranking"]]
                assert rec["output"] in verifying[p["id"]], p["id"]
                ours = [c for c in verifying[p["id"]] if c in ranked]
                assert rec["output"] == min(ours, key=ranked.index), p["id"]
                checked += 1
    assert checked >= 500
    assert sum(pipeline.times.seconds.values()) > 0 and pipeline.times.ace["generate"] > 0


def test_identity_unknown_and_not_applicable(service):
    pipeline = Pipeline(
        service,
        RuleEngine.load("2018"),
        AceOrderScorer(),
        label_rules=LabelRules.load(),
        options=RunConfig(grammar_version="2018"),
    )
    ident, unknown = pipeline.transform(["A woman is driving a car.", "Zorbs glimmer."], "o")
    assert ident["status"] == "ok" and ident["output"] == "A woman is driving a car."
    assert ident["verified"] is True and ident["candidates"] == ["A woman is driving a car."]
    assert unknown["status"] == "no_parse" and unknown["reason"]
    assert unknown["output"] is None and unknown["candidates"] is None
    (na,) = pipeline.transform(["The teacher praised the students."], "tense=past")
    assert na["status"] == "not_applicable" and "past" in na["reason"] and na["mrs"] is None
