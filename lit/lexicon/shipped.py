"""The questions most callers ask, put to the mapping shipped with LIT (Lexicon.load())."""

from __future__ import annotations

from functools import cache
from importlib import resources

from lit.lexicon.wordnet import DEFAULT_MIN_ZIPF, HUMAN, OBJECT, PERSON, Lexicon, Relation
from lit.lexicon.words import lemma, pos


def relation(pred_a: str, pred_b: str) -> Relation:
    """How *pred_b* stands to *pred_a* in WordNet: same, hypernym (b more general), hyponym,
    sibling (co-hyponyms), antonym or unrelated."""
    return Lexicon.load().relation(pred_a, pred_b)


def aligned_relation(a: str, b: str) -> str:
    """`relation` of two aligned predicates, where a constant (``named(Bob)``, ``card(2)``,
    which WordNet does not map) is same or unrelated by its CARG."""
    if "(" in a or "(" in b:
        return "same" if a == b else "unrelated"
    return str(relation(a, b))


def candidates(pred: str, rel: str, *, min_zipf: float = DEFAULT_MIN_ZIPF,
               max_candidates: int | None = None) -> list[str]:
    """SEM-I predicates standing in *rel* to *pred*, best first (see Lexicon.candidates)."""
    return Lexicon.load().candidates(pred, rel, min_zipf=min_zipf,
                                     max_candidates=max_candidates)


def sense(pred: str) -> str | None:
    """The WordNet sense *pred* is mapped to, by name (``_fire_n_1`` -> "fire.n.01")."""
    return (Lexicon.load().senses or {}).get(pred)


def synset(pred: str) -> str | None:
    """The WordNet 3.0 synset id (pos letter + offset) *pred* is mapped to, if any."""
    return Lexicon.load().preds.get(pred)


def person(pred: str) -> bool:
    """True if *pred* is mapped to a synset below person.n.01 (*man*, *child*, *student*)."""
    lexicon = Lexicon.load()
    sid = lexicon.preds.get(pred)
    return sid is not None and PERSON in lexicon.ancestors(sid)


def disjoint(pred_a: str, pred_b: str) -> bool:
    """True if *pred_a* and *pred_b* name different kinds of whole object: both mapped below
    object.n.01 (things, living things, places), neither below the other, and not both
    people (below person.n.01 or human.n.01: a person's nouns are mostly compatible roles,
    a man may be a student, a human a teacher)."""
    lexicon = Lexicon.load()
    sa, sb = lexicon.preds.get(pred_a), lexicon.preds.get(pred_b)
    if sa is None or sb is None or sa == sb:
        return False
    up_a, up_b = lexicon.ancestors(sa), lexicon.ancestors(sb)
    people = {PERSON, HUMAN}
    return (OBJECT in up_a and OBJECT in up_b and sa not in up_b and sb not in up_a
            and not (people & up_a.keys() and people & up_b.keys()))


@cache
def _colours() -> dict[str, str]:
    """spelling -> colour, from data/colours.txt."""
    text = resources.files("lit.lexicon").joinpath("data", "colours.txt").read_text("utf-8")
    return {word: line.split()[0] for line in text.splitlines()
            if line.strip() and not line.startswith("#") for word in line.split()}


def colour(pred: str) -> str | None:
    """The basic colour an adjective predicate names (``_grey_a_1`` -> "gray"), else None."""
    return _colours().get(lemma(pred) or "") if pos(pred) == "a" else None
