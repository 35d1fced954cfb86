#!/usr/bin/env python3
"""Derive lit/rank/data/nonwords.tsv from the ERG's irregs.tab (regenerate with this script).

The ERG lists every irregular inflection (``men N_PL-IRREG_OLR man``). Where a stem has an
irregular form for a rule, the form a regular rule would build (*mans*, *childs*, *teached*,
*runing*) is not English unless the table lists it too (*dreamed* beside *dreamt*). The ranking
counts such forms as defects, so the generator's over-regular realizations lose.

    python -m tools.build_nonwords --erg-git /work/.mirror/delph-in+erg/repo [--rev HEAD]
    python -m tools.build_nonwords --irregs path/to/irregs.tab
"""

from __future__ import annotations

import argparse
import re
import subprocess
from collections import defaultdict
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "lit" / "rank" / "data" / "nonwords.tsv"
VOWEL = "aeiou"


def plural(stem: str) -> str:
    if re.search(r"(s|x|z|ch|sh)$", stem):
        return stem + "es"
    if re.search(rf"[^{VOWEL}]y$", stem):
        return stem[:-1] + "ies"
    return stem + "s"


def past(stem: str) -> str:
    if stem.endswith("e"):
        return stem + "d"
    if re.search(rf"[^{VOWEL}]y$", stem):
        return stem[:-1] + "ied"
    return stem + "ed"


def progressive(stem: str) -> str:
    if stem.endswith("e") and not stem.endswith("ee"):
        return stem[:-1] + "ing"
    return stem + "ing"


#: The inflection rules whose regular forms we check, and how a regular rule builds them.
RULES = {
    "N_PL-IRREG_OLR": plural,
    "V_PST_OLR": past,
    "V_PSP_OLR": past,
    "V_PRP_OLR": progressive,
}


def nonwords(irregs: str) -> list[tuple[str, str, str]]:
    """(non-word, the ERG's form, rule) for each over-regular form of an irregular stem."""
    forms: dict[tuple[str, str], set[str]] = defaultdict(set)
    listed: set[str] = set()
    for line in irregs.splitlines():
        parts = line.split()
        if len(parts) == 3:
            form, rule, stem = parts
            forms[(stem.lower(), rule)].add(form.lower())
            listed.add(form.lower())
    rows = set()
    for (stem, rule), irregular in forms.items():
        build = RULES.get(rule)
        if build is None or " " in stem or "_" in stem:
            continue
        regular = build(stem)
        if regular not in irregular and regular not in listed:
            rows.add((regular, sorted(irregular)[0], rule))
    return sorted(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--erg-git", help="bare git copy of github.com/delph-in/erg")
    src.add_argument("--irregs", help="an irregs.tab file")
    ap.add_argument("--rev", default="HEAD", help="revision of --erg-git (default HEAD)")
    ap.add_argument("-o", "--output", default=str(OUT))
    args = ap.parse_args()
    if args.erg_git:
        git = ["git", f"--git-dir={args.erg_git}"]
        text = subprocess.run(git + ["show", f"{args.rev}:irregs.tab"], check=True,
                              capture_output=True, text=True).stdout
        commit = subprocess.run(git + ["rev-parse", args.rev], check=True, capture_output=True,
                                text=True).stdout.strip()
        source = f"github.com/delph-in/erg irregs.tab at {commit}"
    else:
        text, source = Path(args.irregs).read_text(encoding="utf-8"), args.irregs
    rows = nonwords(text)
    header = [
        f"# Over-regular inflections that are not English, derived from the ERG's {source}",
        "# by tools/build_nonwords.py. The ERG is (c) Dan Flickinger and contributors, MIT licence.",
        "# nonword\tthe ERG's form\trule",
    ]
    Path(args.output).write_text(
        "\n".join(header + ["\t".join(r) for r in rows]) + "\n", encoding="utf-8")
    print(f"{len(rows)} non-words -> {args.output}")


if __name__ == "__main__":
    main()
