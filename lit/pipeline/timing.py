"""Seconds spent per pipeline stage, and how much of it was spent waiting for ACE."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

#: Stages in pipeline order (docs/design.md §1); records and the benchmark report these.
STAGES: tuple[str, ...] = ("parse", "transform", "generate", "rank", "verify", "label")


@dataclass
class StageTimes:
    """Accumulated wall seconds per stage, plus the part of each spent inside ACE calls."""

    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    ace: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def merge(self, other: "StageTimes") -> None:
        """Add *other*'s times (batches running in parallel each keep their own, then merge)."""
        with self._lock:
            for k in STAGES:
                self.seconds[k] += other.seconds[k]
                self.ace[k] += other.ace[k]

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - start

    def add_ace(self, name: str, seconds: float) -> None:
        self.ace[name] += seconds

    def total(self) -> float:
        return sum(self.seconds.values())

    def ace_total(self) -> float:
        return sum(self.ace.values())

    def __sub__(self, other: "StageTimes") -> "StageTimes":
        return StageTimes(
            {k: self.seconds[k] - other.seconds[k] for k in STAGES},
            {k: self.ace[k] - other.ace[k] for k in STAGES},
        )

    def copy(self) -> "StageTimes":
        with self._lock:
            return StageTimes(dict(self.seconds), dict(self.ace))

    def share(self, n: int) -> dict[str, float]:
        """Per-record share of a batch's stage times (rounded), with the total."""
        n = max(1, n)
        out = {k: round(self.seconds[k] / n, 6) for k in STAGES}
        out["total"] = round(self.total() / n, 6)
        return out
