"""Dataset analysis through the fake ACE on the oracle NLI pairs, checked against what each
pair's `relation` field says, and mutual information against hand-computed values."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from lit.analyze import analyze, mutual_information, parse_sentences, rank_features
from lit.cli import main
from lit.config import RunConfig
from lit.tasks.reader import read_nli
from tests.conftest import ORACLE, read_jsonl

NLI = ORACLE / "nli-pairs.jsonl.gz"

# Phenomena of the oracle's source sentences, read off their text (tests/data/oracle/sources):
FUTURE = {"s29", "s38"}          # Bob will meet Alice. / The dog will bark.
NEGATED = {"s55", "s58"}         # Alice did not see Bob. / Kim has not finished the book.
PASSIVE = {"s63", "s64", "s66"}  # The cake was eaten by ... / The ball was kicked ... / ... broken.
MODAL = {"s60", "s61"}           # The boy can swim. / The woman should call the doctor.
CLEFT = "hypothesis = cleft=ARG1(premise)"


def is_cleft(item) -> bool:
    return item.input["relation"] == CLEFT


def expected_counts() -> dict[tuple[str, str], Counter]:
    """(role, label or "all") -> how many sentences are negated / future / passive / modal,
    as each non-cleft pair's relation and its source sentence imply."""
    out: dict[tuple[str, str], Counter] = {}
    for pair in read_jsonl(NLI):
        src, rel = pair["pairID"].split(":")[0], pair["relation"]
        if rel == CLEFT:
            continue
        base = Counter(negated=src in NEGATED, future=src in FUTURE, passive=src in PASSIVE,
                       modal=src in MODAL)
        premise, hypothesis = Counter(base), Counter(base)
        if rel == "premise = neg(hypothesis)":
            premise["negated"] = 1
        elif rel == "hypothesis = neg(premise)":
            hypothesis["negated"] = 1
        elif rel == "hypothesis = tense=fut(premise)":
            hypothesis["future"] = 1
        elif rel == "hypothesis = pass(premise)":
            hypothesis["passive"] = 1
        else:
            assert rel in ("identical", "hypothesis = swap(premise)"), rel
        for role, c in (("premise", premise), ("hypothesis", hypothesis)):
            for group in ("all", pair["gold_label"]):
                out.setdefault((role, group), Counter()).update(+c)
    return out


@pytest.fixture(scope="module")
def oracle_parses(fake_ace_config):
    from lit.ace.service import AceService

    items = list(read_nli(NLI))
    with AceService(fake_ace_config, RunConfig(workers=2, timeout=10)) as service:
        parses = parse_sentences(service, (s for it in items for s in (it.premise, it.hypothesis)))
    return items, parses


@pytest.fixture(scope="module")
def oracle_analysis(oracle_parses) -> dict:
    items, parses = oracle_parses
    return analyze(items, parses, "2018", top=40)


@pytest.fixture(scope="module")
def non_cleft_analysis(oracle_parses) -> dict:
    """The clefts' top readings are often the copula reading "It is [X who ...]" whose main
    clause is `_be_v_id` (oracle README: "Focus readings are usually not reading 0"), so the
    source's phenomena are checked exactly on the other 214 pairs."""
    items, parses = oracle_parses
    return analyze([it for it in items if not is_cleft(it)], parses, "2018")


def test_oracle_pairs_all_parse(oracle_analysis):
    assert oracle_analysis["pairs"] == 255
    assert oracle_analysis["labels"] == {"entailment": 110, "neutral": 65, "contradiction": 80}
    for role in ("premise", "hypothesis"):
        stats = oracle_analysis["roles"][role]["all"]
        assert stats["sentences"] == stats["parsed"] == 255 and stats["coverage"] == 1.0


def test_phenomena_match_the_relation_fields(non_cleft_analysis):
    expected = expected_counts()
    assert non_cleft_analysis["pairs"] == 214
    for (role, group), want in expected.items():
        block = non_cleft_analysis["roles"][role]
        stats = block["all"] if group == "all" else block["by_label"][group]
        got = stats["counts"]
        where = f"{role}/{group}"
        assert got["negated"] == want["negated"], where
        assert got["passive"] == want["passive"], where
        assert got["modal"] == want["modal"], where
        assert stats["tense"].get("fut", 0) == want["future"], where
        assert got["question"] == got["cleft"] == 0, where
    # 40 negated hypotheses from `neg`, plus the pairs of the two negated sources
    hyp = non_cleft_analysis["roles"]["hypothesis"]["all"]
    assert hyp["counts"]["negated"] == expected[("hypothesis", "all")]["negated"] > 40
    assert hyp["tense"]["fut"] == expected[("hypothesis", "all")]["future"] > 38
    neutral = non_cleft_analysis["roles"]["hypothesis"]["by_label"]["neutral"]
    assert neutral["tense"]["fut"] >= 38  # every tense=fut pair is neutral


def test_clefts_come_from_cleft_relations_only(oracle_analysis):
    """Only top readings count, and the recorded top reading of most oracle clefts is not the
    focus reading: some clefts, never more than the 41 cleft pairs, and none outside them."""
    hyp = oracle_analysis["roles"]["hypothesis"]
    assert 0 < hyp["all"]["counts"]["cleft"] <= 41
    assert hyp["all"]["counts"]["cleft"] == hyp["by_label"]["entailment"]["counts"]["cleft"]
    assert oracle_analysis["roles"]["premise"]["all"]["counts"]["cleft"] == 0


def test_tense_pairs_and_shortcuts(oracle_analysis):
    pairs = oracle_analysis["tense_pairs"]
    assert sum(pairs["all"].values()) == 255
    assert pairs["by_label"]["neutral"]["pres>fut"] >= 20
    top = {s["feature"]: s for s in oracle_analysis["shortcuts"]}
    # a `neg` EP on one side only is the contradiction shortcut of this data set
    neg = top["hypothesis_only:neg"]
    assert neg["majority_label"] == "contradiction" and neg["majority_share"] == 1.0
    assert neg["count"] == 40 and neg["labels"] == {"contradiction": 40}
    fut = top["hypothesis:tense=fut"]
    assert fut["majority_label"] == "neutral"
    mis = [s["mi"] for s in oracle_analysis["shortcuts"]]
    assert mis == sorted(mis, reverse=True)


def test_cli_through_fake_ace(fake_ace_config, tmp_path, capsys):
    out = tmp_path / "analysis.json"
    argv = ["analyze", str(NLI), "--ace", str(fake_ace_config.ace),
            "--grammar", str(fake_ace_config.grammar), "--grammar-version", "2018",
            "--workers", "2", "--top", "5", "-o", str(out)]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    assert data["input"] == str(NLI) and len(data["shortcuts"]) == 5
    assert data["definitions"]["shortcuts"]
    printed = capsys.readouterr().out
    assert "255 pairs" in printed and "hypothesis_only:neg" in printed


def test_unparsed_and_invalid_records_are_counted(fake_ace_config, tmp_path):
    from lit.ace.service import AceService

    data = tmp_path / "pairs.tsv"
    data.write_text(
        "sentence1\tsentence2\tgold_label\n"
        "A woman is driving a car.\tA woman is not driving a car.\tcontradiction\n"
        "Colorless green ideas sleep.\tA woman is driving a car.\tneutral\n"
        "\tA woman is driving a car.\tneutral\n"
    )
    items = list(read_nli(data))
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=10)) as service:
        parses = parse_sentences(service, (s for it in items if not it.error
                                           for s in (it.premise, it.hypothesis)))
    result = analyze(items, parses, "2018")
    assert result["invalid_records"] == 1 and result["pairs"] == 2
    premise = result["roles"]["premise"]["all"]
    assert premise["sentences"] == 2 and premise["parsed"] == 1 and premise["coverage"] == 0.5
    assert premise["parse_status"] == {"ok": 1, "no_parse": 1}
    assert result["roles"]["hypothesis"]["by_label"]["contradiction"]["counts"]["negated"] == 1
    assert result["tense_pairs"]["all"] == {"pres>pres": 1}


def test_mutual_information_hand_computed():
    labels = Counter(E=2, N=2)
    assert mutual_information(Counter(E=2), labels) == pytest.approx(1.0)  # F decides Y
    assert mutual_information(Counter(E=1, N=1), labels) == pytest.approx(0.0)
    # labels E E E N; F on one E and the N:
    # 1/4 log2(2/3) + 1/4 log2(2) + 1/2 log2(4/3) + 0
    want = 0.25 * math.log2(2 / 3) + 0.25 + 0.5 * math.log2(4 / 3)
    assert mutual_information(Counter(E=1, N=1), Counter(E=3, N=1)) == pytest.approx(want)


def test_rank_features_counts_and_order():
    items = [({"a", "b"}, "E"), ({"a", "b"}, "E"), ({"b", "c"}, "N"), ({"c"}, "N"),
             ({"b"}, "N")]
    rows = rank_features(items, top=10, min_count=2)
    assert [r["feature"] for r in rows] == ["a", "c", "b"]
    a = rows[0]
    assert a["count"] == 2 and a["labels"] == {"E": 2}
    assert a["majority_label"] == "E" and a["majority_share"] == 1.0
    b = rows[2]
    assert b["labels"] == {"E": 2, "N": 2} and b["majority_share"] == 0.5
    assert rank_features(items, min_count=3) == [rows[2]]
