"""lit.provenance and lit.io.meta: the OUTPUT.meta.json sidecar shared by every command."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from lit.errors import InputError
from lit.io.meta import META_FORMAT, meta_path, read_meta, sha256_file, write_meta
from lit.provenance import Toolchain, build_meta
from lit.labels import LabelRules

KEYS = {"meta_format", "command", "lit_version", "grammar", "ace", "scorer", "specs",
        "label_rules", "inputs", "seed", "options", "started", "ended", "counts"}


def test_meta_names_grammar_ace_rules_and_inputs_with_hashes(fake_ace_config, tmp_path):
    data = tmp_path / "in.jsonl"
    data.write_text('{"a": 1}\n')
    rules = tmp_path / "my.labels"
    rules.write_text("# a label-rule file: only hashed here\n")
    tools = Toolchain(ace=fake_ace_config.ace, grammar=fake_ace_config.grammar,
                      grammar_version="2018", scorer="ace", label_rules=rules)
    meta = build_meta("augment", started="2026-01-01T00:00:00+00:00", tools=tools,
                      specs=["f;p"], inputs={"input": data}, seed=3,
                      options={"balance": True}, counts={"rows": 5})
    assert set(meta) == KEYS and meta["meta_format"] == META_FORMAT
    grammar_hash = hashlib.sha256(Path(fake_ace_config.grammar).read_bytes()).hexdigest()
    assert meta["grammar"] == {"version": "2018", "path": str(fake_ace_config.grammar),
                               "sha256": grammar_hash}
    assert meta["ace"]["version"] == "0.9.30"  # what the fake's recorded `ace -V` says
    assert meta["label_rules"]["sha256"] == sha256_file(rules)
    assert meta["inputs"]["input"]["sha256"] == hashlib.sha256(b'{"a": 1}\n').hexdigest()
    assert (meta["seed"], meta["options"], meta["counts"]) == (3, {"balance": True}, {"rows": 5})
    assert meta["ended"] >= meta["started"]


def test_default_label_rules_are_hashed_from_the_package():
    meta = build_meta("nli", started="x", tools=Toolchain(label_rules=LabelRules.load()))
    assert meta["label_rules"]["source"] == "lit/labels/default.labels"
    shipped = Path(__import__("lit.labels").labels.__file__).with_name("default.labels")
    assert meta["label_rules"]["sha256"] == sha256_file(shipped)
    assert meta["grammar"]["sha256"] is None and meta["ace"]["version"] is None


def test_write_then_read_and_refuse_another_format(tmp_path):
    out = tmp_path / "data.parquet"
    path = write_meta(out, build_meta("augment", started="x"))
    assert path == meta_path(out) == tmp_path / "data.parquet.meta.json"
    assert read_meta(out)["command"] == "augment"
    assert not list(tmp_path.glob(".*.tmp"))  # written through a temporary file, renamed
    path.write_text(json.dumps({"meta_format": 99}))
    with pytest.raises(InputError, match=r"data\.parquet\.meta\.json: metadata format 99"):
        read_meta(out)
    assert read_meta(tmp_path / "none.jsonl") is None


def test_what_a_run_knows_wins_and_the_rest_is_filled_in():
    """`lit augment --from-contrast`: the contrast run's grammar and scorer, the engine's rest."""
    engine = Toolchain(ace="/bin/ace", grammar="old.dat", scorer="gpt2", label_rules="x.labels")
    copied = Toolchain(grammar="erg.dat", grammar_version="2018")
    assert copied.over(engine) == Toolchain(ace="/bin/ace", grammar="erg.dat",
                                            grammar_version="2018", scorer="gpt2",
                                            label_rules="x.labels")
