"""Generation limits (issue 23): a generation stopped by its time budget or a memory cap is
`timeout` / `resource` with the limit in the reason, apart from `no_generation`; generation's
limits are its own, not the parser's."""

from __future__ import annotations

import pytest

from lit.ace.config import AceConfig
from lit.ace.service import AceService
from lit.config import DEFAULT_MAX_CHART_MEGABYTES, DEFAULT_MAX_UNPACK_MEGABYTES
from lit.status import Status

#: A one-EP MRS whose CARG carries a fault marker for the fake ACE.
MARKED = '[ TOP: h0 INDEX: e2 RELS: < [ named LBL: h1 ARG0: x3 CARG: "{}" ] > ]'


@pytest.fixture
def service(fake_ace_config: AceConfig):
    with AceService(fake_ace_config, workers=1, timeout=30.0, generate_timeout=1.0,
                    generate_unpack_megabytes=321, generate_chart_megabytes=123) as service:
        yield service


def test_a_memory_cap_is_resource_naming_the_cap(service):
    (result,) = service.generate([MARKED.format("__RAM__")], limit=4)
    assert result.status is Status.RESOURCE
    assert result.reason.startswith(
        "ACE stopped at its 321 MB unpacking cap (--generate-unpack-megabytes)")
    assert "ran out of RAM while unpacking" in result.reason


def test_the_generation_budget_is_a_timeout_naming_the_budget(service):
    (result,) = service.generate([MARKED.format("__GIVEUP__")], limit=4)
    assert result.status is Status.TIMEOUT
    assert result.reason.startswith("ACE stopped at its 1 s time limit (--generate-timeout)")


def test_a_hung_generation_is_stopped_by_the_budget_not_the_parse_timeout(service):
    (result,) = service.generate([MARKED.format("__HANG__")], limit=4)
    assert result.status is Status.TIMEOUT
    assert result.wall_seconds < 10  # the parse timeout is 30 s
    assert result.reason.startswith("no answer within 1 s (--generate-timeout)")


def test_parsers_keep_their_own_limits(service):
    (result,) = service.parse(["__RAM__ here"])
    assert result.status is Status.RESOURCE
    assert "(--max-unpack-megabytes)" in result.reason
    assert f"{DEFAULT_MAX_UNPACK_MEGABYTES} MB" in result.reason
    (result,) = service.parse(["__GIVEUP__ here"])
    assert result.status is Status.TIMEOUT
    assert result.reason.startswith("ACE stopped at its 30 s time limit (--timeout)")


def test_each_kind_of_process_gets_its_own_caps(service):
    assert service._cmdargs("generate", 4) == [
        "--max-chart-megabytes", "123", "--max-unpack-megabytes", "321", "--timeout", "1",
        "-n", "4"]
    assert service._cmdargs("parse", 1)[:6] == [
        "--max-chart-megabytes", str(DEFAULT_MAX_CHART_MEGABYTES),
        "--max-unpack-megabytes", str(DEFAULT_MAX_UNPACK_MEGABYTES), "--timeout", "30"]


def test_an_empty_answer_within_the_limits_stays_no_generation(service):
    unknown = '[ TOP: h0 INDEX: e2 RELS: < [ _zebra_v_1 LBL: h1 ARG0: e2 ] > ]'
    (result,) = service.generate([unknown], limit=4)
    assert result.status is Status.NO_GENERATION
