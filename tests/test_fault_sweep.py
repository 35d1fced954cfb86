"""Issue 12: every case of tools/fault_sweep.py (bad input costs one record, no command destroys
its input, interrupts and ACE faults stop cleanly) as a regression test."""

from __future__ import annotations

import pytest

from tools import fault_sweep


@pytest.mark.parametrize("case", fault_sweep.CASES, ids=[c.name for c in fault_sweep.CASES])
def test_fault_case(case: fault_sweep.Case, fake_ace_config) -> None:
    assert fault_sweep.run_case(case, fake_ace_config) == case.expected
