"""lit.config.RunConfig: built once, checked once (errors name the option), handed whole."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from lit.config import DEFAULTS, OPTION_NAMES, RunConfig
from lit.errors import InputError


@pytest.mark.parametrize(("option", "value", "says"), [
    ("timeout", 0, "option timeout: expected a positive number, not 0"),
    ("generate_timeout", float("nan"), "option generate_timeout: expected a number"),
    ("workers", 0, "option workers: expected at least 1, not 0"),
    ("batch_size", 2.5, "option batch_size: expected a whole number, not 2.5"),
    ("round_trip", 1, "option round_trip: expected true or false, not 1"),
    ("closeness_weight", 1.5, "option closeness_weight: expected a number from 0 to 1"),
    ("backend", "spark", "option backend: expected one of local, ray, not 'spark'"),
    ("grammar_version", "2019", "option grammar_version: expected one of 2025, 2018, 1214"),
    ("scorer", 7, "option scorer: expected a scorer name or an object with score()"),
    ("realizations_per_candidate", 0.5, "option realizations_per_candidate: expected at least 1"),
    ("max_chart_megabytes", -1, "option max_chart_megabytes: expected at least 1, not -1"),
])
def test_a_bad_value_is_an_input_error_naming_the_option(option, value, says):
    with pytest.raises(InputError, match=f"^{says}".replace("(", r"\(").replace(")", r"\)")):
        RunConfig(**{option: value})
    with pytest.raises(InputError, match=f"option {option}:"):
        DEFAULTS.replace(**{option: value})


def test_an_unknown_option_is_named_with_the_known_ones():
    with pytest.raises(InputError, match=r"^unknown option 'timout': expected one of .*timeout"):
        DEFAULTS.replace(timout=30)


def test_the_limits_scorer_objects_and_paths_are_options():
    class Scorer:
        def score(self, groups):
            return [[0.0] * len(g) for g in groups]

    config = RunConfig(ace=Path("/opt/ace"), scorer=Scorer(), scorer_actors=0,
                       generate_chart_megabytes=123, max_output_megabytes=8)
    assert config.ace == "/opt/ace" and config.generate_chart_megabytes == 123
    assert {"max_chart_megabytes", "idle_megabytes", "attempts", "parse_cache"} <= OPTION_NAMES


def test_from_args_keeps_defaults_for_what_a_command_did_not_declare_or_set():
    args = argparse.Namespace(timeout=None, workers=3, no_parse_cache=False, unrelated="x")
    config = RunConfig.from_args(args)
    assert config.workers == 3 and config.timeout == DEFAULTS.timeout
    assert config.parse_cache  # a command with --no-parse-cache uses the cache unless given
    assert not RunConfig.from_args(argparse.Namespace(no_parse_cache=True)).parse_cache
    assert not RunConfig.from_args(argparse.Namespace()).parse_cache  # the API's default


def test_the_engine_takes_options_as_keywords_or_one_config(fake_ace_config):
    from lit.pipeline.engine import Engine

    with pytest.raises(InputError, match="unknown option 'timout'"):
        Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", timout=3)
    with pytest.raises(InputError, match="option batch_size: expected at least 1, not 0"):
        Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", batch_size=0)
    config = RunConfig(scorer="ace", workers=1, max_candidates=4)
    with Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", config=config,
                verify_readings=7) as engine:
        assert engine.config == config.replace(ace=str(fake_ace_config.ace),
                                               grammar=str(fake_ace_config.grammar),
                                               grammar_version="2018", verify_readings=7)
        # one object, handed whole: the pipeline, realizer and service read the same one
        assert engine.pipeline.options is engine.config
        assert engine.pipeline.realizer.max_candidates == 4
        assert engine.pipeline.realizer.verify_readings == 7
        assert engine.service.options == engine.config
        assert engine.service.workers == 1
