"""The seam between LIT and ACE: what the pipeline, the backends and the commands use of an ACE
service (lit.ace.service.AceService), so a stand-in grammar in a test or a recording wrapper
in a tool offers the same surface and the callers never probe for a part it may lack."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from delphin.mrs import MRS

    from lit.ace.config import AceConfig
    from lit.ace.parsecache import ParseCache
    from lit.ace.results import GenerateResult, ParseResult


#: The wall-clock backstop of an item, in multiples of its processor-time budget: a process
#: waiting for a core is not slow, but a hung one (no processor time at all) must end.
WALL_FACTOR = 3.0


@dataclass(frozen=True)
class Limits:
    """What one kind of ACE process may spend on an item: *seconds* of processor time (of
    wall-clock time where the processor time cannot be read: *wall_factor* 1)."""

    seconds: float
    chart_megabytes: int
    unpack_megabytes: int
    wall_factor: float = WALL_FACTOR

    @property
    def wall_seconds(self) -> float:
        """The wall-clock backstop."""
        return self.seconds * self.wall_factor

    @property
    def ace_timeout(self) -> int:
        """ACE's own ``--timeout`` (wall-clock, whole seconds) is the backstop."""
        return max(1, round(self.wall_seconds))


class AceTask(str, Enum):
    """The two things ACE does for LIT, each with its own processes and limits; the value is
    the name counters and option tables use (a plain string, so what is recorded is)."""

    PARSE = "parse"
    GENERATE = "generate"

    def __str__(self) -> str:
        return self.value


@runtime_checkable
class Ace(Protocol):
    """An ACE service: parses and generations streamed in input order, and what a run's
    identity, cache and scheduling read of it."""

    #: the ace executable, grammar image and grammar version
    config: AceConfig
    #: items ACE works on at once (so as many premise groups run at once)
    workers: int
    #: per-item time limit and memory caps of each task's processes
    limits: Mapping[AceTask, Limits]
    #: answers kept across runs (None: nothing is kept)
    parse_cache: ParseCache | None

    def parse(self, sentences: Iterable[str], n: int = 1) -> Iterator[ParseResult]: ...

    def generate(self, mrss: Iterable[str | MRS], limit: int | None = None
                 ) -> Iterator[GenerateResult]: ...

    def unindexed(self, mrss: Iterable[MRS], limit: int | None = 1) -> list[tuple[str, ...]]:
        """For each MRS, the predicates the generator would refuse as not in its index."""
        ...

    def vouch(self, mrss: Iterable[MRS]) -> None:
        """Tell the generation index that the grammar parsed *mrss*."""
        ...

    def retry_counts(self) -> dict[str, int]: ...

    def close(self) -> None: ...
