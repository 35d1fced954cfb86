"""Words the grammar does not know, generated through known stand-ins and put back.

The ERG parses an unknown word as a generic predicate (``_cartwheel/nn_u_unknown``) that its
generator cannot realize ("input EP not in index"). Before generation each such noun,
adjective or regular verb is replaced by a known predicate of the same class and initial sound
(data/standins.tsv); number comes from the variable's NUM, as for any noun, and tense and
aspect from the verb's event, as for any verb. A verb's class is its argument structure: an
unknown verb whose ARG2 is an x (*dressed the child*, or the passive *was dressed*) gets a
transitive stand-in (``vt``: ARG1, ARG2 x); one with ARG1 only, or with an unexpressed ARG2
(an i: the ERG's generic verb entries give one even in *were quarrelling*), an intransitive
one (``vi``: ARG1 only), generated without that ARG2; an unknown verb with other roles keeps
its predicate.

In each realization the stand-in's forms are replaced by the original word: a noun's or
adjective's by the word itself, a verb's by the original verb in the stand-in's inflection
(lit.morphology.verb_forms: *dressed* for the stand-in's past participle, *dress* after
*will*), the original's own form unchanged. A verb the regular suffix rules do not give
(*slung*) is not stood in. Verification re-parses that sentence against the MRS with the
unknown predicate (where lit.equivalence takes an unknown verb's other forms for the same
predicate), so nothing unproven gets through.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from delphin import variable
from delphin.mrs import MRS, EP

from lit.morphology import UNKNOWN_WORD, VERB_TAGS, verb_forms

#: ERG unknown-word tags by the stand-in class that serves them (a verb's: `_verb_class`).
_CLASS = {"nn": "n", "nns": "n", "jj": "j"}
#: The tags of a verb stand-in's form columns in standins.tsv (vbp is vb's form).
_VERB_FORM_TAGS = ("vb", "vbz", "vbd", "vbn", "vbg")


@dataclass(frozen=True)
class StandIn:
    pos: str  # n, j, vi (intransitive verb: ARG1), vt (transitive verb: ARG1, ARG2 x)
    initial: str
    predicate: str
    forms: tuple[str, ...]  # a verb's by _VERB_FORM_TAGS


@dataclass(frozen=True)
class Substitution:
    """One unknown word and the known predicate generated in its place."""

    word: str
    unknown: str  # the unknown-word predicate
    standin: str  # the predicate generated instead
    forms: tuple[str, ...]  # the stand-in's word forms, replaced in realizations
    words: tuple[str, ...] = ()  # what replaces each of *forms*, if not *word*: a verb's forms

    def to_json(self) -> dict:
        return {"word": self.word, "predicate": self.unknown, "stand_in": self.standin}


@lru_cache(maxsize=1)
def standins() -> tuple[StandIn, ...]:
    text = resources.files("lit.pipeline.data").joinpath("standins.tsv").read_text("utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    return tuple(
        StandIn(pos, initial, pred, tuple(f for f in forms if f != "-"))
        for pos, initial, pred, *forms in rows
    )


def _initial(word: str) -> str:
    return "vowel" if word[:1].lower() in "aeiou" else "consonant"


def _verb_class(ep: EP) -> str | None:
    """vt for an unknown verb EP with ARG1 and an x ARG2, vi for one with ARG1 and no ARG2
    or an unexpressed one (i or u), else None."""
    roles = {r.upper(): v for r, v in ep.args.items() if r.upper() != "ARG0"}
    arg2 = roles.pop("ARG2", None)
    if set(roles) != {"ARG1"}:
        return None
    if arg2 is None or variable.type(arg2) in ("i", "u"):
        return "vi"
    return "vt" if variable.type(arg2) == "x" else None


def substitute(mrs: MRS, source: str | None = None) -> tuple[MRS, tuple[Substitution, ...]]:
    """*mrs* with each unknown noun, adjective and regular verb predicate replaced by a
    stand-in not already in *source*, and what was replaced (empty when nothing was)."""
    taken = set(re.findall(r"[a-z]+", (source or "").lower()))
    used: set[str] = set()
    subs: list[Substitution] = []
    eps = []
    for ep in mrs.rels:
        m = UNKNOWN_WORD.match(ep.predicate)
        tag = m["tag"].lower() if m else ""
        verb = verb_forms(m["word"], tag) if tag in VERB_TAGS else None
        pos = _CLASS.get(tag) or (_verb_class(ep) if verb else None)
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
        words = tuple(verb[t] for t in _VERB_FORM_TAGS) if verb else ()
        subs.append(Substitution(m["word"], ep.predicate, choice.predicate, choice.forms, words))
        args = {r: v for r, v in ep.args.items() if not (pos == "vi" and r.upper() == "ARG2")}
        eps.append(EP(choice.predicate, ep.label, args, ep.lnk, ep.surface, ep.base))
    if not subs:
        return mrs, ()
    return MRS(mrs.top, mrs.index, eps, mrs.hcons, mrs.icons, mrs.variables, mrs.lnk,
               mrs.surface, mrs.identifier), tuple(subs)


def restore(surface: str, subs: tuple[Substitution, ...]) -> str:
    """*surface* with each stand-in's form replaced by the original word, or by a verb's form
    of the same inflection (capitalised where the stand-in was)."""
    for sub in subs:
        put = {f.lower(): w for f, w in zip(sub.forms, sub.words or [sub.word] * len(sub.forms))}
        pattern = r"\b(" + "|".join(map(re.escape, sub.forms)) + r")\b"

        def put_back(m: re.Match, put: dict[str, str] = put) -> str:
            word = put[m[0].lower()]
            return word[:1].upper() + word[1:] if m[0][:1].isupper() else word

        surface = re.sub(pattern, put_back, surface, flags=re.IGNORECASE)
    return surface
