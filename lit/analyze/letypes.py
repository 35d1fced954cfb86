"""The ERG's lexical types and their supertypes, as shipped with LIT (built from the grammar's
own type files by tools/build_letype_table.py): the shortcut miner abstracts a word to its
lexical type (``sleep_v1`` > ``v_-_le``) and on up its type hierarchy (``v_-_lexent``,
``main_verb``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources

#: The ERG names a lexical type by part of speech, complements, then the rest (``v_-_le``: a
#: verb with none; ``v_np*_le``: an optional noun phrase; ``v_-_unacc_le``).
_NAME_PARTS = 2


@cache
def supertypes(grammar_version: str) -> Mapping[str, tuple[str, ...]]:
    """Each lexical type of ERG *grammar_version* with its supertypes, nearest first; empty for
    a release LIT has no table for (its lexical types are still mined, without supertypes)."""
    path = resources.files("lit.analyze").joinpath("data", f"erg-{grammar_version}-letypes.json")
    if not path.is_file():
        return {}
    table = json.loads(path.read_text("utf-8"))["supertypes"]
    return {leaf: tuple(ancestors) for leaf, ancestors in table.items()}


def name_class(letype: str) -> str | None:
    """The class a lexical type's name puts it in: its part of speech and complements
    (``v_-_le`` and ``v_-_unacc_le`` are ``v_-_*``, verbs without complements, which share no
    supertype short of ``main_verb``); None for a name outside the convention."""
    parts = letype.split("_")
    if len(parts) < _NAME_PARTS + 1 or parts[-1] != "le":
        return None
    return "_".join(parts[:_NAME_PARTS]) + "_*"
