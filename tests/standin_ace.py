"""Stand-in ACE services with the whole surface of an ACE service (lit.ace.protocol.Ace), so
the pipeline meets a test's grammar, or a wrapper that watches a real service, exactly as it
meets lit.ace.service.AceService."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from delphin.mrs import MRS

from lit.ace.config import AceConfig
from lit.ace.parsecache import ParseCache
from lit.ace.protocol import Ace, AceTask, Limits
from lit.ace.results import GenerateResult, ParseResult


class StandInAce:
    """A grammar a test plays: a subclass gives `parse` and `generate`. No ACE, so no
    limits, nothing cached across runs, no predicate the generator would refuse, no retries;
    as many workers as the pipeline's default."""

    config = AceConfig(Path("stand-in-ace"), Path("stand-in-grammar.dat"), None)
    workers = 2
    limits: Mapping[AceTask, Limits] = {}
    parse_cache: ParseCache | None = None

    def unindexed(self, mrss: Iterable[MRS], limit: int | None = 1) -> list[tuple[str, ...]]:
        return [() for _ in mrss]

    def vouch(self, mrss: Iterable[MRS]) -> None:
        """Nothing to tell: nothing is refused (`unindexed`)."""

    def retry_counts(self) -> dict[str, int]:
        return {}

    def close(self) -> None:
        """Nothing to stop."""


class WrappedAce:
    """A real service (*service*) whose `parse` and `generate` a subclass watches (records,
    counts); everything else is the service's own."""

    def __init__(self, service: Ace):
        self.service = service
        self.config = service.config
        self.workers = service.workers
        self.limits = service.limits

    @property
    def parse_cache(self) -> ParseCache | None:
        return self.service.parse_cache

    def parse(self, sentences: Iterable[str], n: int = 1) -> Iterator[ParseResult]:
        return self.service.parse(sentences, n=n)

    def generate(self, mrss: Iterable[str | MRS], limit: int | None = None
                 ) -> Iterator[GenerateResult]:
        return self.service.generate(mrss, limit)

    def unindexed(self, mrss: Iterable[MRS], limit: int | None = 1) -> list[tuple[str, ...]]:
        return self.service.unindexed(mrss, limit)

    def vouch(self, mrss: Iterable[MRS]) -> None:
        self.service.vouch(mrss)

    def retry_counts(self) -> dict[str, int]:
        return self.service.retry_counts()

    def close(self) -> None:
        self.service.close()
