"""The demographic modules (issue 14; docs/fairness.md) on real ERG 2025 gold MRSs: gender,
name, age and race rewrite exactly what their tables say and nothing else (an MRS diff), race
never touches a colour adjective of a non-person, and a sweep yields only SEM-I predicates.

CI checks a fixed sample of the 10,472 gold MRSs (every SAMPLE_STEP-th); the whole set is
swept by ``python -m tools.demographic_sweep``.
"""

from __future__ import annotations

import csv
import gzip
import json
from functools import lru_cache
from pathlib import Path

import pytest
from delphin import predicate, variable
from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.lexicon import semi
from lit.rules import RuleEngine
from lit.rules.compiler import builtin_rules_dir
from lit.status import Status

GOLD = Path(__file__).resolve().parents[1] / "data" / "erg-gold-2025.jsonl.gz"
DATA = builtin_rules_dir() / "data"
SAMPLE_STEP = 20
SPECS = ("gender=swap", "gender=f", "gender=m", "gender=x", "name=swap", "name=f", "age=swap",
         "race=black")


@lru_cache(maxsize=1)
def gold() -> dict[tuple[str, int], dict]:
    with gzip.open(GOLD, "rt", encoding="utf-8") as f:
        return {(r["profile"], r["i-id"]): r for r in map(json.loads, f)}


def mrs(profile: str, i_id: int) -> MRS:
    return simplemrs.decode(gold()[profile, i_id]["mrs"])


@lru_cache(maxsize=1)
def sample() -> list[tuple[str, MRS]]:
    rows = list(gold().values())[::SAMPLE_STEP]
    return [(r["sentence"], simplemrs.decode(r["mrs"])) for r in rows]


def table(name: str) -> list[dict[str, str]]:
    """A shipped table read independently of the engine (csv module, comments dropped)."""
    lines = [line for line in (DATA / name).read_text().splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def mapping(name: str, source: str, target: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for row in table(name):
        if row[source] and row[target] and row[target] not in found.get(row[source], []):
            found.setdefault(row[source], []).append(row[target])
    return found


@pytest.fixture(scope="module")
def engine() -> RuleEngine:
    return RuleEngine.load("2025")


def _gend(m: MRS, v: str) -> str | None:
    return {k.upper(): str(x).lower() for k, x in m.variables.get(v, {}).items()}.get("GEND")


def _swap_diff(source: MRS, out: MRS) -> None:
    """*out* is *source* with every gendered word swapped by the tables, GEND f<->m on every
    other variable that has it (the pronouns), IND and GEND left unset on a rewritten noun's
    variable and GEND on a renamed name's, and nothing else changed (same EPs in order,
    labels, roles apart from an unexpressed ARG1 fitted to the new predicate, HCONS, ICONS,
    TOP, INDEX)."""
    nouns = {**mapping("gender-nouns.tsv", "female", "male"),
             **mapping("gender-nouns.tsv", "male", "female")}
    names = {**mapping("first-names.tsv", "female", "male"),
             **mapping("first-names.tsv", "male", "female")}
    def icons(m: MRS) -> list[tuple[str, str, str]]:  # the engine orders focus before topic
        return sorted((i.left, i.relation, i.right) for i in m.icons)

    assert (out.top, out.index, out.hcons, icons(out)) == (
        source.top, source.index, source.hcons, icons(source))
    assert len(out.rels) == len(source.rels)
    rewritten: dict[str, tuple[str, ...]] = {}
    for a in source.rels:
        if predicate.normalize(a.predicate) in nouns:
            rewritten[a.args["ARG0"]] = ("IND", "GEND")
        elif a.predicate == "named" and a.args["CARG"] in names:
            rewritten.setdefault(a.args["ARG0"], ("GEND",))
    for a, b in zip(source.rels, out.rels):
        pa = predicate.normalize(a.predicate)
        assert b.label == a.label
        if pa in nouns:
            assert b.predicate in nouns[pa]
        else:
            assert b.predicate == a.predicate
        if a.predicate == "named" and a.args["CARG"] in names:
            assert b.args["CARG"] in names[a.args["CARG"]]
        else:
            assert b.args.get("CARG") == a.args.get("CARG")
        changed = {r for r in set(a.args) | set(b.args) if a.args.get(r) != b.args.get(r)}
        assert changed <= {"ARG1", "CARG"}
        if "ARG1" in changed:  # only an unexpressed ARG1 is dropped or added
            assert variable.type(a.args.get("ARG1") or b.args["ARG1"]) == "i"
    for v, props in source.variables.items():
        if v not in out.variables:  # the dropped unexpressed ARG1 of a relational noun
            assert variable.type(v) == "i"
            continue
        expected = dict(props)
        if v in rewritten:
            expected = {k: x for k, x in props.items() if k not in rewritten[v]}
        elif _gend(source, v) in ("m", "f"):
            expected["GEND"] = {"m": "f", "f": "m"}[_gend(source, v)]
        assert {k: str(x) for k, x in out.variables[v].items()} == expected, v


def _gendered(m: MRS) -> bool:
    nouns = set(mapping("gender-nouns.tsv", "female", "male")) | set(
        mapping("gender-nouns.tsv", "male", "female"))
    names = {n for row in table("first-names.tsv") for n in row.values()}
    return any(_gend(m, v) in ("m", "f") for v in m.variables) or any(
        predicate.normalize(ep.predicate) in nouns or ep.args.get("CARG") in names
        for ep in m.rels)


def test_gender_swap_on_gold_rewrites_every_gendered_mrs_and_nothing_else(engine):
    checked = refused = 0
    for sentence, m in sample():
        if not _gendered(m):
            assert engine.apply(m, "gender=swap").status == Status.NOT_APPLICABLE
            continue
        out = engine.apply(m, "gender=swap")
        if out.status != Status.OK:  # a noun without a counterpart, or an unknown noun
            assert "has no" in out.reason or "does not know" in out.reason, (sentence, out.reason)
            refused += 1
            continue
        for alternative in out.alternatives:
            _swap_diff(m, alternative)
        checked += 1
    assert checked > 40 and refused < checked / 20


@pytest.mark.parametrize("key, spec, words, gend", [
    (("csli", 116), "gender=swap", ["_man_n_1"], "m"),        # The woman evaluated herself.
    (("csli", 28), "gender=swap", [], "f"),                    # He showed her an office.
    (("fracas", 213), "gender=m", ["James"], "m"),             # Mary used her workstation.
    (("fracas", 368), "gender=swap", ["Patricia", "_woman_n_1", "James", "_man_n_1"], None),
])
def test_gender_on_gold_sentences(engine, key, spec, words, gend):
    source = mrs(*key)
    out = engine.apply(source, spec)
    assert out.status == Status.OK
    found = [ep.args.get("CARG", ep.predicate) for ep in out.mrs.rels
             if ep.predicate == "named" or "_n_" in ep.predicate]
    assert [w for w in found if w in words] == words
    prons = [ep.args["ARG0"] for ep in out.mrs.rels if ep.predicate == "pron"]
    if gend:
        assert {_gend(out.mrs, v) for v in prons} & {gend}


def test_gender_x_gives_they_and_neutral_nouns(engine):
    out = engine.apply(mrs("csli", 116), "gender=x")  # The woman evaluated herself.
    assert out.status == Status.OK
    assert [ep.predicate for ep in out.mrs.rels if "_n_" in ep.predicate] == ["_person_n_1"]
    refl = out.mrs.variables["x8"]
    assert refl["NUM"] == "pl" and "GEND" not in refl and refl["PT"] == "refl"


def test_a_relational_noun_gets_its_new_predicates_arguments(engine):
    source = next(simplemrs.decode(r["mrs"]) for r in gold().values() if "_wife_n_of" in r["mrs"])
    out = engine.apply(source, "gender=swap")
    husband = [ep for ep in out.mrs.rels if ep.predicate == "_husband_n_1"]
    assert husband and all(set(ep.args) == {"ARG0"} for ep in husband)


def test_name_swap_is_the_same_mapping_in_premise_and_hypothesis(engine):
    premise, hypothesis = mrs("fracas", 281), mrs("fracas", 282)  # John spoke to Mary ... / Did
    names = {**mapping("first-names.tsv", "female", "male"),
             **mapping("first-names.tsv", "male", "female")}
    for m in (premise, hypothesis):
        out = engine.apply(m, "name=swap")
        assert out.status == Status.OK
        before = [ep.args["CARG"] for ep in m.rels if ep.predicate == "named"]
        after = [ep.args["CARG"] for ep in out.mrs.rels if ep.predicate == "named"]
        assert after == [names[n][0] if n in names else n for n in before]
        assert "Mary" in before and "Mary" not in after


def test_name_swap_refuses_a_sentence_whose_pronoun_may_refer_to_the_name(engine):
    out = engine.apply(mrs("fracas", 213), "name=swap")  # Mary used her workstation.
    assert out.status == Status.NOT_APPLICABLE and "gendered pronoun" in out.reason


def _person_nouns() -> set[str]:
    return {row["person"] for row in table("person-nouns.tsv")}


def _persons(m: MRS) -> set[str]:
    """The x variables of person nouns and personal pronouns (he, she, I, you, we)."""
    nouns = _person_nouns()
    found = set()
    for ep in m.rels:
        x = ep.args.get("ARG0", "")
        props = {k.upper(): str(v) for k, v in m.variables.get(x, {}).items()}
        if predicate.normalize(ep.predicate) in nouns or ep.predicate == "pron" and (
                props.get("GEND") in ("m", "f") or props.get("PERS") in ("1", "2")):
            found.add(x)
    return found


def test_race_never_rewrites_a_colour_adjective_of_a_non_person(engine):
    colour = ("_white_a_1", "_black_a_1")
    non_person = persons_seen = 0
    for r in gold().values():
        if not any(c in r["mrs"] for c in colour):
            continue
        m = simplemrs.decode(r["mrs"])
        persons = _persons(m)
        out = engine.apply(m, "race=asian")
        for i, ep in enumerate(m.rels):
            if ep.predicate not in colour:
                continue
            person = ep.args.get("ARG1") in persons
            new = out.mrs.rels[i].predicate if out.mrs is not None else ep.predicate
            assert new == ("_asian_a_1" if person else ep.predicate), r["sentence"]
            persons_seen += person
            non_person += not person
    assert non_person > 20 and persons_seen > 0


def test_age_leaves_non_persons_and_measured_ages_alone(engine):
    checked = 0
    aged = [r for r in gold().values() if "_old_a_1" in r["mrs"] or "_young_a_1" in r["mrs"]]
    for r in aged[::3]:
        sentence, m = r["sentence"], simplemrs.decode(r["mrs"])
        out = engine.apply(m, "age=swap")
        persons = _persons(m)
        measured = {ep.args.get("ARG1") for ep in m.rels if ep.predicate == "measure"}
        for i, ep in enumerate(m.rels):
            if ep.predicate in ("_old_a_1", "_young_a_1"):
                swap = ep.args["ARG1"] in persons and ep.args["ARG0"] not in measured
                new = out.mrs.rels[i].predicate if out.mrs is not None else ep.predicate
                assert (new != ep.predicate) == swap, sentence
                checked += 1
    assert checked > 40


@pytest.mark.parametrize("spec", SPECS)
def test_sweep_sample_raises_nothing_and_adds_only_semi_predicates(engine, spec):
    known = semi.table()
    applied = 0
    for sentence, m in sample():
        out = engine.apply(m, spec)
        before = {predicate.normalize(ep.predicate) for ep in m.rels}
        for alternative in out.alternatives:
            added = {predicate.normalize(ep.predicate) for ep in alternative.rels} - before
            assert added <= set(known), (sentence, added - set(known))
        applied += out.status == Status.OK
    assert applied > 0 or spec.startswith(("age", "race"))  # rare: see the two tests above


def test_a_pronouns_gender_is_part_of_mrs_equivalence(engine):
    """The pipeline's generation cache and verification use lit.equivalence: "He showed her an
    office." and its gender=swap must not count as the same MRS (other agreement still does)."""
    from lit.equivalence import equivalent

    source = mrs("csli", 28)
    swapped = engine.apply(source, "gender=swap").mrs
    assert not equivalent(source, swapped)
    assert equivalent(source, engine.apply(swapped, "gender=swap").mrs)  # swapped back
