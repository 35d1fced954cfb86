"""The ACE layer against a real ACE and ERG 2025 (LIT_ACE, LIT_GRAMMAR, e.g. the rig: ACE 0.9.30 +
reconstructed ERG 2025; else skipped)."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.config import resolve_config
from lit.ace.doctor import diagnose
from lit.ace.service import AceService
from lit.config import RunConfig
from lit.status import Status

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def service():
    with AceService(resolve_config(grammar_version="2025"), RunConfig(workers=2, timeout=30)) as s:
        yield s


def test_doctor_is_happy():
    checks = diagnose()
    assert all(c.ok is not False for c in checks), checks


def test_parse_and_generate_round_trip(service):
    (parsed,) = service.parse(["Alice saw Bob."], n=3)
    assert parsed.status is Status.OK and 1 <= len(parsed.readings) <= 3
    assert parsed.ace_seconds is not None
    mrs = simplemrs.decode(parsed.readings[0].mrs)
    assert any(ep.predicate == "_see_v_1" for ep in mrs.rels)
    (generated,) = service.generate([mrs], limit=5)
    assert generated.status is Status.OK and "Alice saw Bob." in generated.surfaces


def test_failures_are_results(service):
    results = list(service.parse(["", "Blorf zzxq wug.", "The dog barked."]))
    assert [r.status for r in results][0] is Status.INVALID_INPUT
    assert results[1].status in (Status.NO_PARSE, Status.OK)  # the ERG guesses unknown words
    assert results[2].status is Status.OK


def test_generator_is_not_capped_across_inputs(service):
    """ACE 0.9.30 counted a persistent generator's -n across inputs; we never pass -n."""
    (parsed,) = service.parse(["The dog barked."])
    mrs = parsed.readings[0].mrs
    results = list(service.generate([mrs] * 6, limit=1))
    assert all(r.status is Status.OK and len(r.surfaces) == 1 for r in results)
