"""Which words are forms of one another: the ERG's irregular forms, the lexicon's other
spellings of one predicate, the regular suffixes (lit.rank.explained names the words a change
adds or drops, lit.rank.surface puts the source's form of an untouched word back)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from delphin import predicate

from lit.morphology import UNKNOWN_WORD, verb_forms


def rows(name: str) -> list[list[str]]:
    """The rows of a tab-separated table of lit/rank/data (comments and blank lines out)."""
    text = resources.files("lit.rank.data").joinpath(name).read_text("utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@lru_cache(maxsize=1)
def forms() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """predicate -> its other spellings, and spelling -> the lemmas it spells."""
    by_pred: dict[str, set[str]] = {}
    lemmas: dict[str, set[str]] = {}
    for pred, word in rows("predicate-forms.tsv"):
        by_pred.setdefault(predicate.normalize(pred), set()).add(word)
        lemmas.setdefault(word, set()).add(lemma(pred))
    for form, stem in rows("irregular-forms.tsv"):
        lemmas.setdefault(form, set()).add(stem)
    return by_pred, lemmas


def lemma(pred: str) -> str:
    """The lemma of a predicate (*_sit_v_1*: *sit*; an unknown verb's from its form by regular
    morphology, lit.morphology: *_dressed/vbd_u_unknown*: *dress*)."""
    unknown = UNKNOWN_WORD.match(pred)
    if unknown:
        found = verb_forms(unknown["word"].lower(), unknown["tag"].lower())
        return found["vb"] if found else unknown["word"].lower()
    return predicate.normalize(pred).lstrip("_").split("_")[0].lower()


def stems(word: str) -> frozenset[str]:
    """The word and what it may be an inflection of (regular suffixes, the ERG's irregular
    forms, the lexicon's other spellings of one predicate: *an* ~ *a*)."""
    found = {word} | forms()[1].get(word, set())
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""),
                         ("ed", "e"), ("ing", ""), ("ing", "e"), ("er", ""), ("est", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            base = word[: len(word) - len(suffix)] + repl
            found.add(base)
            if len(base) > 2 and base[-1] == base[-2] and not repl:
                found.add(base[:-1])  # running -> run
    return frozenset(found)


#: The forms the ERG realizes a `pron` EP as, chosen by its PERS/NUM/GEND (a closed class the
#: grammar's lexicon spells out: a demographic or person change of a pronoun brings these).
PRONOUN_FORMS = frozenset(
    "i me my mine myself you your yours yourself yourselves he him his himself she her hers "
    "herself it its itself we us our ours ourselves they them their theirs themselves "
    "themself".split())


#: Words whose form the grammar chooses by syntax, not by the rule's meaning: the auxiliaries
#: (tense, agreement), pronouns (case), the article (the next word's sound, `article_defects`).
FORM_FREE = frozenset({"be", "have", "do", "will", "shall", "a", "an", "who", "whom"}
                       ) | PRONOUN_FORMS


def other_form(source: str, candidate: str, touched: frozenset[str]) -> bool:
    """Whether *candidate* writes the source's word *source* (both lower case) in another form
    although the change touches neither it (*touched*: lemmas) nor its form (FORM_FREE):
    *weaved* for *woven*, *lighted* for *lit*."""
    if source == candidate or (source in FORM_FREE and candidate in FORM_FREE):
        return False
    shared = stems(source) & stems(candidate)
    return bool(shared) and not shared & _free_stems(touched)


#: Relative pronouns spell the ERG's ``person``: their stems would free every spelling of
#: it (*someone* for *somebody*), so only they themselves are free.
_RELATIVES = frozenset({"who", "whom"})


@lru_cache(maxsize=256)
def _free_stems(touched: frozenset[str]) -> frozenset[str]:
    """The stems of *touched* and FORM_FREE: computed once per change, not per word pair."""
    return frozenset(s for w in (touched | FORM_FREE) - _RELATIVES for s in stems(w))
