"""The local backend's batching (issue 23): every batch slot gets work, and a slow batch does
not hold the others back."""

from __future__ import annotations

import threading

import pytest

from lit.backend.local import AHEAD, batches, overlapped


def test_a_short_input_is_spread_over_the_batch_slots_without_splitting_a_premise():
    premises = ["a"] * 3 + ["b"] * 3 + ["c"] * 3 + ["d"]
    assert list(batches(premises, 32, spread=2, key=str)) == [premises[:6], premises[6:]]
    assert list(batches(premises, 32, spread=2)) == [premises[:5], premises[5:]]
    assert list(batches(["a"] * 5, 32, spread=2, key=str)) == [["a"] * 5]


def test_a_long_input_keeps_whole_batches():
    items = list(range(10))
    assert list(batches(items, 4, spread=2)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert list(batches(items, 5, spread=2)) == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert list(batches(iter(items), 3)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]


def test_a_slow_first_batch_does_not_keep_the_next_ones_waiting():
    """Batch 0 finishes only once batches 1..3 have run: with two slots, the second slot must
    take batch 2 and 3 while batch 0 is still running (it used to wait for batch 0)."""
    started: list[int] = []
    later_done = threading.Event()

    def work(batch):
        started.append(batch[0])
        if batch[0] == 0:
            assert later_done.wait(timeout=20), f"batch 0 waited alone; started {started}"
        elif batch[0] == 2 * AHEAD - 1:
            later_done.set()
        return batch

    out = list(overlapped(([k] for k in range(2 * AHEAD + 2)), work, in_flight=2))
    assert out == list(range(2 * AHEAD + 2))
    assert started[:2] == [0, 1] and 2 * AHEAD - 1 in started[: 2 * AHEAD]


def test_a_batch_s_records_are_handed_on_as_its_work_yields_them():
    """Records leave as the batch's work yields them, in order: the first record of batch 0
    arrives while batch 0 is still running (it used to wait for the whole batch)."""
    for in_flight in (1, 2):
        first_taken = threading.Event()

        def work(batch):
            yield batch[0]
            if batch[0] == 0:
                assert first_taken.wait(timeout=20), "record 0 waited for its batch's end"
            yield batch[0] + 1

        got = []
        for record in overlapped(([k] for k in range(0, 8, 2)), work, in_flight):
            got.append(record)
            if record == 0:
                first_taken.set()
        assert got == list(range(8))


def test_a_batch_s_error_reaches_the_consumer_after_its_earlier_records():
    def work(batch):
        yield batch[0]
        if batch[0] == 2:
            raise RuntimeError("batch 2 failed")
        yield batch[0] + 1

    got = []
    with pytest.raises(RuntimeError, match="batch 2 failed"):
        for record in overlapped(([k] for k in range(0, 8, 2)), work, in_flight=2):
            got.append(record)
    assert got == [0, 1, 2]
