"""A small `lit nli` output the judging tests sample from, and the answers the tests give.

Four records, one transform each (so four strata), one of them with markup in its sentences.
The planned answers of two annotators and the figures they give, computed by hand, are in
tests/judge/test_agree.py and tests/judge/test_judge_browser.py.
"""

from __future__ import annotations

from pathlib import Path

from lit.records import Record

SCRIPT = "<script>window.pwned = 1</script>"


def _record(rid: str, p: str, h: str, gold: str, spec: str, p_out: str | None, h_out: str | None,
            label: str | None, rule: str | None, status: str = "ok") -> Record:
    side = lambda out: {"output": out, "mrs": None, "verified": out is not None,  # noqa: E731
                        "candidates": []}
    return Record.from_json({
        "id": rid, "input": {"sentence1": p, "sentence2": h, "gold_label": gold},
        "status": "ok", "reason": None,
        "transforms": [{"spec": spec, "status": status,
                        "reason": None if status == "ok" else "no realization",
                        "premise": side(p_out), "hypothesis": side(h_out), "label": label,
                        "label_rule": rule, "label_rationale": f"why {rule}"}]})


RECORDS = [
    _record("r1", "A man is sleeping.", "A person is sleeping.", "entailment", "i;i",
            "It is a man who is sleeping.", "It is a person who is sleeping.", "entailment",
            "cleft_both"),
    _record("r2", "A woman drives a car.", "A woman drives.", "entailment", "f;p",
            "A woman will drive a car.", "A woman drove.", "neutral", "tense_decoupled"),
    _record("r3", f"{SCRIPT} A dog chases a cat.", "A dog chases an animal.", "entailment",
            "pa;pa", f"{SCRIPT} A cat is chased by a dog.", "An animal is chased by a dog.",
            "entailment", "passive_both"),
    _record("r4", "A boy is eating.", "A child is eating.", "entailment", "m;o",
            "A boy may be eating.", None, "neutral", "modal_premise"),
]
#: One transform without an output: never sampled.
FAILED = _record("r5", "A cat sleeps.", "An animal sleeps.", "entailment", "i;i", None, None,
                 None, None, status="no_generation")


def write_contrast(path: Path, records: list[Record] = RECORDS + [FAILED]) -> Path:
    path.write_text("".join(r.to_json() + "\n" for r in records), encoding="utf-8")
    return path


#: (fluent, change, label) each annotator gives each record's item; notes aside.
PLAN = {
    "alice": {"r1": ("yes", "yes", "entailment"), "r2": ("yes", "yes", "neutral"),
              "r3": ("no", "yes", "contradiction"), "r4": ("yes", "no", "entailment")},
    "bob": {"r1": ("yes", "yes", "entailment"), "r2": ("no", "yes", "neutral"),
            "r3": ("no", "no", "neutral"), "r4": ("yes", "yes", "entailment")},
}
