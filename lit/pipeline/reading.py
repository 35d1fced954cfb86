"""Which parse reading of a sentence LIT transforms, chosen on evidence (docs/pipeline.md,
"Choosing the reading").

Verification proves that an output carries the transformed MRS of the reading LIT chose;
nothing there proves the reading. The parse ranker's first reading is often not the one the
writer meant (SNLI's fragments and strings of nouns are hard for any ranker), and a wrong
reading gives a verified wrong sentence. So every reading among the top N is weighed before
anything is transformed, and each check that speaks against one is recorded:

* **a name for a lower-case word** (*on stone steps* read with a name *Stone*);
* **a word taken as the finite verb**: the reading makes a clause of a fragment, its main
  verb a word that another reading, close to it in the parse ranker's score (FRAGMENT_MARGIN,
  ADJECTIVE_MARGIN), takes as a participle or a noun in a fragment (*A young male wearing a
  white shirt with a character outlined very darkly.*; *... wearing combat boots standing on a
  sidewalk.*; *A woman in a blue coat and dark boots.*);
* **the copula over a progressive**: the reading's main verb is *be* and takes a word of the
  sentence as a noun or modifier that another reading takes as the progressive main verb
  (*Is the woman reading a book?* as *is* + *the woman reading*);
* **a form the word does not show**: a noun read as a lemma of which the written word is only
  an inflection (*yard work* with the plural-only *works*, NUM pl: its passive agrees with
  the plural, *Yard work are being done.*);
* **a coordinated verb read as a noun** (*looks at the camera and stands in front of a
  crowd* with *stands* a noun conjoined with *the camera*), where a close reading conjoins
  the verbs: a change of tense would reach only the first;
* **a moved phrase that the verb owns** (per spec, `moved_phrase`): for a rule that moves an
  argument (passive, cleft, swap), a reading that puts a PP inside the moved noun phrase
  where a reading close in score gives it to the verb (*Water into the ocean is poured by a
  girl.*).

The first reading no check speaks against is transformed; the others with the same label
phenomena are fallbacks, tried in order when a side fails in a way another reading may not
(lit.pipeline.core). Two kinds of evidence come later and cost no separate parse: how the
reading's transformed realizations read against the source (a moved phrase or a changed
form of an untouched word makes the side not_fluent, and the next reading is tried), and the
round trip (lit.pipeline.roundtrip). Each side's record lists the readings weighed and what
became of those tried (`reading_evidence`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from delphin import predicate
from delphin.mrs import EP, MRS

from lit.ace.results import ranker_score
from lit.morphology import UNKNOWN_WORD
from lit.mrs import Reach, index_ep, properties
from lit.mrs.graph import is_verb as _is_verb
from lit.mrs.graph import span as _span
from lit.rank.explained import implausible
from lit.rank.forms import stems
from lit.rank.minimal import phrase_span
from lit.rank.surface import tokenize

#: ERG predicates of the copula (not the existential *there is*: "There are people playing
#: football." is rightly read with it).
_COPULAS = frozenset({"_be_v_id", "_be_v_nv"})
#: A fragment reading within this much of a clause's parse-ranker score speaks against the
#: clause (scores are the ranker's log-linear sums). On unseen SNLI pairs the fragments read
#: as clauses were 0.2 to 1.3 above their fragment readings (and two 4.9 and 5.0, still
#: missed), real clauses 3.1 ("Young men wave flags in a crowd ...") to 9.7 above theirs,
#: one 0.55 ("People dance.", doubted: its fragment is taken and no pair is made).
FRAGMENT_MARGIN = 3.0
#: The margin for a fragment that reads the clause's verb as a noun after its adjective, in a
#: coordination of noun phrases (*a blue coat and dark boots*, whose clause reading, 4.9
#: above, makes *dark* a predicate or a noun to give *boots* a subject): the clause must break
#: both the adjective's phrase and the coordination, so a wider margin is safe. (The
#: adjective alone is not enough: *Children dressed in white play.* is a clause.)
ADJECTIVE_MARGIN = 6.0


@dataclass(frozen=True)
class Weighed:
    """One reading and what speaks against it (*doubt* None: nothing)."""

    index: int  # in ACE's order, 0 = the parse ranker's first
    mrs: MRS
    text: str  # its SimpleMRS as ACE printed it
    score: float | None  # the parse ranker's score (the derivation root's), when ACE gave one
    doubt: str | None = None

    def to_json(self, top_score: float | None) -> dict:
        margin = (round(top_score - self.score, 6)
                  if top_score is not None and self.score is not None else None)
        return {"reading": self.index, "score": self.score, "margin": margin,
                "doubt": self.doubt}


def _tense(m: MRS, var: str | None) -> str:
    return properties(m, var).get("TENSE", "")


def _prog(m: MRS, var: str | None) -> bool:
    return properties(m, var).get("PROG", "") in {"+", "bool"}


def _words(sentence: str, span: tuple[int, int] | None) -> str:
    return sentence[span[0]:span[1]].strip(" .,;:!?") if span else "?"


def _participle(sentence: str, m: MRS) -> bool:
    """Whether *m* reads a word of *sentence* in -ing as an untensed verb: SNLI's fragments
    describe with participles (*wearing combat boots standing on a sidewalk*), while a short
    clause whose verb is also a plural noun (*A dog barks.*, *Children play together.*) has
    none."""
    return any(_is_verb(ep) and _tense(m, ep.iv) in {"", "untensed"}
               and _words(sentence, _span(ep)).lower().endswith("ing") for ep in m.rels)


def _conjoined_adjective(sentence: str, m: MRS, noun: EP) -> str | None:
    """The adjective right before *noun* in *sentence* that modifies it in *m*, where *m*
    conjoins the noun with another noun phrase (*a blue coat and dark boots*), or None."""
    span = _span(noun)
    if not any(predicate.is_surface(ep.predicate) and predicate.split(ep.predicate)[1] == "c"
               and noun.iv in (ep.args.get("ARG1"), ep.args.get("ARG2")) for ep in m.rels):
        return None
    for ep in m.rels:
        before = _span(ep)
        if (span and before and ep.args.get("ARG1") == noun.iv and predicate.is_surface(
                ep.predicate) and predicate.split(ep.predicate)[1] == "a"
                and before[1] <= span[0] and not sentence[before[1]:span[0]].strip()):
            return _words(sentence, before)
    return None


def word_as_finite_verb(sentence: str, reading: Weighed, others: Sequence[Weighed]
                        ) -> str | None:
    """Why *reading* makes a clause of a fragment through a word taken as its finite verb, or
    None: its main verb is tensed, and another reading below it is a fragment (its index EP
    `unknown`) that reads the same word as an untensed participle (*a character outlined very
    darkly*) or, where the sentence describes with a participle in -ing, a noun (*wearing
    combat boots standing on a sidewalk*), at most FRAGMENT_MARGIN below; or as a conjoined
    noun after its adjective (*a blue coat and dark boots*), at most ADJECTIVE_MARGIN below."""
    m = reading.mrs
    main = index_ep(m, Reach.CARRIER)
    if main is None or not _is_verb(main) or _tense(m, main.iv) in {"", "untensed"}:
        return None
    span = _span(main)
    for other in others:
        top = index_ep(other.mrs, Reach.CARRIER)
        if top is None or top.predicate != "unknown":
            continue
        below = (reading.score - other.score
                 if None not in (reading.score, other.score) else 0.0)
        for ep in other.mrs.rels:
            if _span(ep) != span or ep.iv is None or below > ADJECTIVE_MARGIN:
                continue
            noun = ep.iv.startswith("x")
            if noun and below <= FRAGMENT_MARGIN and _participle(sentence, m):
                what = "a noun"
            elif noun and (adjective := _conjoined_adjective(sentence, other.mrs, ep)):
                what = f"a conjoined noun after the adjective {adjective!r}"
            elif (ep.predicate == main.predicate and below <= FRAGMENT_MARGIN
                  and _tense(other.mrs, ep.iv) in {"", "untensed"}):
                what = "a participle"
            else:
                continue
            return (f"it reads {_words(sentence, span)!r} as the finite verb of a clause; "
                    f"reading {other.index} reads the sentence as a fragment, with it as {what}")
    return None


def copula_over_progressive(sentence: str, reading: Weighed, others: Sequence[Weighed]
                            ) -> str | None:
    """Why *reading* takes the copula as the main verb of a sentence another reading reads
    as a progressive, or None: the other reading's main verb is a progressive verb whose word
    *reading* reads as something other than its main verb."""
    m = reading.mrs
    main = index_ep(m, Reach.CARRIER)
    if main is None or main.predicate not in _COPULAS:
        return None
    for other in others:
        verb = index_ep(other.mrs, Reach.CARRIER)
        if verb is None or not _is_verb(verb) or not _prog(other.mrs, verb.iv):
            continue
        span = _span(verb)
        if span and any(_span(ep) == span for ep in m.rels):
            return (f"it reads 'be' as the copula and {_words(sentence, span)!r} as a noun or "
                    f"modifier; reading {other.index} reads them as a progressive")
    return None


def form_not_shown(sentence: str, reading: Weighed, others: Sequence[Weighed]) -> str | None:
    """Why *reading* gives a noun a form its word does not show, or None: the noun's lemma is
    an inflection of the word written, not the word or its stem (*work* read as the
    plural-only *works*); its realizations would say *works* or agree with a plural. (Never
    fires on the 10,472 gold ERG 2025 analyses: abbreviations and spelling variants, *Mr*
    for *mister*, *colour* for *color*, are not inflections.)"""
    for ep in reading.mrs.rels:
        pred = predicate.normalize(ep.predicate)
        if not predicate.is_surface(pred) or UNKNOWN_WORD.match(ep.predicate):
            continue
        lemma, pos, _ = predicate.split(pred)
        word = _words(sentence, _span(ep)).lower()
        if pos != "n" or "+" in lemma or not word.isalpha():
            continue
        lemma = lemma.lower()
        if lemma != word and word in stems(lemma) and lemma not in stems(word):
            return f"it reads {word!r} as {lemma!r}, a form the sentence does not write"
    return None


def _close(reading: Weighed, other: Weighed, margin: float) -> bool:
    """Whether *other* is within *margin* of *reading*'s parse-ranker score (or either has
    none)."""
    return None in (reading.score, other.score) or abs(reading.score - other.score) <= margin


def _conjoined(m: MRS, sort: str) -> set[str]:
    """The variables of sort *sort* (x, e) that a coordination of *m* joins."""
    return {v for ep in m.rels if predicate.is_surface(ep.predicate)
            and predicate.split(ep.predicate)[1] == "c"
            for v in (ep.args.get("ARG1"), ep.args.get("ARG2")) if v and v.startswith(sort)}


def verb_as_conjoined_noun(sentence: str, reading: Weighed, others: Sequence[Weighed]
                           ) -> str | None:
    """Why *reading* reads a coordinated finite verb as a noun, or None: a noun conjoined
    with another noun phrase (*the camera and stands*) that another reading, at most
    FRAGMENT_MARGIN from it, reads as a tensed verb conjoined with the main verb (*looks at
    the camera and stands in front of a crowd*): a change of tense would reach only the
    first verb (*A girl looked at the camera and stands …*)."""
    m = reading.mrs
    conjoined = _conjoined(m, "x")
    for noun in m.rels:
        span = _span(noun)
        if span is None or noun.iv not in conjoined or noun.is_quantifier():
            continue
        for other in others:
            if not _close(reading, other, FRAGMENT_MARGIN):
                continue
            verbs = _conjoined(other.mrs, "e")
            if any(_span(ep) == span and _is_verb(ep) and ep.iv in verbs
                   and _tense(other.mrs, ep.iv) not in ("", "untensed")
                   for ep in other.mrs.rels):
                return (f"it reads {_words(sentence, span)!r} as a conjoined noun; reading "
                        f"{other.index} reads it as a verb conjoined with the main verb")
    return None


CHECKS = (word_as_finite_verb, copula_over_progressive, form_not_shown, verb_as_conjoined_noun)
#: A reading that gives a PP to the verb within this much of the parse-ranker score of one
#: that puts it inside a moved noun phrase speaks against the latter (`moved_phrase`).
PP_MARGIN = FRAGMENT_MARGIN


def _phrase(sentence: str, m: MRS, ep: EP) -> str:
    """The words of the PP *ep* heads: the preposition and its object's whole phrase."""
    obj = phrase_span(m, ep.args.get("ARG2", ""), {m.index})
    span = _span(ep)
    return _words(sentence, (span[0], max(span[1], obj[1] if obj else 0))) if span else "?"


def _place(pred: str) -> bool:
    """Whether a preposition's predicate names a place or a direction (the ERG's ``_loc`` and
    ``_dir`` senses, *into*, *onto*, *to*, *toward*): what a verb's event owns more often
    than a noun (*Their horses to the finish line are being raced by the men.*)."""
    lemma, _, sense = predicate.split(pred)
    return sense in ("loc", "dir") or lemma in ("into", "onto", "to", "toward", "towards")


def moved_phrase(sentence: str, reading: Weighed, others: Sequence[Weighed],
                 moved: frozenset[str]) -> str | None:
    """Why *reading* is not the one to transform by a rule that moves the arguments *moved*
    (their variables), or None: it puts a PP inside a moved noun phrase (a preposition whose
    ARG1 is the argument) where another reading within PP_MARGIN of its score gives the same
    preposition to an event (the verb's), so the rule would carry the verb's phrase along
    (*Water into an empty soda bottle is poured by a girl.*; an adjective read where the
    other reading has the preposition: *Past each other carrying flags are being ridden by
    several horsemen.*); or where the PP names a place
    or a direction (`_place`: *Rugby on a field full of mud is being played by the bunch of
    men.*), which the moved phrase would carry whatever the other readings say. Only a PP
    after the verb is weighed: one before it is inside its noun phrase in every reading (*It
    is a boy in a striped shirt that is jumping.*), and the clause's own predication (*A man
    is on a path.*) moves nothing."""
    m = reading.mrs
    # a PP before the verb is inside its noun phrase in every reading (a subject's)
    verb_end = max((ep.cto for ep in m.rels if _is_verb(ep) and ep.lnk is not None
                    and moved & set(ep.args.values())), default=-1)
    for ep in m.rels:
        span = _span(ep)
        if (span is None or span[0] < verb_end or ep.iv == m.index
                or ep.args.get("ARG1") not in moved
                or not predicate.is_surface(ep.predicate)
                or predicate.split(ep.predicate)[1] not in ("p", "a")):
            continue
        noun = next((e for e in m.rels if e.iv == ep.args["ARG1"] and not e.is_quantifier()),
                    None)
        what = (f"moved phrase: it puts {_phrase(sentence, m, ep)!r} inside the moved "
                f"{_words(sentence, _span(noun)) if noun else 'argument'!r}")
        for other in others:
            if _close(reading, other, PP_MARGIN) and any(
                    _span(o) == span and str(o.args.get("ARG1", "")).startswith("e")
                    and predicate.is_surface(o.predicate)
                    and predicate.split(o.predicate)[1] == "p" for o in other.mrs.rels):
                return f"{what}; reading {other.index} gives it to the verb"
        if predicate.split(ep.predicate)[1] == "p" and _place(ep.predicate):
            return f"{what}, a place or direction the verb's event may own"
    return _anaphor(sentence, m, moved) or _apart(sentence, m, moved)


#: Reflexive and reciprocal words: an anaphor needs its antecedent before it (binding), so a
#: phrase holding one cannot be moved before the clause's subject.
_ANAPHORS = re.compile(r"\b(each other|one another|\w+sel(?:f|ves))\b", re.IGNORECASE)


def _anaphor(sentence: str, m: MRS, moved: frozenset[str]) -> str | None:
    """Why a moved phrase of *m* cannot move, or None: it holds a reflexive or reciprocal
    (*each other*, *themselves*), which must follow its antecedent (*Past each other
    carrying flags are being ridden by several horsemen.*: no reading of *riding past each
    other* the grammar gave made *past* a preposition)."""
    for x in sorted(moved):
        span = phrase_span(m, x, {m.index})
        found = _ANAPHORS.search(sentence[span[0]:span[1]]) if span else None
        if found:
            return (f"moved phrase: {_words(sentence, span)!r} holds the anaphor "
                    f"{found.group(1)!r}, which must follow its antecedent")
    return None


def _apart(sentence: str, m: MRS, moved: frozenset[str]) -> str | None:
    """Why a moved object of *m* would take words of the verb's along or leave them stranded,
    or None: words of other predications stand between the verb and the object's phrase
    (*Boys are dancing in front of some people.* read with *people* the object of *dance*
    gives *People are being danced in front of some by boys.*). A particle (no predication of
    its own) or another object of the verb may stand there."""
    covered = [s for ep in m.rels if (s := _span(ep))]
    for verb in m.rels:
        span = _span(verb)
        objects = [v for role, v in verb.args.items() if role in ("ARG2", "ARG3")
                   and v.startswith("x")]
        if span is None or not _is_verb(verb) or not set(objects) & moved:
            continue
        clause = {m.index, verb.iv}
        others = [p for v in objects if (p := phrase_span(m, v, clause))]
        for x in set(objects) & moved:
            phrase = phrase_span(m, x, clause)
            if phrase is None or phrase[0] <= span[1]:
                continue
            between = [t for t in tokenize(sentence) if t.word and span[1] <= t.start
                       and t.end <= phrase[0] and any(a <= t.start < b for a, b in covered)
                       and not any(a <= t.start < b for a, b in others)]
            if between:
                words = sentence[between[0].start:between[-1].end]
                return (f"moved phrase: {_words(sentence, phrase)!r} is apart from its verb "
                        f"{_words(sentence, span)!r} ({words!r} between)")
    return None



def weigh(sentence: str, readings: Sequence[tuple[int, MRS, str, str | None]]
          ) -> tuple[Weighed, ...]:
    """Each reading of *sentence* ((index, MRS, SimpleMRS text, derivation), in ACE's order)
    with what speaks against it."""
    plain = [Weighed(k, m, text, ranker_score(derivation))
             for k, m, text, derivation in readings]
    out = []
    for w in plain:
        others = [o for o in plain if o.index != w.index]
        doubt = implausible(sentence, w.mrs) or next(
            (why for check in CHECKS if (why := check(sentence, w, others))), None)
        out.append(Weighed(w.index, w.mrs, w.text, w.score, doubt))
    return tuple(out)
