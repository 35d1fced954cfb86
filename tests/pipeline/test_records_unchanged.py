"""A refactoring must not change what `lit nli` writes: the records of a fixed run over the fake
ACE (20 oracle pairs, the paper's specs and two more, the ACE order scorer), timings aside,
must equal those recorded in tests/data/expected, byte for byte. The capped run (a limit of 4
realizations) also covers generations that stop at the limit and transforms left not fluent.

Record them again only when a change of behaviour is meant:

    PYTHONPATH=. python -m tests.pipeline.test_records_unchanged
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest

from lit.cli import main
from lit.config import PAPER_SPECS
from tests.conftest import DATA, ORACLE, read_jsonl
from tests.system.test_determinism import without_timings

EXPECTED = DATA / "expected"
#: Ten oracle sentences, the first two NLI pairs of each.
GROUPS = ("s02", "s06", "s08", "s10", "s17", "s22", "s26", "s30", "s45", "s70")
SPECS = (*PAPER_SPECS, "o;n", "q;q")
#: Expected file -> the options of its run beside the input, output, ACE and specs.
RUNS = {"nli-records.jsonl.gz": (), "nli-records-capped.jsonl.gz": ("--max-candidates", "2")}


def pairs(path: Path) -> Path:
    """The first two oracle NLI pairs of each of `GROUPS`, in the oracle's order, at *path*."""
    taken: dict[str, int] = defaultdict(int)
    rows = []
    for row in read_jsonl(ORACLE / "nli-pairs.jsonl.gz"):
        group = row["pairID"].split(":")[0]
        if group in GROUPS and taken[group] < 2:
            taken[group] += 1
            rows.append(row)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def records(ace: Path, grammar: Path, directory: Path, options: tuple[str, ...]) -> list[str]:
    """The lines `lit nli` writes, each without its `timings` (key order kept)."""
    out = directory / "contrast.jsonl"
    argv = ["nli", str(pairs(directory / "pairs.jsonl")), "-o", str(out), "--ace", str(ace),
            "--grammar", str(grammar), "--grammar-version", "2018", "--scorer", "ace",
            "--workers", "2", "--no-progress", "--specs", ",".join(SPECS), *options]
    with contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 0
    return without_timings(out)


def expected(name: str) -> list[str]:
    with gzip.open(EXPECTED / name, "rt", encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.mark.parametrize("name", sorted(RUNS))
def test_records_are_the_recorded_ones(fake_ace_config, tmp_path, name):
    got = records(fake_ace_config.ace, fake_ace_config.grammar, tmp_path, RUNS[name])
    want = expected(name)
    assert len(got) == len(want) == 2 * len(GROUPS)
    for line, wanted in zip(got, want):
        assert line == wanted


def record() -> None:
    """Write the expected files from this checkout's `lit nli` (a fresh LIT cache each run)."""
    import os

    from tests.fake_ace.fixtures import write_fake_ace

    with tempfile.TemporaryDirectory(prefix="lit-records-") as tmp:
        ace = write_fake_ace(Path(tmp) / "ace")
        grammar = Path(tmp) / "ace" / "erg-2018.dat"
        grammar.write_bytes(b"fake")
        EXPECTED.mkdir(exist_ok=True)
        for name, options in RUNS.items():
            run = Path(tmp) / name
            run.mkdir()
            os.environ["LIT_CACHE_DIR"] = str(run / "cache")
            text = "".join(line + "\n" for line in records(ace, grammar, run, options))
            with open(EXPECTED / name, "wb") as raw, \
                    gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
                f.write(text.encode("utf-8"))


if __name__ == "__main__":
    record()
