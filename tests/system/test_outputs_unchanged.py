"""A refactoring must not change what `lit contrast`, `lit augment`, `lit evaluate`, `lit audit`
and `lit report` write (issue 54): each command's outputs on fixed fixtures, run offline (the fake
ACE, the audit's stand-in grammar), must equal those recorded in tests/data/expected/commands,
byte for byte, once what differs between any two runs is taken out (a record's `timings`; a
`.meta.json`'s times, paths and versions). `lit nli`'s own records are
tests/pipeline/test_records_unchanged.py's.

Record them again only when a change of behaviour is meant:

    PYTHONPATH=. python -m tests.system.test_outputs_unchanged
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

import lit.ace.options
import lit.diff
from lit.cli import main
from tests.audit.fakes import Differ, PresentAce
from tests.commands.test_contrast import CHASING, CHEERED, PRAISED, write_qqp
from tests.conftest import DATA, ORACLE

EXPECTED = DATA / "expected" / "commands"
EVAL = DATA / "eval"
CAD = DATA / "cad"
#: Oracle pairs in the `lit nli` contrast file that `lit augment` and `lit report` read.
PAIRS = 12
NLI_SPECS = "f;p,m;o,o;n,n;o,pa;pa,q;q"
#: What differs between two runs of one checkout: a time stamp (ISO 8601, or a report's
#: "generated" minute, `2026-11-28 07:25 UTC`).
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?"
                  r"|\d{4}-\d\d-\d\d \d\d:\d\d UTC")
REPO = Path(__file__).resolve().parents[2]
#: Written by the runs but not compared: inputs, and `lit nli`'s own records (600 KB; they are
#: test_records_unchanged's).
NOT_COMPARED = {"qqp.csv", "sst2.jsonl", "nli.jsonl"}


def ace_args(config) -> list[str]:
    return ["--ace", str(config.ace), "--grammar", str(config.grammar),
            "--grammar-version", "2018", "--scorer", "ace", "--workers", "2", "--no-progress"]


def run(*argv: object) -> None:
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        assert main([str(a) for a in argv]) == 0, argv


def stable(path: Path, tmp: Path, ace: Path, hashes: dict[str, str]) -> str:
    """*path*'s text without what differs between runs: JSON lines lose `timings`, time
    stamps read TIME, the run's directory TMP, the fake ACE's ACE, the checkout's REPO and a
    written file's SHA-256 (*hashes*: `lit nli`'s records hold timings) SHA256(its name)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        lines = []
        for line in text.splitlines():
            record = json.loads(line)
            if isinstance(record, dict):
                record.pop("timings", None)
            lines.append(json.dumps(record, ensure_ascii=False))
        text = "\n".join(lines) + "\n"
    for place, name in ((tmp, "TMP"), (ace.parent, "ACE"), (REPO, "REPO"), *hashes.items()):
        text = text.replace(str(place), name)
    return TIME.sub("TIME", text)


def contrast_runs(config, tmp: Path) -> None:
    """`lit contrast` on a QQP-shaped CSV (pairs) and an SST-2-shaped JSONL (single texts)."""
    qqp = write_qqp(tmp / "qqp.csv")
    run("contrast", qqp, "--task", "qqp", "-o", tmp / "contrast-qqp.jsonl",
        "--specs", "o;f,pa;o", *ace_args(config))
    sst2 = tmp / "sst2.jsonl"
    rows = [{"idx": 0, "sentence": PRAISED, "label": 1},
            {"idx": 1, "sentence": f"{CHEERED}  {PRAISED}", "label": 0},
            {"idx": 2, "sentence": CHASING, "label": 1},
            {"idx": 3, "sentence": "", "label": 1}]
    sst2.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run("contrast", sst2, "--task", "sst2", "-o", tmp / "contrast-sst2.jsonl",
        "--specs", "pass,neg,tense=fut", *ace_args(config))


def nli_augment_report_runs(config, tmp: Path) -> None:
    """`lit augment` and `lit report` on a `lit nli` contrast file of oracle pairs."""
    nli = tmp / "nli.jsonl"
    run("nli", ORACLE / "nli-pairs.jsonl.gz", "-o", nli, "--specs", NLI_SPECS,
        "--limit", PAIRS, *ace_args(config))
    run("augment", "--from-contrast", nli, "-o", tmp / "augment.jsonl", "--balance",
        "--report", tmp / "augment-report.json", *ace_args(config))
    run("augment", "--from-contrast", nli, "-o", tmp / "augment-plain.jsonl")
    run("report", nli, "--augmentation", tmp / "augment-report.json",
        "-o", tmp / "report-augment.html")


def evaluate_report_runs(tmp: Path) -> None:
    """`lit evaluate` and `lit report` on the evaluation fixtures."""
    run("evaluate", EVAL / "contrast.jsonl", "--predictions", EVAL / "predictions.jsonl",
        "-o", tmp / "evaluate.json")
    run("report", EVAL / "contrast.jsonl", "--evaluation", tmp / "evaluate.json",
        "--examples", "2", "-o", tmp / "report-evaluate.html")


def audit_runs(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`lit audit` of CAD's revised hypotheses with the stand-in grammar, and its report."""
    monkeypatch.setattr(lit.ace.options, "service_from_args", lambda args: PresentAce())
    monkeypatch.setattr(lit.diff, "diff_parsed", Differ(), raising=False)
    run("audit", CAD / "revised_hypothesis-dev-3.tsv", "--originals",
        CAD / "original-dev-3.tsv", "-o", tmp / "audit.jsonl", "--no-progress")
    run("report", tmp / "audit.jsonl", "-o", tmp / "report-audit.html")


def outputs(config, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Every file the runs wrote (their inputs aside), by name, made stable."""
    runs: list[Callable[[], None]] = [
        lambda: contrast_runs(config, tmp), lambda: nli_augment_report_runs(config, tmp),
        lambda: evaluate_report_runs(tmp), lambda: audit_runs(tmp, monkeypatch)]
    for one in runs:
        one()
    written = [p for p in sorted(tmp.iterdir()) if p.is_file() and not p.name.startswith(".")]
    hashes = {hashlib.sha256(p.read_bytes()).hexdigest(): f"SHA256({p.name})" for p in written}
    return {p.name: stable(p, tmp, Path(config.ace), hashes) for p in written
            if p.name not in NOT_COMPARED}


def test_outputs_are_the_recorded_ones(fake_ace_config, tmp_path, monkeypatch):
    got = outputs(fake_ace_config, tmp_path, monkeypatch)
    # the reports were recorded with their minute in them: taken out of both sides
    want = {p.name: TIME.sub("TIME", p.read_text(encoding="utf-8"))
            for p in sorted(EXPECTED.iterdir())}
    assert sorted(got) == sorted(want)
    for name, text in want.items():
        assert got[name] == text, name


def record() -> None:
    """Write the expected files from this checkout (a fresh LIT cache)."""
    import os

    from lit.ace.config import AceConfig
    from tests.fake_ace.fixtures import GRAMMAR_BYTES, write_fake_ace

    with tempfile.TemporaryDirectory(prefix="lit-outputs-") as tmp_name, \
            pytest.MonkeyPatch.context() as monkeypatch:
        tmp = Path(tmp_name)
        grammar = tmp / "ace" / "erg-2018.dat"
        config = AceConfig(ace=write_fake_ace(tmp / "ace"), grammar=grammar,
                           grammar_version="2018")
        grammar.write_bytes(GRAMMAR_BYTES)
        os.environ["LIT_CACHE_DIR"] = str(tmp / "cache")
        out = tmp / "out"
        out.mkdir()
        written = outputs(config, out, monkeypatch)
        EXPECTED.mkdir(parents=True, exist_ok=True)
        for old in EXPECTED.iterdir():
            old.unlink()
        for name, text in written.items():
            (EXPECTED / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    record()
