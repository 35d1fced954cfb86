"""What the premise says of the material an edit brought into the hypothesis (issue 42).

Natural logic alone cannot label a hypothesis made more specific after an entailment: P |= H and
H' |= H leave P's relation to H' open. It is open exactly as far as the new material is: if
the premise speaks of nothing the new words could be matched to, H' says something P neither
states nor excludes, which is SNLI's neutral ("might be true"). The premise's stand on the new
material is read off its MRS word by word, with the lexicon's relations (lit.logic.edits):

* ``supports``: every new content word is in the premise, or a more specific word or a synonym
  is ("dog" in P for a new "animal");
* ``excludes``: some new word has an exclusive counterpart in the premise (a sibling or antonym:
  "cat" for a new "dog"); one such word is enough to decide nothing;
* ``silent``: otherwise, some new word has no counterpart that supports it: the premise names
  nothing it could be (only more general words, "dog" for a new "puppy", or unrelated ones).
  A different kind of object (``disjoint``: a sandwich where the premise has a microphone) is
  silent too, not exclusive: one scene holds many things, and the new one need not be the
  premise's (a sibling or antonym is more likely the same thing recast, so it abstains).

Only open-class words count (nouns, verbs other than the copula, adjectives, and words the
grammar did not know): prepositions, determiners and the grammar's abstract predicates are how
the new words attach, not what they say.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from lit.logic.edits import natural_relation

Stand = Literal["supports", "excludes", "silent"]
STANDS: tuple[str, ...] = ("supports", "excludes", "silent")

#: An open-class surface predicate: _LEMMA_n|v|a..., or an unknown word (_word/nn_u_unknown).
_CONTENT = re.compile(r"^_(?:.+_[nva](?:_[^_]+)?|[^_]+/[a-z]+_u_unknown)$")
_COPULA = re.compile(r"^_be_v_")
#: How a premise word stands to a new word (natural_relation(premise word, new word)).
_SUPPORTING = {"same", "hypernym"}
_EXCLUDING = {"sibling", "antonym"}


def content(predicates: Iterable[str]) -> list[str]:
    """The open-class predicates among *predicates*, in order, each once."""
    return list(dict.fromkeys(p for p in predicates
                              if _CONTENT.match(p) and not _COPULA.match(p)))


def premise_stand(new: Iterable[str], premise: Iterable[str]) -> Stand | None:
    """The premise's stand (its predicates *premise*) on the new material *new* (the
    predicates an edit added to the hypothesis); None when the new material has no
    open-class word (an added preposition or determiner alone says nothing to check)."""
    words = content(new)
    if not words:
        return None
    have = content(premise)
    stands = [_stand(word, have) for word in words]
    if "excludes" in stands:
        return "excludes"
    return "silent" if "silent" in stands else "supports"


def _stand(word: str, premise: list[str]) -> Stand:
    """One new word against the premise's words: a word that supports it wins over one that
    excludes it (the premise may mention both kinds of thing)."""
    relations = {natural_relation(p, word) for p in premise}
    if relations & _SUPPORTING:
        return "supports"
    if relations & _EXCLUDING:
        return "excludes"
    return "silent"
