"""`lit nli` progress moves inside a batch: the batch code reports its pairs as fractions while
parses, generations and sides finish (lit.progress.BatchShare), so a run of 32-pair
batches updates its bar many times per batch. Counts of calls only, no timing."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import lit
import lit.pipeline.run as run_module
from lit.progress import BatchShare, PairTicks
from tests.conftest import ORACLE, read_jsonl

SPECS = ["f;p", "m;o", "pa;pa"]


@pytest.fixture
def rows():
    """40 oracle NLI pairs (the fake ACE knows their sentences): two 32-pair batches."""
    rows = read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:40]
    assert len(rows) == 40
    return rows


class CountingBar:
    def __init__(self):
        self.updates: list[int] = []

    def update(self, n: int = 1) -> None:
        self.updates.append(n)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def test_progress_moves_inside_a_batch(fake_ace_config, rows):
    events: list[tuple[str, Fraction]] = []
    with lit.Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", scorer="ace",
                    workers=2, batch_size=32, batches_in_flight=1) as engine:
        for _ in engine.nli(rows, SPECS, progress=lambda p: events.append(("tick", p))):
            events.append(("record", Fraction(0)))
    ticks = [p for kind, p in events if kind == "tick"]
    assert sum(ticks) == len(rows) and all(p > 0 for p in ticks)
    first_record = next(k for k, (kind, _) in enumerate(events) if kind == "record")
    before = [p for _, p in events[:first_record]]
    # the first batch reports many parts of itself before its first record exists, which
    # comes before the batch ends (records leave as their pairs finish)
    assert len(before) >= 10 and 0 < sum(before) < 32
    running = [sum(before[:k]) for k in range(1, len(before) + 1)]
    assert sum(1 for x in running if 0 < x < 32) >= 9
    # far more calls than batches (2)
    assert len(ticks) >= 20


def test_lit_nli_bar_updates_more_often_than_once_per_batch(fake_ace_config, rows, tmp_path,
                                                             monkeypatch):
    rows = rows[:16]  # two 8-pair batches: the bar's wiring needs no 32-pair batch
    source = tmp_path / "pairs.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    bar = CountingBar()
    monkeypatch.setattr(run_module, "progress_bar", lambda *a, **k: bar)
    config = lit.RunConfig(ace=str(fake_ace_config.ace), grammar=str(fake_ace_config.grammar),
                           grammar_version="2018", scorer="ace", workers=2, batch_size=8)
    result = lit.run_nli(source, tmp_path / "out.jsonl", SPECS, config=config, progress=True)
    assert result.written == len(rows)
    assert sum(bar.updates) == len(rows)  # whole pairs, ending at the pair count
    assert len(bar.updates) > 2 * 3  # two batches: several updates each


def test_a_batch_share_never_pays_more_than_its_size_and_closes_exactly():
    paid: list[Fraction] = []
    share = BatchShare(paid.append, 3)
    share.add(Fraction(2, 3))
    share.add(Fraction(5, 2))  # more than is left: only what is left
    share.add(Fraction(1))
    share.close()
    assert paid == [Fraction(2, 3), Fraction(7, 3)] and sum(paid) == 3
    bar = CountingBar()
    ticks = PairTicks(bar)
    for part in (Fraction(1, 3),) * 7:
        ticks(part)
    assert bar.updates == [1, 1]
