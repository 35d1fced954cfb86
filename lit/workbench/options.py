"""The options of `lit rules try` (kept apart from the workbench so that building the `lit`
command line imports nothing heavy)."""

from __future__ import annotations

import argparse

#: What ``--on`` names for the shipped gold MRSs (also the default).
GOLD = "gold"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `lit rules try` (ACE's only for sentences and --realize)."""
    from lit.rank import SCORERS

    g = parser.add_argument_group("lit rules try FILE [SPEC]")
    g.add_argument("--on", metavar="SOURCE", default=GOLD,
                   help="inputs: 'gold' (default: the 10,472 gold ERG 2025 MRSs shipped with "
                   "LIT, no ACE needed), a `lit parse` output, a JSONL file with an 'mrs' "
                   "field, or a file of sentences (parsed with ACE and the parse cache)")
    g.add_argument("--limit", type=int, metavar="N", help="the first N inputs only")
    g.add_argument("--diff", action="store_true",
                   help="show each change to the MRS as rule-language edits")
    g.add_argument("--examples", type=int, default=10, metavar="N",
                   help="applied inputs shown with --diff, --json and --html, and changed "
                   "inputs listed per kind with --against (default 10)")
    g.add_argument("--json", action="store_true", help="print one JSON document instead")
    g.add_argument("--html", metavar="OUT", help="write a page with the MRSs and DMRS graphs")
    g.add_argument("--against", metavar="OLD",
                   help="an older version of the module: list the inputs whose outcome changed")
    g.add_argument("--watch", action="store_true", help="run again whenever a file is saved")
    g.add_argument("--realize", type=int, default=0, metavar="N",
                   help="with ACE: generate, rank and verify the first N applied inputs")
    a = parser.add_argument_group("ACE (for a file of sentences and --realize)")
    a.add_argument("--ace", metavar="PATH", help="the ace executable (else LIT_ACE, config)")
    a.add_argument("--grammar", metavar="PATH", help="grammar image (else LIT_GRAMMAR, config)")
    a.add_argument("--workers", type=int, metavar="N", help="ACE processes (default: cores)")
    a.add_argument("--no-parse-cache", action="store_true", help="parse sentences afresh")
    a.add_argument("--scorer", choices=SCORERS, default="freq",
                   help="ranks realizations with --realize (default freq: no model)")
