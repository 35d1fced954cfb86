#!/usr/bin/env python3
"""Record the ACE transcripts the reading-choice tests replay (tests/data/live/).

Runs `lit transform` (lit.Engine, default options, ACE's order as the scorer) on the live rig
for each (sentence, spec) of CASES: misreadings seen on unseen SNLI sentences (issue 45) and
sentences whose first reading is right. Every parse and generation the pipeline asks of ACE
is also run once more as a one-shot ACE in the transcript format of
tests/data/oracle/ace-transcripts.jsonl.gz (lit.demo.replay), so the fake ACE of the tests
gives the pipeline the same answers: the parses with 20 readings (the fake cuts them to the
-n asked), the generations with the 20 realizations the pipeline asks for. Writes
tests/data/live/readings-erg2025-rig.jsonl.gz, with the round trip of each sentence's first
READINGS readings; tests/pipeline/test_reading_choice.py replays it. The script prints what
the live run gave, for comparison with those tests.

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.record_reading_transcripts
"""

from __future__ import annotations

from delphin.codecs import simplemrs

import lit
from lit.config import RunConfig
from lit.demo.replay import record
from lit.pipeline.standins import substitute
from tests.standin_ace import WrappedAce
from tools.live_transcripts import LIVE, PARSE, TSDB, write

CASES = [
    ("Three women sit together near woven walls.", "tense=fut"),
    ("Three women sit together near woven walls.", "modal=may"),
    ("A young male wearing a white shirt with a character outlined very darkly.", "modal=may"),
    ("Is the woman reading a book?", "decl"),
    ("Is the woman singing?", "decl"),
    ("A man has wrecked his racing bike in the dirt.", "pass"),
    ("A lit girl is walking.", "tense=past"),
    ("A man is sleeping.", "tense=past"),
    ("Two dogs play in the snow.", "modal=may"),
    ("Someone is climbing vertically a wall of ice.", "tense=past"),
    ("The boy pointed.", "modal=may"),
    ("There are people playing football.", "neg"),
    ("A tall, thin, brunette girl wearing combat boots standing on a sidewalk.", "modal=may"),
    ("A dog has turned into a sheep.", "pass"),
    ("A woman in a blue coat and dark boots.", "modal=may"),
    ("Children dressed in white play.", "tense=past"),
]
READINGS = 5  # readings weighed in the tests of the evidence
OUT = LIVE / "readings-erg2025-rig.jsonl.gz"
GENERATE = ["-e", "-n", "20", *TSDB]


class Recorder(WrappedAce):
    """The engine's ACE service, recording each item it is asked as a one-shot transcript."""

    def __init__(self, service):
        super().__init__(service)
        self.records: dict[tuple[str, str], dict] = {}

    def _once(self, mode: str, text: str) -> None:
        if (mode, text) not in self.records:
            self.records[(mode, text)] = record(mode, text, PARSE if mode == "parse" else GENERATE)

    def parse(self, sentences, n=1):
        sentences = list(sentences)
        for s in sentences:
            self._once("parse", s)
        return self.service.parse(sentences, n=n)

    def generate(self, mrss, limit=None):
        mrss = list(mrss)
        for m in mrss:
            self._once("generate", m if isinstance(m, str) else simplemrs.encode(m, lnk=False))
        return self.service.generate(mrss, limit=limit)


def main() -> None:
    from lit.ace.config import resolve_config
    from lit.ace.service import AceService

    service = AceService(resolve_config(None, None, "2025"), RunConfig(workers=1))
    recorder = Recorder(service)
    with lit.Engine(scorer="ace", service=lambda: recorder,
                    round_trip=True) as engine:
        for sentence, spec in CASES:
            r = engine.transform(sentence, spec)
            print(f"{spec:10} {sentence}\n  -> {r['status']}: {r['output'] or r['reason']} "
                  f"(reading {r['reading']})")
        # every reading's round trip, for the tests of the evidence itself
        sentences = list(dict.fromkeys(s for s, _ in CASES))
        for parsed in recorder.parse(sentences, n=READINGS):
            mrss = [substitute(simplemrs.decode(x.mrs), parsed.input)[0]
                    for x in parsed.readings]
            list(recorder.generate(mrss, limit=20))
    write(recorder.records.values(), OUT)


if __name__ == "__main__":
    main()
