"""`lit diff` and `lit.diff_sentences` on recorded parses: a stand-in ACE answers with the
rule examples' gold MRSs (tests/standin_ace.py), so no grammar is needed."""

from __future__ import annotations

import json
from contextlib import nullcontext

import lit
from lit.ace.results import ParseResult, Reading
from lit.cli import main
from lit.status import Status
from tests.diff.examples import examples
from tests.standin_ace import StandInAce


class RecordedAce(StandInAce):
    """Parses: each example sentence's gold MRS; "The dog is barking." has an unrelated
    first reading that the diff must not choose; any other sentence does not parse. Counts
    what it was asked."""

    DECOYED = "The dog is barking."

    def __init__(self) -> None:
        self.gold = {}
        for _, ex in examples():
            self.gold.setdefault(ex.source, ex.source_mrs)
            self.gold.setdefault(ex.target, ex.target_mrs)
        self.asked: list[str] = []

    def parse(self, sentences, n=1):
        decoy = Reading(self.gold["Alice gave Bob a book."])
        for s in sentences:
            self.asked.append(s)
            if s in self.gold:
                readings = (decoy, Reading(self.gold[s])) if s == self.DECOYED else (
                    Reading(self.gold[s]),)
                yield ParseResult(s, Status.OK, None, readings[:n], 0.0, 0.0)
            else:
                yield ParseResult(s, Status.NO_PARSE, "ACE found no parse", (), 0.0, 0.0)

    def generate(self, mrss, limit=None):
        raise AssertionError("lit diff never generates")


def test_diff_sentences_parses_each_sentence_once_and_picks_the_closest_readings():
    ace = RecordedAce()
    pairs = [("The dog is barking.", "The animal is barking."),
             ("The dog is barking.", "The puppy is barking."),
             ("The dog is barking.", "Nobody parses this.")]
    found = list(lit.diff_sentences(ace, pairs, readings=2))
    assert sorted(ace.asked) == sorted(set(ace.asked))
    assert [d.diff.kinds() if d.diff else None for d in found] == [("hyper",), ("hypo",), None]
    assert found[0].diff.readings == (1, 0)  # the gold reading, not the decoy
    assert (found[2].status, found[2].reason) == ("no_parse", "sentence B: ACE found no parse")


def test_lit_diff_prints_each_edit_with_its_eps_and_json(monkeypatch, capsys):
    monkeypatch.setattr("lit.ace.options.service_from_args",
                        lambda args, **kw: nullcontext(RecordedAce()))
    assert main(["diff", "The teacher praised the students.",
                 "The teacher will praise the students."]) == 0
    text = capsys.readouterr().out
    assert "tense: tense=fut: TENSE past -> fut on praise" in text
    assert "A: _praise_v_1" in text and "residue: none" in text
    assert main(["diff", "--json", "The dog is barking.", "The animal is barking."]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "ok" and record["diff"]["named"] is True
    assert [(e["kind"], e["relation"]) for e in record["diff"]["edits"]] == [
        ("hyper", "hypernym")]


def test_lit_diff_says_why_when_a_sentence_does_not_parse(monkeypatch, capsys):
    monkeypatch.setattr("lit.ace.options.service_from_args",
                        lambda args, **kw: nullcontext(RecordedAce()))
    assert main(["diff", "Nobody parses this.", "The dog is barking."]) == 0
    assert "no_parse: sentence A: ACE found no parse" in capsys.readouterr().out
