"""Chaos for a whole `lit nli` run, compared with a clean run of the same input.

    python -m tools.chaos_run [--pairs 150] [--skip K] [--input FILE] [--kill-every 5]
                              [--specs S,...] [--workers 2] [--keep DIR]

On the rig (LIT_ACE, LIT_GRAMMAR; LIT_GRAMMAR_VERSION, default 2025): PAIRS held-out SNLI pairs
of FILE (SNLI JSONL, .gz accepted; default tests/data/snli-1.0-dev.jsonl.gz; by default its last
PAIRS, a part no test or benchmark uses) plus two broken lines go through `lit nli` once clean
and once with a random ACE process of the run SIGKILLed every KILL_EVERY seconds (neither run
reads or fills the parse cache, so the chaos run parses as much as the clean one). Prints the
kills made, each run's records, ok transforms, invalid_input lines, ACE processes left after it,
temp entries left and exit code, the transforms that differ between the runs (must be none) and
the load average. Exit status 1 if anything differs or is left behind.

Each run's grammar is a symlink in the run's own folder, so `-g <that path>` on a command line
names exactly this run's ACE processes (nobody else's ACE on the same grammar is touched, and an
orphan is found after the run), and each run has its own empty TMPDIR, so whatever it leaves
there is counted. tests/system/test_chaos_runs.py runs the same functions on the fake ACE.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lit.config import PAPER_SPECS
from tools.bench_pipeline import SNLI_DEV, load_average
from tools.fault_sweep import ace_processes, strict_records

ROOT = Path(__file__).resolve().parent.parent

#: The two broken lines every chaos input carries (a cut-off line, a non-UTF-8 byte).
BROKEN_LINES = (b'{"sentence1": "A dog', b'{"sentence1": "A \xff dog.", "sentence2": "A dog."}')


@dataclass(frozen=True)
class Rig:
    """An ACE, and a grammar reached through a symlink only this run's processes name."""

    ace: Path
    grammar: Path
    version: str

    @classmethod
    def make(cls, folder: Path, ace: Path, grammar: Path, version: str) -> Rig:
        folder.mkdir(parents=True, exist_ok=True)
        link = folder / f"grammar-{os.getpid()}-{grammar.name}"
        link.symlink_to(Path(grammar).resolve())
        return cls(Path(ace), link, version)

    def nli_argv(self, inp: Path, out: Path, specs: Sequence[str], *extra: str) -> list[str]:
        return [sys.executable, "-m", "lit", "nli", str(inp), "-o", str(out), "--ace",
                str(self.ace), "--grammar", str(self.grammar), "--grammar-version",
                self.version, "--no-progress", "--specs", ",".join(specs), *extra]

    def ace_pids(self) -> list[int]:
        return ace_processes(str(self.grammar))


@dataclass
class Run:
    """How one `lit nli` process ended, and what it left behind."""

    code: int
    stderr: str
    seconds: float
    kills: int = 0
    left_ace: list[int] = field(default_factory=list)
    left_temp: list[str] = field(default_factory=list)

    def format(self) -> str:
        return (f"exit {self.code}, {self.kills} ACE kills, {len(self.left_ace)} ACE processes "
                f"left, {len(self.left_temp)} temp entries left, {self.seconds:.0f} s")


def run(rig: Rig, argv: list[str], temp: Path, *, kill_every: float | None = None,
        max_kills: int | None = None,
        kill_run_when: Callable[[], bool] | None = None, env: dict[str, str] | None = None,
        preexec_fn: Callable[[], None] | None = None, seed: int = 0,
        on_start: Callable[[subprocess.Popen], None] | None = None) -> Run:
    """Run *argv* with TMPDIR=*temp* (made if need be; all in it after is counted). Every
    KILL_EVERY seconds SIGKILL one of the run's ACE processes at random (at most MAX_KILLS
    times); SIGKILL the run itself once *kill_run_when* holds. Then count (and kill) the run's
    ACE processes still alive and the entries left in *temp*. *on_start* is called with the
    process once it runs (tools/soak.py samples it)."""
    temp.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=ROOT,
                            env={**os.environ, **(env or {}), "TMPDIR": str(temp)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=preexec_fn)
    if on_start is not None:
        on_start(proc)
    kills = 0
    done = threading.Event()
    rng = random.Random(seed)

    def chaos() -> None:
        nonlocal kills
        next_kill = start + (kill_every or 0)
        while not done.wait(0.02):
            if kill_run_when is not None and kill_run_when():
                proc.kill()
                return
            if (kill_every is not None and time.monotonic() >= next_kill
                    and (max_kills is None or kills < max_kills)):
                next_kill += kill_every
                pids = rig.ace_pids()
                if pids:
                    try:
                        os.kill(rng.choice(pids), signal.SIGKILL)
                        kills += 1
                    except ProcessLookupError:
                        pass

    thread = threading.Thread(target=chaos, daemon=True)
    thread.start()
    _, err = proc.communicate()
    done.set()
    thread.join()
    seconds = time.monotonic() - start
    deadline = time.monotonic() + 3  # a parent-death signal is delivered at once; allow a moment
    while rig.ace_pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = rig.ace_pids()
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return Run(proc.returncode, err, seconds, kills, left, sorted(p.name for p in temp.iterdir()))


# --- inputs and outputs ------------------------------------------------------------------------


def write_input(path: Path, pairs: Sequence[dict]) -> str:
    """Write *pairs* with the two broken lines at a third and two thirds; its SHA-256."""
    lines = [json.dumps(p, ensure_ascii=False).encode("utf-8") for p in pairs]
    for k, bad in enumerate(BROKEN_LINES):
        lines.insert((k + 1) * len(lines) // (len(BROKEN_LINES) + 1) + k, bad)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return sha256(path)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def held_out_pairs(pairs: int, skip: int | None, source: Path = SNLI_DEV) -> list[dict]:
    """*pairs* SNLI pairs of *source* after *skip* (default: the file's last *pairs*)."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    first = len(rows) - pairs if skip is None else skip
    return rows[first:first + pairs]


@dataclass(frozen=True)
class Comparison:
    """A run's records against a clean run's."""

    records: int
    input_lines: int
    ok: int
    invalid_input: int
    transforms: int
    differing: int

    @property
    def equal(self) -> bool:
        return self.records == self.input_lines and self.differing == 0


def compare(clean: Path, got: Path, input_lines: int,
            inputs: tuple[Path, Path] | None = None) -> Comparison:
    """*got*'s records (strict JSON, one per line) against *clean*'s: a transform differs when
    it is not equal to the clean one of the same record and position, or is missing. *inputs*:
    the runs' input files, when they differ (a bad line's reason names its file)."""
    want, have = strict_records(clean), strict_records(got)
    if inputs:
        names = [json.dumps(str(p))[1:-1] for p in inputs]
        have = [json.loads(json.dumps(r).replace(names[1], names[0])) for r in have]
    pairs = list(zip(want, have))
    transforms = sum(len(r["transforms"]) for r in want)
    same = sum(a == b for w, h in pairs if w["id"] == h["id"]
               for a, b in zip(w["transforms"], h["transforms"]))
    ok = sum(t["status"] == "ok" for r in have for t in r["transforms"])
    invalid = sum(r["status"] == "invalid_input" for r in have)
    return Comparison(len(have), input_lines, ok, invalid, transforms, transforms - same)


def rig_from_env(parser: argparse.ArgumentParser, folder: Path) -> Rig:
    """The rig of LIT_ACE and LIT_GRAMMAR (LIT_GRAMMAR_VERSION, default 2025), its grammar
    linked into *folder*; a usage error if they are not set."""
    ace, grammar = os.environ.get("LIT_ACE"), os.environ.get("LIT_GRAMMAR")
    if not (ace and grammar):
        parser.error("set LIT_ACE and LIT_GRAMMAR to a real ACE and grammar image (the rig)")
    version = os.environ.get("LIT_GRAMMAR_VERSION", "2025")
    return Rig.make(folder, Path(ace), Path(grammar), version)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=150)
    parser.add_argument("--skip", type=int, default=None,
                        help="start after this many pairs (default: the last PAIRS)")
    parser.add_argument("--input", type=Path, default=SNLI_DEV, metavar="FILE",
                        help="SNLI JSONL to take the pairs from (default: %(default)s)")
    parser.add_argument("--kill-every", type=float, default=5.0, metavar="S")
    parser.add_argument("--specs", default=",".join(PAPER_SPECS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="write the inputs and outputs here (default: a folder removed after)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lit-chaos-") as scratch:
        folder = args.keep or Path(scratch)
        rig = rig_from_env(parser, folder)
        try:
            return chaos_compare(rig, folder, args)
        finally:
            rig.grammar.unlink()


def chaos_compare(rig: Rig, folder: Path, args: argparse.Namespace) -> int:
    specs = args.specs.split(",")
    inp = folder / "pairs.jsonl"
    digest = write_input(inp, held_out_pairs(args.pairs, args.skip, args.input))
    lines = args.pairs + len(BROKEN_LINES)
    print(f"{args.pairs} held-out pairs of {args.input.name} + {len(BROKEN_LINES)} broken "
          f"lines, specs "
          f"{args.specs}, {args.workers} workers; an ACE process killed every {args.kill_every:g} "
          f"s; load average {load_average()}", flush=True)
    runs, outs = {}, {}
    for name, kill_every in (("clean", None), ("chaos", args.kill_every)):
        outs[name] = folder / f"{name}.jsonl"
        argv = rig.nli_argv(inp, outs[name], specs, "--workers", str(args.workers),
                            "--scorer", "ace", "--overwrite", "--no-parse-cache")
        runs[name] = run(rig, argv, folder / f"{name}-tmp", kill_every=kill_every,
                         seed=args.seed)
        c = compare(outs["clean"], outs[name], lines)
        print(f"{name} run: {runs[name].format()}; {c.records} records for {lines} lines, "
              f"{c.ok} ok transforms, {c.invalid_input} invalid_input", flush=True)
        if runs[name].code:
            print(runs[name].stderr[-2000:])
    c = compare(outs["clean"], outs["chaos"], lines)
    print(f"transforms differing from the clean run: {c.differing} of {c.transforms}; input "
          f"{'untouched' if sha256(inp) == digest else 'CHANGED'}; load average {load_average()}")
    ok = (c.equal and sha256(inp) == digest
          and all(r.code == 0 and not r.left_ace and not r.left_temp for r in runs.values()))
    print("pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
