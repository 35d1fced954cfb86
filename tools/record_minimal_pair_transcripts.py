#!/usr/bin/env python3
"""Record the ACE transcripts the minimal-pair tests replay (tests/data/live/, issue 53).

Runs `lit transform` (lit.Engine, ACE's order as the scorer, round trip off as in `lit nli`)
on the live rig for each (sentence, spec) of CASES: the junk a new user found on held-out SNLI
1.0 *test* pairs (words the rule did not add, a number the source does not have, a phrase the
verb owns carried along by a passive, a changed agreement) and a legitimate edit refused
(*The dogs did not bark.* under `aff`). Every parse and generation the pipeline asks of ACE is
also run once more as a one-shot ACE (tools/record_reading_transcripts.Recorder), and added to
tests/data/live/minimal-pairs-erg2025-rig.jsonl.gz (what the file holds already is kept, so
a run with an older LIT adds what that version asks: the tests show it fails). The script
prints what the live run gave.

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.record_minimal_pair_transcripts
"""

from __future__ import annotations

import gzip
import json

import lit
from lit.config import RunConfig
from tools.live_transcripts import LIVE, write
from tools.record_reading_transcripts import Recorder

CASES = [
    ("A man operates a piece of earth-moving equipment near a waterway.", "modal=may"),
    ("A man operates a piece of earth-moving equipment near a waterway.", "tense=past"),
    ("Men are doing yard work", "pass"),
    ("A girl in a black sweater and jeans pours water into an empty soda bottle.", "pass"),
    ("A girl pours water into the ocean.", "pass"),
    ("A group of young men are raking lives in front of a home.", "tense=past+cleft"),
    ("A group of young men are raking lives in front of a home.", "tense=past"),
    ("The dogs did not bark.", "aff"),
    # kinds found while judging held-out slices (SNLI 1.0 test; sentences of our own)
    ("Several horsemen are riding past each other carrying flags.", "pass"),
    (("A girl in green looks at the camera and stands in front of a huge crowd of "
      "indescript faces."), "tense=past"),
    ("The men are racing their horses to the finish line", "pass"),
    ("There is no child sitting in a red and yellow toy car.", "tense=fut"),
    ("Somebody is jumping in the air.", "tense=fut+cleft"),
    ("A car is being driven by a man.", "tense=fut"),
]
OUT = LIVE / "minimal-pairs-erg2025-rig.jsonl.gz"


def main() -> None:
    from lit.ace.config import resolve_config
    from lit.ace.service import AceService

    service = AceService(resolve_config(None, None, "2025"), RunConfig(workers=1))
    recorder = Recorder(service)
    if OUT.exists():
        with gzip.open(OUT, "rt", encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                recorder.records[(rec["mode"], rec["input"])] = rec
    with lit.Engine(scorer="ace", service=lambda: recorder) as engine:
        for sentence, spec in CASES:
            r = engine.transform(sentence, spec)
            print(f"{spec:18} {sentence}\n  -> {r['status']}: {r['output'] or r['reason']}")
    write(recorder.records.values(), OUT)


if __name__ == "__main__":
    main()
