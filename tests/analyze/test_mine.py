"""Mined shortcuts (issue 30): each candidate family on gold ERG 2025 MRSs and on derivations
recorded on the rig; planted shortcuts (passive, cleft, plural subject, negated hypothesis)
recovered under FDR control from gold MRSs, nothing surviving random labels; the n-gram
comparison; `lit analyze --mine` on recorded SNLI parses with splits, report and evaluate;
`lit nli --against-shortcut` with a mined feature."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import random
import re
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from delphin import derivation
from delphin.codecs import simplemrs
from delphin.mrs import is_well_formed
from scipy.stats import chi2

from lit.ace.options import parse_cache_for
from lit.ace.service import ParseResult, Reading
from lit.analyze.analysis import PairRow
from lit.analyze.contrast import check_features, transform_features
from lit.records import read_records
from lit.analyze.fragments import (
    derivation_fragments,
    family,
    group,
    mrs_fragments,
    ngrams,
    top_derivation,
)
from lit.analyze.mi import mutual_information
from lit.analyze.mine import (
    SentenceRow,
    mine,
    pair_candidates,
    sentence_candidates,
    sentence_rows,
    side_marked,
)
from lit.analyze.significance import mi_bits, significance
from lit.cli import main
from lit.config import DEFAULTS
from lit.errors import InputError
from lit.mrs import Reach, index_ep
from lit.phenomena import describe
from lit.report.build import ReportOptions, build_report
from lit.status import Status
from lit.tasks.item import TaskItem
from tests.analyze.test_pairs import SNLI_PARSES, ace_args
from tests.conftest import DATA, ORACLE, read_jsonl

GOLD = DATA / "erg-gold-2025.jsonl.gz"
DERIVATIONS = DATA / "live" / "gold-derivations-erg2025-rig.jsonl.gz"
MINED = ("mrs", "derivation", "frame", "alignment")


@pytest.fixture(scope="module")
def gold() -> list[tuple[str, object]]:
    """(sentence, MRS) of every gold analysis with ICONS (passives, clefts, ...) and every
    fifth other one, well-formed ones only."""
    out = []
    with gzip.open(GOLD, "rt") as f:
        for k, line in enumerate(f):
            rec = json.loads(line)
            if not re.search(r"ICONS: < [^>]", rec["mrs"]) and k % 5:
                continue
            m = simplemrs.decode(rec["mrs"])
            if is_well_formed(m):
                out.append((rec["sentence"], m))
    return out


@pytest.fixture(scope="module")
def candidates(gold) -> list[frozenset[str]]:
    """Each gold sentence's candidates (fragments, hand-made phenomena, n-grams)."""
    return [frozenset(sentence_candidates(m, text=s, grammar_version="2025")) for s, m in gold]


def one(sentence: str):
    """The gold MRS of *sentence*."""
    with gzip.open(GOLD, "rt") as f:
        rec = next(r for r in map(json.loads, f) if r["sentence"] == sentence)
    return simplemrs.decode(rec["mrs"])


def sentence_table(gold, candidates, label) -> list[SentenceRow]:
    return [SentenceRow(str(k), s, label(m), feats)
            for k, ((s, m), feats) in enumerate(zip(gold, candidates))]


def first_mined(result: dict) -> dict:
    return next(r for r in result["top"] if r["family"] in MINED)


# --- candidate families -----------------------------------------------------------------------


def test_mrs_fragments_of_a_passive():
    m = one("Abrams was hired by Browne.")
    frags = mrs_fragments(m)
    assert {"ep:_hire_v_1", "main:_hire_v_1", "arg:_hire_v_1.ARG1=named",
            "arg:_hire_v_1.ARG2=named", "argtype:v.ARG2=x", "prop:main.TENSE=past",
            "prop:main.PROG=-", "prop:main.ARG2.NUM=sg", "q:definite", "q:main.ARG2=definite",
            "hcons:qeq:top>_hire_v_1", "icons:topic", "icons:topic:v.ARG2",
            "icons:topic:main.ARG2", "prop:index.SF=prop"} <= frags
    assert not any(f.startswith(("icons:focus", "index:none")) for f in frags)
    assert {"frame:main=ARG1,ARG2", "frame:main=ARG1:x,ARG2:x"} <= frags
    assert {family(f) for f in frags} == {"mrs", "frame"}


def test_mrs_fragments_of_a_2025_cleft_negation_and_plural(gold):
    cleft = next(m for s, m in gold if describe(m, "2025").cleft)
    frags = mrs_fragments(cleft)
    assert "index:none" in frags and any(f.startswith("icons:focus:main.") for f in frags)
    neg = next(m for s, m in gold if describe(m, "2025").negated)
    frags = mrs_fragments(neg)
    head = index_ep(neg, Reach.CLAUSE).predicate
    assert "ep:neg" in frags and f"hcons:qeq:neg.ARG1>{head}" in frags
    assert "hcons:qeq:neg.ARG1>main" in frags
    frags = mrs_fragments(one("The managers finished working."))
    assert "prop:main.ARG1.NUM=pl" in frags and "prop:n.NUM=pl" in frags


def test_unexpressed_argument_is_typed_and_handles_are_followed(gold):
    frags = set().union(*(mrs_fragments(m) for _, m in gold[:300]))
    assert any(re.fullmatch(r"arg:_\w+_v_\w+\.ARG2=i", f) for f in frags)
    assert "argtype:v.ARG2=h" in frags  # a verb with a clausal complement
    clausal = [f for f in frags if re.fullmatch(r"arg:_\w+_v_\w+\.ARG2=_\w+_v_\w+", f)]
    assert clausal  # the handle's qeq target's head verb


def test_derivation_fragments_of_recorded_rig_parses():
    rows = read_jsonl(DERIVATIONS)[1:]
    by_sentence = {r["sentence"]: r for r in rows}
    passive = by_sentence["Abrams was hired by Browne."]
    d = derivation.from_string(passive["derivation"])
    frags = derivation_fragments(d)
    assert "lex:hire_v1" in frags or any(f.startswith("lex:hire") for f in frags)
    assert any(f.startswith("rule:") and "pas" in f for f in frags), sorted(frags)
    root = d.daughters[0] if d.is_root() else d
    kids = " ".join(k.entity for k in root.daughters)
    assert f"tree:{root.entity}({kids})" in frags
    assert all(f"edge:{root.entity}>{k.entity}" in frags for k in root.daughters)
    assert {family(f) for f in frags} == {"derivation"}
    assert group(f"tree:{root.entity}({kids})") == root.entity
    result = ParseResult(passive["sentence"], Status.OK, None,
                         (Reading(passive["mrs"], passive["derivation"]),), None, 0.0)
    assert top_derivation(result) == d
    assert top_derivation(ParseResult("x", Status.OK, None, (Reading("[ ]", "(broken"),),
                                      None, 0.0)) is None


def test_lexical_types_come_from_udx_derivations():
    d = derivation.from_string('(1 sb-hd_mc_c 0 0 2 (2 dog_n1@n_-_c_le 0 0 1 ("dog"))'
                               ' (3 bark_v1@v_-_le 0 1 2 ("barks")))')
    assert derivation_fragments(d) == {
        "rule:sb-hd_mc_c", "lex:dog_n1", "lex:bark_v1", "letype:n_-_c_le", "letype:v_-_le",
        "letype:n_-_*", "letype:v_-_*",
        "edge:sb-hd_mc_c>n_-_c_le", "edge:sb-hd_mc_c>v_-_le", "tree:sb-hd_mc_c(n_-_c_le v_-_le)"}


def test_ngrams_and_sides():
    assert ngrams("The man didn't sleep.") == {
        "uni:the", "uni:man", "uni:didn't", "uni:sleep", "bi:the man", "bi:man didn't",
        "bi:didn't sleep"}
    assert side_marked({"ep:a", "ep:b"}, {"ep:b", "ep:neg"}) == {
        "prem-only:ep:a", "shared:ep:b", "hyp-only:ep:neg"}
    assert family("hyp-only:uni:not") == "ngram" and family("verb:same") == "handmade"
    assert family("and:ARG1:same&verb:antonym") == "alignment"
    assert group("hyp-only:hcons:qeq:neg.ARG1>_sleep_v_1") == "neg"
    assert group("shared:arg:_eat_v_1.ARG2=_apple_n_1") == "_eat_v_1"


def test_pair_candidates_mark_sides_and_read_the_alignment(gold):
    p = one("Abrams was hired by Browne.")
    neg = next((s, m) for s, m in gold if describe(m, "2025").negated)
    feats = pair_candidates(p, p, "2025", texts=("Abrams was hired by Browne.",) * 2)
    assert {"verb:same", "link:verb=_hire_v_1>_hire_v_1", "and:ARG1:same&verb:same",
            "shared:icons:topic:main.ARG2", "shared:uni:hired"} <= feats
    assert not any(f.startswith(("prem-only:", "hyp-only:")) for f in feats)
    feats = pair_candidates(p, neg[1], "2025")
    assert {"hyp-only:ep:neg", "prem-only:icons:topic", "negation:added"} <= feats
    assert not any(family(f) == "ngram" for f in feats)


# --- significance -----------------------------------------------------------------------------


def test_mi_is_the_g_statistic_and_bh_comes_from_scipy():
    rng = np.random.default_rng(0)
    labels = np.array([40, 35, 25])
    with_f = np.array([[30, 2, 1], [4, 3, 3], [10, 12, 8]])
    mi = mi_bits(with_f, labels)
    for row, value in zip(with_f, mi):
        assert value == pytest.approx(mutual_information(
            Counter(dict(zip("ENC", row))), Counter(dict(zip("ENC", labels)))))
    tested = significance(with_f, labels)
    assert tested.p[0] < 1e-6 < 0.5 < tested.p[1]
    assert tested.q[0] == pytest.approx(min(1, tested.p[0] * 3))  # BH: p · m / rank
    g = 2 * 100 * np.log(2) * mi[1]
    assert tested.p[1] > chi2.sf(g, 2)  # Williams' correction makes small tables harder
    assert significance(rng.integers(0, 5, (4, 1)), np.array([9])).q.tolist() == [1.0] * 4


def test_features_with_the_same_items_are_one_finding():
    rows = [SentenceRow(str(k), f"s{k}", "a" if k < 20 else "b",
                        frozenset({"ep:x", "lex:x_1"} if k < 20 else {"ep:y"})
                        | ({"ep:z"} if k % 2 else set()))
            for k in range(60)]
    result = mine(rows, resamples=0)
    assert result["significant"] == 3 and result["distinct"] == 2
    # ep:y is not-ep:x: the same MI, more items, so first; lex:x_1 is listed under ep:x
    assert [r["feature"] for r in result["top"]] == ["ep:y", "ep:x"]
    assert result["top"][1]["same_items"] == ["lex:x_1"] and "same_items" not in result["top"][0]


# --- planted shortcuts on gold MRSs -----------------------------------------------------------


def test_planted_passive_is_recovered(gold, candidates):
    rows = sentence_table(gold, candidates,
                          lambda m: "yes" if describe(m, "2025").passive else "no")
    result = mine(rows, resamples=0)
    top = first_mined(result)
    assert top["feature"] == "icons:topic:main.ARG2" and top["q"] <= 0.05
    assert top["rank"] <= 2  # tied with the hand-made `passive` at most
    assert result["groups"][0]["members"][0]["feature"] in {"passive", "icons:topic:main.ARG2"}
    hand = next(h for h in result["handmade"] if h["feature"] == "passive")
    assert hand["significant"] and hand["rank"] <= 2


def test_planted_cleft_is_recovered(gold, candidates):
    rows = sentence_table(gold, candidates,
                          lambda m: "cleft" if describe(m, "2025").cleft else "other")
    result = mine(rows, resamples=0)
    top = first_mined(result)
    assert top["feature"] in {"index:none", "icons:focus"} or \
        top["feature"].startswith("icons:focus"), top
    assert top["q"] <= 0.05
    group_top = next(g for g in result["groups"] if g["group"] == top["group"])
    assert group_top["members"][0]["feature"] == top["feature"]


def plural_subject(m) -> str:
    main = index_ep(m, Reach.CLAUSE)
    x = main.args.get("ARG1") if main else None
    return "pl" if x and m.variables.get(x, {}).get("NUM") == "pl" else "other"


def test_planted_plural_subject_is_recovered(gold, candidates):
    rows = sentence_table(gold, candidates, plural_subject)
    result = mine(rows, resamples=0)
    top = first_mined(result)
    assert top["feature"] == "prop:main.ARG1.NUM=pl" and top["rank"] == 1
    assert top["q"] <= 0.05 and top["group"] == "properties"


def negation_pairs(gold, labels=None) -> list[PairRow]:
    """600 gold sentence pairs; contradiction exactly when the hypothesis is negated and the
    premise is not, else entailment or neutral at random (or *labels* given)."""
    rnd = random.Random(7)
    negated = [x for x in gold if describe(x[1], "2025").negated]
    rows = []
    for k in range(600):
        (ps, pm) = rnd.choice(gold)
        (hs, hm) = rnd.choice(negated if k % 6 == 0 else gold)
        planted = describe(hm, "2025").negated and not describe(pm, "2025").negated
        label = "contradiction" if planted else rnd.choice(["entailment", "neutral"])
        label = labels[k] if labels else label
        feats = pair_candidates(pm, hm, "2025", texts=(ps, hs))
        rows.append(PairRow(TaskItem(str(k), k, {}, (ps, hs), label), label, frozenset(feats)))
    return rows


def test_planted_negated_hypothesis_is_recovered_and_compared_with_ngrams(gold):
    result = mine(negation_pairs(gold), resamples=200)
    neg = next(g for g in result["groups"] if g["family"] in MINED)  # the first mined group
    assert neg["group"] == "neg"
    best = neg["members"][0]
    assert best["feature"] in {"hyp-only:hcons:qeq:top>neg", "hyp-only:hcons:qeq:neg.ARG1>main",
                               "hyp-only:ep:neg"} and best["q"] <= 0.05
    assert {r["feature"] for r in neg["members"][:3]} >= {"hyp-only:hcons:qeq:neg.ARG1>main"}
    exact = next(r for r in result["top"] if r["feature"] == "negation:added")
    assert best["mi"] >= 0.7 * exact["mi"]  # the hand-made feature is the planted one exactly
    low, high = best["mi_ci"]
    assert low <= high and len(best["examples"]) == 3
    # "not" comes closest, but "n't", "cannot" and embedded "not" keep it from explaining it
    assert best["ngram"]["feature"] == "hyp-only:uni:not"
    assert 0.3 < best["ngram"]["jaccard"] < 0.8 and not best["ngram"]["explained"]
    assert any(r["feature"] == "negation:added" and r["significant"]
               for r in result["handmade"])
    assert result["ngrams"]["significant"] >= 1  # "not" and "n't" words are cues too


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_labels_leave_nothing_significant(gold, candidates, seed):
    rnd = random.Random(seed)
    rows = sentence_table(gold, candidates, lambda m: rnd.choice(["a", "b", "c"]))
    result = mine(rows, resamples=0)
    assert result["tested"] > 1000
    assert result["significant"] == 0 and result["ngrams"]["significant"] == 0
    assert result["groups"] == [] and result["top"] == []


def test_random_pair_labels_leave_nothing_significant(gold):
    rnd = random.Random(3)
    labels = [rnd.choice(["entailment", "neutral", "contradiction"]) for _ in range(600)]
    result = mine(negation_pairs(gold, labels), resamples=0)
    assert result["tested"] > 1000 and result["significant"] == 0


def test_sentence_rows_read_parses_and_skip_failures(gold):
    s, m = gold[0]
    parses = {s: ParseResult(s, Status.OK, None, (Reading(simplemrs.encode(m)),), None, 0.0),
              "no": ParseResult("no", Status.NO_PARSE, "none", (), None, 0.0)}
    rows = sentence_rows([("1", s, "x"), ("2", "no", "x"), ("3", "missing", "y")], parses)
    assert [r.id for r in rows] == ["1"] and "uni:" + s.split()[0].lower() in rows[0].features


# --- the command: --mine on recorded SNLI parses ------------------------------------------------


@pytest.fixture(scope="module")
def mined_run(fake_ace_executable, tmp_path_factory):
    """`lit analyze --mine --splits` on the first 200 SNLI dev pairs, every parse from the
    cache seeded with the rig's recorded top MRSs. Without their derivations: their ~1,200
    more candidates leave nothing in 158 pairs significant, and this checks the command's
    output (test_planted_construction mines the derivations)."""
    root = tmp_path_factory.mktemp("mine")
    data, grammar = root / "snli200.jsonl", root / "erg-2025.dat"
    data.write_text("".join(json.dumps(r) + "\n"
                            for r in read_jsonl(DATA / "snli-1.0-dev.jsonl.gz")[:200]))
    grammar.write_bytes(b"stand-in image\n")
    mp = pytest.MonkeyPatch()
    mp.setenv("LIT_CACHE_DIR", str(root / "cache"))
    cache = parse_cache_for(grammar, DEFAULTS)
    for r in read_jsonl(SNLI_PARSES)[1:]:
        readings = (Reading(r["mrs"]),) if r["mrs"] else ()
        cache.put(ParseResult(r["sentence"], Status(r["status"]), r["reason"], readings, None,
                              0.0), 1)
    cache.close()
    out, splits = root / "analysis.json", root / "splits"
    buf, text = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(buf), contextlib.redirect_stdout(text):
        code = main(["analyze", str(data), "--mine", "--min-support", "5", "--resamples", "50",
                     "--splits", str(splits), "--split-top", "3", "-o", str(out),
                     *ace_args(fake_ace_executable, grammar, "2025")])
    mp.undo()
    return code, json.loads(out.read_text()), splits, text.getvalue()


def test_analyze_mine_writes_groups_handmade_ranks_and_ngrams(mined_run):
    code, result, _, text = mined_run
    assert code == 0
    mined = result["mined"]
    assert mined["items"] == result["pair_shortcut_pairs"] > 100
    assert mined["tested"] <= mined["candidates"] and mined["significant"] >= 1
    assert set(mined["families"]) >= {"mrs", "alignment", "handmade"}
    assert all(family(r["feature"]) == "handmade" for r in result["pair_shortcuts"])
    for g in mined["groups"]:
        mis = [r["mi"] for r in g["members"]]
        assert mis == sorted(mis, reverse=True) and g["best_mi"] == mis[0]
        for r in g["members"]:
            assert r["q"] <= 0.05 and r["count"] >= 5 and "ngram" in r
    ranks = [h["rank"] for h in mined["handmade"]]
    assert ranks == sorted(ranks)
    leading = mined["leading"]  # the best mined ones, significant or not
    assert leading and all(family(r["feature"]) in MINED and "ngram" in r for r in leading)
    assert [r["rank"] for r in leading] == sorted(r["rank"] for r in leading)
    assert mined["ngrams"]["leading"][0]["rank"] == 1
    assert "mined shortcuts (" in text and "n-gram baseline:" in text


def test_mined_splits_are_scored_by_evaluate(mined_run, tmp_path):
    _, result, splits, _ = mined_run
    manifest = json.loads((splits / "splits.json").read_text())
    assert [m["feature"] for m in manifest] == [r["feature"] for r in result["mined"]["top"][:3]]
    m = manifest[0]
    ids = {json.loads(line)["id"] for split in manifest for side in ("follow", "counter")
           for line in (splits / split[side]).read_text().splitlines()}
    preds = tmp_path / "biased.jsonl"
    preds.write_text("".join(json.dumps({"id": i, "spec": "original",
                                         "prediction": m["majority_label"]}) + "\n"
                             for i in sorted(ids)))
    out = tmp_path / "scores.json"
    assert main(["evaluate", str(splits), "--predictions", str(preds), "-o", str(out)]) == 0
    row = json.loads(out.read_text())["results"][0]
    assert row["feature"] == m["feature"] and row["follow"]["accuracy"] == 1.0


def test_report_shows_mined_shortcuts(mined_run):
    _, result, *_ = mined_run
    html = build_report([], ReportOptions(analysis=result))
    assert 'id="mined"' in html and "Mined shortcuts" in html
    best = result["mined"]["groups"][0]["members"][0]
    assert best["feature"].replace("&", "&amp;").replace(">", "&gt;") in html
    assert "n-gram baseline" in html


# --- --against-shortcut with a mined feature ---------------------------------------------------


def test_derivation_features_are_refused_for_against_shortcut():
    with pytest.raises(InputError, match="derivation fragment"):
        check_features(["verb:same", "rule:hd-cmp_u_c"])
    check_features(["verb:same", "hyp-only:ep:neg", "hyp-only:uni:not"])


def test_against_a_mined_feature(fake_ace_executable, fake_ace_config, tmp_path, capsys):
    data = tmp_path / "oracle14.jsonl"
    with gzip.open(ORACLE / "nli-pairs.jsonl.gz", "rt") as f:
        data.write_text("".join(f.readline() for _ in range(14)))
    grammar = tmp_path / "erg-2018.dat"
    shutil.copy(fake_ace_config.grammar, grammar)
    out = tmp_path / "contrast.jsonl"
    feature = "hyp-only:ep:neg"
    assert main(["nli", str(data), "-o", str(out), "--specs", "o;o,m;o,pa;pa",
                 "--against-shortcut", feature, "--no-progress",
                 *ace_args(fake_ace_executable, grammar, "2018")]) == 0
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if x.startswith(f"lit nli: against {feature}"))
    assert "majority contradiction" in line, line
    path = Path(line.rsplit("-> ", 1)[1])
    kept = [t for r in read_records(path) for t in r.transforms]
    assert kept and all(t.label != "contradiction" for t in kept)
    for t in kept:  # recomputed from the transform's MRSs, with n-grams of its outputs
        feats = transform_features(t, "2018")
        assert feature in feats and any(family(f) == "ngram" for f in feats)
    assert main(["nli", str(data), "-o", str(out), "--against-shortcut", "rule:sb-hd_mc_c",
                 *ace_args(fake_ace_executable, grammar, "2018")]) == 2
    assert "derivation fragment" in capsys.readouterr().err
