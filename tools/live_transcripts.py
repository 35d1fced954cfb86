"""What tools/record_reading_transcripts.py and tools/record_route_transcripts.py share: ACE's
options for the runs they record (lit.demo.replay.record), and writing the transcripts to
tests/data/live/, where the fake ACE of the tests replays them."""

from __future__ import annotations

import gzip
import json
from collections.abc import Collection
from pathlib import Path

LIVE = Path(__file__).resolve().parents[1] / "tests" / "data" / "live"
#: ACE's output options of every recorded run, after the mode's own.
TSDB = ["--tsdb-notes", "--tsdb-stdout", "--report-labels"]
#: A recorded parse: 20 readings (the fake ACE gives as many of them as -n asks).
PARSE = ["-n", "20", *TSDB]


def write(records: Collection[dict], out: Path) -> None:
    """Write the transcripts *records* to *out*, one JSON line each, and say how many."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")
    print(f"{len(records)} transcripts -> {out}")
