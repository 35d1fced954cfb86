"""Build lit/analyze/data/erg-2025-letypes.json: every lexical type of the ERG and its
supertypes in the grammar's lexical type hierarchy, for the shortcut miner's ``letype:``
fragments (issue 43, docs/mining.md).

    python tools/build_letype_table.py ERG_DIR [-o JSON]

ERG_DIR is an ERG source tree at the release the table is for (the rig's checkout of the 2025
tag: /tmp/lit-rig/erg-2025). A lexical type is a type named ``*_le`` (the ERG's convention:
``v_-_le``, ``v_np*_le``) in letypes.tdl, lextypes.tdl or auxverbs.tdl; its supertypes are its
ancestors defined there (``v_-_lexent``, ``main_verb``, ...), nearest first. Ancestors from fundamentals.tdl and the
rest of the grammar (``word``, ``sign``) are left out: every lexical item has them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from delphin import tdl

OUT = Path(__file__).resolve().parent.parent / "lit" / "analyze" / "data" / "erg-2025-letypes.json"
LEXICAL = ("letypes.tdl", "lextypes.tdl", "auxverbs.tdl")


def supertypes(erg: Path) -> dict[str, list[str]]:
    """Each lexical type of *erg* with its lexical ancestors, nearest first
    (breadth first over the type's parents, each ancestor once)."""
    parents: dict[str, list[str]] = {}
    leaves: list[str] = []
    for name in LEXICAL:
        for event, obj, _ in tdl.iterparse(erg / name):
            if event == "TypeDefinition":
                parents[obj.identifier] = [str(t) for t in obj.supertypes]
                if obj.identifier.endswith("_le"):
                    leaves.append(obj.identifier)
    table = {}
    for leaf in sorted(leaves):
        seen: list[str] = []
        queue = list(parents[leaf])
        while queue:
            t = queue.pop(0)
            if t in parents and t not in seen:
                seen.append(t)
                queue.extend(parents[t])
        table[leaf] = seen
    return table


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("erg", type=Path, help="an ERG source tree (letypes.tdl, lextypes.tdl)")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    ap.add_argument("--release", default="2025", help="the ERG release the tree is (meta only)")
    args = ap.parse_args(argv)
    table = supertypes(args.erg)
    meta = {"what": "ERG lexical types (*_le) and their supertypes in letypes.tdl, "
            "lextypes.tdl and auxverbs.tdl, nearest first", "release": args.release,
            "built_by": "tools/build_letype_table.py", "types": len(table)}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    rows = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())
    args.output.write_text(f'{{"meta": {json.dumps(meta, sort_keys=True)},\n"supertypes": {{\n'
                           f"{rows}\n}}}}\n", encoding="utf-8")
    deep = sum(len(v) for v in table.values()) / max(1, len(table))
    print(f"{len(table)} lexical types, {deep:.1f} supertypes each on average -> {args.output}")


if __name__ == "__main__":
    main()
