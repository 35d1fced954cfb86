"""Issue 12: every case of tools/fault_sweep.py (bad input costs one record, no command destroys
its input, interrupts and ACE faults stop cleanly) as a regression test."""

from __future__ import annotations

import pytest

from tools import fault_sweep


@pytest.mark.parametrize("case", fault_sweep.CASES, ids=[c.name for c in fault_sweep.CASES])
def test_fault_case(case: fault_sweep.Case, fake_ace_config) -> None:
    assert fault_sweep.run_case(case, fake_ace_config) == case.expected


def test_bad_lines_and_killed_ace_cost_nothing_else() -> None:
    """tools/fault_run.py in small: every record written, in order, bad lines invalid_input,
    the rest identical to a clean run although ACE is killed every 25 records (75 pairs, 6 of
    them bad: as many bad lines and kills as 150 pairs killed every 50 had, with half the work)."""
    from tools import fault_run

    outcome = fault_run.sweep(pairs=75, bad=0.08, kill_every=25, seed=1)
    assert outcome.ok, outcome.format()
    assert outcome.kills >= 2
