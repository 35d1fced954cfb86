"""Mined shortcuts on task datasets (issue 30 after issue 26; docs/mining.md): an SST-2-shaped
dataset is mined as sentences, a QQP-shaped one as pairs with the task's own labels. Gold ERG
2025 MRSs stand in for parses (a seeded parse cache, or a dict of parses); no ACE."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import random
import re
from html import escape

import pytest
from delphin.codecs import simplemrs
from delphin.mrs import is_well_formed

from lit.ace.options import parse_cache_for
from lit.ace.service import ParseResult, Reading
from lit.analyze.mine import SentenceRow, mine
from lit.analyze.tasks import task_mined_rows, text_sentences
from lit.cli import main
from lit.config import DEFAULTS
from lit.phenomena import describe
from lit.report.shortcuts import mined_section
from lit.status import Status
from lit.tasks import load_task
from lit.tasks.reader import read_task
from tests.analyze.test_mine import GOLD, MINED, first_mined
from tests.analyze.test_pairs import ace_args


def parsed(sentence: str, m) -> ParseResult:
    return ParseResult(sentence, Status.OK, None, (Reading(simplemrs.encode(m)),), None, 0.0)


@pytest.fixture(scope="module")
def gold() -> list[tuple[str, object]]:
    """(sentence, MRS) of 600 well-formed gold analyses that the task reader keeps as one
    sentence: every passive among them and other ones, in file order."""
    out = []
    with gzip.open(GOLD, "rt") as f:
        for k, line in enumerate(f):
            rec = json.loads(line)
            if k % 7 and not re.search(r"ICONS: < [^>]", rec["mrs"]):
                continue
            m = simplemrs.decode(rec["mrs"])
            if is_well_formed(m) and text_sentences(rec["sentence"]) == [rec["sentence"]]:
                out.append((rec["sentence"], m))
            if len(out) == 600:
                break
    return out


def analyze_task_file(root, records: list[dict], gold, ace, *args: str):
    """`lit analyze DATA --mine *args` on *records* (JSONL), every parse of the *gold*
    sentences from a seeded parse cache: (exit code, the JSON or None, stdout, stderr)."""
    data, grammar, out = root / "data.jsonl", root / "erg-2025.dat", root / "analysis.json"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    grammar.write_bytes(b"stand-in image\n")
    mp = pytest.MonkeyPatch()
    mp.setenv("LIT_CACHE_DIR", str(root / "cache"))
    cache = parse_cache_for(grammar, DEFAULTS)
    for s, m in gold:
        cache.put(parsed(s, m), 1)
    cache.close()
    text, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(text):
        code = main(["analyze", str(data), "--mine", *args, "-o", str(out),
                     *ace_args(ace, grammar, "2025")])
    mp.undo()
    return (code, json.loads(out.read_text()) if out.exists() else None, text.getvalue(),
            err.getvalue())


@pytest.fixture(scope="module")
def sst2_run(gold, fake_ace_executable, tmp_path_factory):
    """`lit analyze --task sst2 --mine` on gold sentences labelled negative exactly when
    passive."""
    records = [{"idx": k, "sentence": s, "label": 0 if describe(m, "2025").passive else 1}
               for k, (s, m) in enumerate(gold)]
    return analyze_task_file(tmp_path_factory.mktemp("mine-sst2"), records, gold,
                             fake_ace_executable, "--task", "sst2", "--resamples", "20")


def test_planted_passive_is_mined_from_a_sentence_task(gold, sst2_run):
    code, result, text, _ = sst2_run
    assert code == 0 and result["task"] == "sst2"
    mined = result["mined"]
    passives = sum(describe(m, "2025").passive for _, m in gold)
    assert 30 < passives < 570  # the planted label is neither rare nor everything
    assert mined["items"] == len(gold)
    assert mined["labels"] == {"negative": passives, "positive": len(gold) - passives}
    top = first_mined(mined)
    assert top["feature"] == "icons:topic:main.ARG2" and top["q"] <= 0.05
    assert top["majority_label"] == "negative"
    assert set(top["examples"][0]) == {"id", "sentence", "label"}
    assert any(h["feature"] == "passive" and h["significant"] for h in mined["handmade"])
    assert "task sst2:" in text and "mined shortcuts (600 items" in text
    html = mined_section(result)  # the report's "Mined shortcuts" shows sentences
    assert "icons:topic:main.ARG2" in html and escape(top["examples"][0]["sentence"]) in html


def test_nothing_to_mine_keeps_the_task_analysis(gold, fake_ace_executable, tmp_path):
    records = [{"idx": k, "sentence": s} for k, (s, _) in enumerate(gold[:3])]  # no labels
    code, result, text, err = analyze_task_file(tmp_path, records, gold[:3],
                                                fake_ace_executable, "--task", "sst2")
    assert code == 0 and result["texts"] == 3 and "mined" not in result
    assert "has a gold label and every sentence parsed: nothing mined" in err
    assert "task sst2: 3 records" in text


def test_a_review_of_several_sentences_is_one_row_when_all_parse(gold):
    (s1, m1), (s2, m2), (s3, _) = gold[:3]
    parses = {s1: parsed(s1, m1), s2: parsed(s2, m2)}
    task = load_task("sst2")
    items = [*read_task_records(task, [{"idx": "a", "sentence": f"{s1} {s2}", "label": 1},
                                       {"idx": "b", "sentence": f"{s1} {s3}", "label": 0},
                                       {"idx": "c", "sentence": s2, "label": "neg"}])]
    rows = task_mined_rows(items, parses, task, "2025")
    assert all(isinstance(r, SentenceRow) for r in rows)
    assert [(r.id, r.label) for r in rows] == [("a", "positive"), ("c", "negative")]
    one = task_mined_rows(items[2:], parses, task, "2025")[0]
    assert one.features < rows[0].features  # the union of both sentences' candidates
    assert f"bi:{s1.split()[-1].lower().strip('.')} {s2.split()[0].lower()}" in rows[0].features


def read_task_records(task, records: list[dict]):
    """The TaskItems of *records* as a JSONL file of the task reads them."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        yield from read_task(path, task)


def qqp_records(gold, labels=None) -> list[dict]:
    """400 QQP-shaped records of gold sentences: duplicate (1) exactly when question2 alone
    is negated, else not_duplicate (0) (or *labels* given)."""
    rnd = random.Random(11)
    negated = [x for x in gold if describe(x[1], "2025").negated]
    out = []
    for k in range(400):
        (ps, pm), (hs, hm) = rnd.choice(gold), rnd.choice(negated if k % 5 == 0 else gold)
        planted = describe(hm, "2025").negated and not describe(pm, "2025").negated
        label = labels[k] if labels else int(planted)
        out.append({"id": k, "question1": ps, "question2": hs, "is_duplicate": label})
    return out


def test_pair_task_mines_the_pair_path_with_its_own_labels(gold):
    task = load_task("qqp")
    parses = {s: parsed(s, m) for s, m in gold}
    records = qqp_records(gold)
    two = f"{gold[0][0]} {gold[1][0]}"  # a side of two sentences is not aligned
    records.append({"id": "two", "question1": two, "question2": gold[2][0], "is_duplicate": 1})
    rows = task_mined_rows(list(read_task_records(task, records)), parses, task, "2025")
    assert len(rows) == 400 and "two" not in {r.item.id for r in rows}
    result = mine(rows, resamples=0)
    planted = sum(r["is_duplicate"] for r in records[:400])
    assert result["labels"] == {"duplicate": planted, "not_duplicate": 400 - planted}
    neg = next(g for g in result["groups"] if g["family"] in MINED)
    assert neg["group"] == "neg"
    best = neg["members"][0]
    assert best["feature"].startswith("hyp-only:") and best["majority_label"] == "duplicate"
    assert set(best["examples"][0]) == {"id", "premise", "hypothesis", "label"}
    assert any(h["feature"] == "negation:added" and h["significant"]
               for h in result["handmade"])


def test_pair_task_with_random_labels_leaves_nothing_significant(gold):
    task = load_task("qqp")
    parses = {s: parsed(s, m) for s, m in gold}
    rnd = random.Random(5)
    records = qqp_records(gold, [rnd.choice([0, 1]) for _ in range(400)])
    rows = task_mined_rows(list(read_task_records(task, records)), parses, task, "2025")
    result = mine(rows, resamples=0)
    assert result["tested"] > 500 and result["significant"] == 0


def test_splits_stay_nli_only(tmp_path, capsys):
    data = tmp_path / "sst2.jsonl"
    data.write_text(json.dumps({"sentence": "A fine film.", "label": 1}) + "\n")
    assert main(["analyze", str(data), "--task", "sst2", "--mine", "--splits",
                 str(tmp_path / "s")]) == 2
    assert "--pairs and --splits align premise and hypothesis" in capsys.readouterr().err
