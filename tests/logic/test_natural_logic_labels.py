"""Hand-labelled natural-logic cases: (sentence, edit, expected label), each with a comment.

Each sentence's MRS is its gold ERG 2025 analysis; the edit is applied to a copy of it, the
edit is found again by lit.logic.edit_between (lexical relation from lit.lexicon, polarity
from lit.logic.polarity), and the default label rules decide the self-pair (S, S') — the
whole chain `lit nli --self-pairs` uses, without ACE. `None` = no label: not_applicable.
"""

from __future__ import annotations

import pytest
from delphin.mrs import EP, MRS

from lit.labels import LabelRules
from lit.logic import edit_between
from lit.spec import parse_pair
from lit.status import Status
from tests.logic.test_polarity import gold_mrs

# (sentence, edit, expected label, comment). Edits: ("sub", old, new) replaces a predicate,
# ("drop", pred) removes a modifier EP, ("carg", old, new) changes a number.
CASES = [
    # --- hypernyms / hyponyms in upward positions -----------------------------------------
    ("The dog is barking.", ("sub", "_dog_n_1", "_animal_n_1"), "entailment",
     "definite subject, upward: the dog is an animal, so an animal is barking"),
    ("The dog is barking.", ("sub", "_dog_n_1", "_puppy_n_1"), "neutral",
     "a puppy is one kind of dog: the original does not say which"),
    ("Every cat chased some dog.", ("sub", "_dog_n_1", "_animal_n_1"), "entailment",
     "some's restrictor inside every's body is upward"),
    ("Every cat chased some dog.", ("sub", "_dog_n_1", "_puppy_n_1"), "neutral",
     "narrowing an upward existential says more"),
    ("A manager works.", ("sub", "_manager_n_of", "_person_n_1"), "entailment",
     "indefinite subject: a manager is a person"),
    ("Abrams is a manager.", ("sub", "_manager_n_of", "_person_n_1"), "entailment",
     "predicative noun, upward: being a manager entails being a person"),
    ("Abrams hired a programmer.", ("sub", "_programmer_n_of", "_person_n_1"),
     "entailment", "indefinite object, upward"),
    ("The cat chased it.", ("sub", "_cat_n_1", "_animal_n_1"), "entailment",
     "definite subject of a transitive verb"),
    ("There is a bookcase in the office.", ("sub", "_bookcase_n_1", "_furniture_n_1"),
     "entailment", "existential there: upward"),
    ("The dog barked in the garden.", ("sub", "_dog_n_1", "_animal_n_1"), "entailment",
     "a PP on the verb does not change the subject's polarity"),
    ("My cat barked.", ("sub", "_cat_n_1", "_animal_n_1"), "entailment",
     "possessive determiner (def_explicit_q) refers: upward"),
    ("If Abrams didn't hire a programmer, Browne did.",
     ("sub", "_programmer_n_of", "_person_n_1"), "entailment",
     "negation inside a conditional's antecedent: down twice is up"),
    ("Not every manager interviewed programmers.", ("sub", "_manager_n_of", "_person_n_1"),
     "entailment", "not every: restrictor upward (a manager who did not is a person who did not)"),
    # --- downward positions ----------------------------------------------------------------
    ("Every cat barked.", ("sub", "_cat_n_1", "_animal_n_1"), "neutral",
     "every's restrictor is downward: every animal is a stronger claim"),
    ("No cat barked.", ("sub", "_cat_n_1", "_animal_n_1"), "neutral",
     "no's restrictor is downward: no animal barked says more"),
    ("Every cat barked.", ("sub", "_cat_n_1", "_lion_n_1"), "neutral",
     "lion is a sibling, not a hyponym, of cat: in every's restrictor siblings do not exclude"),
    ("Every engineer who has a bookcase arrived.", ("sub", "_engineer_n_1", "_programmer_n_of"),
     "entailment", "every's restrictor is downward: what every engineer did every programmer did"),
    ("Nearly every dog barked.", ("sub", "_dog_n_1", "_puppy_n_1"), None,
     "nearly every (a degree word on every) is not monotone in its restrictor: no label"),
    ("Devito is not a manager.", ("sub", "_manager_n_of", "_person_n_1"), "neutral",
     "under negation: not a person is stronger than not a manager"),
    ("Few programmers were hired.", ("sub", "_programmer_n_of", "_person_n_1"), "neutral",
     "few is downward in its restrictor"),
    ("Few programmers were hired.", ("sub", "_programmer_n_of", "_engineer_n_1"), "neutral",
     "few, again, with the nearest hypernym"),
    ("Every manager who interviewed a programmer hired him.",
     ("sub", "_programmer_n_of", "_person_n_1"), "neutral",
     "an indefinite in every's restrictor (relative clause) is downward"),
    ("Not every manager interviewed programmers.",
     ("sub", "_programmer_n_of", "_person_n_1"), "neutral",
     "not every: the body is downward, so the object noun is too"),
    ("There is not a programmer working for Abrams.",
     ("sub", "_programmer_n_of", "_person_n_1"), "neutral",
     "an indefinite after not is under the negation"),
    # --- verbs -------------------------------------------------------------------------------
    ("The dog arrived and barked.", ("sub", "_bark_v_1", "_let_v_out"), "entailment",
     "each conjunct of a coordinated verb phrase is upward"),
    ("Every cat barked.", ("sub", "_bark_v_1", "_let_v_out"), "entailment",
     "the main verb in every's body is upward"),
    ("No cat barked.", ("sub", "_bark_v_1", "_let_v_out"), "neutral",
     "no's body is downward"),
    ("The window opened.", ("sub", "_open_v_1", "_close_v_1"), "contradiction",
     "antonymous verbs about the same window at the same time"),
    ("The picture of Abrams arrived.", ("sub", "_arrive_v_1", "_leave_v_1"), "contradiction",
     "arrive and leave are WordNet antonyms"),
    ("The manager knows that Abrams arrived.", ("sub", "_arrive_v_1", "_leave_v_1"), None,
     "under know (a clausal complement we do not treat as factive): no polarity, no label"),
    # --- siblings and antonyms -------------------------------------------------------------
    ("The dog is barking.", ("sub", "_dog_n_1", "_cat_n_1"), "contradiction",
     "co-hyponyms under carnivore; SNLI's same-scene reading makes them exclusive"),
    ("Every cat barked.", ("sub", "_cat_n_1", "_dog_n_1"), "neutral",
     "in a downward position siblings no longer exclude"),
    ("No cat barked.", ("sub", "_cat_n_1", "_dog_n_1"), "neutral",
     "no cat barked and no dog barked can both be true"),
    ("The cat is old.", ("sub", "_old_a_1", "_young_a_1"), "contradiction",
     "antonymous adjectives of the same cat"),
    ("Abrams has a bookcase which is heavy.", ("sub", "_heavy_a_1", "_light_a_1"),
     "contradiction", "antonyms inside an upward relative clause"),
    ("The dog is barking.", ("sub", "_dog_n_1", "_car_n_1"), "contradiction",
     "different kinds of whole object (disjoint): a dog is not a car"),
    ("The dog is barking.", ("sub", "_dog_n_1", "_music_n_1"), None,
     "unrelated words (music is no object): no rule, never a guessed label"),
    # --- opaque positions ------------------------------------------------------------------
    ("Ralph believes that Ortcutt is not a spy.", ("sub", "_spy_n_1", "_person_n_1"), None,
     "under believe: no polarity, no label"),
    ("It is obvious that the dog barked.", ("sub", "_dog_n_1", "_animal_n_1"), None,
     "obvious takes a clausal argument we do not know the monotonicity of"),
    # --- modifiers ---------------------------------------------------------------------------
    ("The old dog barked.", ("drop", "_old_a_1"), "entailment",
     "dropping an intersective adjective in an upward position generalizes"),
    ("The dog barked softly.", ("drop", "_soft_a_1"), "entailment",
     "dropping a manner adverb of an upward verb"),
    ("The tobacco garden dog barked.", ("drop", "compound"), None,
     "a compound EP alone: its other noun is left attached to nothing, so no single edit"),
    ("Abrams hired a woman who was competent.", ("drop", "_competent_a_1"), "entailment",
     "the copula before an adjective has no EP: this is dropping the woman's modifier"),
    ("Two competent programmers were hired.", ("drop", "_competent_a_1"), "entailment",
     "dropping an adjective of an upward bare plural with a number"),
    # --- determiners and numbers ---------------------------------------------------------
    ("Every cat barked.", ("sub", "_every_q", "_some_q"), "entailment",
     "every entails some (non-empty restrictor)"),
    ("Every cat barked.", ("sub", "_every_q", "_no_q"), "contradiction",
     "every and no exclude each other for a non-empty restrictor"),
    ("No cat barked.", ("sub", "_no_q", "_a_q"), "contradiction",
     "no and a/some are contradictories"),
    ("The dog is barking.", ("sub", "_the_q", "_a_q"), "entailment",
     "the dog is a dog"),
    ("A manager works.", ("sub", "_a_q", "_every_q"), "neutral",
     "one working manager does not make every manager work"),
    ("Three engineers manage a project.", ("carg", "3", "4"), "contradiction",
     "exact reading (SNLI's): three engineers are not four"),
    ("Five consultants work for Abrams.", ("carg", "5", "2"), "contradiction",
     "a smaller number is also another scene under the exact reading"),
]


def _apply(mrs: MRS, edit: tuple) -> MRS:
    """The gold MRS with one edit, built as a new MRS (the input is never changed)."""
    kind, *args = edit
    rels: list[EP] = []
    done = False
    for ep in mrs.rels:
        if done:
            rels.append(ep)
            continue
        if kind == "sub" and ep.predicate == args[0]:
            ep, done = EP(args[1], ep.label, dict(ep.args), ep.lnk, ep.surface, ep.base), True
        elif kind == "drop" and ep.predicate == args[0]:
            done = True
            continue
        elif kind == "carg" and ep.predicate == "card" and ep.carg == args[0]:
            new_args = {**ep.args, "CARG": args[1]}
            ep, done = EP(ep.predicate, ep.label, new_args, ep.lnk, ep.surface, ep.base), True
        rels.append(ep)
    assert done, f"edit {edit} does not apply"
    return MRS(mrs.top, mrs.index, rels, mrs.hcons, mrs.icons, mrs.variables, mrs.lnk,
               mrs.surface, mrs.identifier)


def test_at_least_forty_cases() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("sentence, edit, expected, comment", CASES,
                         ids=[f"{c[0]} {c[1]}" for c in CASES])
def test_natural_logic_label(sentence: str, edit: tuple, expected: str | None,
                             comment: str) -> None:
    source = gold_mrs(sentence)
    found = edit_between(source, _apply(source, edit))
    rules = LabelRules.load()
    if found is None:
        assert expected is None, comment
        return
    d = rules.decide(parse_pair("o;hyper"), "entailment", edit=found, same_sentence=True)
    assert d.label == expected, f"{comment}: {found.describe()} -> {d.rule} {d.reason}"
    if expected is None:
        assert d.status == Status.NOT_APPLICABLE and "no label rule covers" in d.reason
    else:
        assert d.edit == found.as_dict() and found.describe() in d.rationale
