"""`lit doctor`: what was found, what is missing, what to do."""

from __future__ import annotations


from lit.ace.cache import Cache
from lit.ace.doctor import SMOKE_SENTENCE, diagnose
from lit.cli import main


def test_everything_found_through_the_environment(env, monkeypatch, fake_ace_config, capsys):
    monkeypatch.setenv("LIT_ACE", str(fake_ace_config.ace))
    monkeypatch.setenv("LIT_GRAMMAR", str(fake_ace_config.grammar))
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert f"{fake_ace_config.ace} (from LIT_ACE): ACE 0.9.30" in out  # what the recording says
    assert "(from LIT_GRAMMAR): ERG 2018" in out  # version read from erg-2018.dat
    assert f'"{SMOKE_SENTENCE}" -> 1 reading' in out
    assert out.rstrip().endswith("All good: LIT can parse and generate.")


def test_nothing_found_says_what_to_do(env, capsys):
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "MISSING ACE" in out and "MISSING grammar" in out
    assert out.count("what to do:") == 2 and "lit setup" in out
    assert "2 problem(s) found." in out


def test_tampered_cache_and_an_old_ace_are_problems(env, tmp_path):
    cache = Cache()
    image = cache.grammar_path("2025")
    image.parent.mkdir(parents=True)
    image.write_bytes(b"image")
    cache.record(image, "test")
    image.write_bytes(b"changed")
    old = tmp_path / "old-ace"
    old.write_text("#!/bin/sh\necho 'ACE version 0.9.20'\n")
    old.chmod(0o755)
    checks = {c.name: c for c in diagnose(ace=old)}
    assert checks["ACE"].ok is False and "0.9.24 or later" in checks["ACE"].fix
    assert checks["grammar"].ok is False and checks["grammar"].detail == "not usable"
    assert "lit setup --force" in checks["grammar"].fix
    assert "parse" not in checks


def test_smoke_parse_failure_is_reported(env, fake_ace_config, tmp_path):
    not_ace = tmp_path / "not-ace"
    not_ace.write_text("#!/bin/sh\necho 'ACE version 0.9.34'; exit 3\n")
    not_ace.chmod(0o755)
    checks = {c.name: c for c in diagnose(ace=not_ace, grammar=fake_ace_config.grammar,
                                           timeout=2.0)}
    assert checks["ACE"].ok is True
    assert checks["parse"].ok is False


def test_all_good_only_after_parsing_and_generating(env, monkeypatch, fake_ace_config, capsys):
    """Issue 25: "All good: LIT can parse and generate" was printed after a parse alone."""
    monkeypatch.setenv("LIT_ACE", str(fake_ace_config.ace))
    monkeypatch.setenv("LIT_GRAMMAR", str(fake_ace_config.grammar))
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "ok      parse and generate" in out and "; generated \"" in out
    assert main(["doctor", "--no-parse"]) == 0
    out = capsys.readouterr().out
    assert "All good" not in out and "parsing and generating were not tried" in out


def test_the_erg_version_is_read_from_the_images_header(env, monkeypatch, tmp_path, capsys):
    """Issue 25: an image named erg.dat was "ERG version unknown" though its header says."""
    image = tmp_path / "erg.dat"
    image.write_bytes(b"frozen grammar file: ace |0.9.30| grammar |/x/erg/ace/..;;ERG (2025)|\0")
    monkeypatch.setenv("LIT_GRAMMAR", str(image))
    main(["doctor", "--no-parse"])
    assert "(from LIT_GRAMMAR): ERG 2025 (from the image's header)" in capsys.readouterr().out
