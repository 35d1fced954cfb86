"""*a* or *an*: the article agrees with the sound of the word after it.

The generator chooses the article for the word it put after it, but LIT changes realizations
afterwards: a stand-in is replaced by the unknown word it stood for (lit.pipeline.standins),
a repair puts the source's words back in the source's order (lit.rank.surface). Either can
leave "an large". The source sentence is the authority where it writes the same article
before the same word; otherwise the spelling decides, and where the spelling cannot tell
(acronyms, numbers) nothing is changed.
"""

from __future__ import annotations

import re

_PAIR = re.compile(r"\b(?P<article>[Aa]n?)(?P<gap>\s+)(?P<word>[^\W_][\w'’-]*)")
#: Vowel letters that sound as a consonant (*a unicorn*, *a one-way street*, *a European*).
_A_BEFORE = ("uni", "use", "usu", "uti", "ure", "uro", "eu", "ewe", "one", "once", "ufo")
#: ... save these (*an uninvited guest*, *an unimportant*).
_AN_NOT_A = ("unin", "unim", "unid")
#: A silent h (*an hour*, *an honest man*).
_AN_BEFORE = ("hour", "honest", "honor", "honour", "heir")


def article_for(word: str) -> str | None:
    """The article *word* takes, or None where its spelling does not tell (*FBI*, *8*)."""
    if not word[:1].isalpha() or (len(word) > 1 and word.isupper()):
        return None
    w = word.lower()
    if w.startswith(_AN_BEFORE):
        return "an"
    if w.startswith(_A_BEFORE) and not w.startswith(_AN_NOT_A):
        return "a"
    return "an" if w[0] in "aeiou" else "a"


def _source_articles(source: str | None) -> dict[str, str]:
    """The article *source* writes before each word it writes one before."""
    return {m["word"].lower(): m["article"].lower() for m in _PAIR.finditer(source or "")}


def _wanted(word: str, source: dict[str, str]) -> str | None:
    return source.get(word.lower()) or article_for(word)


def article_defects(source: str | None, candidate: str) -> tuple[str, ...]:
    """An article in *candidate* that disagrees with the word after it: "'an' before 'large'"."""
    known = _source_articles(source)
    return tuple(f"{m['article'].lower()!r} before {m['word']!r}" for m in _PAIR.finditer(candidate)
                 if _wanted(m["word"], known) not in (None, m["article"].lower()))


def agree_articles(candidate: str, source: str | None = None) -> str:
    """*candidate* with every article agreeing with the word after it (case kept)."""
    known = _source_articles(source)

    def fix(m: re.Match) -> str:
        want = _wanted(m["word"], known)
        if want is None or want == m["article"].lower():
            return m[0]
        article = want.capitalize() if m["article"][0].isupper() else want
        return f"{article}{m['gap']}{m['word']}"

    return _PAIR.sub(fix, candidate)
