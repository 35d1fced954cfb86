"""`lit nli --against-shortcut` with no --specs: LIT picks the transformations itself among
the pair specs the label rules can label, and reports per feature what it found, per spec."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from lit.analyze.contrast import EDIT_SPECS, candidate_specs, transform_features
from lit.cli import main
from lit.config import PAPER_SPECS
from lit.errors import InputError
from lit.labels import LabelRules
from lit.records import read_records
from tests.analyze.test_pairs import ace_args
from tests.conftest import ORACLE


def test_candidates_are_the_specs_the_label_rules_can_label(tmp_path):
    assert candidate_specs(LabelRules.load()) == ([*PAPER_SPECS, *EDIT_SPECS], [])

    def check(spec: str) -> None:  # a grammar version without the hypernym module
        if "hyper" in spec:
            raise InputError(f"pair spec {spec!r}: unknown transformation 'hyper'")

    chosen, left = candidate_specs(LabelRules.load(), check)
    assert "o;hyper" not in chosen and "o;hypo" in chosen and len(chosen) == 14
    assert left == ["o;hyper: not in the rules for this grammar"]
    # without edit rules the edits have no label; without tense_decoupled neither do f;p ...
    text = (Path(__file__).parents[2] / "lit/labels/default.labels").read_text()
    rules = tmp_path / "no-edits.labels"
    rules.write_text("rule cleft_both {\n    pairs \"i;i\"\n    map E -> E, N -> N, C -> C\n"
                     "    why \"Clefting both sides keeps what they say.\"\n}\n")
    assert "edit " in text
    chosen, left = candidate_specs(LabelRules.load(rules))
    assert chosen == ["i;i"] and "f;p: no label rule" in left and "o;hyper: no label rule" in left


@pytest.fixture
def oracle_subset(tmp_path) -> Path:
    path = tmp_path / "oracle14.jsonl"
    with gzip.open(ORACLE / "nli-pairs.jsonl.gz", "rt") as f:
        path.write_text("".join(f.readline() for _ in range(14)))
    return path


def test_against_shortcut_picks_the_specs_itself(fake_ace_executable, fake_ace_config,
                                                 oracle_subset, tmp_path, capsys):
    grammar = tmp_path / "erg-2018.dat"
    shutil.copy(fake_ace_config.grammar, grammar)
    out = tmp_path / "contrast.jsonl"
    feature = "negation:added"
    assert main(["nli", str(oracle_subset), "-o", str(out), "--against-shortcut", feature,
                 "--no-progress", *ace_args(fake_ace_executable, grammar, "2018")]) == 0
    err = capsys.readouterr().err
    tried = list(PAPER_SPECS)  # the fake ACE is ERG 2018, which has no issue-15 edit modules
    assert f"trying the {len(tried)} pair specs the label rules can label: {','.join(tried)}" \
        in err and "left out: o;hyper: not in the rules for this grammar; o;hypo" in err
    records = list(read_records(out))
    assert {t.spec for r in records for t in r.transforms} == set(tried)

    # what was kept: ok, labelled, keeps the feature, label other than the majority (C)
    against = list(read_records(tmp_path / "contrast.against-negation_added.jsonl"))
    kept = [t for r in against for t in r.transforms]
    assert kept, err
    for t in kept:
        assert t.ok and t.label not in (None, "contradiction")
        assert feature in transform_features(t, "2018")
    # and nothing that qualifies was left out
    qualifying = [t for r in records for t in r.transforms
                  if t.ok and t.label not in (None, "contradiction")
                  and feature in (transform_features(t, "2018") or ())]
    assert len(qualifying) == len(kept)
    # the report: how many, and from which specs
    per_spec: dict[str, int] = {}
    for t in kept:
        per_spec[t.spec] = per_spec.get(t.spec, 0) + 1
    line = next(x for x in err.splitlines() if x.startswith(f"lit nli: against {feature}"))
    assert "majority contradiction" in line and f"{len(kept)} with another label" in line
    for spec, n in per_spec.items():
        assert f"{spec} {n}" in line
