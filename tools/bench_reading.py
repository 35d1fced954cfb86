#!/usr/bin/env python3
"""How often each piece of reading evidence fires, on sentences of a dataset (issue 45).

Parses each distinct sentence of the first --pairs pairs with the top --readings readings,
weighs them as the pipeline does (lit.pipeline.reading), and generates every reading's own
MRS for its round trip (lit.pipeline.roundtrip). Prints how often each check doubts a reading
and which, how often the chosen reading is not ACE's first, the round trip's verdicts by
reading rank, ACE seconds spent on the round trips, and (--show) every doubted reading and
every round trip that spoke against a reading, to judge by eye. Asserts nothing.

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.bench_reading PAIRS.jsonl --pairs 100
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from lit.ace.config import resolve_config
from lit.ace.service import AceService
from lit.config import RunConfig
from lit.pipeline.core import Pipeline
from lit.pipeline.timing import StageTimes
from lit.rank import get_scorer
from lit.rules.engine import RuleEngine
from lit.tasks.reader import read_nli


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="NLI pairs (any format `lit nli` reads)")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--readings", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--show", action="store_true", help="print each doubt and contrary trip")
    args = ap.parse_args()
    items = [it for it, _ in zip(read_nli(args.input), range(args.pairs))]
    sentences = list(dict.fromkeys(s for it in items if not it.error
                                   for s in (it.premise, it.hypothesis)))
    with AceService(resolve_config(None, None, "2025"), RunConfig(workers=args.workers)) as service:
        pipeline = Pipeline(
            service,
            RuleEngine.load("2025"),
            get_scorer("freq"),
            options=RunConfig(grammar_version="2025", readings=args.readings),
        )
        times = StageTimes()
        started = time.perf_counter()
        parsed = pipeline.parse(sentences, times)
        parse_wall = time.perf_counter() - started
        doubts, chosen, trips = Counter(), Counter(), Counter()
        todo = []
        for sentence, p in parsed.items():
            for w in p.weighed:
                kind = w.doubt.split(" as ")[0] if w.doubt else None
                if kind:
                    doubts[kind] += 1
                    if args.show:
                        print(f"doubt  {sentence!r} reading {w.index}: {w.doubt}")
                todo.append((sentence, w))
            chosen[p.reading if p.weighed and p.mrs is not None else str(p.status)] += 1
        started = time.perf_counter()
        results = pipeline.realizer.round_trips([(s, w.mrs) for s, w in todo], times)
        trip_wall = time.perf_counter() - started
        for (sentence, w), trip in zip(todo, results):
            trips[(w.index, str(trip.verdict), "doubted" if w.doubt else "kept")] += 1
            if args.show and trip.against:
                print(f"trip   {sentence!r} reading {w.index}: {trip.describe()}")
    load = os.getloadavg()
    print(f"\n{len(sentences)} sentences of {len(items)} pairs, top {args.readings} readings; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"parse: {parse_wall:.1f} s wall; round trips of {len(todo)} readings: "
          f"{trip_wall:.1f} s wall, {times.ace['generate']:.1f} s in ACE calls")
    print("reading chosen:", dict(chosen))
    print("doubts:", dict(doubts))
    print("round trips (reading, verdict, weighed):")
    for key, n in sorted(trips.items(), key=lambda kv: tuple(map(str, kv[0]))):
        print(f"  {key}: {n}")


if __name__ == "__main__":
    main()
