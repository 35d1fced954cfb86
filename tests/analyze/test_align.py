"""Alignment and pair features on hand-checked pairs: gold ERG 2025 analyses (the `mrs`
profile of tests/data/erg-gold-2025.jsonl.gz) and oracle transformations (ERG 2018 source
and target MRSs of tests/data/oracle/pairs.jsonl.gz). Each row lists features that must be
present and features that must not be, with why (read off the two sentences)."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.analyze.aligned import aligned_pair_features, named_links
from lit.lexicon import aligned_relation as relation
from lit.mrs import Method, Reach, align, index_ep
from tests.conftest import DATA, ORACLE, read_jsonl

GOLD = {r["sentence"]: r["mrs"] for r in read_jsonl(DATA / "erg-gold-2025.jsonl.gz")
        if r["profile"] == "mrs"}
SNLI_PARSES = DATA / "live" / "snli200-parses-erg2025-rig.jsonl.gz"
ORACLE_PAIRS = {r["id"]: r for r in read_jsonl(ORACLE / "pairs.jsonl.gz")}

# (premise, hypothesis, features present, features absent, why)
GOLD_CASES = [
    ("The old dog barked.", "The dog barked softly.",
     {"verb:same", "ARG1:same", "deleted:adj", "added:adv"}, {"ARG2:added"},
     "the adjective on the subject goes, an adverb on the verb comes"),
    ("The dog barked softly.", "The old dog barked.",
     {"added:adj", "deleted:adv"}, {"added:adv", "deleted:adj"},
     "the mirror image of the previous row"),
    ("The dog is barking.", "The dog will bark.",
     {"tense:pres>fut", "prog:+>-", "verb:same", "overlap:hypothesis_words_in_premise"},
     {"negation:added"}, "tense and aspect change, the words stay (no EP for will)"),
    ("The dog could bark.", "The dog couldn't bark.",
     {"negation:added", "hypothesis:negated", "hypothesis:modal"},
     {"modal:added", "modal:removed", "modal:changed"},
     "negation added under the same modal"),
    ("Every cat barked.", "No cat barked.",
     {"ARG1:det=universal>negative", "ARG1:same"}, {"negation:added"},
     "no is a determiner, not sentential negation"),
    ("My cat barked.", "Every cat barked.",
     {"ARG1:det=definite>universal", "deleted:poss"}, {"ARG1:different"},
     "my = a definite determiner plus a possessor"),
    ("The old dog barked.", "The dog barked in the garden.",
     {"deleted:adj", "added:pp", "added:entity"}, {"added:adj"},
     "a PP on the verb brings a new entity (the garden)"),
    ("The garden dog barked.", "The tobacco garden dog barked.",
     {"added:compound", "pp:same"}, {"deleted:compound"},
     "the compounds pair up, garden aligns with garden, tobacco modifies it"),
    ("Abrams chased Browne.", "Somebody chased Abrams.",
     {"ARG1:unrelated", "ARG2:unrelated", "ARG1:det=definite>indefinite", "verb:same"},
     {"ARG1:same", "ARG2:same"}, "names differ by CARG; somebody is an indefinite person"),
    ("That dog chased Browne.", "The happier dog chased Browne.",
     {"added:adj", "ARG2:same"}, {"ARG1:det=definite>indefinite"},
     "that and the are both definite; happier adds an adjective"),
    ("The barking dog chased Browne.", "That dog chased Browne.",
     {"deleted:relcl", "ARG1:same"}, {"added:relcl"},
     "the participle barking is a verb EP on the dog's label"),
    ("There were cats in the garden.", "The cat is in the garden.",
     {"expletive:premise", "ARG1:same", "ARG1:det=indefinite>definite", "tense:past>pres"},
     {"expletive:hypothesis"}, "expletive there, bare plural vs the"),
    ("The cat is in the garden.", "There were cats in the garden.",
     {"expletive:hypothesis", "ARG1:det=definite>indefinite"}, {"expletive:premise"},
     "the reverse: the expletive is on the hypothesis side"),
    ("Abrams chased Browne.", "The dog was chased by Browne.",
     {"voice:active>passive", "hypothesis:passive", "verb:same", "ARG1:unrelated"},
     {"ARG1:same"}, "logical roles: ARG1 is Abrams vs Browne (the by-phrase)"),
    ("Abrams barked.", "Abrams chased Browne.",
     {"ARG1:same", "ARG2:added", "verb:unrelated", "added:entity"}, {"ARG2:deleted"},
     "an object appears; bark and chase are unrelated in WordNet"),
    ("Abrams chased Browne.", "Abrams barked.",
     {"ARG2:deleted", "ARG1:same"}, {"ARG2:added", "added:entity"},
     "the object goes; nothing new in the hypothesis"),
    ("The dog is barking.", "The dog has been barking.",
     {"perf:->+", "verb:same"}, {"prog:+>-"}, "perfect added, progressive kept"),
    ("Browne's dog barks.", "The dog barks now.",
     {"deleted:poss", "added:pp", "ARG1:same"}, {"ARG1:det=definite>indefinite"},
     "now is loc_nonsp + time_n in the ERG (a PP-like modifier); both NPs definite"),
    ("Cats go.", "Twenty three dogs go.",
     {"ARG1:sibling", "verb:same"}, {"ARG1:same", "ARG1:hypernym"},
     "cat and dog are WordNet siblings (the ShortcutGrammar contradiction cue)"),
    ("The cat is old.", "Abrams was very old.",
     {"verb:same", "ARG1:unrelated", "tense:pres>past", "added:other"}, {"ARG1:same"},
     "the adjective is the main predicate; very is a degree modifier"),
    ("The window opened.", "That opened.",
     {"verb:same", "ARG1:unrelated"}, {"ARG1:same"},
     "demonstrative pronoun (generic_entity) vs a noun"),
    ("My cat barked.", "It barked.",
     {"ARG1:unrelated", "deleted:poss", "overlap:hypothesis_words_in_premise"},
     {"added:entity"}, "a pronoun for the cat; it adds no surface predicate"),
    ("Every cat chased some dog.", "Every cat barked.",
     {"ARG2:deleted", "verb:unrelated", "ARG1:same"}, {"ARG1:det=universal>indefinite"},
     "same subject and determiner, different verb, object dropped"),
    ("The dog barked in the garden.", "The dog barked softly.",
     {"deleted:pp", "added:adv"}, {"deleted:adj"}, "a PP replaced by an adverb"),
    ("The dog will bark.", "The dog is going to bark.",
     {"verb:same", "tense:fut>pres", "prog:->+"}, {"verb:unrelated"},
     "index_ep (Reach.CLAUSE) looks through going+to (a handle-taking index) to bark"),
    ("Abrams arrived by car.", "Abrams and Browne arrived.",
     {"deleted:pp", "ARG1:unrelated"}, {"ARG1:same"},
     "a coordination (_and_c) is not the name it contains: a documented limit"),
]

# (oracle pair id, features present, features absent, why)
ORACLE_CASES = [
    ("s02:tense=past", {"tense:pres>past", "verb:same", "ARG1:same", "ARG2:same"},
     {"negation:added"}, "A woman is/was driving a car."),
    ("s02:prog=-", {"prog:+>-", "overlap:hypothesis_words_in_premise"}, {"tense:pres>past"},
     "is driving > drives"),
    ("s02:perf=+", {"perf:->+"}, {"prog:+>-"}, "has been driving"),
    ("s02:modal=may", {"modal:added", "hypothesis:modal", "verb:same"},
     {"overlap:hypothesis_words_in_premise"}, "may is a surface predicate the premise lacks"),
    ("s02:neg", {"negation:added", "hypothesis:negated", "ARG1:same", "ARG2:same"},
     {"voice:active>passive"}, "is not driving"),
    ("s02:ques", {"hypothesis:question", "verb:same"}, {"negation:added"}, "Is a woman ...?"),
    ("s02:pass", {"voice:active>passive", "ARG1:same", "ARG2:same"},
     {"ARG1:unrelated"}, "passive keeps the logical roles"),
    ("s02:swap", {"ARG1:unrelated", "ARG2:unrelated", "verb:same"}, {"ARG1:same"},
     "A car is driving a woman: the arguments trade places"),
    ("s02:cleft=ARG1", {"verb:same", "ARG1:same", "ARG2:same", "hypothesis:cleft"},
     {"ARG1:unrelated"}, "It is a woman who is driving a car (ERG 2018 focus)"),
]

# SNLI pairs through the rig's recorded ERG 2025 parses: NP-fragment premises (`unknown`)
# (premise, hypothesis, features present, features absent, why)
SNLI_CASES = [
    ("A young boy playing in the grass.", "There is a child in the grass.",
     {"expletive:hypothesis", "ARG1:sibling"}, {"ARG1:added", "ARG1:deleted"},
     "the fragment's participle is the main predication, its boy the ARG1 (lit.lexicon: "
     "boy and child are siblings)"),
    ("A man selling donuts to a customer during a world exhibition event held in the city "
     "of Angeles", "A woman drinks her coffee in a small cafe.",
     {"ARG1:antonym", "ARG2:unrelated", "verb:unrelated"}, {"ARG1:added"},
     "man / woman: ShortcutGrammar's subject antonym (contradiction)"),
    ("A lady sitting on a bench that is against a building and under a poster of a man in a "
     "uniform waving.", "A person sitting",
     {"ARG1:hypernym", "verb:same"}, {"ARG1:unrelated"},
     "lady > person, both fragments with the participle sitting"),
]


def _mrs(sentence: str):
    return simplemrs.decode(GOLD[sentence])


@pytest.mark.parametrize("premise,hypothesis,present,absent,why", GOLD_CASES,
                         ids=[f"{c[0]} > {c[1]}" for c in GOLD_CASES])
def test_gold_pairs(premise, hypothesis, present, absent, why):
    feats = aligned_pair_features(_mrs(premise), _mrs(hypothesis), "2025")
    assert present <= feats, (why, sorted(feats))
    assert not absent & feats, (why, sorted(feats))


@pytest.mark.parametrize("pair_id,present,absent,why", ORACLE_CASES,
                         ids=[c[0] for c in ORACLE_CASES])
def test_oracle_pairs(pair_id, present, absent, why):
    row = ORACLE_PAIRS[pair_id]
    feats = aligned_pair_features(simplemrs.decode(row["source_mrs"]),
                                  simplemrs.decode(row["target_mrs"]), "2018")
    assert present <= feats, (why, sorted(feats))
    assert not absent & feats, (why, sorted(feats))


@pytest.mark.parametrize("premise,hypothesis,present,absent,why", SNLI_CASES,
                         ids=[c[1] for c in SNLI_CASES])
def test_snli_fragment_pairs(premise, hypothesis, present, absent, why):
    snli = {r["sentence"]: r["mrs"] for r in read_jsonl(SNLI_PARSES)[1:]}
    feats = aligned_pair_features(simplemrs.decode(snli[premise]),
                                  simplemrs.decode(snli[hypothesis]), "2025")
    assert present <= feats, (why, sorted(feats))
    assert not absent & feats, (why, sorted(feats))


def test_the_table_has_thirty_cases():
    assert len(GOLD_CASES) + len(ORACLE_CASES) + len(SNLI_CASES) >= 30


def test_links_of_a_compound_pair():
    """The garden dog / the tobacco garden dog: every link, in order."""
    p, h = _mrs("The garden dog barked."), _mrs("The tobacco garden dog barked.")
    a = align(p, h, Method.ROLES)
    assert [(lk.role, pn, hn, lk.kind) for lk, pn, hn in named_links(p, h, a)] == [
        ("verb", "_bark_v_1", "_bark_v_1", None),
        ("ARG1", "_dog_n_1", "_dog_n_1", None),
        ("mod", "compound", "compound", "compound"),
        ("pp", "_garden_n_1", "_garden_n_1", None),
        ("mod", None, "compound", "compound"),
        ("other", None, "_tobacco_n_1", None),
    ]


def test_the_clause_index_ep_looks_through_clause_joiners():
    """ERG 2025 `_while_x` (SNLI: "... hugging goodbye while holding ...") and
    `_going+to_v_qmodal` take handles: the main predication is their first clause's head."""
    assert index_ep(_mrs("The dog is going to bark."), Reach.CLAUSE).predicate == "_bark_v_1"
    snli = {r["sentence"]: r["mrs"] for r in read_jsonl(SNLI_PARSES)[1:]}
    sisters = ("The sisters are hugging goodbye while holding to go packages after just "
               "eating lunch.")
    assert index_ep(simplemrs.decode(snli[sisters]), Reach.CLAUSE).predicate == "_hug_v_1"


def test_relation_of_constants_and_words():
    assert relation("named(Abrams)", "named(Abrams)") == "same"
    assert relation("named(Abrams)", "named(Browne)") == "unrelated"
    assert relation("_man_n_1", "_person_n_1") == "hypernym"  # lit.lexicon (WordNet)
    assert relation("_man_n_1", "_woman_n_1") == "antonym"
