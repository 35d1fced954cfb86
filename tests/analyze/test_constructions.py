"""Constructions in the shortcut miner (issue 43): lexical types from ACE's UDX derivations with
their name classes and ERG supertypes, the main predication's frame, the sides a frame is
marked with, and the most general feature shown over the words it covers; a structural
shortcut planted in recorded SNLI parses is found as a construction."""

from __future__ import annotations

import gzip
import json
import random

import pytest
from delphin import derivation, variable
from delphin.codecs import simplemrs

from lit.analyze.analysis import PairRow
from lit.analyze.fragments import (
    family,
    from_derivation,
    generality,
    group,
    lexical_node,
    mrs_fragments,
    sentence_fragments,
)
from lit.analyze.letypes import name_class, type_table
from lit.analyze.mine import SentenceRow, format_mined, mine, pair_candidates, side_marked
from lit.mrs import Reach, index_ep
from lit.tasks.item import TaskItem
from tests.analyze.test_mine import DERIVATIONS, GOLD, one
from tests.analyze.test_pairs import SNLI_PARSES
from tests.conftest import DATA, read_jsonl
from tools.build_letype_table import main as build_table

# --- the main predication's frame --------------------------------------------------------------


def test_frames_name_the_roles_filled_and_their_types():
    hired = mrs_fragments(one("Abrams was hired by Browne."))
    assert {"frame:main=ARG1,ARG2", "frame:main=ARG1:x,ARG2:x", "frame:main.v=ARG1,ARG2",
            "frame:main.v=ARG1:x,ARG2:x"} <= hired
    assert {"frame:main=-", "frame:main.v=-"} <= mrs_fragments(one("It rained."))


def test_an_unexpressed_object_is_left_out_of_the_roles_and_typed_i():
    with gzip.open(GOLD, "rt") as f:
        m = next(m for m in (simplemrs.decode(json.loads(line)["mrs"]) for line in f)
                 if (e := index_ep(m, Reach.CLAUSE)) is not None and "_v_" in e.predicate
                 and set(e.args) == {"ARG0", "ARG1", "ARG2"}
                 and variable.type(e.args["ARG2"]) == "i")
    frames = {f for f in mrs_fragments(m) if f.startswith("frame:main=")}
    assert frames == {"frame:main=ARG1", "frame:main=ARG1:x,ARG2:i"}


# --- lexical types: UDX, name classes, supertypes ----------------------------------------------


def recorded(sentence: str):
    row = next(r for r in read_jsonl(DERIVATIONS)[1:] if r["sentence"] == sentence)
    return simplemrs.decode(row["mrs"]), derivation.from_string(row["derivation"])


def test_the_main_predication_has_the_type_of_its_word():
    m, d = recorded("A woman is driving a car.")
    main = index_ep(m, Reach.CLAUSE)
    node = lexical_node(d, main.cfrom, main.cto)
    assert node.entity.startswith("drive") and node.type.endswith("_le")
    table = type_table("2025")
    frags = sentence_fragments(m, d, table)
    valence = table.synsem[node.type]
    assert {f"frame:main.letype={node.type}", f"frame:main.letype={name_class(node.type)}",
            f"frame:main.synsem={valence[0]}", f"letype:{node.type}",
            f"synsem:{valence[0]}", "synsem:trans_lt"} <= frags
    woman = lexical_node(d, 2, 7)
    assert woman.entity.startswith("woman") and {
        f"letype:{t}" for t in table.supertypes[woman.type]} <= frags
    # the determiner's type is there too, and is nobody's main type
    det = lexical_node(d, 0, 1)
    assert det.entity.startswith("a_") and f"letype:{det.type}" in frags
    assert f"frame:main.letype={det.type}" not in frags


def test_a_phrase_main_predication_has_no_word_type():
    m, d = recorded("A man in a blue shirt.")
    assert not index_ep(m, Reach.CLAUSE).predicate.startswith("_")
    assert not any(f.startswith("frame:main.letype=") for f in sentence_fragments(m, d))


def test_no_token_spans_no_word():
    d = derivation.from_string('(1 sb-hd_mc_c 0 0 2 (2 dog_n1@n_-_c_le 0 0 1 ("dog"))'
                               ' (3 bark_v1@v_-_le 0 1 2 ("barks")))')
    assert lexical_node(d, 0, 3) is None


def test_lexical_types_and_their_classes():
    table = type_table("2025")
    supers, valence = table.supertypes, table.synsem
    assert len(supers) > 1000 and supers["n_-_c_le"][0] == "n_intr_lex_entry"
    # main_verb: more than a tenth of the lexicon; v_-_lexent: only ever v_-_le
    assert not {"main_verb", "v_-_lexent"} & set(supers["v_-_le"])
    # the valence hierarchy, not the lexical one, says both are intransitive
    assert valence["v_-_le"][0] == "unerg_verb"  # unacc_verb: only ever v_-_unacc_le
    assert "onearg_verb" in valence["v_-_le"] and "onearg_verb" in valence["v_-_unacc_le"]
    assert "onearg_verb" not in valence["v_np*_le"] and "trans_lt" in valence["v_np*_le"]
    assert type_table("1066").supertypes == {}
    assert name_class("v_-_le") == name_class("v_-_unacc_le") == "v_-_*"
    assert name_class("v_np*_le") == "v_np*_*" and name_class("xx_le") is None
    assert name_class("basic_main_verb") is None


def test_the_table_is_built_from_the_grammars_type_files(tmp_path):
    (tmp_path / "letypes.tdl").write_text(
        'v_-_le := v_-_lexent.\nv_np_le := v_np_lexent & nonque.\n')
    (tmp_path / "lextypes.tdl").write_text(
        'v_-_lexent := main_verb & intrans & [ SYNSEM unerg_verb ].\n'
        'v_np_lexent := main_verb & [ SYNSEM trans_verb & [ LOCAL.CAT.VAL.COMPS < > ] ].\n'
        'main_verb := word & nonque.\nintrans := nonque.\nnonque := avm.\n'
        'unerg_verb := onearg_verb.\n')
    (tmp_path / "auxverbs.tdl").write_text('v_vp_mdl_le := main_verb.\n')
    (tmp_path / "fundamentals.tdl").write_text(
        'word := avm.\nonearg_verb := synsem.\ntrans_verb := synsem.\nsynsem := avm.\n')
    out = tmp_path / "letypes.json.gz"
    build_table([str(tmp_path), "-o", str(out), "--max-share", "1"])
    table = json.loads(gzip.decompress(out.read_bytes()))
    # a type with only the leaf under it, or the same leaves as a nearer one, is left out:
    # v_-_lexent, intrans and unerg_verb are only ever v_-_le; nonque has main_verb's
    assert table["supertypes"] == {"v_-_le": ["main_verb"], "v_np_le": ["nonque"],
                                   "v_vp_mdl_le": ["main_verb"]}
    assert table["synsem"] == {"v_-_le": ["synsem"], "v_np_le": ["synsem"], "v_vp_mdl_le": []}
    build_table([str(tmp_path), "-o", str(out)])  # a tenth of three types: none is that rare
    table = json.loads(gzip.decompress(out.read_bytes()))
    assert not any(table["supertypes"].values()) and not any(table["synsem"].values())


# --- sides, families, generality ---------------------------------------------------------------


def test_a_frame_is_also_marked_with_its_side_whatever_the_other_has():
    assert side_marked({"frame:main=ARG1", "ep:a"}, {"frame:main=ARG1"}) == {
        "shared:frame:main=ARG1", "prem:frame:main=ARG1", "hyp:frame:main=ARG1",
        "prem-only:ep:a"}
    assert family("hyp:frame:main=ARG1") == "frame"
    assert group("hyp:frame:main.letype=v_-_*") == "main type"
    assert group("prem-only:frame:main.v=ARG1") == "main frame"
    assert group("hyp:frame:main.synsem=onearg_verb") == "main type"
    assert group("shared:synsem:onearg_verb") == "valence"
    assert from_derivation("hyp:frame:main.synsem=onearg_verb")
    assert from_derivation("hyp:frame:main.letype=v_-_le")
    assert not from_derivation("hyp:frame:main=ARG1")
    assert from_derivation("shared:letype:v_-_le")


def test_a_word_is_less_general_than_its_type_than_its_class():
    assert generality("hyp-only:lex:sleep_v1") == generality("hyp-only:main:_sleep_v_1") == 0
    assert generality("hyp-only:letype:v_-_le") == generality("hyp:frame:main.letype=v_-_le") == 1
    assert generality("hyp-only:letype:v_-_*") == generality("hyp:frame:main=ARG1") == 2
    assert generality("hyp:frame:main.synsem=onearg_verb") == 2


# --- the most general feature is shown --------------------------------------------------------


WORDS = ("hyp-only:main:_sit_v_1", "hyp-only:main:_swim_v_1", "hyp-only:main:_stand_v_1",
         "hyp-only:main:_sleep_v_1")
CONSTRUCTION = "hyp:frame:main.v=ARG1"


def construction_rows(words_only: int = 0) -> list[SentenceRow]:
    """40 items with the construction, 10 per word, 9 of 10 labelled c; 120 others labelled
    a, b or c in turn; *words_only* more items per word that lack the construction."""
    rows = []
    for k in range(40):
        feats = {CONSTRUCTION, WORDS[k % 4], f"uni:w{k % 3}"}
        rows.append(SentenceRow(f"c{k}", "", "c" if k % 10 else "a", frozenset(feats)))
    for k in range(120):
        rows.append(SentenceRow(f"o{k}", "", "abc"[k % 3], frozenset({f"uni:w{k % 3}"})))
    for k in range(words_only * 4):
        rows.append(SentenceRow(f"w{k}", "", "c", frozenset({WORDS[k % 4]})))
    return rows


def test_a_construction_is_shown_over_the_words_it_covers():
    result = mine(construction_rows(), resamples=200)
    assert result["top"][0]["feature"] == CONSTRUCTION
    covered = result["top"][0]["covers"]
    assert covered and set(covered) <= set(WORDS)
    assert not {r["feature"] for r in result["top"]} & set(WORDS)
    assert result["covered"] == len(covered)
    assert "covers " + covered[0] in format_mined(result)


def test_a_word_that_reaches_beyond_the_construction_stays_alone():
    result = mine(construction_rows(words_only=3), resamples=200)
    shown = {r["feature"] for r in result["top"]}
    assert set(WORDS) & shown  # their items are not all the construction's
    assert not any(set(r.get("covers", ())) & set(WORDS) for r in result["top"])


def test_of_features_with_the_same_items_the_most_general_is_shown():
    rows = [SentenceRow(str(k), "", "a" if k < 20 else "b",
                        frozenset({"lex:sleep_v1", "letype:v_-_le", "letype:v_-_*"}
                                  if k < 20 else {"ep:y"}) | ({"ep:z"} if k % 2 else set()))
            for k in range(60)]
    result = mine(rows, resamples=0)
    shown = next(r for r in result["top"] if r["count"] == 20)
    assert shown["feature"] == "letype:v_-_*"
    assert set(shown["same_items"]) == {"lex:sleep_v1", "letype:v_-_le"}
    # one test for the three: BH counts distinct item sets
    assert result["tested"] == 5 and result["tested_sets"] == 3


# --- a structural shortcut planted in recorded SNLI parses -------------------------------------


#: What a person might list as intransitive verbs: the plant is theirs, not the grammar's.
INTRANSITIVE = {"sit", "stand", "sleep", "swim", "run", "walk", "jump", "dance", "smile",
                "wait", "laugh", "lie", "pose", "rest", "cry", "skate", "fall", "climb", "kneel",
                "relax", "work", "talk", "race", "ride", "perform", "compete", "travel"}


@pytest.fixture(scope="module")
def snli_parses():
    out = {}
    for r in read_jsonl(SNLI_PARSES)[1:]:
        if r["mrs"] and r["derivation"]:
            out[r["sentence"]] = (simplemrs.decode(r["mrs"]),
                                  derivation.from_string(r["derivation"]))
    return out


def planted_rows(snli_parses) -> tuple[list[PairRow], set[str]]:
    """The first 200 SNLI dev pairs whose sides parsed on the rig; a pair whose hypothesis's
    main verb is on the list of intransitive verbs and has no object is labelled
    contradiction four times in five, the rest keep their gold label."""
    table, rnd = type_table("2025"), random.Random(5)
    rows, planted = [], set()
    for k, rec in enumerate(read_jsonl(DATA / "snli-1.0-dev.jsonl.gz")[:200]):
        p, h = snli_parses.get(rec["sentence1"]), snli_parses.get(rec["sentence2"])
        if p is None or h is None or rec["gold_label"] == "-":
            continue
        main = index_ep(h[0], Reach.CLAUSE)
        lemma = main.predicate.strip("_").split("_")[0] if main else ""
        label = rec["gold_label"]
        if lemma in INTRANSITIVE and "ARG2" not in main.args:
            planted.add(str(k))
            label = "contradiction" if rnd.random() < 0.8 else label
        feats = pair_candidates(p[0], h[0], "2025", (sentence_fragments(*p, table),
                                                     sentence_fragments(*h, table)),
                                (rec["sentence1"], rec["sentence2"]))
        rows.append(PairRow(TaskItem(str(k), k, rec, (rec["sentence1"], rec["sentence2"]), label),
                            label, frozenset(feats)))
    return rows, planted


def test_a_planted_construction_ranks_high_as_a_construction(snli_parses):
    rows, planted = planted_rows(snli_parses)
    assert len(rows) > 150 and len(planted) >= 15
    result = mine(rows, resamples=0, top=50)
    ranked = result["leading"]
    items = {r["feature"]: {row.item.id for row in rows if r["feature"] in row.features}
             for r in ranked}

    def jaccard(f: str) -> float:
        return len(items[f] & planted) / len(items[f] | planted)

    found = [r for r in ranked[:10] if jaccard(r["feature"]) >= 0.7]
    assert found and all(r["majority_label"] == "contradiction" for r in found)
    assert found[0]["family"] == "frame" and generality(found[0]["feature"]) == 2
    best_ngram = result["ngrams"]["leading"][0]
    assert best_ngram["mi"] < found[0]["mi"]
