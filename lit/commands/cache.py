"""Show or clear LIT's cache of ACE's answers: the parses and generations every command reuses.

`lit nli`, `lit transform`, `lit parse`, `lit analyze` and the rest keep each parse and
generation ACE gives for a grammar image in one SQLite file (lit.ace.parsecache), so a re-run
(other label rules, other specs sharing steps, `--resume`) does no ACE work twice. `lit cache`
shows where that file is, the space its entries use against their bound
(LIT_CACHE_MEGABYTES) and its entries per grammar image; `lit cache clear` deletes them. The
ACE and grammars `lit setup` installed are not touched. Exit 0.
"""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=("show", "clear"), default="show",
                        help="show (default) what the cache holds, or clear it")
    parser.add_argument("--json", action="store_true", help="print what was found as JSON")


def run(args: argparse.Namespace) -> int:
    from lit.ace.parsecache import TABLES, clear, default_max_megabytes, default_path, describe

    path = default_path()
    if args.action == "clear":
        removed = clear(path)
        if args.json:
            print(json.dumps({"path": str(path), "removed": removed}))
        elif not removed:
            print(f"nothing to clear: {path} does not exist")
        else:
            print(f"cleared {path}: " + ", ".join(f"{n} {t}" for t, n in removed.items()))
        return 0
    info = describe(path)
    info["max_megabytes"] = default_max_megabytes()
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    print(f"cache of ACE's answers: {path}")
    if not info["exists"]:
        print("  empty: no command has stored an answer yet")
        return 0
    print(f"  {info['used_bytes'] / 2**20:.1f} MB in use (file {info['file_bytes'] / 2**20:.1f}"
          f" MB), bound {info['max_megabytes']} MB (LIT_CACHE_MEGABYTES)")
    if not info["grammars"]:
        print("  no entries")
    for digest, entry in info["grammars"].items():
        where = ", ".join(entry["paths"]) or "image no longer at a known path"
        counts = ", ".join(f"{entry.get(t, 0)} {t}" for t in TABLES)
        print(f"  grammar {digest[:12]} ({where}): {counts}")
    return 0
