"""Fixtures shared by the integration tests (real ACE + grammar from LIT_ACE / LIT_GRAMMAR).

Every test module in this folder sets ``pytestmark = pytest.mark.integration``;
tests/conftest.py skips them, saying why, when LIT_ACE and LIT_GRAMMAR are not both set. Keep
live runs small: one Engine and one AceService per session, two workers.
"""

from __future__ import annotations

import pytest

import lit
from lit.ace.config import AceConfig, resolve_config
from lit.ace.service import AceService
from lit.config import RunConfig

GRAMMAR_VERSION = "2025"
WORKERS = 2


@pytest.fixture(scope="session")
def rig_config() -> AceConfig:
    return resolve_config(grammar_version=GRAMMAR_VERSION)


@pytest.fixture(scope="session")
def live_engine():
    """One lit.Engine on the live grammar, ranking with ACE's own order (no GPT-2 weights)."""
    with lit.Engine(scorer="ace", grammar_version=GRAMMAR_VERSION, workers=WORKERS) as engine:
        yield engine


@pytest.fixture(scope="session")
def verified(live_engine):
    """SPEC applied to SOURCE on the live grammar: the record, once it is ok and verified (the
    assertion otherwise names the status, reason and candidates)."""
    def transform(source: str, spec: str) -> dict:
        record = live_engine.transform(source, spec)
        assert record["status"] == lit.Status.OK, (
            record["status"], record["reason"], record["candidates"])
        assert record["verified"] is True
        return record
    return transform


@pytest.fixture(scope="session")
def live_service(rig_config):
    with AceService(rig_config, RunConfig(workers=WORKERS, timeout=30)) as service:
        yield service
