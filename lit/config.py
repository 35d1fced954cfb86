"""Every run-time default in one place: the grammar versions and one ``RunConfig``.

The CLI, ``lit.Engine`` and ``lit.run_nli`` all read their defaults from here, so a default is
stated once. A ``RunConfig`` is built once (from command-line options, keywords or another
config), checked once when it is made (an ``InputError`` names the option), and handed whole to
the engine, pipeline, realizer, ACE service and backends; Ray actors get the same object. This
module imports only ``lit.errors`` (and platformdirs, for ``cache_dir``), so ``lit --help`` can
import it cheaply and any package may depend on it without making a cycle.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass, fields, replace
from os import PathLike
from pathlib import Path
from typing import Any

import platformdirs

from lit.errors import InputError

#: The ERG releases LIT has rules for, newest first; the first is the default.
GRAMMAR_VERSIONS: tuple[str, ...] = ("2025", "2018", "1214")
DEFAULT_GRAMMAR_VERSION = GRAMMAR_VERSIONS[0]


def cache_dir() -> Path:
    """Where LIT keeps what it can rebuild (grammars, parses, compiled rule grammars): here so
    every layer that caches, down to the rule parser, finds it without importing lit.ace."""
    return Path(os.environ.get("LIT_CACHE_DIR") or platformdirs.user_cache_dir("lit", False))

#: ACE's memory caps per process, MB (the unpacking cap includes the chart; a process's RSS is
#: its cap plus ~90 MB of grammar). Parsers: every parse that succeeded used under 230 MB (the
#: SNLI dev curve of issue 23 and 80 held-out SNLI test and SICK pairs of issue 55), so 500 /
#: 600 MB lose nothing and stop a hopeless parse sooner. The generator's chart cap (500 MB since
#: issue 40) stops the MRSs that build a chart for long without realizing. Its unpacking cap
#: stays 1,300 MB (docs/performance.md, "Memory caps from held-out curves"): at 600 MB no ok
#: transform was lost on the held-out pairs, but 13 were on the README's first 100 SNLI dev
#: pairs (two long sentences whose MRSs give their first realization only past 1,000 MB, even
#: with ACE's first 5 realizations), so a worker's peak is its generator at that cap plus an
#: idle parser (~1.5 GB), not 1 GB; `--generate-unpack-megabytes 600` trades those for speed.
DEFAULT_MAX_CHART_MEGABYTES = 500
DEFAULT_MAX_UNPACK_MEGABYTES = 600
DEFAULT_GENERATE_CHART_MEGABYTES = 500
DEFAULT_GENERATE_UNPACK_MEGABYTES = 1300
#: An idle ACE process keeps the memory of its largest item (ACE does not give it back), so a
#: process found holding more than this after an item is closed and started again for the
#: next (~0.03 s on the rig): a worker's peak is then its one busy process plus idle ones of
#: at most this size, not the high-water marks of all three (docs/performance.md). Every
#: verifying re-parse measured on the rig stayed under ~230 MB.
DEFAULT_IDLE_MEGABYTES = 300
#: ACE output read per item before the item is ace_error (a runaway process cannot fill memory).
DEFAULT_MAX_OUTPUT_MEGABYTES = 64
#: Input guards: longer sentences are refused before ACE sees them (their charts would be huge).
DEFAULT_MAX_CHARS = 1000
DEFAULT_MAX_WORDS = 100
#: Tries an item gets when ACE dies of something LIT did not cause.
DEFAULT_ATTEMPTS = 4

#: Where batches can run (lit.backend).
BACKENDS: tuple[str, ...] = ("local", "ray")

#: The LIT paper's pair specs (docs/design.md §2 table, without o;o): `lit nli`'s default.
PAPER_SPECS: tuple[str, ...] = (
    "f;p", "p;f", "i;i", "pa;pa", "m;o", "f;p +i", "p;f +i", "f;p +pa", "p;f +pa",
)


@dataclass(frozen=True)
class RunConfig:
    """How a pipeline run is configured; each field's default is LIT's one default for it.

    Build one with keywords (``RunConfig(scorer="ace")``), from command-line options
    (``RunConfig.from_args``) or from another (``config.replace(timeout=30)``).
    """

    #: The ace executable and compiled grammar image; None: LIT_ACE / LIT_GRAMMAR, the config
    #: file `lit setup` writes, then the user cache (docs/ace.md).
    ace: str | None = None
    grammar: str | None = None
    #: ERG release; None: the grammar's own (from `lit setup`), else DEFAULT_GRAMMAR_VERSION.
    grammar_version: str | None = None
    #: ACE worker processes; None: one per core.
    workers: int | None = None
    #: ACE's memory caps per process, MB (see DEFAULT_MAX_CHART_MEGABYTES): with the other
    #: caps, the limits that decide an item's outcome, whatever the machine's load.
    max_chart_megabytes: int = DEFAULT_MAX_CHART_MEGABYTES
    max_unpack_megabytes: int = DEFAULT_MAX_UNPACK_MEGABYTES
    generate_chart_megabytes: int = DEFAULT_GENERATE_CHART_MEGABYTES
    generate_unpack_megabytes: int = DEFAULT_GENERATE_UNPACK_MEGABYTES
    #: An ACE process holding more than this after an item is started afresh for the next.
    idle_megabytes: int = DEFAULT_IDLE_MEGABYTES
    #: ACE output read per item before the item is ace_error.
    max_output_megabytes: int = DEFAULT_MAX_OUTPUT_MEGABYTES
    #: Sentences longer than this (characters, words) are refused before ACE sees them.
    max_chars: int = DEFAULT_MAX_CHARS
    max_words: int = DEFAULT_MAX_WORDS
    #: Tries an item gets when ACE dies of something LIT did not cause.
    attempts: int = DEFAULT_ATTEMPTS
    #: Answer parses and generations made before (this or an earlier command) from the on-disk
    #: cache every command shares (lit.ace.parsecache). The CLI turns it on unless
    #: --no-parse-cache; the Python API leaves it off unless asked.
    parse_cache: bool = False
    #: Per-item backstop in seconds of ACE's processor time (3x that in wall-clock time for a
    #: process that gets no processor): the memory caps decide an item's outcome, this only
    #: stops a runaway or hung ACE. An item it stops is retried once on a fresh process; if
    #: stopped again it is `timeout`, its reason saying that time decided it (docs/ace.md).
    timeout: float = 60.0
    #: The same backstop for one MRS's generation. Measured on the rig with a 120 s limit and
    #: an 800 MB chart cap, the slowest generation that ended by the grammar took 25.5 s (no
    #: realization; memory caps 14-32 s); realized ones at most 9 s. Until issue 40 this was
    #: an 8 s budget that decided outcomes, so the same MRS realized on a quiet box and timed
    #: out on a busy one.
    generate_timeout: float = 60.0
    #: Realization ranker: "gpt2" (perplexity, needs the `rank` extra) or "ace" (no model).
    scorer: str = "gpt2"
    #: Hugging Face model name or directory for the gpt2 scorer (None: "gpt2").
    model: str | None = None
    #: torch device for the scorer (None: cuda if available).
    device: str | None = None
    #: Sentences per scorer forward pass.
    score_batch_size: int = 32
    #: Distinct realizations kept per transformed MRS (ACE's first N, by its selective
    #: unpacking; a route's twin gets ROUTE_CANDIDATE_FACTOR times as many). Unpacking is most
    #: of a generation's time (a cleft twin with 30 realizations: 4.9 s for all, 0.5 s for the
    #: first): on 40 held-out SNLI and SICK pairs (issue 55) 5 kept every output, status and
    #: label that 10 (and 20 realizations) gave, in 33-39% less time; 3 lost a passive.
    max_candidates: int = 5
    #: Realizations ACE is asked for (its -n) per candidate kept: 1, as many as the ranker and
    #: verification use (on the held-out tuning pairs more only added strings ranked below the
    #: first verified one).
    realizations_per_candidate: float = 1.0
    #: Alternative outputs of one transformation (a table lookup with several values, e.g.
    #: one per hypernym) to realize in table order until one verifies.
    max_alternatives: int = 3
    #: Weight of closeness to the source against the scorer's order in ranking, 0..1
    #: (lit.rank.ranking; module preferences and defects come first either way).
    closeness_weight: float = 0.75
    #: Parse readings of each input sentence to weigh (lit.pipeline.reading): the first no
    #: check speaks against is transformed; a side that does not transform, read like the
    #: source or round-trip from it tries the next trusted ones, at most MAX_FALLBACKS (only
    #: readings with the same label-rule phenomena, so labels stay sound). 5: the right
    #: reading of the misread sentences judged was third or fourth.
    readings: int = 5
    #: Check each transformed reading's round trip (does its own MRS give the source sentence
    #: back?) and try the next reading when it does not (lit.pipeline.roundtrip). Off: on 400
    #: unseen SNLI pairs it never spoke against a reading the other evidence kept, at one
    #: generation per sentence with an output (docs/performance.md, "Choosing the reading").
    round_trip: bool = False
    #: Readings per re-parse when verifying (the intended reading is often not the first).
    verify_readings: int = 20
    #: When no candidate verifies, keep the best-ranked one (status stays not_verified).
    keep_unverified: bool = False
    #: Output a verified candidate even when it has a defect (an unexplained word, a non-word,
    #: an added comma, a missing preferred form); else such a side is not_fluent.
    allow_defects: bool = False
    #: Inputs that go through the pipeline stages together.
    batch_size: int = 32
    #: Batches processed at once (threads): one waits at a stage boundary while another keeps
    #: the ACE pool busy.
    batches_in_flight: int = 2
    #: Where batches run: "local" (threads of this process) or "ray" (Ray actors, each with
    #: its own ACE pool; docs/scale.md).
    backend: str = "local"
    #: The Ray cluster to join (None: RAY_ADDRESS, else a new local Ray).
    ray_address: str | None = None
    #: Ray actors (None: the cluster's CPUs divided by ace_workers_per_actor).
    actors: int | None = None
    #: ACE worker processes in each Ray actor (and the CPUs it reserves).
    ace_workers_per_actor: int = 1
    #: Separate Ray actors that rank for all the others (0: each actor ranks itself).
    scorer_actors: int = 0

    def __post_init__(self) -> None:
        for name in ("ace", "grammar"):  # paths may be given as Path objects
            if isinstance(getattr(self, name), PathLike):
                object.__setattr__(self, name, str(getattr(self, name)))
        for f in fields(self):
            problem = _check(f.name, getattr(self, f.name), f.default)
            if problem:
                raise InputError(f"option {f.name}: {problem}")

    def replace(self, **changes: Any) -> RunConfig:
        """A copy with *changes* (None values are ignored, so unset options keep defaults);
        an unknown option is an InputError naming it."""
        unknown = sorted(set(changes) - OPTION_NAMES)
        if unknown:
            raise InputError(f"unknown option {unknown[0]!r}: expected one of "
                             f"{', '.join(sorted(OPTION_NAMES))}")
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RunConfig:
        """The options a command declared (argparse dests named like the fields, and
        --no-parse-cache); options it did not declare, or left unset, keep their defaults.
        A command that declares --no-parse-cache uses the cache unless it is given."""
        given = {f.name: getattr(args, f.name, None) for f in fields(cls)}
        if hasattr(args, "no_parse_cache"):
            given["parse_cache"] = not args.no_parse_cache
        return cls().replace(**given)


#: Options that may be absent (None: resolved later, as each field's comment says).
_OPTIONAL = {"ace", "grammar", "grammar_version", "workers", "model", "device", "ray_address",
             "actors"}
#: The least value of each numeric option: whole numbers are at least 1 unless said here,
#: seconds are positive.
_LEAST = {"scorer_actors": 0, "realizations_per_candidate": 1}
_CHOICES = {"backend": BACKENDS, "grammar_version": GRAMMAR_VERSIONS}


def _check(name: str, value: Any, default: Any) -> str | None:
    """What is wrong with *value* for option *name* (whose default is *default*), if anything."""
    if value is None:
        return None if name in _OPTIONAL else "must be given"
    if name in _CHOICES:
        ok = value in _CHOICES[name]
        return None if ok else f"expected one of {', '.join(_CHOICES[name])}, not {value!r}"
    if name == "scorer":
        ok = (isinstance(value, str) and value) or callable(getattr(value, "score", None))
        return None if ok else f"expected a scorer name or an object with score(), not {value!r}"
    if name == "closeness_weight":
        ok = _is_number(value, float) and 0 <= value <= 1
        return None if ok else f"expected a number from 0 to 1, not {value!r}"
    kind = _NUMBER.get(name, str) if default is None else type(default)
    if kind is bool:
        return None if isinstance(value, bool) else f"expected true or false, not {value!r}"
    if kind is str:
        return None if isinstance(value, str) else f"expected a string, not {value!r}"
    if not _is_number(value, kind):
        return f"expected {'a whole number' if kind is int else 'a number'}, not {value!r}"
    least = _LEAST.get(name, 1 if kind is int else None)
    if least is None:
        return None if value > 0 else f"expected a positive number, not {value!r}"
    return None if value >= least else f"expected at least {least}, not {value!r}"


def _is_number(value: Any, kind: type) -> bool:
    """Is *value* a finite number of *kind* (int: a whole number; float: any real)?"""
    allowed = (int,) if kind is int else (int, float)
    return (isinstance(value, allowed) and not isinstance(value, bool)
            and math.isfinite(value))


#: The numeric options whose default is None (checked when given).
_NUMBER = {"workers": int, "actors": int}
#: Every option's name.
OPTION_NAMES = frozenset(f.name for f in fields(RunConfig))
#: The defaults, for signatures that need a plain value (``timeout: float = DEFAULTS.timeout``).
DEFAULTS = RunConfig()
