"""Regular English verb morphology, for verbs the grammar does not know (issue 45).

The ERG parses a word outside its lexicon as a generic predicate that spells the word as
written and its part-of-speech tag (`UNKNOWN_WORD`: ``_dressed/vbd_u_unknown``), so each form
of an unknown verb is another predicate. `verb_forms` finds the lemma of such a form with
regular suffix rules (the ERG's own inflection rules are regular suffix rules as well) and
spells each form of it: lit.pipeline.standins writes the form a realization needs, and
lit.mrs.graph (so lit.equivalence) compares unknown verbs by lemma.

A lemma's forms, by tag: vb and vbp the lemma; vbz +s, +es after s, x, z, ch, sh or a consonant
and o, y -> ies after a consonant; vbd and vbn (one form: the verb is regular) +ed, +d after
e, y -> ied after a consonant; vbg +ing, ie -> ying, a final e dropped except in ee, oe, ye.
Before -ed and -ing, -ic takes k in a longer lemma (*panicked*), and a final consonant (not w,
x, y) after a single vowel is doubled in a one-syllable lemma (*hop* -> *hopped*, *quit* ->
*quitted*), in a longer one only where the analysed form shows it (*admitted*,
*quarrelling*): stress decides, and the spelling does not show it (*visited*).

Analysis: the candidate lemmas of a form, in this order, and the first whose form for the tag
is the form analysed (so that form always comes back unchanged) wins:

* -ed/-ing after a doubled consonant: the consonant once, doubling (*hopped* -> *hop*), if
  a consonant and a single vowel precede it (else the doubled stem: *added* -> *add*); for a
  doubled s, z, f or l the doubled stem first (*dressed* -> *dress*, *called* -> *call*),
  except el and ol in a longer stem (*quarrelled* -> *quarrel*, *controlled* -> *control*);
* -ied: y (*carried* -> *carry*), ie for a one-letter stem (*died* -> *die*); -ying after one
  consonant: ie (*dying* -> *die*);
* -icked/-icking in a longer stem: ic (*panicked* -> *panic*: -ic takes k before a suffix);
* the stem with an e restored first where the stem ends as English verbs rarely do (c, v, u;
  a vowel, d, l or r and g; ang, eng, ung; s but not ss; a vowel and z; a consonant but l,
  r, w and l; a vowel and th; in a longer stem also iat, uat, or a consonant and ad, ar, at,
  ed, ib, id, ik, il, in, ir, od, ok, ol, ud, uk, ul, um, ur or ut: *danced*, *chastised*,
  *perjuring*, *located*), else the bare stem first (*walked*, *visited*); the other one
  next, so *hoped* is *hope* (a one-syllable *hop* gives *hopped*);
* -s: -ies -> y, -es after s, x, z, ch, sh or a consonant and o (*dresses* -> *dress*), -s.

A form no candidate gives (*slung*, *didn't*, not a word of letters) has no regular analysis:
`verb_forms` returns None.
"""

from __future__ import annotations

import re

#: An unknown word's predicate: the word as written and its POS tag (case as the ERG spells it).
UNKNOWN_WORD = re.compile(r"^_(?P<word>.+)/(?P<tag>[a-z]+)_u_unknown$", re.IGNORECASE)
#: The ERG's unknown-word tags of verbs (Penn Treebank tags, in lower case as normalized).
VERB_TAGS: tuple[str, ...] = ("vb", "vbp", "vbz", "vbd", "vbn", "vbg")

_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
_VOWEL = "aeiou"
_CVC = re.compile(r"(?:[^aeiou]|qu)[aeiou][b-df-hj-np-tvz]$")
_SYLLABLE = re.compile(r"[aeiouy]+")
_E_DROPPED = re.compile(r"(?:[cvu]|[aeioudlr]g|[aeu]ng|[^s]s|[aeiouy]z|[^aeioulrw]l|[aeiou]th)$")
_E_DROPPED_LONG = re.compile(
    r"(?:(?:[^aeiou]|qu)(?:ad|ar|at|ed|ib|id|ik|il|in|ir|od|ok|ol|ud|uk|ul|um|ur|ut)|[iu]at)$")


def _syllables(stem: str) -> int:
    """Vowel groups in the last part of *stem* (*ice-skate*: *skate*)."""
    return len(_SYLLABLE.findall(stem.rpartition("-")[2].removeprefix("y")))


def _doubles(lemma: str) -> bool:
    """The spelling rule alone: a one-syllable lemma ending in a single vowel and a consonant."""
    return bool(_CVC.search(lemma) or re.fullmatch(r"[aeiou][b-df-hj-np-tvz]", lemma)
                ) and _syllables(lemma) == 1


def _ck(lemma: str) -> bool:
    """-ic takes k before -ed and -ing in a longer lemma (*panicked*, *mimicking*)."""
    return lemma.endswith("ic") and _syllables(lemma) > 1


def _e_dropped(stem: str) -> bool:
    return bool(_E_DROPPED.search(stem)) or (
        _syllables(stem) > 1 and bool(_E_DROPPED_LONG.search(stem)))


def _inflect(lemma: str, double: bool) -> dict[str, str]:
    if re.search(r"[^aeiou]y$", lemma):
        third = lemma[:-1] + "ies"
    elif re.search(r"(?:[sxz]|[cs]h|[^aeiou]o)$", lemma):
        third = lemma + "es"
    else:
        third = lemma + "s"
    if double or _ck(lemma):
        stem = lemma + ("k" if _ck(lemma) else lemma[-1])
        past, ing = stem + "ed", stem + "ing"
    else:
        past = (lemma + "d" if lemma.endswith("e")
                else lemma[:-1] + "ied" if re.search(r"[^aeiou]y$", lemma) else lemma + "ed")
        ing = (lemma[:-2] + "ying" if lemma.endswith("ie")
               else lemma[:-1] + "ing" if re.search(r"[^eoy]e$", lemma) else lemma + "ing")
    return {"vb": lemma, "vbp": lemma, "vbz": third, "vbd": past, "vbn": past, "vbg": ing}


def _candidates(word: str, tag: str) -> list[tuple[str, bool | None]]:
    """(lemma, doubles: None for the spelling rule) in the order of the module docstring."""
    if tag in ("vb", "vbp"):
        return [(word, None)]
    if tag == "vbz":
        out: list[tuple[str, bool | None]] = []
        if word.endswith("ies") and len(word) > 4:
            out.append((word[:-3] + "y", None))
        if word.endswith("es") and re.search(r"(?:ss|zz|tz|x|[cs]h|[^aeiou]o)$", word[:-2]):
            out.append((word[:-2], None))
        if word.endswith("s") and len(word) > 2:
            out.append((word[:-1], None))
        return out
    suffix = "ing" if tag == "vbg" else "ed"
    stem = word.removesuffix(suffix)
    if stem == word or len(stem) < 2:
        return []
    out = []
    if stem[-1] == stem[-2] and stem[-1] not in _VOWEL + "y":
        undone = [(stem[:-1], True)] if _CVC.search(stem[:-1]) else []
        keep = stem[-1] in "szf" or (stem[-1] == "l" and not (
            stem[-3:-2] in ("e", "o") and _syllables(stem) > 1))
        out += [(stem, None), *undone] if keep or not undone else undone
    if stem.endswith("ick") and _syllables(stem) > 1:
        out.append((stem[:-1], None))
    if suffix == "ed" and stem[-1] == "i" and stem[-2] not in _VOWEL:
        out += [(stem[:-1] + "ie", None)] if len(stem) == 2 else []
        out.append((stem[:-1] + "y", None))
    if suffix == "ing" and len(stem) == 2 and stem[1] == "y" and stem[0] not in _VOWEL:
        out.append((stem[0] + "ie", None))
    bare, with_e = (stem, None), (stem + "e", None)
    out += [with_e, bare] if _e_dropped(stem) else [bare, with_e]
    return out


def verb_forms(form: str, tag: str) -> dict[str, str] | None:
    """The forms, by ERG verb tag (`VERB_TAGS`), of the regular verb whose *tag* form is *form*
    (``verb_forms("dressed", "vbd")["vb"] == "dress"``), in lower case; the *tag* form is
    *form* itself (lower-cased). None if *tag* is not a verb's or no regular lemma gives *form* (the
    module docstring says how the lemma is chosen)."""
    tag, word = tag.lower(), form.lower()
    if tag not in VERB_TAGS or not _WORD.fullmatch(word):
        return None
    for lemma, double in _candidates(word, tag):
        forms = _inflect(lemma, _doubles(lemma) if double is None else double)
        if forms[tag] == word:
            return forms
    return None
