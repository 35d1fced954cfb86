"""The options LIT's commands share (ACE, backend, pipeline, input fields, pair specs) and the
Engine they configure: command-line code, so it lives with the commands, and the library
packages read a RunConfig (RunConfig.from_args) instead of declaring options.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lit.backend import INSTALL_RAY
from lit.config import (
    BACKENDS,
    DEFAULT_GENERATE_CHART_MEGABYTES,
    DEFAULT_GENERATE_UNPACK_MEGABYTES,
    DEFAULT_IDLE_MEGABYTES,
    DEFAULT_MAX_CHART_MEGABYTES,
    DEFAULT_MAX_OUTPUT_MEGABYTES,
    DEFAULT_MAX_UNPACK_MEGABYTES,
    DEFAULTS,
    GRAMMAR_VERSIONS,
    RunConfig,
)
from lit.rank import SCORERS

if TYPE_CHECKING:
    from lit.pipeline.engine import Engine


def add_ace_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --ace, --grammar, --grammar-version, --workers, --timeout and ACE's memory caps."""
    g = parser.add_argument_group("ACE")
    g.add_argument("--ace", metavar="PATH", help="the ace executable (else LIT_ACE, config, cache)")
    g.add_argument(
        "--grammar", metavar="PATH", help="compiled grammar image (else LIT_GRAMMAR, config, cache)"
    )
    g.add_argument(
        "--grammar-version", metavar="V",
        help=f"ERG release: {', '.join(GRAMMAR_VERSIONS)} (default {GRAMMAR_VERSIONS[0]})"
    )
    g.add_argument(
        "--workers", type=int, metavar="N", help="ACE worker processes (default: number of cores)"
    )
    g.add_argument(
        "--timeout", type=float, default=DEFAULTS.timeout, metavar="SECONDS",
        help="backstop per item, in seconds of ACE processor time (3x that in wall-clock "
        "time for a process that gets no processor): the memory caps below decide outcomes, "
        "this stops a runaway or hung ACE; an item it stops is retried once on a fresh "
        "process, then marked timeout with a reason saying time decided it "
        f"(default {DEFAULTS.timeout:g})",
    )
    g.add_argument(
        "--generate-timeout", type=float, default=DEFAULTS.generate_timeout, metavar="SECONDS",
        help="the same backstop for each MRS generated (the slowest generation measured that "
        f"ended by the grammar took 26 s; default {DEFAULTS.generate_timeout:g})",
    )
    for flag, text in (
        ("--max-chart-megabytes", "ACE's chart memory cap per parser process: with the other "
         "caps, the limits that decide an item's outcome, a measure of the grammar's work that "
         "does not depend on the machine's load; an item stopped by one is resource, retried "
         f"by --resume with a larger one (default {DEFAULT_MAX_CHART_MEGABYTES})"),
        ("--max-unpack-megabytes", "ACE's unpacking memory cap per parser process "
         f"(default {DEFAULT_MAX_UNPACK_MEGABYTES})"),
        ("--generate-chart-megabytes", "ACE's chart memory cap per generator process "
         f"(default {DEFAULT_GENERATE_CHART_MEGABYTES})"),
        ("--generate-unpack-megabytes", "ACE's unpacking memory cap per generator process "
         f"(default {DEFAULT_GENERATE_UNPACK_MEGABYTES})"),
        ("--idle-megabytes", "an ACE process holding more memory than this after an item is "
         "restarted for the next, so idle processes do not keep their peak "
         f"(default {DEFAULT_IDLE_MEGABYTES})"),
        ("--max-output-megabytes", "ACE output read per item before the item is ace_error "
         f"(default {DEFAULT_MAX_OUTPUT_MEGABYTES})"),
    ):
        g.add_argument(flag, type=int, default=None, metavar="MB", help=text)
    g.add_argument(
        "--no-parse-cache", action="store_true",
        help="ask ACE for every parse and generation afresh: neither read nor fill the "
        "on-disk cache of ACE's answers every command shares (lit.ace.parsecache; `lit cache` "
        "shows it)",
    )


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """--backend, --ray-address, --actors, --ace-workers-per-actor, --scorer-actors
    (RunConfig fields of the same names)."""
    g = parser.add_argument_group("backend (docs/scale.md)")
    g.add_argument("--backend", choices=BACKENDS, default=DEFAULTS.backend,
                   help="run batches in this process (local, default) or on Ray actors (ray; "
                   f"needs the `ray` extra: {INSTALL_RAY})")
    g.add_argument("--ray-address", metavar="auto|HOST:PORT",
                   help="Ray cluster to join (default: RAY_ADDRESS, else a new local Ray)")
    g.add_argument("--actors", type=int, metavar="N",
                   help="Ray actors, each with its own ACE pool (default: the cluster's CPUs "
                   "divided by --ace-workers-per-actor)")
    g.add_argument("--ace-workers-per-actor", type=int, metavar="M",
                   help="ACE worker processes per actor, and the CPUs each actor reserves "
                   f"(default {DEFAULTS.ace_workers_per_actor})")
    g.add_argument("--scorer-actors", type=int, metavar="K",
                   help="rank on K separate scorer actors (one GPU each when the cluster has "
                   "GPUs) instead of inside every actor (default 0)")


def add_input_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                        format_flag: str = "--format") -> None:
    """The input-format option (*format_flag*: `lit augment`'s own --format is its output's)
    and the field options of a command that reads an NLI dataset (lit.io.readers): unnamed
    fields are found by name, SNLI's first, then Hugging Face's."""
    from lit.io.readers import FORMATS

    parser.add_argument(format_flag, choices=FORMATS, metavar="FORMAT",
                        help=f"input format: {', '.join(FORMATS)} (default: from the name)")
    parser.add_argument("--premise-column", metavar="NAME",
                        help="premise field (default: sentence1, else premise)")
    parser.add_argument("--hypothesis-column", metavar="NAME",
                        help="hypothesis field (default: sentence2, else hypothesis)")
    parser.add_argument("--label-column", metavar="NAME",
                        help="gold label field (default: gold_label, else label); words or "
                        "Hugging Face integers 0/1/2 (-1 = no label)")


def add_pipeline_arguments(parser: argparse.ArgumentParser, rules: bool = True) -> None:
    """--scorer, --model, --device, --score-batch-size, --max-candidates, --max-alternatives,
    --verify-readings,
    --keep-unverified, --batch-size and (unless *rules* is false, for a command that declares
    its own) --rules. ACE options come from `add_ace_arguments`."""
    g = parser.add_argument_group("ranking and verification")
    g.add_argument("--scorer", choices=SCORERS, default=DEFAULTS.scorer,
                   help="rank realizations by GPT-2 perplexity (gpt2, default; needs the `rank` "
                        "extra; freq stands in when it cannot be loaded), by word frequency "
                        "(freq, no model) or by ACE's own order (ace, no model); "
                        "see docs/pipeline.md, Ranking")
    g.add_argument("--model", metavar="NAME|PATH",
                   help="Hugging Face model name or local directory for --scorer gpt2 "
                        "(default gpt2)")
    g.add_argument("--device", metavar="DEV", help="torch device (default: cuda if available)")
    g.add_argument("--score-batch-size", type=int, default=DEFAULTS.score_batch_size,
                   metavar="N", help="sentences per scorer forward pass "
                   f"(default {DEFAULTS.score_batch_size})")
    g.add_argument("--max-candidates", type=int, default=DEFAULTS.max_candidates, metavar="N",
                   help=f"distinct realizations kept per MRS (default {DEFAULTS.max_candidates})")
    g.add_argument("--realizations-per-candidate", type=float,
                   default=DEFAULTS.realizations_per_candidate, metavar="X",
                   help="realizations ACE is asked for per candidate kept (its -n is X times "
                   f"--max-candidates; default {DEFAULTS.realizations_per_candidate:g})")
    g.add_argument("--max-alternatives", type=int, default=DEFAULTS.max_alternatives,
                   metavar="N", help="when a transformation gives several outputs (a table "
                   "lookup: one per hypernym, antonym, ...), realize up to N in table order "
                   "until one verifies (default "
                   f"{DEFAULTS.max_alternatives}; 1 = the first only)")
    g.add_argument("--closeness-weight", type=float, default=DEFAULTS.closeness_weight,
                   metavar="W", help="weight 0..1 of closeness to the source sentence against "
                   f"the scorer's order (default {DEFAULTS.closeness_weight})")
    g.add_argument("--readings", type=int, default=DEFAULTS.readings, metavar="N",
                   help="parse readings per input sentence to weigh: the first that no check "
                   "speaks against (a lower-case word read as a name, a fragment read as a "
                   "clause, the copula over a progressive) is transformed; up to two later "
                   "trusted ones with the same label phenomena are tried when it does not "
                   "transform, read like the source or round-trip "
                   f"(default {DEFAULTS.readings}; docs/pipeline.md)")
    g.add_argument("--round-trip", action="store_true", default=None,
                   help="also check that a transformed reading's own MRS gives the source "
                   "sentence back, else try the next reading (one generation per sentence "
                   "with an output, kept in the parse cache; docs/pipeline.md)")
    g.add_argument("--verify-readings", type=int, default=DEFAULTS.verify_readings, metavar="N",
                   help="readings per candidate re-parse when verifying (default "
                        f"{DEFAULTS.verify_readings})")
    g.add_argument("--keep-unverified", action="store_true",
                   help="when no candidate verifies, keep the best-ranked one (status stays "
                        "not_verified)")
    g.add_argument("--allow-defects", action="store_true",
                   help="output the best verified candidate even when every verified one has "
                        "a defect (an unexplained word, a non-word, an added comma, no "
                        "inversion); else the side is not_fluent")
    g.add_argument("--batch-size", type=int, default=DEFAULTS.batch_size, metavar="N",
                   help=f"inputs per pipeline batch (default {DEFAULTS.batch_size})")
    g.add_argument("--batches-in-flight", type=int, default=DEFAULTS.batches_in_flight,
                   metavar="N", help="batches processed at once, so the ACE pool never waits "
                   f"for a stage boundary (default {DEFAULTS.batches_in_flight})")
    if rules:
        g.add_argument("--rules", action="append", metavar="PATH",
                       help="extra rule module files or directories (repeatable)")
    add_backend_arguments(parser)


_ENDS_IN_VALUE = re.compile(r"=[A-Za-z0-9_,]*$")


def split_specs(text: str) -> list[str]:
    """The pair specs of one comma-separated --specs value: "f;p,p;f +i,m;o".

    A value may itself hold commas (``swap=ARG1,ARG3``), so a comma continues the spec before
    it while that spec has no ';' yet, or when the spec ends in a value and the text after the
    comma has no ';' (every pair spec has exactly one ';'): "f;p,swap=ARG1,ARG3;o" is "f;p"
    and "swap=ARG1,ARG3;o"."""
    specs: list[str] = []
    for piece in text.split(","):
        if specs and (";" not in specs[-1]
                      or (";" not in piece and _ENDS_IN_VALUE.search(specs[-1]))):
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return [s.strip() for s in specs if s.strip()]


def pair_specs_from_args(args: argparse.Namespace, default: Sequence[str]) -> list[str]:
    """The pair specs of --specs LIST (comma-separated, repeatable) then --spec SPEC
    (repeatable), in the order given; *default* when neither is given."""
    given = [s for text in getattr(args, "specs", None) or [] for s in split_specs(text)]
    given += [s.strip() for s in getattr(args, "spec", None) or []]
    return given or list(default)


def spec_warnings(specs: Sequence[str], command: str = "lit nli") -> list[str]:
    """Warnings for stderr before a run, one per spec whose glued '+' ("p;f+i") reads
    differently from the spaced form ("p;f +i"), naming both readings. (Each spec's
    expansion is in the closing summary, lit.pipeline.summary.)"""
    from lit.pipeline.summary import glued_warning

    return [f"{command}: warning: {w}" for w in map(glued_warning, specs) if w]


def engine_from_args(args: argparse.Namespace, **overrides: Any) -> Engine:
    """A lit.Engine configured from `add_ace_arguments` + `add_pipeline_arguments` options
    (RunConfig.from_args: options a command did not declare keep their defaults); *overrides*
    are RunConfig fields. With the Ray backend each actor starts its own ACE pool from the
    same options."""
    from lit.pipeline.engine import Engine

    config = RunConfig.from_args(args).replace(**overrides)
    return Engine(config=config, rules=getattr(args, "rules", None),
                  label_rules=getattr(args, "label_rules", None),
                  task=getattr(args, "task", None))
