"""The ACE options every LIT command shares, and the service they configure."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lit.ace.config import resolve_config
from lit.config import (
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

if TYPE_CHECKING:
    from lit.ace.parsecache import ParseCache
    from lit.ace.service import AceService


def add_ace_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --ace, --grammar, --grammar-version, --workers, --timeout and ACE's memory caps."""
    g = parser.add_argument_group("ACE")
    _add_paths(g)
    _add_time_limits(g)
    _add_memory_caps(g)
    g.add_argument(
        "--no-parse-cache", action="store_true",
        help="ask ACE for every parse and generation afresh: neither read nor fill the "
        "on-disk cache of ACE's answers every command shares (lit.ace.parsecache; `lit cache` "
        "shows it)",
    )


def _add_paths(g: argparse._ArgumentGroup) -> None:
    """Which ACE and grammar image to run, and how many processes."""
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


def _add_time_limits(g: argparse._ArgumentGroup) -> None:
    """The per-item backstops in seconds (the memory caps decide outcomes, not these)."""
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


def _add_memory_caps(g: argparse._ArgumentGroup) -> None:
    """ACE's memory caps per process, MB: the limits that decide an item's outcome."""
    g.add_argument(
        "--max-chart-megabytes", type=int, default=None, metavar="MB",
        help="ACE's chart memory cap per parser process: with the other caps, the limits "
        "that decide an item's outcome, a measure of the grammar's work that does not depend "
        "on the machine's load; an item stopped by one is resource, retried by --resume with "
        f"a larger one (default {DEFAULT_MAX_CHART_MEGABYTES})",
    )
    g.add_argument(
        "--max-unpack-megabytes", type=int, default=None, metavar="MB",
        help="ACE's unpacking memory cap per parser process "
        f"(default {DEFAULT_MAX_UNPACK_MEGABYTES})",
    )
    g.add_argument(
        "--generate-chart-megabytes", type=int, default=None, metavar="MB",
        help="ACE's chart memory cap per generator process "
        f"(default {DEFAULT_GENERATE_CHART_MEGABYTES})",
    )
    g.add_argument(
        "--generate-unpack-megabytes", type=int, default=None, metavar="MB",
        help="ACE's unpacking memory cap per generator process "
        f"(default {DEFAULT_GENERATE_UNPACK_MEGABYTES})",
    )
    g.add_argument(
        "--idle-megabytes", type=int, default=None, metavar="MB",
        help="an ACE process holding more memory than this after an item is restarted for "
        f"the next, so idle processes do not keep their peak (default {DEFAULT_IDLE_MEGABYTES})",
    )
    g.add_argument(
        "--max-output-megabytes", type=int, default=None, metavar="MB",
        help="ACE output read per item before the item is ace_error "
        f"(default {DEFAULT_MAX_OUTPUT_MEGABYTES})",
    )


def service_from_args(args: argparse.Namespace, **overrides: Any) -> AceService:
    """An AceService configured from :func:`add_ace_arguments` options (*overrides*, RunConfig
    fields, win)."""
    return start_service(RunConfig.from_args(args).replace(**overrides))


def start_service(options: RunConfig) -> AceService:
    """The AceService *options* ask for: ACE and the grammar found from its ace, grammar and
    grammar_version (lit.ace.config.resolve_config), its limits, and the shared cache of
    ACE's answers when options.parse_cache is set."""
    from lit.ace.service import AceService

    config = resolve_config(options.ace, options.grammar, options.grammar_version)
    cache = None
    if options.parse_cache and Path(config.grammar).is_file():
        cache = parse_cache_for(config.grammar, options)
    return AceService(config, options, parse_cache=cache)


def parse_cache_for(grammar: Path, options: RunConfig) -> ParseCache:
    """The cache of ACE's answers for *grammar* and the service options that change them
    (the parser's and the generator's memory caps)."""
    from lit.ace.parsecache import ParseCache

    return ParseCache(grammar, {
        "max_chart_megabytes": options.max_chart_megabytes,
        "max_unpack_megabytes": options.max_unpack_megabytes,
    }, generate_options={
        "generate_chart_megabytes": options.generate_chart_megabytes,
        "generate_unpack_megabytes": options.generate_unpack_megabytes,
    })
