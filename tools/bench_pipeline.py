#!/usr/bin/env python3
"""Benchmark the `lit nli` pipeline and print a table of figures (never asserts).

    python -m tools.bench_pipeline                 # fake ACE (replayed ERG 2018 answers)
    LIT_ACE=... LIT_GRAMMAR=... python -m tools.bench_pipeline --real   # also a real grammar

Rows: sentences/s; seconds per stage (parse, transform, generate, rank, verify, label) and the
share spent waiting for ACE; time outside ACE and the scorer per sentence (target <= 10 ms with
the fake, for the paper's pair specs); GPT-2 batching (forward passes vs sentences scored);
peak memory (RSS of `lit nli` and its ACE processes) with 2 workers and a randomly initialised
GPT-2-small-sized model (target <= 2 GiB). Rows that need a real grammar print "not measured"
unless --real is given with LIT_ACE and LIT_GRAMMAR set.

Real-grammar rows (--real, LIT_ACE and LIT_GRAMMAR set; issues 10 and 19), `--scorer freq`:

(a) `lit nli` on the first N SNLI dev pairs (N = --real-pairs, default 200) with the paper's
    pair specs (lit.pipeline.PAPER_SPECS, what `lit nli` runs by default) and, with
    --all-modules, with every single-step module as a pair spec (n;n q;q s;s ...), each with
    --workers 1 and 2. Printed: pairs/s, sentences/s, the speedup of 2 workers over 1
    (target >= 1.7x), seconds per stage from Engine.times and their shares, realizations
    generated vs verified (Realizer.stats), duplicate work, peak RSS and ACE overhead.

    Overhead over ACE (target <= 15% of wall): the bench wraps the AceService's `parse` and
    `generate` (every call the pipeline makes to ACE) and measures T_ace, the wall time during
    which at least one pipeline thread was blocked in such a call (the union of those
    intervals, so two batches waiting at once count once). overhead = (wall - T_ace) / wall:
    the share of the run during which no ACE request was outstanding, i.e. the time ACE sat
    idle waiting for LIT (MRS decoding, rules, ranking, labels, Python). Work LIT does in one
    batch thread while another waits for ACE is hidden by the overlap and not counted.

    Duplicate work: every sentence handed to `parse` is counted (source sentences, n=1, and
    candidates re-parsed for verification, n=verify_readings, separately); every MRS handed to
    `generate` is checked against all earlier ones of the run by MRS equivalence. The bench
    prints any sentence parsed, or MRS generated, more than once.

    Each configuration gets a fresh AceService; ACE processes are started by a warm-up run
    on another pair (N+1) with a separate Engine, so the measured Engine starts with an
    empty generation cache. Peak RSS: the bench process and all its descendants (ACE
    processes), sampled every 50 ms from psutil if installed, else /proc.

(b) --original DIR (a directory holding `ergtransfer.py` of leo-liuzy/LIT_auto-gen-contrast-set,
    extracted from a local copy of that repository; it is never vendored here): the original
    LIT `transfer()` on the 20 sentences of the first 10 SNLI dev pairs, with the original's
    set of changes (rules 1 and 2: tenses past/pres/fut x progressive +/-, modal *may*; it
    adds its own passive/it-cleft compounds of each) and a fresh ACE per parse/generate,
    using the rig's ACE and grammar; then ours on the same sentences: one
    Engine.transform_all run (what `lit transform` runs) with the same changes as specs
    (tense=T+prog=P for T in past/pres/fut, P in +/-, and modal=may), timed from starting
    the service (ACE processes included) to its close, with --workers 1 and 2. Printed:
    sentences/s of each and our speedup (target >= 10x with 2 workers; moonshot 20x).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from lit.ace.process import resident_megabytes
from lit.config import RunConfig
from lit.pipeline import PAPER_SPECS, STAGES
from lit.tasks.reader import read_nli

ROOT = Path(__file__).resolve().parents[1]

ORACLE_PAIRS = ROOT / "tests" / "data" / "oracle" / "nli-pairs.jsonl.gz"


def fake_config(tmp: Path):
    from lit.ace.config import AceConfig
    from tests.fake_ace.fixtures import write_fake_ace

    exe = write_fake_ace(tmp / "fake-ace")
    grammar = tmp / "fake-ace" / "erg-2018.dat"
    grammar.write_bytes(b"fake grammar image\n")
    return AceConfig(ace=exe, grammar=grammar, grammar_version="2018")


def run_engine(config, items, specs, workers, scorer, repeat=1, in_flight=2):
    """Run Engine.nli over *items*; (wall seconds, stage times, records, scorer)."""
    from lit.ace.service import AceService
    from lit.api import Engine

    with AceService(config, RunConfig(workers=workers, timeout=60)) as service:
        engine = Engine(service=service, scorer=scorer, grammar_version=config.grammar_version,
                        batches_in_flight=in_flight)
        list(engine.nli(items[:8], specs))  # warm up: start ACE processes, compile rules
        before = engine.times.copy()
        start = time.perf_counter()
        records = []
        for _ in range(repeat):
            records = list(engine.nli(items, specs))
        wall = time.perf_counter() - start
        return wall, engine.times - before, records, engine.scorer


def stage_rows(label, wall, times, n_sentences, n_candidates=None):
    rank = times.seconds["rank"]
    ace = times.ace_total()
    # stage time not spent waiting for ACE, without the scorer: LIT's own work (summed over
    # batches running in parallel, so never flattered by the overlap)
    outside = times.total() - ace - rank
    print(f"\n== {label}")
    print(f"  sentences/s                         {n_sentences / wall:10.1f}"
          f"   ({n_sentences} sentences in {wall:.2f} s)")
    for s in STAGES:
        print(f"  {s:<10} s (of which in ACE)        {times.seconds[s]:10.3f}   "
              f"({times.ace[s]:.3f})")
    print(f"  share of stage time inside ACE      {100 * ace / times.total():9.1f}%")
    print(f"  scorer (rank) share                 {100 * rank / times.total():9.1f}%")
    print(f"  outside ACE and scorer, ms/sentence {1000 * outside / n_sentences:10.2f}"
          "   (target <= 10 with the fake)")
    if n_candidates is not None:
        print(f"  candidate sentences ranked          {n_candidates:10d}")


def count_candidates(records):
    return sum(
        len(t[side]["candidates"] or [])
        for r in records for t in r["transforms"] for side in ("premise", "hypothesis")
    )


def build_gpt2_small(path: Path, sentences: list[str]) -> Path:
    """A randomly initialised model of GPT-2 small's size (124M parameters, vocab 50257)."""
    from tests.rank.test_rank import build_tiny_gpt2

    return build_tiny_gpt2(path, sentences, n_layer=12, n_embd=768, n_head=12,
                           vocab_size=2000, model_vocab_size=50257)


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (from /proc)."""
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        total += round((resident_megabytes(p) or 0) * 2**20)  # 0: gone meanwhile
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return total


#: How often `peak_memory` walks the process tree: walking every thread's children in /proc
#: costs this process CPU the measured command needs on a 2-core box (every 0.05 s slowed a
#: 10-pair `lit nli` by a quarter); a generator at its memory cap holds it for seconds.
POLL_SECONDS = 0.5


def peak_memory(cmd: list[str], env: dict) -> tuple[int, float, int]:
    """(peak tree RSS in bytes, seconds, exit code) of a command."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    stop = threading.Event()

    def poll():
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(POLL_SECONDS)

    t = threading.Thread(target=poll, daemon=True)
    start = time.perf_counter()
    t.start()
    _, err = proc.communicate()
    stop.set()
    t.join()
    if proc.returncode:
        sys.stderr.write(err.decode()[-2000:])
    return peak, time.perf_counter() - start, proc.returncode


# --- real grammar (issues 10 and 19) ---------------------------------------------------------

SNLI_DEV = ROOT / "tests" / "data" / "snli-1.0-dev.jsonl.gz"

#: every module as one step on both sides (`lit rules`); `o;o` is the identity and costs nothing
SINGLE_STEP_SPECS = ("n;n", "neg=no;neg=no", "q;q", "s;s", "prog=+;prog=+", "prog=-;prog=-",
                     "perf=+;perf=+", "perf=-;perf=-", "m;m", "pa;pa", "p;p", "tense=pres;tense=pres",
                     "f;f", "i;i")

#: the original LIT code's set of changes (tense x progressive, modal may) as our specs
ORIGINAL_CHANGES = tuple(f"tense={t}+prog={p}" for t in ("past", "pres", "fut")
                         for p in ("+", "-")) + ("modal=may",)


def snli_items(first: int, skip: int = 0):
    from itertools import islice

    return list(islice(read_nli(SNLI_DEV), skip, skip + first))


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and its descendants: psutil if installed, else /proc."""
    try:
        import psutil
    except ImportError:
        return _tree_rss(pid)
    try:
        root = psutil.Process(pid)
        procs = [root] + root.children(recursive=True)
    except psutil.Error:
        return 0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


class PeakRss:
    """Samples the RSS of this process's tree every 50 ms while active."""

    def __enter__(self):
        self.peak, self._stop = 0, threading.Event()
        self._t = threading.Thread(target=self._poll, daemon=True)
        self._t.start()
        return self

    def _poll(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss(os.getpid()))
            time.sleep(POLL_SECONDS)

    def __exit__(self, *exc):
        self._stop.set()
        self._t.join()


class AceProbe:
    """Wraps an AceService's parse/generate (instance attributes; lit is not changed): counts
    what is parsed and generated and measures T_ace, the union of the intervals during which
    at least one thread was blocked in an ACE call."""

    def __init__(self, service):
        from collections import Counter

        from lit.equivalence import EquivalenceIndex

        self.service = service
        self._parse, self._generate = service.parse, service.generate
        self.parsed: dict[int, Counter] = {}  # n -> sentence -> times parsed
        self.generated = EquivalenceIndex()  # MRS -> [times]
        self.mrs_calls = 0
        self.generate_duplicates: list[str] = []
        self.blocked = 0.0
        self._active, self._since = 0, 0.0
        self._lock = threading.Lock()
        service.parse, service.generate = self.parse, self.generate

    def _enter(self):
        with self._lock:
            if self._active == 0:
                self._since = time.perf_counter()
            self._active += 1

    def _exit(self):
        with self._lock:
            self._active -= 1
            if self._active == 0:
                self.blocked += time.perf_counter() - self._since

    def parse(self, sentences, n=1):
        from collections import Counter

        sentences = list(sentences)
        with self._lock:
            self.parsed.setdefault(n, Counter()).update(sentences)
        self._enter()
        try:
            return iter(list(self._parse(sentences, n=n)))
        finally:
            self._exit()

    def generate(self, mrss, *a, **kw):
        from delphin.codecs import simplemrs
        from delphin.mrs import MRS

        mrss = list(mrss)
        with self._lock:
            for m in mrss:
                key = m if isinstance(m, MRS) else simplemrs.decode(m)
                self.mrs_calls += 1
                seen = self.generated.get(key)
                if seen is None:
                    self.generated.add(key, [1])
                else:
                    seen[0] += 1
                    self.generate_duplicates.append(simplemrs.encode(key, lnk=False))
        self._enter()
        try:
            return iter(list(self._generate(mrss, *a, **kw)))
        finally:
            self._exit()

    def restore(self):
        self.service.parse, self.service.generate = self._parse, self._generate


def real_nli(config, items, warm, specs, workers):
    """One measured `lit nli` run (Engine.nli, --scorer freq) on a fresh service."""
    from lit.ace.service import AceService
    from lit.api import Engine

    with AceService(config, RunConfig(workers=workers, timeout=60)) as service:
        warmup = Engine(service=service, scorer="freq", grammar_version=config.grammar_version)
        list(warmup.nli(warm, specs))  # starts every worker's ACE processes
        engine = Engine(service=service, scorer="freq", grammar_version=config.grammar_version)
        probe = AceProbe(service)
        load_before = load_average()
        with PeakRss() as rss:
            start = time.perf_counter()
            records = list(engine.nli(items, specs))
            wall = time.perf_counter() - start
        probe.restore()
        return dict(wall=wall, times=engine.times.copy(), records=records, probe=probe,
                    stats=dict(engine.pipeline.realizer.stats), peak=rss.peak,
                    load=(load_before, load_average()))


def print_real_run(label, run, n_pairs):
    wall, times, probe, stats = run["wall"], run["times"], run["probe"], run["stats"]
    ok = sum(t["status"] == "ok" for r in run["records"] for t in r["transforms"])
    covered = sum(any(t["status"] == "ok" for t in r["transforms"]) for r in run["records"])
    print(f"\n== {label}")
    print(f"  load average before / after        {run['load'][0]}  /  {run['load'][1]}")
    print(f"  wall                                {wall:10.1f} s")
    print(f"  pairs/s                             {n_pairs / wall:10.3f}")
    print(f"  sentences/s                         {2 * n_pairs / wall:10.3f}")
    total = times.total()
    print("  stage      seconds  (in ACE)  share of stage time  stage s / wall")
    for s in STAGES:
        print(f"  {s:<10} {times.seconds[s]:8.1f}  ({times.ace[s]:7.1f})"
              f"  {100 * times.seconds[s] / max(total, 1e-9):15.1f}%"
              f"  {100 * times.seconds[s] / wall:13.1f}%")
    over = (wall - probe.blocked) / wall
    print(f"  T_ace (some thread blocked in ACE)  {probe.blocked:10.1f} s")
    print(f"  overhead (wall - T_ace) / wall      {100 * over:9.1f}%   (target <= 15%)")
    print(f"  MRSs generated / cache hits         {stats.get('MRSs generated', 0):6d} /"
          f" {stats.get('generation cache hits', 0)}")
    print(f"  realizations generated / re-parsed  {stats.get('realizations', 0):6d} /"
          f" {stats.get('candidates re-parsed', 0)}")
    print(f"  transforms ok / pairs with one ok   {ok:6d} / {covered}")
    src = probe.parsed.get(1, {})
    dup_src = {s: c for s, c in src.items() if c > 1}
    verify = {}
    for n, counter in probe.parsed.items():
        if n != 1:
            for s, c in counter.items():
                verify[s] = verify.get(s, 0) + c
    dup_ver = {s: c for s, c in verify.items() if c > 1}
    print(f"  source sentences parsed (distinct)  {sum(src.values()):6d} ({len(src)})")
    print(f"  candidates parsed (distinct)        {sum(verify.values()):6d} ({len(verify)})")
    print(f"  sentences parsed twice or more      {len(dup_src)} source, {len(dup_ver)} candidates")
    for s, c in list(dup_src.items())[:5] + list(dup_ver.items())[:5]:
        print(f"      {c}x {s!r}")
    print(f"  MRSs handed to generate (distinct)  {probe.mrs_calls:6d} ({len(probe.generated)})")
    print(f"  MRSs generated twice or more        {len(probe.generate_duplicates)}")
    for m in probe.generate_duplicates[:3]:
        print(f"      {m[:160]}")
    print(f"  peak RSS (bench + ACE processes)    {run['peak'] / 2**30:10.2f} GiB")


def run_original(directory, sentences, ace, grammar):
    """The original LIT transfer() on *sentences*: (wall, counts). Its module is imported from
    *directory*; only its ACE wrappers' stderr is silenced (partial), nothing else changes."""
    import functools
    import importlib

    sys.path.insert(0, str(directory))
    try:
        orig = importlib.import_module("ergtransfer")
    finally:
        sys.path.pop(0)
    orig.ACEParser = functools.partial(orig.ACEParser, stderr=subprocess.DEVNULL)
    orig.ACEGenerator = functools.partial(orig.ACEGenerator, stderr=subprocess.DEVNULL)
    counts = {"parses": 0, "MRSs generated": 0, "realizations": 0, "compound MRSs": 0}
    generate, parse = orig.generate, orig.get_best_parse

    def counting_generate(sem, *a, **kw):
        counts["MRSs generated"] += 1
        out = generate(sem, *a, **kw)
        counts["realizations"] += len(out or ())
        return out

    def counting_parse(*a, **kw):
        counts["parses"] += 1
        return parse(*a, **kw)

    orig.generate, orig.get_best_parse = counting_generate, counting_parse
    outputs = 0
    start = time.perf_counter()
    for s in sentences:
        out = orig.transfer(s, str(grammar), str(ace), rules=[1, 2],
                            tenses=["past", "pres", "fut"], progs=["+", "-"])
        out = out or {}
        counts["compound MRSs"] += sum("+" in k for k in out)
        outputs += sum(1 for k in out if k not in ("original", "timeout"))
    wall = time.perf_counter() - start
    counts["changes with output"] = outputs
    return wall, counts


def real_transform(config, sentences, specs, workers):
    """Ours: one Engine.transform_all run, timed from starting ACE to closing it."""
    from lit.ace.service import AceService
    from lit.api import Engine

    start = time.perf_counter()
    with AceService(config, RunConfig(workers=workers, timeout=60)) as service:
        engine = Engine(service=service, scorer="freq", grammar_version=config.grammar_version)
        records = list(engine.transform_all(sentences, specs))
    wall = time.perf_counter() - start
    ok = sum(r["status"] == "ok" for r in records)
    return wall, engine.times.copy(), dict(engine.pipeline.realizer.stats), ok, len(records)


def real_rows(args) -> None:
    from lit.ace.config import resolve_config

    config = resolve_config()
    workers = [int(w) for w in args.real_workers.split(",")]
    n = args.real_pairs
    from lit.config import DEFAULT_GRAMMAR_VERSION

    version = config.grammar_version or DEFAULT_GRAMMAR_VERSION
    print(f"  rig: {config.ace} + {config.grammar} (ERG {version}); "
          f"{os.cpu_count()} cores; load average {load_average()}")
    items = snli_items(n)
    warm = snli_items(1, skip=n)
    sets = []
    if not args.no_paper:
        sets.append(("paper specs " + " ".join(PAPER_SPECS), list(PAPER_SPECS)))
    if args.all_modules:
        sets.append(("single-step modules " + " ".join(SINGLE_STEP_SPECS), list(SINGLE_STEP_SPECS)))
    for name, specs in sets:
        walls = {}
        for w in workers:
            run = real_nli(config, items, warm, specs, w)
            walls[w] = run["wall"]
            print_real_run(f"real ACE, lit nli, first {n} SNLI dev pairs, {name}, --workers {w},"
                           " --scorer freq", run, n)
        if 1 in walls and 2 in walls:
            print(f"\n  speedup --workers 2 over 1        {walls[1] / walls[2]:10.2f}x"
                  "   (target >= 1.7x)")

    if args.original:
        orig_dir = Path(args.original)
        if not (orig_dir / "ergtransfer.py").is_file():
            print(f"\n== original LIT: not measured ({orig_dir}/ergtransfer.py not found)")
            return
        sentences = [s for it in snli_items(10) for s in (it.premise, it.hypothesis)]
        print(f"\n== original LIT transfer() vs lit transform, {len(sentences)} sentences "
              "(first 10 SNLI dev pairs)")
        print(f"  our specs: {' '.join(ORIGINAL_CHANGES)}")
        print(f"  load average before original        {load_average()}")
        wall_o, counts = run_original(orig_dir, sentences, config.ace, config.grammar)
        rate_o = len(sentences) / wall_o
        print(f"  original: {wall_o:.1f} s, {rate_o:.3f} sentences/s; "
              + ", ".join(f"{k} {v}" for k, v in counts.items()))
        print(f"  load average after original         {load_average()}")
        for w in workers:
            wall, times, stats, ok, total = real_transform(config, sentences,
                                                           list(ORIGINAL_CHANGES), w)
            rate = len(sentences) / wall
            shares = ", ".join(f"{s} {100 * times.seconds[s] / max(times.total(), 1e-9):.0f}%"
                               for s in STAGES if times.seconds[s])
            print(f"  ours --workers {w}: {wall:.1f} s, {rate:.3f} sentences/s, "
                  f"{rate / rate_o:.1f}x the original (target >= 10x with 2 workers); "
                  f"load {load_average()}")
            print(f"      records ok {ok}/{total}; stage shares {shares}")
            print(f"      MRSs generated {stats.get('MRSs generated', 0)}, cache hits "
                  f"{stats.get('generation cache hits', 0)}, realizations generated "
                  f"{stats.get('realizations', 0)} vs re-parsed to verify "
                  f"{stats.get('candidates re-parsed', 0)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", default=str(ORACLE_PAIRS),
                    help="NLI JSONL for the fake rows (default: the oracle pairs), or a number N: "
                         "the first N SNLI dev pairs for the real rows (default 200)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="passes over the pairs")
    ap.add_argument("--real", action="store_true", help="also measure LIT_ACE/LIT_GRAMMAR")
    ap.add_argument("--no-gpt2", action="store_true", help="skip the GPT-2 rows")
    ap.add_argument("--no-fake", action="store_true", help="skip the fake-ACE rows")
    ap.add_argument("--real-workers", default="1,2",
                    help="real rows: worker counts to compare (default 1,2)")
    ap.add_argument("--all-modules", action="store_true",
                    help="real rows: also every single-step module as a pair spec")
    ap.add_argument("--no-paper", action="store_true", help="real rows: skip the paper specs")
    ap.add_argument("--original", metavar="DIR",
                    help="real rows: compare with the original LIT transfer() in DIR/ergtransfer.py")
    args = ap.parse_args()
    args.real_pairs = 200
    if args.pairs.isdigit():
        args.real_pairs, args.pairs = int(args.pairs), str(ORACLE_PAIRS)
    if args.no_fake:
        print("\n== real grammar")
        if not (args.real and os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR")):
            print("  not measured (run with --real and LIT_ACE, LIT_GRAMMAR set)")
            return 0
        real_rows(args)
        return 0

    items = list(read_nli(args.pairs))
    specs = list(PAPER_SPECS)
    n_sentences = 2 * len(items) * args.repeat
    print(f"bench_pipeline: {len(items)} pairs x {args.repeat} from {args.pairs}; "
          f"specs {' '.join(specs)}; {args.workers} workers; {os.cpu_count()} cores")
    tmp = Path(tempfile.mkdtemp(prefix="lit-bench-"))
    config = fake_config(tmp)

    wall, times, records, _ = run_engine(config, items, specs, args.workers, "ace", args.repeat,
                                         in_flight=1)
    stage_rows("fake ACE, --scorer ace (no model), one batch at a time", wall, times,
               n_sentences)
    wall, times, records, _ = run_engine(config, items, specs, args.workers, "ace", args.repeat)
    stage_rows("fake ACE, --scorer ace (no model), 2 batches in flight (default)", wall, times,
               n_sentences, count_candidates(records))
    ok = sum(t["status"] == "ok" for r in records for t in r["transforms"])
    print(f"  contrast pairs produced             {ok:10d}")

    if not args.no_gpt2:
        try:
            import torch  # noqa: F401
            import transformers  # noqa: F401
        except ImportError:
            print("\n== GPT-2 rows: not measured (pip install 'lit-contrast[rank]')")
        else:
            sents = [s for it in items for s in (it.premise, it.hypothesis)]
            model = build_gpt2_small(tmp / "gpt2-small-random", sents)
            from lit.rank import get_scorer

            scorer = get_scorer("gpt2", model=str(model), batch_size=32)
            wall, times, records, scorer = run_engine(config, items, specs, args.workers, scorer)
            n_scored = len({c for r in records for t in r["transforms"]
                            for side in ("premise", "hypothesis")
                            for c in (t[side]["candidates"] or [])})
            stage_rows("fake ACE, --scorer gpt2 (GPT-2-small-sized, random weights, CPU)",
                       wall, times, n_sentences)
            print(f"  GPT-2 forward passes                {scorer.forward_calls:10d}"
                  f"   for >= {n_scored} distinct candidates (batch size 32)")
            out = tmp / "mem.jsonl"
            cmd = [sys.executable, "-m", "lit", "nli", args.pairs, "-o", str(out),
                   "--ace", str(config.ace), "--grammar", str(config.grammar),
                   "--grammar-version", "2018", "--workers", "2", "--scorer", "gpt2",
                   "--model", str(model), "--no-progress"]
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            peak, secs, code = peak_memory(cmd, env)
            print("\n== peak memory of `lit nli`, 2 workers, GPT-2-small-sized model")
            print(f"  peak RSS (lit + ACE processes)      {peak / 2**30:10.2f} GiB"
                  f"   (target <= 2 GiB; {secs:.1f} s, exit {code})")

    print("\n== real grammar")
    if args.real and os.environ.get("LIT_ACE") and os.environ.get("LIT_GRAMMAR"):
        real_rows(args)
    else:
        for row in ("sentences/s", "time by stage", "share inside ACE"):
            print(f"  {row:<35} not measured (run with --real and LIT_ACE, LIT_GRAMMAR set)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
