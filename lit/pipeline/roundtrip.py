"""The round trip: does the grammar give the source sentence back from a reading's own MRS?

A reading the writer meant usually generates the sentence the writer wrote; a misreading
often cannot (*Three women sit together near woven walls.* read with a subordinate clause
*near-woven walls* realizes only as *Near weaved walls, three women sit, together.*). It is
evidence, not a verdict: many readings generate nothing at all (unknown words, fragments,
long sentences), and a genuinely ambiguous string comes back from every reading. So only a
complete answer counts against a reading — ACE realized it, not stopped at its cap, and no
realization has the source's words in the source's order (case, punctuation, hyphens and
spacing aside; another form of a word is the generator's choice, which the surface repair
puts back, lit.rank.surface). Everything else is inconclusive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from lit.rank.forms import stems
from lit.rank.surface import tokenize
from lit.status import Status


class Verdict(str, Enum):
    SOURCE = "source"  # a realization reads as the source
    OTHER = "other"  # every realization reads otherwise: speaks against the reading
    INCONCLUSIVE = "inconclusive"  # no realization, or ACE stopped before it had them all

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RoundTrip:
    """What generating a reading's own MRS gave back."""

    verdict: Verdict
    realized: int  # distinct realizations seen
    example: str | None = None  # the first realization, when none reads as the source
    why: str | None = None  # why it is inconclusive
    #: the grammar alone decided it (no time-out or memory cap): worth keeping across runs
    lasting: bool = field(default=True, compare=False)

    @property
    def against(self) -> bool:
        return self.verdict == Verdict.OTHER

    def to_json(self) -> dict:
        return {"verdict": str(self.verdict), "realized": self.realized,
                "example": self.example, "why": self.why}

    @classmethod
    def from_json(cls, data: dict) -> RoundTrip:
        return cls(Verdict(data["verdict"]), data["realized"], data.get("example"),
                   data.get("why"))

    def describe(self) -> str:
        if self.verdict == Verdict.OTHER:
            return (f"none of the {self.realized} realizations of its own MRS reads as the "
                    f"source (e.g. {self.example!r})")
        if self.verdict == Verdict.SOURCE:
            return "its own MRS gives the source back"
        return f"round trip inconclusive: {self.why}"


def words(sentence: str) -> list[str]:
    """What the round trip compares: the words' letters, in order (case, punctuation, hyphens
    and spacing aside)."""
    return [t.letters for t in tokenize(sentence) if t.word]


def _reads_as(source: list[str], realization: list[str]) -> bool:
    """The same words in the same order, each as the source writes it or in another form of
    the same word (*lighted* for *lit*: the generator's choice, which the surface repair puts
    back; not the reading's doing)."""
    return len(source) == len(realization) and all(
        a == b or stems(a) & stems(b) for a, b in zip(source, realization))


def judge(source: str, status: Status, reason: str | None, realizations: tuple[str, ...],
          complete: bool) -> RoundTrip:
    """The round trip of *source* from ACE's answer for its reading: *realizations* (stand-ins
    put back), *complete* when they are all the MRS has (ACE not stopped at its cap)."""
    if status != Status.OK or not realizations:
        return RoundTrip(Verdict.INCONCLUSIVE, 0, why=reason or f"generation: {status}",
                         lasting=status in (Status.OK, Status.NO_GENERATION))
    want = words(source)
    if any(_reads_as(want, words(r)) for r in realizations):
        return RoundTrip(Verdict.SOURCE, len(realizations))
    if not complete:
        return RoundTrip(Verdict.INCONCLUSIVE, len(realizations), realizations[0],
                         "ACE stopped at its cap before the source came back")
    return RoundTrip(Verdict.OTHER, len(realizations), realizations[0])
