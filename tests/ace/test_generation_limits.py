"""Generation limits (issue 23): a generation stopped by its time budget or a memory cap is
`timeout` / `resource` with the limit in the reason, apart from `no_generation`; generation's
limits are its own, not the parser's."""

from __future__ import annotations

import pytest

from lit.ace.config import AceConfig
from lit.ace.service import AceService
from lit.config import DEFAULT_MAX_CHART_MEGABYTES, DEFAULT_MAX_UNPACK_MEGABYTES, RunConfig
from lit.status import Status

#: A one-EP MRS whose CARG carries a fault marker for the fake ACE.
MARKED = '[ TOP: h0 INDEX: e2 RELS: < [ named LBL: h1 ARG0: x3 CARG: "{}" ] > ]'


@pytest.fixture
def service(fake_ace_config: AceConfig):
    with AceService(
        fake_ace_config,
        RunConfig(
            workers=1,
            timeout=30.0,
            generate_timeout=1.0,
            generate_unpack_megabytes=321,
            generate_chart_megabytes=123,
        ),
    ) as service:
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
    # ACE's own --timeout is the wall-clock backstop: 3 x the processor-time budget
    assert result.reason.startswith("ACE stopped at its 3 s time limit (wall-clock backstop, "
                                    "3 x --generate-timeout")


def test_a_hung_generation_is_stopped_by_the_budget_not_the_parse_timeout(service):
    (result,) = service.generate([MARKED.format("__HANG__")], limit=4)
    assert result.status is Status.TIMEOUT
    assert result.wall_seconds < 10  # the parse timeout is 30 s
    assert result.reason.startswith(
        "no answer within 1 s of ACE processor time (--generate-timeout)")


def test_parsers_keep_their_own_limits(service):
    (result,) = service.parse(["__RAM__ here"])
    assert result.status is Status.RESOURCE
    assert "(--max-unpack-megabytes)" in result.reason
    assert f"{DEFAULT_MAX_UNPACK_MEGABYTES} MB" in result.reason
    (result,) = service.parse(["__GIVEUP__ here"])
    assert result.status is Status.TIMEOUT
    assert result.reason.startswith("ACE stopped at its 90 s time limit (wall-clock backstop, "
                                    "3 x --timeout")


def test_each_kind_of_process_gets_its_own_caps(service):
    assert service._cmdargs("generate", 4) == [
        "--max-chart-megabytes", "123", "--max-unpack-megabytes", "321", "--timeout", "3",
        "-n", "4"]
    assert service._cmdargs("parse", 1)[:6] == [
        "--max-chart-megabytes", str(DEFAULT_MAX_CHART_MEGABYTES),
        "--max-unpack-megabytes", str(DEFAULT_MAX_UNPACK_MEGABYTES), "--timeout", "90"]


def test_an_empty_answer_within_the_limits_stays_no_generation(service):
    unknown = '[ TOP: h0 INDEX: e2 RELS: < [ _zebra_v_1 LBL: h1 ARG0: e2 ] > ]'
    (result,) = service.generate([unknown], limit=4)
    assert result.status is Status.NO_GENERATION


def test_the_budget_is_processor_time_so_a_waiting_process_is_not_stopped(
        fake_ace_config, monkeypatch):
    """An item that waits (here: sleeps 1.5 s, as ACE waits for a core on a loaded machine)
    uses no processor time: a 1 s budget does not stop it, so its outcome does not depend on
    the load. A busy item (__HANG__) is stopped once it has used its 1 s."""
    monkeypatch.setenv("LIT_FAKE_ACE_SLEEP", "1.5")
    monkeypatch.setenv("LIT_FAKE_ACE_SLEEP_MATCH", "Bob met Alice")
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=1.0)) as service:
        waiting, busy = service.parse(["Bob met Alice.", "__HANG__ forever"])
    assert waiting.status is Status.OK, waiting.reason
    assert waiting.wall_seconds >= 1.5
    assert busy.status is Status.TIMEOUT
    # the processor-time budget stopped it (the wall-clock backstop's reason says "wall-clock"),
    # once on its first process and once on the fresh one it was retried on
    assert busy.reason.startswith("no answer within 1 s of ACE processor time (--timeout)")
    assert busy.attempts == 2


def test_a_process_that_gets_no_processor_time_is_stopped_by_the_wall_clock_backstop(
        fake_ace_config):
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=1.0)) as service:
        stalled, after = service.parse(["__STALL__ asleep", "Bob met Alice."])
    assert stalled.status is Status.TIMEOUT
    assert stalled.reason.startswith(
        "no answer within 4 s of wall-clock time (3 x --timeout, the backstop), in which ACE "
        "got only ")
    # what it got is the fake's start-up (it was sent the item while still importing)
    got = float(stalled.reason.split("got only ")[1].split(" s ")[0])
    assert got < 1.0
    assert 3 <= stalled.wall_seconds < 10
    assert after.status is Status.OK
