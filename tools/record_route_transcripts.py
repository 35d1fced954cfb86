"""Record the ACE transcripts a realization route needs, for the fake ACE of the tests.

For each (sentence, spec): the sentence's parse, the generation of the route's twin MRS and the
parse of every realization of the twin (as the route rewrites it), each as one real ACE run on the rig, in the transcript
format of tests/data/oracle/ace-transcripts.jsonl.gz (lit.demo.replay). Writes
tests/data/live/routes-erg2025-rig.jsonl.gz; tests/rules/test_routes_fake_ace.py replays it.

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.record_route_transcripts
"""

from __future__ import annotations

import re

from delphin.codecs import simplemrs

from lit.demo.replay import record
from lit.rules.engine import RuleEngine
from tools.live_transcripts import LIVE, PARSE, TSDB, write

CASES = [
    ("A woman is training a dog.", "cleft=ARG1"),
    ("A woman is training a dog.", "cleft=ARG2"),
    ("Browne managed the project.", "cleft=ARG1"),
    ("The dog did not bite the man.", "cleft=ARG1"),
    ("A man is eating an apple.", "pass"),
]
OUT = LIVE / "routes-erg2025-rig.jsonl.gz"
GENERATE = ["-e", *TSDB]
SURFACE = re.compile(r'\(:surface \.\s*"((?:[^"\\]|\\.)*)"\)')
MRS = re.compile(r'\(:mrs \.\s*"((?:[^"\\]|\\.)*)"\)')


def run(mode: str, text: str) -> dict:
    """One ACE run on *text*, as a transcript record."""
    return record(mode, text, PARSE if mode == "parse" else GENERATE)


def unescape(s: str) -> str:
    return s.replace('\\"', '"').replace("\\\\", "\\")


def main() -> None:
    engine = RuleEngine.load("2025")
    records, seen = [], set()

    def once(mode: str, text: str) -> dict:
        rec = run(mode, text)
        if (mode, text) not in seen:
            seen.add((mode, text))
            records.append(rec)
        return rec

    for sentence, spec in CASES:
        parsed = once("parse", sentence)
        top = simplemrs.decode(unescape(MRS.search(parsed["stdout"]).group(1)))
        target = engine.apply(top, spec).mrs
        routed = engine.route(target)
        generated = once("generate", simplemrs.encode(routed.twin, lnk=False))
        for surface in dict.fromkeys(SURFACE.findall(generated["stdout"])):
            once("parse", routed.rewrite(unescape(surface)))  # what the pipeline re-parses
    write(records, OUT)


if __name__ == "__main__":
    main()
