"""Surface repair on candidate lists recorded from a live ACE + ERG 2025
(tests/data/live/candidates-surface-erg2025-rig.jsonl.gz, tools/record_candidates.py
--surface): sentences with hyphens, digits, quotes, inner commas, names and adjective pairs,
and the four sentences of issue 34. The realizer runs on a grammar that replays the
recording: ACE's realizations, and for each candidate and each repair whether it re-parsed to
the transformed MRS on the rig.
"""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.service import GenerateResult, ParseResult, Reading
from lit.config import RunConfig
from lit.pipeline.realize import Job, Realizer
from lit.rank import AceOrderScorer
from lit.rank.freq import FrequencyScorer
from lit.rank.surface import align_words, differences
from lit.rules.engine import RuleEngine
from tests.conftest import DATA, Reversed, read_recorded
from tests.standin_ace import StandInAce

RECORDED = DATA / "live" / "candidates-surface-erg2025-rig.jsonl.gz"
ISSUE = ("A small group of young black men, some in traditional African dress, are assembled "
         "outdoors.", "A woman in a white t-shirt points at a geyser.",
         "A man pulls a bicycle-driven cart through a city alley.", "Some black men are outdoors.")
NOT_TARGET = "[ TOP: h0 INDEX: e1 RELS: < [ _nothing_n_1 LBL: h2 ARG0: x3 ] > HCONS: < > ]"


def recorded() -> list[dict]:
    return read_recorded(RECORDED)


class Replay(StandInAce):
    """ACE as recorded for one row: its realizations, and which sentences verified."""

    def __init__(self, row: dict):
        self.row = row
        self.verifies = {c: v for c, v in zip(row["candidates"], row["verified"])}
        self.verifies.update({r["surface"]: r["verified"] for r in row["repairs"]})
        self.unrecorded: list[str] = []

    def generate(self, mrss, limit=None):
        for m in mrss:
            yield GenerateResult(simplemrs.encode(m), "ok", None, tuple(self.row["candidates"]),
                                 0, 0)

    def parse(self, sentences, n=1):
        for s in sentences:
            if s not in self.verifies:
                self.unrecorded.append(s)
            mrs = self.row["mrs"] if self.verifies.get(s) else NOT_TARGET
            yield ParseResult(s, "ok", None, (Reading(mrs),), 0, 0)


def surface_defects(source: str, sentence: str) -> list[str]:
    return differences(align_words(source, sentence))


def test_recording_has_the_issues_sentences_and_repairs_that_verify():
    rows = recorded()
    assert set(ISSUE) <= {r["sentence"] for r in rows}
    assert len({r["sentence"] for r in rows}) >= 15
    assert sum(r["verified"] for row in rows for r in row["repairs"]) >= 10


@pytest.mark.parametrize("scorer", [AceOrderScorer(), FrequencyScorer(), Reversed()],
                         ids=lambda s: s.name)
def test_with_repair_no_output_reads_otherwise_when_a_repair_verified(scorer):
    """Whatever the scorer, the output has no surface defect whenever some verified candidate
    or verified repair has none; and repair turns defective outputs into clean ones."""
    rules = RuleEngine.load("2025")
    rescued = 0
    for row in recorded():
        replay = Replay(row)
        realizer = Realizer(replay, scorer, options=RunConfig(allow_defects=True))
        (r,) = realizer.realize([Job(simplemrs.decode(row["mrs"]), row["sentence"],
                                     rules.preferences(row["spec"]))])
        where = f"{row['sentence']} [{row['spec']}] -> {r.output}"
        assert replay.unrecorded == [], f"re-record: {where}: {replay.unrecorded}"
        clean = [s for s, ok in replay.verifies.items()
                 if ok and not surface_defects(row["sentence"], s)]
        if clean:
            assert r.verified and not surface_defects(row["sentence"], r.output), where
        plain = [c for c, ok in zip(row["candidates"], row["verified"]) if ok]
        if plain and all(surface_defects(row["sentence"], c) for c in plain) and clean:
            rescued += 1
    assert rescued >= 3


def test_the_issues_group_of_men_reads_as_the_source_under_modal():
    (row,) = [r for r in recorded() if r["sentence"] == ISSUE[0] and r["spec"] == "modal=may"]
    realizer = Realizer(Replay(row), FrequencyScorer(), options=RunConfig(allow_defects=True))
    (r,) = realizer.realize([Job(simplemrs.decode(row["mrs"]), row["sentence"])])
    assert r.output == ("A small group of young black men, some in traditional African dress, "
                        "may be assembled outdoors.")
    won = r.scores[r.candidates.index(r.output)]
    assert won.repair is not None and won.repair.original in row["candidates"]
