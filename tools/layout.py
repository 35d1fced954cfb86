"""The package's layout as the code has it: each part of lit/ with its lines and modules, and
the parts it imports (imports inside functions too). docs/design.md §0 reads from it, and
tests/system/test_architecture.py checks the same graph has no cycle and at most 12 floors.

    python -m tools.layout            # one line per part, top of the pipeline first
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import lit

PACKAGE = Path(lit.__file__).resolve().parent


def unit(module: str) -> str:
    """The part a module belongs to: lit.X for a package or a top-level module."""
    return ".".join(module.split(".")[:2])


def modules() -> dict[str, Path]:
    """Every module of lit by dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(("lit", *path.relative_to(PACKAGE).with_suffix("").parts))
        found[name.removesuffix(".__init__")] = path
    return found


def part_imports() -> dict[str, set[str]]:
    """part -> the other parts it imports (the lit package itself only re-exports)."""
    files = modules()
    parts = {unit(name) for name in files if name != "lit"}
    graph: dict[str, set[str]] = {part: set() for part in parts}
    for name, path in files.items():
        if name == "lit":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            graph[unit(name)] |= {unit(t) for t in targets if unit(t) in parts} - {unit(name)}
    return graph


def depth(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each part's floor: 0 for a part that imports none, else one above its highest import."""
    floors: dict[str, int] = {}

    def floor(part: str, seen: frozenset[str] = frozenset()) -> int:
        if part not in floors:
            below = [floor(d, seen | {part}) for d in graph[part] if d not in seen]
            floors[part] = 1 + max(below, default=-1)
        return floors[part]

    for part in graph:
        floor(part)
    return floors


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    files, graph = modules(), part_imports()
    floors = depth(graph)
    for part in sorted(graph, key=lambda p: (-floors[p], p)):
        own = [p for n, p in files.items() if unit(n) == part]
        lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in own)
        uses = ", ".join(sorted(d.removeprefix("lit.") for d in graph[part])) or "-"
        print(f"{floors[part]:2}  {part:18} {len(own):3} modules {lines:6} lines   uses: {uses}")


if __name__ == "__main__":
    main()
