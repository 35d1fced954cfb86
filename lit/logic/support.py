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

Only open-class words count (nouns, verbs other than the copula, adjectives, names and numbers
with their constant, ``named(Seattle)``, ``card(3)``, and words the grammar did not know;
two different numbers exclude each other, as lit.logic.edits reads them): prepositions, determiners and the grammar's abstract predicates are how
the new words attach, not what they say.

An edit of the *premise* changes the premise's stand on the hypothesis (``edit_stand``): read
word by word, the hypothesis is ``supported`` when the premise supports every one of its
words, ``excluded`` when the premise excludes one, ``silent`` otherwise — SNLI's own
definitions of E, C and N, at the grain of words. What the edit did is the hypothesis's
standing after it, where that differs from before: the premise now excludes a word
("A woman ..." -> "A man ...", with "A woman wearing a short skirt ..."), now supports every
word ("... drinking out of a cup" -> "... drinking coffee out of a cup", with "The young man
is drinking coffee."), or no longer supports one. Only the change is read, never the standing
itself: what a premise implies by world knowledge ("beach" for "outdoors") is the original
label's business, which the edit leaves alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from delphin.mrs import EP

from lit.logic.edits import natural_relation

Stand = Literal["supports", "excludes", "silent"]

#: An open-class surface predicate: _LEMMA_n|v|a..., an unknown word (_word/nn_u_unknown), or
#: a name or number with its constant, as lit.diff writes it (named(Seattle), card(3)).
_CONTENT = re.compile(
    r"^(?:_(?:.+_[nva](?:_[^_]+)?|[^_]+/[a-z]+_u_unknown)|named\(.+\)|card\(.+\))$")
_NUMBER = re.compile(r"^card\((.+)\)$")
_COPULA = re.compile(r"^_be_v_")
#: How a premise word stands to a new word (natural_relation(premise word, new word)).
_SUPPORTING = {"same", "hypernym"}
_EXCLUDING = {"sibling", "antonym"}


def word_key(ep: EP) -> str:
    """An EP's predicate as the stand reads it: a name with its constant (``named(Bob)``, as
    lit.diff writes an EP), any other predicate as it is."""
    return f"{ep.predicate}({ep.carg})" if ep.carg is not None else ep.predicate


def is_word(predicate: str) -> bool:
    """True for an open-class predicate (see the module), as ``word_key`` spells it."""
    return bool(_CONTENT.match(predicate)) and not _COPULA.match(predicate)


def content(predicates: Iterable[str]) -> list[str]:
    """The open-class predicates among *predicates*, in order, each once."""
    return list(dict.fromkeys(filter(is_word, predicates)))


def premise_stand(new: Iterable[str], premise: Iterable[str]) -> Stand | None:
    """The premise's stand (its predicates *premise*) on the new material *new* (the
    predicates an edit added to the hypothesis); None when the new material has no
    open-class word (an added preposition or determiner alone says nothing to check)."""
    words = content(new)
    if not words:
        return None
    have = content(premise)
    return _joint([word_stand(word, have) for word in words])


def edit_stand(hypothesis: Iterable[str], before: Iterable[str], after: Iterable[str]
               ) -> Stand | None:
    """The premise's new stand on the hypothesis (its predicates) after an edit made the
    premise's predicates *before* into *after*; None when the edit left it as it was (or the
    hypothesis has no open-class word)."""
    words = content(hypothesis)
    if not words:
        return None
    old, new = content(before), content(after)
    was = _joint([word_stand(w, old) for w in words])
    now = _joint([word_stand(w, new) for w in words])
    return None if now == was else now


def _joint(stands: list[Stand]) -> Stand:
    """One stand for several words: one excluded word excludes, one silent word leaves the
    whole open, else all are supported."""
    if "excludes" in stands:
        return "excludes"
    return "silent" if "silent" in stands else "supports"


def word_stand(word: str, premise: list[str]) -> Stand:
    """One new word against the premise's words: a word that supports it wins over one that
    excludes it (the premise may mention both kinds of thing)."""
    relations = {_relation(p, word) for p in premise}
    if relations & _SUPPORTING:
        return "supports"
    if relations & _EXCLUDING:
        return "excludes"
    return "silent"


def _relation(premise_word: str, word: str) -> str:
    """How *word* stands to a premise word: two numbers are the same or exclusive siblings
    (SNLI's exact reading), anything else as natural logic relates it."""
    a, b = _NUMBER.match(premise_word), _NUMBER.match(word)
    if a and b:
        return "same" if a[1] == b[1] else "sibling"
    return natural_relation(premise_word, word)
