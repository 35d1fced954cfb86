"""Limits that measure work, not time (issue 40): ACE's memory caps decide an item's outcome;
the processor-time limit is a backstop against a runaway or hung ACE. An item the clock
stopped is a fault, retried on a fresh process, so the record of an item slowed by its
neighbours is the one a quiet machine gives; stopped twice, the record says that time
decided it. One outcome and one reason when a cap and the clock are reached together."""

from __future__ import annotations

from pathlib import Path

import pytest

from lit.ace.config import AceConfig
from lit.ace.service import AceService
from lit.config import DEFAULTS, RunConfig
from lit.status import Status

SENTENCE = "Bob met Alice."
#: A one-EP MRS whose CARG carries a fault marker for the fake ACE.
MARKED = '[ TOP: h0 INDEX: e2 RELS: < [ named LBL: h1 ARG0: x3 CARG: "{}" ] > ]'


@pytest.fixture
def once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Make the first try of items matching a pattern hang (busy) or stall (asleep)."""

    def arm(mode: str, match: str) -> None:
        monkeypatch.setenv("LIT_FAKE_ACE_ONCE", mode)
        monkeypatch.setenv("LIT_FAKE_ACE_ONCE_MATCH", match)
        monkeypatch.setenv("LIT_FAKE_ACE_ONCE_DIR", str(tmp_path))

    return arm


def clean(config: AceConfig) -> tuple[Status, tuple]:
    with AceService(config, RunConfig(workers=1, timeout=1.0)) as service:
        (result,) = service.parse([SENTENCE])
    return result.status, result.readings


def test_an_item_slowed_past_its_limit_once_gets_the_quiet_machines_record(
        fake_ace_config, once):
    """A slow item near its limit: the first try uses up its processor time (a neighbour
    sharing the core's caches), the retry on a fresh process answers."""
    expected = clean(fake_ace_config)
    once("hang", "Bob met")
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=1.0)) as service:
        (result,) = service.parse([SENTENCE])
    assert (result.status, result.readings) == expected
    assert result.status is Status.OK
    assert result.attempts == 2
    assert service.retries["parse"] == 1


def test_an_item_a_busy_neighbour_starved_gets_the_quiet_machines_record(
        fake_ace_config, once):
    """A busy neighbour: the first try gets no processor time and meets the wall-clock
    backstop; the retry answers."""
    expected = clean(fake_ace_config)
    once("stall", "Bob met")
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=1.0)) as service:
        (result,) = service.parse([SENTENCE])
    assert (result.status, result.readings) == expected
    assert result.attempts == 2


def test_a_generation_slowed_once_is_realized_as_on_a_quiet_machine(fake_ace_config, once):
    mrs = '[ TOP: h0 INDEX: e2 RELS: < [ _zebra_v_1 LBL: h1 ARG0: e2 ] > ]'
    once("hang", "zebra")
    with AceService(fake_ace_config, RunConfig(workers=1, generate_timeout=1.0)) as service:
        (result,) = service.generate([mrs], limit=4)
    assert result.status is Status.NO_GENERATION  # what the grammar says, not the clock
    assert result.attempts == 2


def test_a_cap_reached_as_time_runs_out_is_the_cap(fake_ace_config):
    """ACE reported its memory cap and the clock stopped it: the outcome is the cap (work),
    on every run, not whichever the watchdog saw first."""
    with AceService(
        fake_ace_config, RunConfig(workers=1, generate_timeout=1.0, generate_unpack_megabytes=321)
    ) as service:
        (result,) = service.generate([MARKED.format("__RAMHANG__")], limit=4)
    assert result.status is Status.RESOURCE
    assert result.reason.startswith(
        "ACE stopped at its 321 MB unpacking cap (--generate-unpack-megabytes); no realization")
    assert result.attempts == 1  # the grammar's outcome: not retried


def test_an_item_stopped_by_time_twice_says_time_decided_it(fake_ace_config):
    with AceService(fake_ace_config, RunConfig(workers=1, generate_timeout=1.0)) as service:
        (result,) = service.generate([MARKED.format("__HANG__")], limit=4)
    assert result.status is Status.TIMEOUT
    assert result.attempts == 2
    assert result.reason.startswith(
        "no answer within 1 s of ACE processor time (--generate-timeout)")
    assert "depended on time, not on the grammar" in result.reason


def test_the_default_time_limits_are_backstops_above_the_slowest_measured_item():
    """The slowest generation measured on the rig that ended by the grammar (no realization,
    with the old 800 MB chart cap) took 25.5 s of ACE time (docs/ace.md, "Limits"); a busy
    machine stretches processor time by up to about half. The defaults must leave that room,
    so that the memory caps, not the clock, decide."""
    assert DEFAULTS.generate_timeout >= 1.5 * 25.5
    assert DEFAULTS.timeout >= DEFAULTS.generate_timeout


# --- readings of equal score ----------------------------------------------------------------

TIED = "3 dogs must chase a rabbit."  # its 5th and 6th readings have equal scores


@pytest.mark.parametrize(("n", "kept"), [(5, 4), (1, 1), (20, 20), (6, 6)])
def test_the_readings_kept_do_not_depend_on_which_process_parsed(fake_ace_config, tmp_path,
                                                                 monkeypatch, n, kept):
    """ACE orders readings of equal score differently in each process, so the n-th reading
    of one worker's parse was another's (n+1)-th: the readings kept come in score order,
    equal scores by their MRS, and two readings of equal score straddling the cut (the 5th
    and 6th here) are both left out."""
    monkeypatch.setenv("LIT_FAKE_ACE_TIES_NOTE", str(tmp_path / "ties"))
    got = []
    for _ in range(2):  # the second service's parser gives ties reversed
        with AceService(fake_ace_config, RunConfig(workers=1)) as service:
            (result,) = service.parse([TIED], n=n)
        got.append(result.readings)
    assert got[0] == got[1] and len(got[0]) == kept
    scores = [r.score for r in got[0]]
    assert scores == sorted(scores, reverse=True)
    tied = [r.mrs for r in got[0] if r.score == scores[-1]]
    assert tied == sorted(tied)


def test_when_every_reading_ties_from_the_first_ace_is_asked_for_more():
    from lit.ace.results import Reading, best

    def reading(k: int, score: float) -> Reading:
        return Reading(f"[ m{k} ]", f"(1 root {score} 0 1)")

    tied = [reading(k, 2.0) for k in (3, 1, 2)]
    assert best(tied, 2, 3) is None  # all three tie: ACE may have more of that score
    assert best([*tied, reading(4, 1.0)], 2, 5) == tuple(sorted(tied, key=lambda r: r.mrs))[:2]
    assert best([reading(0, 3.0), *tied], 2, 4) == (reading(0, 3.0),)
