"""One documented ranking of a transformed MRS's realizations (docs/pipeline.md, "Ranking").

Candidates are ordered by, in turn:

1. **module preferences** — how many of the spec's `prefer` declarations hold (e.g. `ques`
   prefers subject–auxiliary inversion); more is better;
2. **defects** — non-words, punctuation the source lacked or moved, moved words, stutters,
   an article that disagrees with its word, a statement that starts with its auxiliary
   (lit.rank.closeness), and every difference the rule's edit does not explain: words it
   does not bring, another form of a word it does not touch, an edit outside the verb group
   it changes, a changed agreement (lit.rank.minimal); fewer is better;
3. **closeness and fluency** — ``w * distance + (1 - w) * fluency``, both in 0..1: the token
   edit distance to the source sentence, and the candidate's scorer *score* above the group's
   best, divided by the scorer's ``scale`` (the score difference that weighs as much as a whole
   unit of distance) and capped at 1. Scores, not ranks: a negligible scorer difference stays
   negligible however few candidates there are. A scorer without a ``scale`` is measured
   against its group's spread. ``w`` is ``closeness_weight`` (default 0.75: contrast sets want
   minimal edits, so faithfulness to the source outweighs fluency among clean candidates);
   ties break by the string (the generator's order depends on its history, issue 25).

Verification then re-parses candidates in this order and keeps the first that verifies, which
is the verified candidate this order ranks best: the preferences and defects are applied among
verified candidates, whatever the scorer. Each candidate's figures and the reason the chosen
one won are recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from lit.config import DEFAULTS
from lit.rank.closeness import measure
from lit.rank.minimal import Edit
from lit.rank.surface import Repair, WordOrder

DEFAULT_CLOSENESS_WEIGHT = DEFAULTS.closeness_weight


class Preference(Protocol):
    """What ranking needs of a rule module's `prefer` (lit.rules.Preference)."""

    name: str

    def holds(self, surface: str) -> bool: ...


@dataclass(frozen=True)
class Scored:
    """One candidate with every figure the ranking used."""

    surface: str
    preferred: tuple[str, ...]  # names of the preferences that hold
    defects: tuple[str, ...]
    distance: float
    score: float  # the scorer's own (lower is better)
    fluency: float  # (score - the group's best) / the scorer's scale, capped at 1
    combined: float
    repair: Repair | None = None  # set when this candidate is another rebuilt (lit.rank.surface)

    def key(self) -> tuple[int, int, float]:
        return (-len(self.preferred), len(self.defects), self.combined)

    def to_json(self) -> dict:
        return {"surface": self.surface, "score": self.score, "distance": self.distance,
                "fluency": self.fluency, "defects": list(self.defects),
                "preferences": list(self.preferred),
                "repaired": self.repair.to_json() if self.repair else None}


def order(
    candidates: Sequence[str],
    scores: Sequence[float],
    source: str | None,
    preferences: Sequence[Preference] = (),
    closeness_weight: float = DEFAULT_CLOSENESS_WEIGHT,
    scale: float | None = None,
    edit: Edit | None = None,
) -> list[Scored]:
    """*candidates* best first. *scale* is the scorer's (see the module docstring); *edit*
    what the transformation may change of the source (lit.rank.minimal.Edit; None: only the
    surface is checked, in the order of a clause the rule restructures). Without a *source*
    (an MRS given directly) only the preferences and the scorer count."""
    word_order = edit.word_order if edit is not None else WordOrder.KEPT
    best = min(scores, default=0.0)
    unit = scale if scale else (max(scores, default=0.0) - best) or 1.0
    scored = []
    for i, c in enumerate(candidates):
        m = measure(source, c, word_order) if source else None
        defects = m.defects if m else ()
        if source and edit is not None:
            defects += edit.defects(source, c)
        distance = m.distance if m else 0.0
        w = closeness_weight if m else 0.0
        fluency = min(1.0, (scores[i] - best) / unit)
        scored.append((Scored(
            c, tuple(p.name for p in preferences if p.holds(c)), defects, distance, scores[i],
            round(fluency, 6), round(w * distance + (1 - w) * fluency, 6),
        ), i))
    return [s for s, _ in sorted(scored, key=lambda si: (si[0].key(), si[0].surface))]


def why(winner: Scored, ranked: Sequence[Scored], rejected: int) -> str:
    """Why *winner* is the output: what set it above the scorer's favourite, and how many
    better-ranked candidates failed verification."""
    top = min(ranked, key=lambda s: (s.score, ranked.index(s)))
    if top is winner:
        reason = "the scorer's best"
    elif len(winner.preferred) > len(top.preferred):
        reason = f"preference: {', '.join(winner.preferred)} (the scorer preferred {top.surface!r})"
    elif len(winner.defects) < len(top.defects):
        reason = (f"fewer defects than the scorer's best {top.surface!r} "
                  f"({'; '.join(top.defects)})")
    elif winner.combined < top.combined:
        reason = f"closer to the source than the scorer's best {top.surface!r}"
    else:
        reason = f"the scorer's best {top.surface!r} did not verify"
    if winner.repair:
        reason = (f"the source's surface put back into {winner.repair.original!r} "
                  f"({'; '.join(winner.repair.changes)}); {reason}")
    if rejected:
        reason += f"; {rejected} better-ranked candidate{'s' if rejected > 1 else ''} did not verify"
    return reason
