"""`lit analyze --pairs` on the live rig: the first SNLI dev pairs parse into the features the
recorded parses (tests/data/live/snli200-parses-erg2025-rig.jsonl.gz) give, and a second run
reads every parse from the cache."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from lit.cli import main
from tests.conftest import DATA, read_jsonl

pytestmark = pytest.mark.integration

PAIRS = 24


def test_analyze_pairs_on_the_rig_then_from_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LIT_CACHE_DIR", str(tmp_path / "cache"))
    data = tmp_path / "snli.jsonl"
    with gzip.open(DATA / "snli-1.0-dev.jsonl.gz", "rt") as f:
        data.write_text("".join(f.readline() for _ in range(PAIRS)))
    sentences = {s for it in read_jsonl(data) for s in (it["sentence1"], it["sentence2"])}
    out = tmp_path / "analysis.json"
    args = ["analyze", str(data), "--pairs", "--min-count", "2", "--workers", "2",
            "--grammar-version", "2025", "-o", str(out)]
    assert main(args) == 0
    first = capsys.readouterr().err
    assert "0 sentences read" in first and f", {len(sentences)} parsed" in first
    result = json.loads(out.read_text())
    assert result["pair_shortcut_pairs"] > PAIRS // 2
    assert all("mi_ci" in r for r in result["pair_shortcuts"])

    recorded = {r["sentence"]: r["status"] for r in read_jsonl(
        DATA / "live" / "snli200-parses-erg2025-rig.jsonl.gz")[1:]}
    parsed = {s for s in sentences if recorded[s] == "ok"}
    assert result["roles"]["hypothesis"]["all"]["parsed"] == sum(
        it["sentence2"] in parsed for it in read_jsonl(data))

    assert main(args) == 0
    second = capsys.readouterr().err
    # a parse stopped at a limit (timeout, resource) is not cached, so the next run retries it
    read, again = map(int, re.search(r"(\d+) sentences read .*?, (\d+) parsed", second).groups())
    assert read + again == len(sentences) and again <= len(sentences) // 20, second
    assert json.loads(out.read_text())["pair_shortcuts"] == result["pair_shortcuts"]
