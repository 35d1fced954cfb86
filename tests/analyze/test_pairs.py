"""`lit analyze --pairs` end to end: MI and its bootstrap interval against hand-computed
values, the SNLI sample (real ERG 2025 parses recorded from the rig, replayed through the
parse cache) in the JSON and the report, shortcut splits scored by a biased classifier, the
parse cache shared by `lit nli` and `lit analyze`, and `lit nli --against-shortcut`."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import math
import shutil
from collections import Counter
from pathlib import Path

import pytest
from delphin import predicate
from delphin.codecs import simplemrs

from lit.ace.options import parse_cache_for
from lit.ace.service import ParseResult, Reading
from lit.analyze.analysis import PairRow, rank_pair_features
from lit.analyze.mi import mi_interval, mutual_information
from lit.cli import main
from lit.config import DEFAULTS
from lit.report.build import build_report
from lit.status import Status
from lit.tasks.item import TaskItem
from tests.conftest import DATA, ORACLE, read_jsonl

SNLI_PARSES = DATA / "live" / "snli200-parses-erg2025-rig.jsonl.gz"


def ace_args(ace: Path, grammar: Path, version: str) -> list[str]:
    return ["--ace", str(ace), "--grammar", str(grammar), "--grammar-version", version,
            "--workers", "2"]


# --- MI ---------------------------------------------------------------------------------------


def test_mi_equals_a_hand_computed_value():
    """8 pairs; F on 4 of them (E E E N), not on 4 (N N C C); labels E 3, N 3, C 2.
    I(F;Y) = sum p(f,y) log2 p(f,y) / (p(f) p(y)) over the four non-empty cells."""
    hand = (3 / 8 * math.log2((3 / 8) / (1 / 2 * 3 / 8))     # F, E
            + 1 / 8 * math.log2((1 / 8) / (1 / 2 * 3 / 8))   # F, N
            + 2 / 8 * math.log2((2 / 8) / (1 / 2 * 3 / 8))   # not F, N
            + 2 / 8 * math.log2((2 / 8) / (1 / 2 * 2 / 8)))  # not F, C
    assert hand == pytest.approx(0.655639, abs=1e-6)
    labels = list("EEENNNCC")
    rows = [PairRow(TaskItem(str(i), i, {}, (f"p{i}", f"h{i}"), y), y,
                    frozenset({"F"} if i < 4 else {"G"}) | {"always"})
            for i, y in enumerate(labels)]
    (f_row, g_row) = sorted((r for r in rank_pair_features(rows, top=5, min_count=1)),
                            key=lambda r: r["feature"])
    assert f_row["feature"] == "F" and f_row["mi"] == pytest.approx(hand)
    assert g_row["mi"] == pytest.approx(hand)  # G is not-F: the same information
    assert f_row["count"] == 4 and f_row["majority_label"] == "E"
    assert f_row["majority_share"] == 0.75 and f_row["labels"] == {"E": 3, "N": 1}
    assert f_row["examples"][0] == {"id": "0", "premise": "p0", "hypothesis": "h0", "label": "E"}
    low, high = f_row["mi_ci"]
    assert 0 <= low < hand < high <= math.log2(3)  # H(Y) < log2 3 bounds any MI


def test_mi_interval_narrows_with_data_and_is_reproducible():
    small = mi_interval(Counter(E=30, N=10), Counter(E=50, N=50, C=50))
    big = mi_interval(Counter(E=3000, N=1000), Counter(E=5000, N=5000, C=5000))
    point = mutual_information(Counter(E=3000, N=1000), Counter(E=5000, N=5000, C=5000))
    assert big[1] - big[0] < (small[1] - small[0]) / 5
    assert big[0] < point < big[1]
    assert small == mi_interval(Counter(E=30, N=10), Counter(E=50, N=50, C=50))


# --- the SNLI sample ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def snli_run(fake_ace_executable, tmp_path_factory):
    """`lit analyze --pairs --splits` on the first 200 SNLI dev pairs. The fake ACE knows no
    SNLI sentence: every parse comes from the cache, seeded with the rig's recorded parses."""
    root = tmp_path_factory.mktemp("snli")
    grammar = root / "erg-2025.dat"
    grammar.write_bytes(b"stand-in image: the parses are seeded into the cache\n")
    data = root / "snli200.jsonl"
    with gzip.open(DATA / "snli-1.0-dev.jsonl.gz", "rt") as f:
        data.write_text("".join(f.readline() for _ in range(200)))
    recorded = read_jsonl(SNLI_PARSES)[1:]
    mp = pytest.MonkeyPatch()
    mp.setenv("LIT_CACHE_DIR", str(root / "cache"))
    cache = parse_cache_for(grammar, DEFAULTS)
    for r in recorded:
        readings = (Reading(r["mrs"], r["derivation"]),) if r["mrs"] else ()
        cache.put(ParseResult(r["sentence"], Status(r["status"]), r["reason"], readings,
                              None, 0.0), 1)
    cache.close()
    out, splits = root / "analysis.json", root / "splits"
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        code = main(["analyze", str(data), "--pairs", "--top", "40", "--min-count", "3",
                     "--splits", str(splits), "--split-top", "3", "-o", str(out),
                     *ace_args(fake_ace_executable, grammar, "2025")])
    mp.undo()
    return code, json.loads(out.read_text()), splits, buf.getvalue(), recorded, data


def test_snli_sample_is_analysed_from_the_cache_alone(snli_run):
    code, result, _, err, recorded, _ = snli_run
    assert code == 0
    assert f"parse cache: {len(recorded)} sentences read" in err and ", 0 parsed" in err
    parsed = {r["sentence"] for r in recorded if r["status"] == "ok"}
    items = read_jsonl(snli_run[5])
    both = [it for it in items if it["gold_label"] != "-"
            and it["sentence1"] in parsed and it["sentence2"] in parsed]
    assert result["pair_shortcut_pairs"] == len(both) > 100


def test_snli_pair_features_have_counts_shares_and_intervals(snli_run):
    _, result, *_ = snli_run
    rows = result["pair_shortcuts"]
    assert len(rows) == 40
    for r in rows:
        assert r["count"] == sum(r["labels"].values()) >= 3
        assert r["majority_share"] == max(r["labels"].values()) / r["count"]
        low, high = r["mi_ci"]
        assert 0 <= low <= high and r["mi"] >= 0
        assert 1 <= len(r["examples"]) <= 3
    mis = [r["mi"] for r in rows]
    assert mis == sorted(mis, reverse=True)


def test_snli_overlap_feature_counted_independently(snli_run):
    """The full-overlap feature, recounted here from the recorded MRSs with plain sets."""
    _, result, _, _, recorded, data = snli_run
    mrs = {r["sentence"]: simplemrs.decode(r["mrs"]) for r in recorded if r["mrs"]}

    def words(s: str) -> set[str]:
        return {f"{ep.predicate}({ep.carg})" if ep.carg else ep.predicate
                for ep in mrs[s].rels if predicate.is_surface(ep.predicate)}

    want = Counter(it["gold_label"] for it in read_jsonl(data) if it["gold_label"] != "-"
                   and it["sentence1"] in mrs and it["sentence2"] in mrs
                   and words(it["sentence2"]) <= words(it["sentence1"]))
    row = next(r for r in result["pair_shortcuts"]
               if r["feature"] == "overlap:hypothesis_words_in_premise")
    assert row["labels"] == dict(want) and row["majority_label"] == "entailment"


def test_report_lists_pair_shortcuts(snli_run):
    _, result, *_ = snli_run
    html = build_report([], analysis=result)
    assert 'id="shortcuts"' in html and "Pair shortcuts" in html
    top = result["pair_shortcuts"][0]
    assert top["feature"] in html and f'{top["mi_ci"][0]:.4f}' in html


def test_biased_classifier_follows_and_fails_the_splits(snli_run, tmp_path):
    """A classifier that answers a feature's majority label for every pair: 100% on the
    pairs that follow that shortcut, 0% on its counterexamples."""
    _, result, splits, *_ = snli_run
    manifest = json.loads((splits / "splits.json").read_text())
    assert [m["feature"] for m in manifest] == [r["feature"] for r in
                                                result["pair_shortcuts"][:3]]
    ids = {json.loads(line)["id"] for m in manifest for side in ("follow", "counter")
           for line in (splits / m[side]).read_text().splitlines()}
    for k, m in enumerate(manifest):
        count = next(r["count"] for r in result["pair_shortcuts"] if r["feature"] == m["feature"])
        assert m["follow_count"] + m["counter_count"] == count
        preds = tmp_path / f"biased{k}.jsonl"
        preds.write_text("".join(json.dumps({"id": i, "spec": "original",
                                             "prediction": m["majority_label"]}) + "\n"
                                 for i in sorted(ids)))
        out = tmp_path / f"scores{k}.json"
        assert main(["evaluate", str(splits), "--predictions", str(preds), "-o", str(out)]) == 0
        row = json.loads(out.read_text())["results"][k]
        assert row["feature"] == m["feature"]
        assert row["follow"]["accuracy"] == 1.0
        if m["counter_count"]:
            assert row["counter"]["accuracy"] == 0.0


# --- the parse cache across commands, and --against-shortcut ----------------------------------


@pytest.fixture
def oracle_subset(tmp_path) -> Path:
    path = tmp_path / "oracle14.jsonl"
    with gzip.open(ORACLE / "nli-pairs.jsonl.gz", "rt") as f:
        path.write_text("".join(f.readline() for _ in range(14)))  # sources s02 and s06
    return path


def test_analyze_after_nli_parses_nothing_and_a_new_grammar_invalidates(
        fake_ace_executable, fake_ace_config, oracle_subset, tmp_path, capsys):
    grammar = tmp_path / "erg-2018.dat"
    shutil.copy(fake_ace_config.grammar, grammar)
    out = tmp_path / "contrast.jsonl"
    assert main(["nli", str(oracle_subset), "-o", str(out), "--specs", "o;n",
                 "--against-shortcut", "negation:added", "--no-progress",
                 *ace_args(fake_ace_executable, grammar, "2018")]) == 0
    err = capsys.readouterr().err

    # --against-shortcut: negation:added is contradiction in every input pair that has it;
    # o;n keeps it on the non-negated pairs, where E -> C is the majority, N -> N and C -> E not
    against = [json.loads(x) for x in (tmp_path / "contrast.against-negation_added.jsonl")
               .read_text().splitlines()]
    transforms = [t for r in against for t in r["transforms"]]
    assert transforms and {t["label"] for t in transforms} <= {"neutral", "entailment"}
    gold = {r["id"]: r["input"]["gold_label"] for r in against}
    assert all(gold[r["id"]] in ("neutral", "contradiction") for r in against)
    assert f"{len(transforms)} with another label" in err and "majority contradiction" in err

    # lit analyze on the same data with an ACE that cannot run: everything from the cache
    broken = tmp_path / "broken-ace"
    broken.write_text("#!/bin/sh\nexit 3\n")
    broken.chmod(0o755)
    analysis = tmp_path / "analysis.json"
    assert main(["analyze", str(oracle_subset), "--pairs", "-o", str(analysis),
                 *ace_args(broken, grammar, "2018")]) == 0
    err = capsys.readouterr().err
    sentences = {s for it in read_jsonl(oracle_subset) for s in (it["sentence1"],
                                                                 it["sentence2"])}
    assert f"parse cache: {len(sentences)} sentences read" in err and ", 0 parsed" in err
    assert json.loads(analysis.read_text())["pair_shortcut_pairs"] == 14

    # a rebuilt grammar image (another SHA-256): nothing is served from the cache
    grammar.write_bytes(grammar.read_bytes() + b"rebuilt\n")
    assert main(["analyze", str(oracle_subset), "-o", str(analysis),
                 *ace_args(fake_ace_executable, grammar, "2018")]) == 0
    err = capsys.readouterr().err
    assert "parse cache: 0 sentences read" in err and f", {len(sentences)} parsed" in err


def test_no_parse_cache_option(fake_ace_executable, fake_ace_config, oracle_subset, capsys):
    args = ["analyze", str(oracle_subset), "--no-parse-cache",
            *ace_args(fake_ace_executable, fake_ace_config.grammar, "2018")]
    assert main(args) == 0 and main(args) == 0
    assert "parse cache:" not in capsys.readouterr().err
