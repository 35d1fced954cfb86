"""What an ERG surface predicate's name says: its lemma, part of speech and sense, and how
common its lemma is in English (wordfreq)."""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

_PRED = re.compile(r"^_(?P<lemma>.+?)_(?P<pos>[nva])(?:_(?P<sense>[^_]+))?$")


def lemma(pred: str) -> str | None:
    """The lemma of an ERG surface predicate as words (``_ice+cream_n_1`` -> "ice cream")."""
    m = _PRED.match(pred)
    return m["lemma"].replace("+", " ") if m else None


def pos(pred: str) -> str | None:
    """The ERG part of speech of a surface predicate: n, v or a (None for others)."""
    m = _PRED.match(pred)
    return m["pos"] if m else None


@lru_cache(maxsize=65536)
def zipf(pred: str) -> float:
    """wordfreq's English Zipf frequency of the predicate's lemma (0 if it has none)."""
    word = lemma(pred)
    return zipf_frequency(word, "en") if word else 0.0


def sense_rank(pred: str) -> tuple[int, str]:
    """Numbered senses (`_go_v_1`) before argument-marking ones (`_go_v_i`), so one predicate
    per lemma is offered and it is the plain one."""
    m = _PRED.match(pred)
    return (0 if m and (m["sense"] or "1").isdigit() else 1, pred)
