"""Lexical relations between ERG predicates, from WordNet 3.0 (issue 15).

The package ships ``data/wordnet-erg.json.gz`` (built by tools/build_wordnet.py; WordNet licence
in ``data/LICENSE-WordNet``): each ERG 2025 noun, verb and adjective predicate mapped to one
WordNet synset (the first sense of its lemma with the same part of speech), named (``sense``:
*fire.n.01*), the hypernym graph above those synsets and the antonym pairs between predicates.
WordNet itself is never read at run time.

A substitution must keep the source word's sense (issue 24: *There is a fire.* became *There is
a case.*), so no candidates are offered for a noun whose first sense is not clearly its
commonest (``ambiguous``: *bank*, *bike*, *club*; verbs and adjectives keep their first sense,
their substitutes held to the roles it fills: *The cat is old.* -> *young*), and siblings meet
only below a specific enough hypernym (MIN_SIBLING_DEPTH: *fire* and *case* meet at
*happening*, which is not). The record names the senses of an edit (lit.logic.Edit).

``relation(a, b)`` says how *b* stands to *a* — ``"hypernym"`` means b is more general
(``relation("_dog_n_1", "_animal_n_1") == "hypernym"``), which is the direction of an edit
that replaces a by b. ``candidates(pred, rel)`` lists SEM-I predicates standing in *rel* to
*pred*, nearest first, without rare words (wordfreq Zipf frequency below ``min_zipf``: no
*canine* for *dog* unless asked) and without the abstract top of the noun hierarchy
(*entity*, *object*, *whole*).

The package: lit.lexicon.words reads a predicate's name, lit.lexicon.roles checks its SEM-I
roles, lit.lexicon.wordnet is the mapping (Lexicon), lit.lexicon.shipped asks the shipped one;
this module only re-exports.
"""

from __future__ import annotations

from lit.lexicon.roles import fits_roles
from lit.lexicon.shipped import (aligned_relation, candidates, colour, disjoint, person,
                                 relation, sense, synset)
from lit.lexicon.wordnet import (
    DATA,
    DEFAULT_MIN_ZIPF,
    EDIT_RELATIONS,
    HYPONYM_REACH,
    MIN_NOUN_DEPTH,
    MIN_SIBLING_DEPTH,
    OBJECT,
    PERSON,
    RELATIONS,
    SIBLING_REACH,
    Lexicon,
    Relation,
)
from lit.lexicon.words import lemma, pos, zipf

__all__ = [
    "DATA", "DEFAULT_MIN_ZIPF", "EDIT_RELATIONS", "HYPONYM_REACH", "MIN_NOUN_DEPTH",
    "MIN_SIBLING_DEPTH", "OBJECT", "PERSON", "RELATIONS", "SIBLING_REACH", "Lexicon",
    "Relation", "aligned_relation", "candidates", "colour", "disjoint", "fits_roles", "lemma",
    "person", "pos", "relation", "sense", "synset", "zipf",
]
