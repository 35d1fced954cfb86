"""--backend without Ray: the message says how to install it (no Ray is started here)."""

from __future__ import annotations

import sys

import pytest

from lit.cli import main
from tests.conftest import ORACLE


def test_backend_ray_without_ray_says_how_to_install_it(fake_ace_config, tmp_path,
                                                         monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    out = tmp_path / "out.jsonl"
    code = main(["nli", str(ORACLE / "nli-pairs.jsonl.gz"), "-o", str(out), "--backend", "ray",
                 "--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
                 "--scorer", "ace", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert "pip install 'lit-contrast[ray]'" in err and "--backend local" in err
    assert not out.exists() or not out.read_text()


@pytest.mark.parametrize("command", ["nli", "transform", "parse", "augment"])
def test_every_batch_command_has_the_backend_options(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = capsys.readouterr().out
    for option in ("--backend", "--ray-address", "--actors", "--ace-workers-per-actor",
                   "--scorer-actors"):
        assert option in help_text


def test_an_unknown_backend_is_an_input_error(fake_ace_config):
    from lit.errors import InputError
    from lit.pipeline.engine import Engine

    with pytest.raises(InputError, match="expected one of local, ray"):
        Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", scorer="ace",
               backend="spark")
