"""Build lit/analyze/data/erg-2025-letypes.json.gz: every lexical type of the ERG with its
supertypes and its valence types, from the grammar's own type files, for the shortcut miner's
``letype:`` and ``synsem:`` fragments (issue 43, docs/mining.md).

    python -m tools.build_letype_table ERG_DIR [-o JSON.gz]

ERG_DIR is an ERG source tree at the release the table is for (the rig's checkout of the 2025
tag: /tmp/lit-rig/erg-2025). A lexical type is a type named ``*_le`` (the ERG's convention:
``v_-_le``, ``v_np*_le``) in letypes.tdl, lextypes.tdl or auxverbs.tdl. Its supertypes are its
ancestors defined there (``v_-_lexent``, ``main_verb``, ...), nearest first. Its valence types
are the types the type and its supertypes give their SYNSEM (``v_-_lexent := main_verb &
[ SYNSEM unerg_verb ]``) and their ancestors, fundamentals.tdl's included: ``unerg_verb``,
``onearg_verb``, ``intrans_subst``. That hierarchy, not the lexical one, says that ``v_-_le``
and ``v_-_unacc_le`` are both intransitive (``onearg_verb``).

A type is listed only where it says something: not when more than ``--max-share`` (a tenth)
of all lexical types have it (``main_verb``, ``verb_synsem``, ``synsem``: a sentence nearly
always has one), and not when a nearer type of the list has exactly the same lexical types
under it (``v_-_lexent`` is only ever ``v_-_le``): the miner would count both as one finding
anyway, at a cost in memory per pair.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from delphin import tdl

OUT = (Path(__file__).resolve().parent.parent / "lit" / "analyze" / "data"
       / "erg-2025-letypes.json.gz")
LEXICAL = ("letypes.tdl", "lextypes.tdl", "auxverbs.tdl")
FILES = (*LEXICAL, "fundamentals.tdl")


def _ancestors(t: str, parents: dict[str, list[str]]) -> list[str]:
    """*t*'s ancestors among *parents*' types, breadth first, each once."""
    seen: list[str] = []
    queue = list(parents.get(t, ()))
    while queue:
        x = queue.pop(0)
        if x in parents and x not in seen:
            seen.append(x)
            queue.extend(parents[x])
    return seen


def _synsem(definition: tdl.TypeDefinition) -> list[str]:
    """The types a definition gives its SYNSEM feature."""
    out = []
    for term in definition.conjunction.terms:
        value = term.get("SYNSEM") if isinstance(term, tdl.AVM) else None
        if value is not None:
            conj = value if isinstance(value, tdl.Conjunction) else tdl.Conjunction([value])
            out += [str(t) for t in conj.types()]
    return out


def tables(erg: Path, max_share: float = 0.1) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each lexical type of *erg* with its lexical supertypes, and with its valence types,
    both pruned (`_informative`)."""
    parents: dict[str, list[str]] = {}
    lexical: set[str] = set()
    synsem: dict[str, list[str]] = {}
    for name in FILES:
        for event, obj, _ in tdl.iterparse(erg / name):
            if event == "TypeDefinition":
                parents[obj.identifier] = [str(t) for t in obj.supertypes]
                synsem[obj.identifier] = _synsem(obj)
                if name in LEXICAL:
                    lexical.add(obj.identifier)
    supers, valence = {}, {}
    for leaf in sorted(t for t in lexical if t.endswith("_le")):
        chain = [leaf, *_ancestors(leaf, parents)]
        supers[leaf] = [t for t in chain[1:] if t in lexical]
        types: list[str] = []
        for t in chain:
            for s in synsem.get(t, ()):
                types += [x for x in (s, *_ancestors(s, parents)) if x not in types]
        valence[leaf] = types
    return _informative(supers, max_share), _informative(valence, max_share)


def _informative(table: dict[str, list[str]], max_share: float) -> dict[str, list[str]]:
    """*table* without the types more than *max_share* of its lexical types have, and without
    a type whose lexical types are exactly those of a nearer type kept in the same list."""
    below: dict[str, set[str]] = {}
    for leaf, types in table.items():
        for t in types:
            below.setdefault(t, set()).add(leaf)
    out = {}
    for leaf, types in table.items():
        kept: list[str] = []
        for t in types:
            if len(below[t]) <= max_share * len(table) and all(below[t] != below[k] for k in kept):
                kept.append(t)
        out[leaf] = [t for t in kept if below[t] != {leaf}]
    return out


def _rows(table: dict[str, list[str]]) -> str:
    return ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("erg", type=Path, help="an ERG source tree (letypes.tdl, lextypes.tdl, ...)")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    ap.add_argument("--release", default="2025", help="the ERG release the tree is (meta only)")
    ap.add_argument("--max-share", type=float, default=0.1,
                    help="leave out types more than this share of lexical types have (0.1)")
    args = ap.parse_args(argv)
    supers, valence = tables(args.erg, args.max_share)
    meta = {"what": "ERG lexical types (*_le): their supertypes in letypes.tdl, lextypes.tdl "
            "and auxverbs.tdl, and the types of their SYNSEM with those types' ancestors, "
            "nearest first; types more than max_share of them have, or with the same lexical "
            "types as a nearer one, left out", "max_share": args.max_share,
            "release": args.release,
            "built_by": "tools/build_letype_table.py", "types": len(supers)}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    text = (f'{{"meta": {json.dumps(meta, sort_keys=True)},\n'
            f'"supertypes": {{\n{_rows(supers)}\n}},\n"synsem": {{\n{_rows(valence)}\n}}}}\n')
    args.output.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))  # a rebuild: same bytes
    print(f"{len(supers)} lexical types -> {args.output}")


if __name__ == "__main__":
    main()
