"""A `lit nli` contrast file of 100 oracle NLI pairs, made once through the fake ACE."""

from __future__ import annotations

from pathlib import Path

import pytest

import lit
from tests.conftest import ORACLE

#: Specs with every outcome: label-changing (f;p, m;o, o;n, n;o), label-keeping (pa;pa),
#: questions (q;q, no label), and failures (not_applicable, no_generation).
SPECS = ["f;p", "m;o", "o;n", "n;o", "pa;pa", "q;q"]
PAIRS = 100


def ace_args(config) -> list[str]:
    return ["--ace", str(config.ace), "--grammar", str(config.grammar),
            "--grammar-version", "2018", "--scorer", "ace", "--workers", "2"]


@pytest.fixture(scope="session")
def contrast(fake_ace_config, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("contrast") / "contrast.jsonl"
    with lit.Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", scorer="ace",
                    workers=2) as engine:
        lit.run_nli(ORACLE / "nli-pairs.jsonl.gz", out, SPECS, engine=engine, limit=PAIRS)
    return out
