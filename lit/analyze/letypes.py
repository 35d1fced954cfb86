"""The ERG's lexical types, as shipped with LIT (built from the grammar's own type files by
tools/build_letype_table.py): the shortcut miner abstracts a word to its lexical type
(``sleep_v1`` > ``v_-_le``), that type's name class (``v_-_*``), its supertypes (``v_-_lexent``,
``main_verb``) and its valence types (``unerg_verb``, ``onearg_verb``: intransitive)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

#: The ERG names a lexical type by part of speech, complements, then the rest (``v_-_le``: a
#: verb with none; ``v_np*_le``: an optional noun phrase; ``v_-_unacc_le``).
_NAME_PARTS = 2


@dataclass(frozen=True)
class TypeTable:
    """Each lexical type's supertypes and valence types (the types of its SYNSEM and their
    ancestors), nearest first."""

    supertypes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    synsem: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@cache
def type_table(grammar_version: str) -> TypeTable:
    """ERG *grammar_version*'s table; empty for a release LIT has no table for (its lexical
    types are still mined, with their name classes)."""
    path = resources.files("lit.analyze").joinpath(
        "data", f"erg-{grammar_version}-letypes.json.gz")
    if not path.is_file():
        return TypeTable()
    data = json.loads(gzip.decompress(path.read_bytes()))
    return TypeTable(*({leaf: tuple(types) for leaf, types in data[part].items()}
                       for part in ("supertypes", "synsem")))


def name_class(letype: str) -> str | None:
    """The class a lexical type's name puts it in: its part of speech and complements
    (``v_-_le`` and ``v_-_unacc_le`` are ``v_-_*``, verbs without complements); None for a
    name outside the convention."""
    parts = letype.split("_")
    if len(parts) < _NAME_PARTS + 1 or parts[-1] != "le":
        return None
    return "_".join(parts[:_NAME_PARTS]) + "_*"
