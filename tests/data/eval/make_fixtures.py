"""Rebuild contrast.jsonl and predictions.jsonl from the oracle (run from the repository root).

Sentences and MRSs are the oracle's real ERG targets; labels and label-rule ids come from
LIT's default label rules (and are checked against docs/design.md §2); the predictions
are chosen by hand so that tests/evaluate/test_evaluate.py can compute every metric by hand.
"""

import gzip
import json

from delphin.codecs import simplemrs

from lit.labels import LabelRules, phenomena_of
from lit.spec import parse_pair


def load(name):
    with gzip.open(f"tests/data/oracle/{name}.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


SOURCES = {s["id"]: s for s in load("sources")}
NLI = {p["pairID"]: p for p in load("nli-pairs")}
TARGETS = {(p["source_id"], p["transform"]): p for p in load("pairs")}
RULES = LabelRules.load()  # LIT's default label rules, which label every ok transform


def side(sid, transform):
    if transform is None:
        s = SOURCES[sid]
        return {"output": s["sentence"], "mrs": s["mrs"], "verified": True,
                "candidates": [s["sentence"]]}
    p = TARGETS[(sid, transform)]
    return {"output": p["target"], "mrs": p["target_mrs"], "verified": True,
            "candidates": list(dict.fromkeys(p["realizations"]))[:3]}


def phenomena(pid, role):
    """Phenomena of an original sentence: the oracle MRS of the source or of its transform."""
    sid, _, transform = pid.partition(":")
    mrs = SOURCES[sid]["mrs"] if role == "premise" or transform == "same" else (
        TARGETS[(sid, transform)]["target_mrs"])
    return phenomena_of(simplemrs.decode(mrs), "2018")


def ok(pid, spec, premise, hypothesis, label):
    """An ok transform of record *pid*, labelled by the default rules (checked against *label*,
    the label docs/design.md §2 gives)."""
    sid = pid.partition(":")[0]
    d = RULES.decide(parse_pair(spec), NLI[pid]["gold_label"], phenomena(pid, "premise"),
                     phenomena(pid, "hypothesis"))
    assert d.label == label, (pid, spec, d)
    return {"spec": spec, "status": "ok", "reason": None, "premise": side(sid, premise),
            "hypothesis": side(sid, hypothesis), "label": d.label, "label_rule": d.rule,
            "label_rationale": d.rationale}


def failed(spec, status, reason):
    return {"spec": spec, "status": status, "reason": reason, "premise": None,
            "hypothesis": None, "label": None, "label_rule": None, "label_rationale": None}


def record(pid, transforms):
    fields = {k: NLI[pid][k] for k in ("pairID", "sentence1", "sentence2", "gold_label")}
    return {"id": pid, "input": fields, "status": "ok", "reason": None,
            "transforms": transforms, "timings": {"total_seconds": 0.0}}


records = []
for s in ["s02", "s09", "s10", "s23", "s06", "s07"]:  # identical pairs, entailment
    records.append(record(f"{s}:same", [
        ok(f"{s}:same", "i;i", "cleft=ARG1", "cleft=ARG1", "entailment"),
        ok(f"{s}:same", "pa;pa", "pass", "pass", "entailment"),
        ok(f"{s}:same", "f;p", "tense=fut", "tense=past", "neutral"),
        ok(f"{s}:same", "m;o", "modal=may", None, "neutral"),
    ]))
for s in ["s02", "s09", "s10", "s23"]:  # hypothesis = neg(premise), contradiction
    records.append(record(f"{s}:neg", [
        ok(f"{s}:neg", "m;o", "modal=may", "neg", "neutral"),
        failed("i;i", "no_generation", "hypothesis: ACE produced no realization of the cleft MRS"),
    ]))
for s in ["s02", "s09", "s10", "s23"]:  # hypothesis = tense=fut(premise), neutral
    records.append(record(f"{s}:tense=fut", [
        ok(f"{s}:tense=fut", "m;o", "modal=may", "tense=fut", "neutral"),
        failed("f;p", "not_applicable", "f;p: the hypothesis is not present tense"),
    ]))
unparsed = SOURCES["s49"]["sentence"]  # the one oracle source ACE did not parse
records.append({
    "id": "s49:same",
    "input": {"pairID": "s49:same", "sentence1": unparsed, "sentence2": unparsed,
              "gold_label": "entailment"},
    "status": "no_parse", "reason": "premise: ACE found no analysis", "transforms": [],
    "timings": {"total_seconds": 0.0},
})
with open("tests/data/eval/contrast.jsonl", "w") as f:
    for r in records:
        f.write(json.dumps(r) + "\n")

PREDICTIONS = {  # E/N/C by hand; "original" = the record's input pair
    "s02:same": {"original": "E", "i;i": "E", "pa;pa": "E", "f;p": "E", "m;o": "N"},
    "s09:same": {"original": "E", "i;i": "E", "pa;pa": "E", "f;p": "N", "m;o": "N"},
    "s10:same": {"original": "E", "i;i": "E", "pa;pa": "C", "f;p": "N", "m;o": "E"},
    "s23:same": {"original": "E", "i;i": "N", "pa;pa": "E", "f;p": "E", "m;o": "E"},
    "s06:same": {"original": "E", "i;i": "E", "pa;pa": "E", "f;p": "N", "m;o": "N"},
    "s07:same": {"original": "N", "i;i": "N", "pa;pa": "E", "f;p": "N", "m;o": "N"},
    "s02:neg": {"original": "C", "m;o": "N"},
    "s09:neg": {"original": "C", "m;o": "C"},
    "s10:neg": {"original": "C", "m;o": "N"},
    "s23:neg": {"original": "N", "m;o": "N"},
    "s02:tense=fut": {"original": "N", "m;o": "N"},
    "s09:tense=fut": {"original": "N", "m;o": "E"},
    "s10:tense=fut": {"original": "E", "m;o": "N"},
    "s23:tense=fut": {"original": "N", "m;o": "N"},
    "s49:same": {"original": "E"},
}
FULL = {"E": "entailment", "N": "neutral", "C": "contradiction"}
with open("tests/data/eval/predictions.jsonl", "w") as f:
    for rid, preds in PREDICTIONS.items():
        for spec, p in preds.items():
            f.write(json.dumps({"id": rid, "spec": spec, "prediction": FULL[p]}) + "\n")
