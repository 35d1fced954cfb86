"""The ACE service a RunConfig (or the options of a command, lit.commands.options) asks for, and
its cache of answers."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lit.ace.config import resolve_config
from lit.config import RunConfig

if TYPE_CHECKING:
    from lit.ace.parsecache import ParseCache
    from lit.ace.service import AceService


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
