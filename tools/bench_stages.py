"""Where the time of `lit nli` goes: ACE items by stage and by spec (issue 44 item 1).

    LIT_ACE=... LIT_GRAMMAR=... python -m tools.bench_stages [--input FILE] [--pairs N]
        [--specs S,...] [--workers W] [--per-spec] [--json OUT]

One cold `lit nli` run (Engine.nli, --scorer freq) on the first N pairs (--pairs, default 10)
of --input (default tests/data/snli-1.0-dev.jsonl.gz) with the pair specs --specs (default
the paper's, lit.pipeline.PAPER_SPECS), on a fresh AceService of --workers workers (default
2) without a parse cache, so every parse and generation is ACE's own. ACE's processes are
started by a warm-up run on the next pair (pair N+1) with another Engine, so start-up is not
in the figures; the wall time with the warm-up is printed apart. Without LIT_ACE and
LIT_GRAMMAR it prints "not measured".

Every item the pipeline sends to ACE is recorded (the service's parse, generate and index
probe are wrapped on the instance, lit is not changed) and counted in one category by where
it came from: its caller on the stack, and the Realizer's own methods, wrapped on the
measured Engine's instance, which say which MRSs are a route's twin and which candidates are
repairs:

    parse           the pipeline's parse of the source sentences (premises, hypotheses)
    generate        transformed MRSs, by outcome: realized, no realization, time-out,
                    memory cap, other
    twins           a route's twin MRS, generated instead of the transformed one (same split)
    round trips     a reading's own MRS generated for its round trip (Realizer.round_trips;
                    only with round_trip on)
    index probes    the generation index's probes (lit.ace.semindex)
    verify          verification re-parses of candidates (Realizer._verify); of which
                    repairs: re-parses of a repaired candidate (lit.rank.surface)
    ranking         wall time of Realizer._rank, repair scoring included (no ACE); items:
                    the MRSs with candidates ranked

Per category: items; ACE seconds (ACE's own time for each item, tsdb :total; an item ACE did
not answer, a time-out or a crash, counts its wall time, and the `failed` column says how many
such items and their seconds); wall seconds (the items' worker time summed, which includes
starting the fresh generator each generation gets); the share of all ACE seconds. Then the
run's wall time, ACE seconds over all items, the distinct source sentences parsed (a
sentence is parsed once per premise group: without a parse cache a hypothesis two groups
share is parsed twice), the Realizer's counts (Realizer.stats), utilisation = ACE seconds /
(wall x workers) (the share of the workers' time that is ACE's own work), workers busy = the
items' wall seconds / (wall x workers) (the share they were not idle: the gap to utilisation
is starting a fresh generator per MRS, which ACE 0.9.30's -n counting forces, and reading
answers; a low figure means a tail or batches waiting at a stage boundary), the ACE processes
started and their start-up seconds (AceService.starts, the warm-up run's included), transforms ok, the peak resident memory of each worker (its ACE processes summed,
sampled every 0.1 s: `MemorySampler`), of the largest ACE process and of this process, and
the load average before and after.

--per-spec: then each spec alone on the same pairs, each with a fresh Engine (a cold
generation cache; the same service, so ACE's processes and the generation index are warm):
MRSs generated, their ACE seconds, twins, verification re-parses and their ACE seconds,
transforms ok. A spec alone is measured apart, so work the specs share in the joint run
(source parses, an MRS two specs generate, a candidate two specs verify) is counted in each:
the per-spec sums exceed the joint run.

--json OUT writes the same figures. Prints figures, never asserts; take them on a quiet
machine (another measurement or a test suite on the same cores changes every figure).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import islice
from pathlib import Path

from delphin.mrs import MRS

from lit.ace.config import AceConfig, resolve_config
from lit.ace.process import resident_megabytes
from lit.ace.results import GenerateResult, ParseResult
from lit.ace.service import AceService
from lit.api import Engine
from lit.config import RunConfig
from lit.pipeline import PAPER_SPECS
from lit.pipeline.core import Pipeline
from lit.pipeline.realize import Realizer, mrs_key
from lit.status import Status
from lit.tasks.item import TaskItem
from lit.tasks.reader import read_nli
from tools.bench_pipeline import ORACLE_PAIRS, SNLI_DEV, fake_config

SCORER = "freq"
#: A generation's outcome by its status; any other status is "other".
OUTCOMES = {Status.OK: "realized", Status.NO_GENERATION: "no realization",
            Status.TIMEOUT: "time-out", Status.RESOURCE: "memory cap"}
#: The kinds of generation, each split by outcome ("generate/realized", ...).
GENERATIONS = ("generate", "twins", "round trips")
#: The categories, in print order; "a/b" is part of "a". Top-level ones but ranking are ACE
#: items and add up to all ACE seconds.
CATEGORIES = (
    "parse",
    *(f"{kind}{part}" for kind in GENERATIONS
      for part in ("", *(f"/{o}" for o in (*OUTCOMES.values(), "other")))),
    "index probes", "verify", "verify/repairs", "unclassified", "ranking",
)
LABELS = {
    "parse": "parse (source sentences)",
    "generate": "generate (transformed MRSs)",
    "twins": "twins (a route's twin MRS)",
    "round trips": "round trips (a reading's MRS)",
    "index probes": "index probes",
    "verify": "verification re-parses",
    "verify/repairs": "repairs",
    "unclassified": "unclassified (no pipeline caller)",
    "ranking": "ranking (incl. repair scoring)",
}


@dataclass
class Tally:
    """One category's ACE items: ACE's own seconds, a failed item's (no :total) wall seconds."""

    items: int = 0
    ace_seconds: float = 0.0
    failed_items: int = 0
    failed_seconds: float = 0.0
    wall_seconds: float = 0.0

    def add(self, result: ParseResult | GenerateResult) -> None:
        self.items += 1
        self.wall_seconds += result.wall_seconds
        if result.ace_seconds is None:
            self.failed_items += 1
            self.failed_seconds += result.wall_seconds
            self.ace_seconds += result.wall_seconds
        else:
            self.ace_seconds += result.ace_seconds


class StageRecorder:
    """Counts every ACE item of one Engine's run in its category (module docstring): wraps
    the service's parse, generate and index probe and the realizer's `_generate` and `_rank`
    on their instances until `restore`."""

    def __init__(self, service: AceService, realizer: Realizer) -> None:
        self.tallies = {name: Tally() for name in CATEGORIES}
        self.sources: set[str] = set()  # the distinct source sentences parsed
        self._service = service
        self._index = service.generation_index
        self._parse, self._generate = service.parse, service.generate
        self._probe = self._index.probe
        self._twins: set[str] = set()  # keys of MRSs generated as a route's twin
        self._repairs = threading.local()  # .surfaces: the thread's last ranking's repairs
        self._lock = threading.Lock()
        service.parse, service.generate = self.parse, self.generate
        self._index.probe = self.probe
        realizer._generate = self._learning_twins(realizer._generate)
        realizer._rank = self._timing_rank(realizer._rank)

    def restore(self) -> None:
        self._service.parse, self._service.generate = self._parse, self._generate
        self._index.probe = self._probe

    # --- the service's calls ----------------------------------------------------------------

    def parse(self, sentences: Iterable[str], n: int = 1) -> Iterator:
        callers = _callers()
        sentences = list(sentences)
        if "_verify" in callers:
            repairs = getattr(self._repairs, "surfaces", set())
            paths = ["verify/repairs" if s in repairs else "verify" for s in sentences]
        elif "parse" in callers:
            paths = ["parse"] * len(sentences)
            with self._lock:
                self.sources.update(sentences)
        else:
            paths = ["unclassified"] * len(sentences)
        return self._record(paths, self._parse(sentences, n=n))

    def generate(self, mrss: Iterable, *args, **kwargs) -> Iterator:
        callers = _callers()
        mrss = list(mrss)
        if "round_trips" in callers:
            paths = ["round trips"] * len(mrss)
        elif "_generate" in callers:
            keys = [mrs_key(m) if isinstance(m, MRS) else m for m in mrss]
            with self._lock:
                paths = ["twins" if key in self._twins else "generate" for key in keys]
        else:
            paths = ["unclassified"] * len(mrss)
        return self._record(paths, self._generate(mrss, *args, **kwargs))

    def probe(self, mrs_text: str, limit: int | None) -> GenerateResult:
        result = self._probe(mrs_text, limit)
        self._add("index probes", result)
        return result

    def _record(self, paths: Sequence[str], results: Iterator) -> Iterator:
        """*results* as they stream (the pipeline's order of work is kept), each counted; a
        generation by its outcome."""
        try:
            for path, result in zip(paths, results):
                if path in GENERATIONS:
                    path = f"{path}/{OUTCOMES.get(result.status, 'other')}"
                self._add(path, result)
                yield result
        finally:
            results.close()

    def _add(self, path: str, result: ParseResult | GenerateResult) -> None:
        """Count *result* in the category *path* and the ones it is part of."""
        parts = path.split("/")
        with self._lock:
            for k in range(1, len(parts) + 1):
                self.tallies["/".join(parts[:k])].add(result)

    # --- the realizer's own steps ----------------------------------------------------------

    def _learning_twins(self, generate: Callable) -> Callable:
        """Realizer._generate, noting first which MRSs it will generate as a route's twin
        (the twin is generated in place of the MRS; stand-ins already put in)."""
        def wrapped(targets, *args, **kwargs):
            twins = {mrs_key(t.generated_mrs) for t in targets if t.routed is not None}
            with self._lock:
                self._twins |= twins
            return generate(targets, *args, **kwargs)
        return wrapped

    def _timing_rank(self, rank: Callable) -> Callable:
        """Realizer._rank, timed; then the repaired candidates it added, for this thread's
        verification that follows (a realize call ranks, then verifies, in one thread)."""
        def wrapped(targets, *args, **kwargs):
            ranked = sum(bool(t.candidates) for t in targets)
            start = time.perf_counter()
            rank(targets, *args, **kwargs)
            seconds = time.perf_counter() - start
            self._repairs.surfaces = {x.surface for t in targets for x in t.scores
                                      if x.repair is not None}
            with self._lock:
                tally = self.tallies["ranking"]
                tally.items += ranked
                tally.wall_seconds += seconds
        return wrapped

    # --- figures ----------------------------------------------------------------------------

    def _items(self) -> list[Tally]:
        """The tallies of ACE items: the top-level categories but ranking."""
        return [t for name, t in self.tallies.items() if "/" not in name and name != "ranking"]

    def ace_seconds(self) -> float:
        """ACE seconds over all items."""
        return sum(t.ace_seconds for t in self._items())

    def worker_seconds(self) -> float:
        """The items' wall seconds: the time the workers were busy with them."""
        return sum(t.wall_seconds for t in self._items())


def _callers() -> set[str]:
    """The names of the Pipeline and Realizer methods on this thread's stack."""
    names = set()
    frame = sys._getframe(2)
    while frame is not None:
        if isinstance(frame.f_locals.get("self"), (Pipeline, Realizer)):
            names.add(frame.f_code.co_name)
        frame = frame.f_back
    return names


def ok_transforms(records: Sequence) -> int:
    return sum(t["status"] == "ok" for r in records for t in r["transforms"])


def first_pairs(path: Path, n: int) -> tuple[list[TaskItem], list[TaskItem]]:
    """The first *n* pairs of *path*, and the next one for the warm-up (the first, if there
    is no next)."""
    items = list(islice(read_nli(path), n + 1))
    return items[:n], items[n:] or items[:1]


class MemorySampler:
    """Samples, every *every* seconds while running, the resident memory (VmRSS) of each
    worker's ACE processes summed, and of this process: the peak per worker is what issue 55's
    "<= 1 GB per worker" measures (a generator's peak lasts as long as its item, seconds for
    one that runs out of memory, so a tenth of a second does not miss it)."""

    def __init__(self, service: AceService, every: float = 0.1) -> None:
        self.service, self.every = service, every
        self.worker_peak: list[float] = []  # MB
        self.process_peak = 0.0  # the largest single ACE process, MB
        self.own_peak = 0.0  # this Python process, MB
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            for k, pids in enumerate(self.service.process_ids()):
                sizes = [resident_megabytes(pid) or 0.0 for pid in pids]  # 0: ended
                if k >= len(self.worker_peak):
                    self.worker_peak.append(0)
                self.worker_peak[k] = max(self.worker_peak[k], sum(sizes))
                self.process_peak = max([self.process_peak, *sizes])
            self.own_peak = max(self.own_peak, resident_megabytes(os.getpid()) or 0.0)


def measure(config: AceConfig, items: list[TaskItem], warm: list[TaskItem], specs: list[str],
            workers: int, per_spec: bool) -> dict:
    """The cold joint run's figures and, with *per_spec*, each spec's alone."""
    def engine(service: AceService) -> Engine:
        return Engine(service=service, scorer=SCORER, grammar_version=config.grammar_version)

    began = time.perf_counter()
    with AceService(config, RunConfig(workers=workers)) as service:
        with engine(service) as warmup:
            list(warmup.nli(warm, specs))  # starts every worker's ACE processes
        with engine(service) as measured:
            recorder = StageRecorder(service, measured.pipeline.realizer)
            load_before = os.getloadavg()
            start = time.perf_counter()
            with MemorySampler(service) as memory:
                records = list(measured.nli(items, specs))
            end = time.perf_counter()
            load_after = os.getloadavg()
            recorder.restore()
        wall = end - start
        ace = recorder.ace_seconds()
        figures = {
            "wall_seconds": wall, "wall_seconds_with_warmup": end - began,
            "ace_seconds": ace, "utilisation": ace / (wall * workers),
            "busy": recorder.worker_seconds() / (wall * workers),
            "processes_started": {kind.value: [n, service.start_seconds[kind]]
                                  for kind, n in service.starts.items()},
            "sources_distinct": len(recorder.sources),
            "realizer_stats": dict(measured.pipeline.realizer.stats),
            "ok_transforms": ok_transforms(records),
            "peak_rss_mb": {"per_worker": memory.worker_peak,
                            "largest_ace_process": memory.process_peak,
                            "this_process": memory.own_peak},
            "load_average": {"before": load_before, "after": load_after},
            "categories": {name: {**asdict(t), "share_of_ace": t.ace_seconds / ace if ace else 0.0}
                           for name, t in recorder.tallies.items()},
        }
        if per_spec:
            figures["per_spec"] = [spec_alone(engine(service), service, items, spec)
                                   for spec in specs]
    return figures


def spec_alone(engine: Engine, service: AceService, items: list[TaskItem], spec: str) -> dict:
    """One spec's run on its own Engine (cold generation cache)."""
    with engine:
        recorder = StageRecorder(service, engine.pipeline.realizer)
        start = time.perf_counter()
        records = list(engine.nli(items, [spec]))
        wall = time.perf_counter() - start
        recorder.restore()
    t = recorder.tallies
    return {"spec": spec, "wall_seconds": wall,
            "mrss_generated": engine.pipeline.realizer.stats["MRSs generated"],
            "generate_ace_seconds": t["generate"].ace_seconds + t["twins"].ace_seconds,
            "twins": t["twins"].items,
            "verify_reparses": t["verify"].items,
            "verify_ace_seconds": t["verify"].ace_seconds,
            "ok_transforms": ok_transforms(records)}


def print_figures(figures: dict, workers: int) -> None:
    print(f"{'category':<36}{'items':>7}{'ACE s':>10}{'failed (n, s)':>18}{'wall s':>10}"
          f"{'share':>8}")
    for name in CATEGORIES:
        c = figures["categories"][name]
        sub = "/" in name
        if not c["items"] and (sub or name == "unclassified"):
            continue
        label = ("    " + LABELS.get(name, name.split("/")[1]) if sub
                 else LABELS.get(name, name))
        if name == "ranking":
            print(f"{label:<36}{c['items']:>7}{'-':>10}{'':>18}{c['wall_seconds']:>10.2f}")
            continue
        failed = f"{c['failed_items']}, {c['failed_seconds']:.2f}" if c["failed_items"] else ""
        print(f"{label:<36}{c['items']:>7}{c['ace_seconds']:>10.2f}{failed:>18}"
              f"{c['wall_seconds']:>10.2f}{100 * c['share_of_ace']:>7.1f}%")
    load = figures["load_average"]
    print(f"\n  wall of the measured run            {figures['wall_seconds']:10.2f} s")
    print(f"  wall with the warm-up               {figures['wall_seconds_with_warmup']:10.2f} s"
          "   (from starting the service)")
    print(f"  ACE seconds, all items              {figures['ace_seconds']:10.2f} s")
    print(f"  source sentences parsed (distinct)  {figures['categories']['parse']['items']:10d}"
          f" ({figures['sources_distinct']})")
    stats = figures["realizer_stats"]
    print(f"  MRSs generated / refused / cached   {stats.get('MRSs generated', 0):10d} / "
          f"{stats.get('MRSs refused before generation', 0)} / "
          f"{stats.get('generation cache hits', 0)}   (Realizer.stats: refused before "
          "generation, not in the index; cache hits)")
    print(f"  utilisation ACE s / (wall x {workers})     {100 * figures['utilisation']:9.1f}%")
    print(f"  workers busy (items' wall s)        {100 * figures['busy']:9.1f}%   (ACE's own time, "
          "starting a fresh generator per MRS, reading answers)")
    started = ", ".join(f"{kind} {n} ({seconds:.2f} s)"
                        for kind, (n, seconds) in figures["processes_started"].items())
    print(f"  ACE processes started (start-up s)  {started}   (warm-up run included)")
    print(f"  transforms ok                       {figures['ok_transforms']:10d}")
    mem = figures["peak_rss_mb"]
    print("  peak RSS per worker (its ACE processes)  "
          + ", ".join(f"{mb:.0f} MB" for mb in mem["per_worker"])
          + f"   (largest ACE process {mem['largest_ace_process']:.0f} MB; "
          f"this process {mem['this_process']:.0f} MB)")
    print("  load average before / after         "
          f"{' '.join(f'{x:.2f}' for x in load['before'])}  /  "
          f"{' '.join(f'{x:.2f}' for x in load['after'])}")
    if "per_spec" in figures:
        print("\n== each spec alone (shared work counted in each: the sums exceed the joint run)")
        print(f"{'spec':<12}{'wall s':>9}{'MRSs gen':>10}{'gen ACE s':>11}{'twins':>7}"
              f"{'re-parses':>11}{'verify ACE s':>14}{'ok':>5}")
        for s in figures["per_spec"]:
            print(f"{s['spec']:<12}{s['wall_seconds']:>9.2f}{s['mrss_generated']:>10d}"
                  f"{s['generate_ace_seconds']:>11.2f}{s['twins']:>7d}"
                  f"{s['verify_reparses']:>11d}{s['verify_ace_seconds']:>14.2f}"
                  f"{s['ok_transforms']:>5d}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", type=Path, help="NLI pairs (default: SNLI dev)")
    ap.add_argument("--pairs", type=int, default=10, help="the first N pairs (default 10)")
    ap.add_argument("--specs", help="comma-separated pair specs (default: the paper's)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--per-spec", action="store_true", help="also each spec alone")
    ap.add_argument("--json", type=Path, metavar="OUT", help="write the figures as JSON")
    # the fake ACE replaying the oracle's answers (default input: the oracle pairs), so the
    # tool can be tested offline; its ACE seconds are the recordings', not a measurement
    ap.add_argument("--fake", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    specs = args.specs.split(",") if args.specs else list(PAPER_SPECS)
    path = args.input or (ORACLE_PAIRS if args.fake else SNLI_DEV)
    items, warm = first_pairs(path, args.pairs)
    with tempfile.TemporaryDirectory(prefix="lit-bench-stages-") as tmp:
        if args.fake:
            config, rig = fake_config(Path(tmp)), "fake ACE (replayed oracle answers)"
        elif os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR"):
            config = resolve_config()
            rig = f"{config.ace} + {config.grammar}"
        else:
            print("not measured: set LIT_ACE and LIT_GRAMMAR")
            return 0
        print(f"bench_stages: {rig}; first {len(items)} pairs of {path}; specs {' '.join(specs)};"
              f" --workers {args.workers}, --scorer {SCORER}, no parse cache; "
              f"{os.cpu_count()} cores\n")
        figures = measure(config, items, warm, specs, args.workers, args.per_spec)
    print_figures(figures, args.workers)
    if args.json:
        args.json.write_text(json.dumps(
            {"rig": rig, "input": str(path), "pairs": len(items), "specs": specs,
             "workers": args.workers, "scorer": SCORER, **figures}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
