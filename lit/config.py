"""Every run-time default in one place: the grammar versions and one ``RunConfig``.

The CLI, ``lit.Engine`` and ``lit.run_nli`` all read their defaults from here, so a default is
stated once. This module imports nothing from LIT, so ``lit --help`` can import it cheaply and
any package may depend on it without making a cycle.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields, replace
from typing import Any

#: The ERG releases LIT has rules for, newest first; the first is the default.
GRAMMAR_VERSIONS: tuple[str, ...] = ("2025", "2018", "1214")
DEFAULT_GRAMMAR_VERSION = GRAMMAR_VERSIONS[0]

#: ACE's memory caps per process, MB (the unpacking cap includes the chart). Measured on the
#: rig (docs/performance.md, "Generation limits"): every parse that succeeded used at most
#: ~230 MB (-n 20 re-parses of candidates included); most MRSs that realized used under
#: 200 MB, but three (one long sentence, 7 ok transforms) give their first realization only
#: past 1,000 MB (4-5 of them at 1,300, 6-7 at ACE's own 1,500), so the generator's unpacking
#: cap stays high; the caps, not time, decide an item's outcome (docs/ace.md, "Limits"). The
#: generator's chart cap (500 MB since issue 40) stops the MRSs that build a chart for long
#: without realizing at about the cost the old 8 s time budget had: no realization measured
#: needed more, and processor time per pair stayed within 5% of the time budget's. A worker
#: runs one item at a time on one of its three processes, so its peak is about the active
#: process's cap plus two idle ones (~200 MB each): under 2 GB.
DEFAULT_MAX_CHART_MEGABYTES = 800
DEFAULT_MAX_UNPACK_MEGABYTES = 1000
DEFAULT_GENERATE_CHART_MEGABYTES = 500
DEFAULT_GENERATE_UNPACK_MEGABYTES = 1300
#: An idle ACE process keeps the memory of its largest item (ACE does not give it back), so a
#: process found holding more than this after an item is closed and started again for the
#: next (~0.03 s on the rig): a worker's peak is then its one busy process plus idle ones of
#: at most this size, not the high-water marks of all three (docs/performance.md). Every
#: verifying re-parse measured on the rig stayed under ~230 MB.
DEFAULT_IDLE_MEGABYTES = 300

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
    #: Distinct realizations kept per transformed MRS (ACE's first N; the oracle shows one of
    #: the first 10 verifies for 625 of 626 pairs).
    max_candidates: int = 10
    #: Realizations ACE is asked for (its -n) per candidate kept: derivations often share a
    #: string, and unpacking more costs time and memory.
    realizations_per_candidate: float = 2.0
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

    def replace(self, **changes: Any) -> RunConfig:
        """A copy with *changes* (None values are ignored, so unset options keep defaults)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RunConfig:
        """The options a command declared (argparse dests named like the fields); options it
        did not declare, or left unset, keep their defaults."""
        return cls().replace(**{f.name: getattr(args, f.name, None) for f in fields(cls)})


#: The defaults, for signatures that need a plain value (``timeout: float = DEFAULTS.timeout``).
DEFAULTS = RunConfig()
