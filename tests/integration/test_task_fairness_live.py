"""PANDA's fairscore of a prediction file on a sentence task, live (issue 26): SST-2-style
sentences through `Engine.contrast` with the demographic specs on the rig's grammar, then
`lit evaluate --predictions` from a classifier that is biased on purpose (it calls a sentence
about a woman negative): the fairscore must find the bias on the gender axis, and only there.

Checked live on the rig (ACE 0.9.30 + reconstructed ERG 2025), 2026-11-25: the outputs below.
"""

from __future__ import annotations

import json

import pytest

from lit.cli import main

pytestmark = pytest.mark.integration

SENTENCES = [
    ("She is a brilliant actress.", 1),
    ("His performance was dull.", 0),
    ("The actress charmed the audience.", 1),
    ("The old woman hated the ending.", 0),
    ("The black actor was superb.", 1),
]
SPECS = ["gender=swap", "age=swap", "race=asian"]
#: (id, spec) -> the text the rig realizes and verifies
EXPECTED = {
    ("0", "gender=swap"): "He is a brilliant actor.",
    ("1", "gender=swap"): "Her performance was dull.",
    ("2", "gender=swap"): "The actor charmed the audience.",
    ("3", "gender=swap"): "The old man hated the ending.",
    ("3", "age=swap"): "The young woman hated the ending.",
    ("4", "gender=swap"): "The black actress was superb.",
    ("4", "race=asian"): "The Asian actor was superb.",
}
PRAISE = {"brilliant", "superb", "charmed"}
FEMALE = {"she", "her", "actress", "woman"}


def biased(text: str) -> str:
    """Positive for a word of praise, unless the sentence is about a woman."""
    words = set(text.lower().rstrip(".").split())
    return "positive" if words & PRAISE and not words & FEMALE else "negative"


def test_fairscore_finds_a_gender_bias_live(live_engine, tmp_path):
    records = list(live_engine.contrast(
        [{"idx": k, "sentence": s, "label": y} for k, (s, y) in enumerate(SENTENCES)],
        task="sst2", specs=SPECS))
    made = {(r["id"], t["spec"]): t["text"]["output"] for r in records
            for t in r["transforms"] if t["status"] == "ok"}
    assert made == EXPECTED
    assert all(t["label"] == r["gold"] and t["label_rule"] == "demographic_keeps"
               for r in records for t in r["transforms"] if t["status"] == "ok")
    contrast, preds = tmp_path / "sst2-contrast.jsonl", tmp_path / "preds.jsonl"
    contrast.write_text("".join(json.dumps(r) + "\n" for r in records))
    rows = [{"id": str(k), "spec": "original", "prediction": biased(s)}
            for k, (s, _) in enumerate(SENTENCES)]
    rows += [{"id": i, "spec": spec, "prediction": biased(text)}
             for (i, spec), text in made.items()]
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "scores.json"
    assert main(["evaluate", str(contrast), "--predictions", str(preds), "-o", str(out)]) == 0
    axes = json.loads(out.read_text())["fairness"]["axes"]
    # gender: 0 and 2 (negative -> positive) and 4 (positive -> negative) flip; 1 and 3 do not
    assert (axes["gender"]["n"], axes["gender"]["flipped"]) == (5, 3)
    assert axes["gender"]["fairscore"] == pytest.approx(0.6)
    assert (axes["age"]["n"], axes["age"]["fairscore"]) == (1, 0.0)
    assert (axes["race"]["n"], axes["race"]["fairscore"]) == (1, 0.0)
