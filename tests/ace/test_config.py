"""Discovery of ACE and the grammar: arguments > environment > config file > cache > PATH."""

from __future__ import annotations

import pytest

from lit.ace.cache import Cache
from lit.ace.config import resolve_config, version_from_name
from lit.errors import ConfigurationError


def touch(path, text="x"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def install(cache: Cache, path, text="image"):
    touch(path, text)
    cache.record(path, "test")
    return path


def test_nothing_found_says_what_to_do(env):
    with pytest.raises(ConfigurationError) as exc:
        resolve_config()
    message = str(exc.value)
    hints = ("lit setup", "--from DIR", "--ace/--grammar", "LIT_ACE/LIT_GRAMMAR", "config.toml")
    for hint in hints:
        assert hint in message


def test_order_arguments_environment_config_cache(env, monkeypatch):
    cache = Cache()
    cached_ace = install(cache, cache.ace_path("0.9.34"))
    cached_grammar = install(cache, cache.grammar_path("2025"))
    assert resolve_config() == resolve_config(grammar_version="2025")
    config = resolve_config()
    assert (config.ace, config.grammar) == (cached_ace, cached_grammar)
    assert config.grammar_version == "2025"

    cfg_ace, cfg_grammar = touch(env / "c" / "ace"), touch(env / "c" / "image.dat")
    (env / "config.toml").write_text(
        f'ace = "{cfg_ace}"\ngrammar = "{cfg_grammar}"\ngrammar_version = "2018"\n'
    )
    config = resolve_config()
    assert (config.ace, config.grammar, config.grammar_version) == (cfg_ace, cfg_grammar, "2018")

    env_ace, env_grammar = touch(env / "e" / "ace"), touch(env / "e" / "erg-1214-x86-64.dat")
    monkeypatch.setenv("LIT_ACE", str(env_ace))
    monkeypatch.setenv("LIT_GRAMMAR", str(env_grammar))
    config = resolve_config()
    assert (config.ace, config.grammar, config.grammar_version) == (env_ace, env_grammar, "1214")

    arg_ace, arg_grammar = touch(env / "a" / "ace"), touch(env / "a" / "g.dat")
    config = resolve_config(arg_ace, arg_grammar, "2025")
    assert (config.ace, config.grammar, config.grammar_version) == (arg_ace, arg_grammar, "2025")
    assert resolve_config(arg_ace, arg_grammar).grammar_version is None


def test_missing_explicit_file_names_its_source(env, monkeypatch):
    monkeypatch.setenv("LIT_GRAMMAR", str(env / "missing.dat"))
    with pytest.raises(ConfigurationError, match="LIT_GRAMMAR does not exist"):
        resolve_config()


def test_cache_picks_the_requested_version_and_checks_integrity(env):
    cache = Cache()
    install(cache, cache.ace_path("0.9.34"))
    install(cache, cache.grammar_path("2018"))
    assert resolve_config().grammar_version == "2018"  # the only one installed
    with pytest.raises(ConfigurationError, match="grammar-version 1214"):
        resolve_config(grammar_version="1214")
    cache.grammar_path("2018").write_text("tampered")
    with pytest.raises(ConfigurationError, match="has changed since it was installed"):
        resolve_config()


def test_config_file_errors_are_clear(env):
    (env / "config.toml").write_text('ace = "x"\ngramar = "y"\n')
    with pytest.raises(ConfigurationError, match="unknown setting"):
        resolve_config()
    (env / "config.toml").write_text("ace = \n")
    with pytest.raises(ConfigurationError, match="cannot read config file"):
        resolve_config()


def test_version_from_file_name():
    assert version_from_name("erg-2025-x86-64-0.9.34.dat") == "2025"
    assert version_from_name("/x/erg1214.dat") == "1214"
    assert version_from_name("english.dat") is None
