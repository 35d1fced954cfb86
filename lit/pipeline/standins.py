"""Words the grammar does not know, generated through known stand-ins and put back.

The ERG parses an unknown word as a generic predicate (``_cartwheel/nn_u_unknown``) that its
generator cannot realize ("input EP not in index"). Before generation each such noun or
adjective is replaced by a known predicate of the same part of speech and initial sound
(data/standins.tsv); number comes from the variable's NUM, as for any noun. In each
realization the stand-in's form is replaced by the original word, and verification re-parses
that sentence against the MRS with the unknown predicate, so nothing unproven gets through.
Verbs are not stood in: their form changes with tense, and the original gives only one form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from delphin.mrs import MRS, EP

_UNKNOWN = re.compile(r"^_(?P<word>.+)/(?P<tag>[a-z]+)_u_unknown$", re.IGNORECASE)
#: ERG unknown-word tags by the stand-in class that serves them.
_CLASS = {"nn": "n", "nns": "n", "jj": "j"}


@dataclass(frozen=True)
class StandIn:
    pos: str
    initial: str
    predicate: str
    forms: tuple[str, ...]


@dataclass(frozen=True)
class Substitution:
    """One unknown word and the known predicate generated in its place."""

    word: str
    unknown: str  # the unknown-word predicate
    standin: str  # the predicate generated instead
    forms: tuple[str, ...]  # the stand-in's word forms, replaced by *word* in realizations

    def to_json(self) -> dict:
        return {"word": self.word, "predicate": self.unknown, "stand_in": self.standin}


@lru_cache(maxsize=1)
def standins() -> tuple[StandIn, ...]:
    text = resources.files("lit.pipeline.data").joinpath("standins.tsv").read_text("utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    return tuple(
        StandIn(pos, initial, pred, tuple(f for f in (sg, pl) if f != "-"))
        for pos, initial, pred, sg, pl in rows
    )


def _initial(word: str) -> str:
    return "vowel" if word[:1].lower() in "aeiou" else "consonant"


def substitute(mrs: MRS, source: str | None = None) -> tuple[MRS, tuple[Substitution, ...]]:
    """*mrs* with each unknown noun/adjective predicate replaced by a stand-in not already
    in *source*, and what was replaced (empty when nothing was)."""
    taken = set(re.findall(r"[a-z]+", (source or "").lower()))
    used: set[str] = set()
    subs: list[Substitution] = []
    eps = []
    for ep in mrs.rels:
        m = _UNKNOWN.match(ep.predicate)
        pos = _CLASS.get(m["tag"].lower()) if m else None
        choice = None
        if pos:
            choice = next(
                (s for s in standins()
                 if s.pos == pos and s.initial == _initial(m["word"])
                 and s.predicate not in used and not taken.intersection(s.forms)),
                None,
            )
        if choice is None:
            eps.append(ep)
            continue
        used.add(choice.predicate)
        subs.append(Substitution(m["word"], ep.predicate, choice.predicate, choice.forms))
        eps.append(EP(choice.predicate, ep.label, dict(ep.args), ep.lnk, ep.surface, ep.base))
    if not subs:
        return mrs, ()
    return MRS(mrs.top, mrs.index, eps, mrs.hcons, mrs.icons, mrs.variables, mrs.lnk,
               mrs.surface, mrs.identifier), tuple(subs)


def restore(surface: str, subs: tuple[Substitution, ...]) -> str:
    """*surface* with each stand-in's form replaced by the original word (capitalised where
    the stand-in was)."""
    for sub in subs:
        pattern = r"\b(" + "|".join(map(re.escape, sub.forms)) + r")\b"

        def put_back(m: re.Match, word: str = sub.word) -> str:
            return word[:1].upper() + word[1:] if m[0][:1].isupper() else word

        surface = re.sub(pattern, put_back, surface, flags=re.IGNORECASE)
    return surface
