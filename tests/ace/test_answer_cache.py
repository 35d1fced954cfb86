"""The on-disk cache of ACE's answers (lit.ace.parsecache, issue 44): generations kept beside
parses under exact keys, a bound on its size, `lit cache`, and a warm `lit nli` that asks ACE
nothing and writes the cold run's records."""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import replace
from pathlib import Path

import pytest

from lit.ace.parsecache import ParseCache, describe, used_bytes
from lit.ace.results import GenerateResult, ParseResult
from lit.cli import main
from lit.errors import ConfigurationError
from lit.status import Status
from tests.conftest import ORACLE, read_jsonl
from tests.system.test_determinism import without_timings

GENERATED = GenerateResult("[ mrs ]", Status.OK, None, ("A dog sleeps.", "A dog is sleeping."),
                           0.25, 0.3, True)
CAPS = {"generate_chart_megabytes": 500, "generate_unpack_megabytes": 1000}


@pytest.fixture
def grammar(tmp_path: Path) -> Path:
    path = tmp_path / "erg.dat"
    path.write_bytes(b"a grammar image")
    return path


def cache(grammar: Path, tmp_path: Path, **options) -> ParseCache:
    return ParseCache(grammar, {}, tmp_path / "answers.sqlite3",
                      generate_options=options.pop("caps", CAPS), **options)


def test_a_generation_is_served_back_for_the_same_mrs_limit_grammar_and_caps(grammar, tmp_path):
    c = cache(grammar, tmp_path)
    c.put_generation(GENERATED, "MRS", 20)
    assert c.get_generation("MRS", 20, "caller's text") == replace(
        GENERATED, input="caller's text", wall_seconds=0.0)
    assert c.served("generations") == (1, 0)
    # any other MRS text, limit, generator caps or grammar misses
    assert c.get_generation("MRS ", 20, "x") is None
    assert c.get_generation("MRS", 21, "x") is None
    assert c.get_generation("MRS", None, "x") is None
    assert c.served("generations") == (1, 3)
    c.close()
    bigger = cache(grammar, tmp_path, caps={**CAPS, "generate_chart_megabytes": 800})
    assert bigger.get_generation("MRS", 20, "x") is None
    bigger.close()
    grammar.write_bytes(b"a rebuilt grammar image")
    assert cache(grammar, tmp_path).get_generation("MRS", 20, "x") is None


@pytest.mark.parametrize("status,kept", [
    (Status.OK, True), (Status.NO_GENERATION, True), (Status.RESOURCE, True),
    (Status.TIMEOUT, False), (Status.ACE_ERROR, False), (Status.INVALID_INPUT, False)])
def test_only_answers_of_the_grammar_and_its_caps_are_kept(grammar, tmp_path, status, kept):
    c = cache(grammar, tmp_path)
    c.put_generation(replace(GENERATED, status=status, surfaces=()), "MRS", 5)
    parse = ParseResult("A dog sleeps.", status, "why", (), None, 1.0)
    c.put(parse, 5)
    assert (c.get_generation("MRS", 5, "MRS") is not None) == kept
    assert (c.get("A dog sleeps.", 5) is not None) == kept


def test_the_oldest_entries_go_when_the_cache_outgrows_its_bound(grammar, tmp_path):
    c = cache(grammar, tmp_path, max_megabytes=1)
    for k in range(200):  # about 4 MB of entries that do not compress
        c.put_generation(replace(GENERATED, surfaces=(os.urandom(10_000).hex(),)), f"M{k}", 1)
    c.close()
    c = cache(grammar, tmp_path, max_megabytes=1)
    assert used_bytes(c._db) <= 1 << 20
    assert c.get_generation("M199", 1, "x") is not None  # the newest stay
    assert c.get_generation("M0", 1, "x") is None
    c.close()


def test_a_bad_bound_names_the_variable(grammar, tmp_path, monkeypatch):
    monkeypatch.setenv("LIT_CACHE_MEGABYTES", "lots")
    with pytest.raises(ConfigurationError, match="LIT_CACHE_MEGABYTES.*'lots'"):
        cache(grammar, tmp_path)


def test_lit_cache_shows_and_clears_the_entries(grammar, capsys):
    main(["cache"])
    assert "empty" in capsys.readouterr().out
    c = ParseCache(grammar, {})  # at the default path, under this test's LIT_CACHE_DIR
    c.put_generation(GENERATED, "MRS", 20)
    c.put(ParseResult("A dog sleeps.", Status.OK, None, (), 0.1, 0.1), 1)
    c.close()
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert f"({grammar.resolve()}): 1 parses, 1 generations, 0 answers" in out
    assert main(["cache", "clear"]) == 0
    assert "1 parses, 1 generations" in capsys.readouterr().out
    entry = describe()["grammars"]
    assert entry == {}


def counting_ace(fake: Path, directory: Path) -> tuple[Path, Path]:
    """An `ace` that notes each start in a log, then runs the fake ACE."""
    directory.mkdir()
    log = directory / "starts.log"
    script = directory / "ace"
    script.write_text(f"#!/bin/sh\necho start >> {shlex.quote(str(log))}\n"
                      f'exec {shlex.quote(str(fake))} "$@"\n')
    script.chmod(0o755)
    return script, log


def test_a_warm_run_asks_ace_nothing_and_writes_the_cold_runs_records(
        fake_ace_config, tmp_path, capsys):
    ace, log = counting_ace(fake_ace_config.ace, tmp_path / "bin")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n"
                             for r in read_jsonl(ORACLE / "nli-pairs.jsonl.gz")[:24]))

    def run(name: str, *more: str) -> list[str]:
        out = tmp_path / f"{name}.jsonl"
        assert main(["nli", str(pairs), "-o", str(out), "--specs", "f;p,pa;pa,m;o,p;f +i",
                     "--ace", str(ace), "--grammar", str(fake_ace_config.grammar),
                     "--grammar-version", "2018", "--scorer", "ace", "--workers", "2",
                     "--no-progress", "--max-candidates", "2", *more]) == 0
        return without_timings(out)

    cold = run("cold")
    started = log.read_text().count("start")
    assert started >= 2 and describe()["grammars"]
    assert run("warm") == cold
    assert log.read_text().count("start") == started  # no ACE process was needed
    # another generation limit is another key: those generations are asked of ACE afresh,
    # and the records are those of a cold run with that limit
    wider = run("wider", "--max-candidates", "3")
    assert log.read_text().count("start") > started
    assert wider != cold
    assert run("wider-cold", "--max-candidates", "3", "--no-parse-cache") == wider
    capsys.readouterr()
