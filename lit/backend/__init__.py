"""Where pipeline batches run: in this process (``local``) or on Ray actors (``ray``).

Both backends take the same batches and return the same records in input order; the Ray
backend runs each batch with the very code the local one runs (lit.pipeline.core.Pipeline),
inside actors that each own an ACE pool, the rule engine and the label rules. docs/scale.md
says when to use which. Nothing here imports Ray until a Ray backend is opened.
"""

from __future__ import annotations

import argparse
from types import ModuleType

from lit.config import BACKENDS, DEFAULTS
from lit.errors import ConfigurationError

#: How to get Ray (the `ray` extra of pyproject.toml).
INSTALL_RAY = "pip install 'lit-contrast[ray]'"


def import_ray() -> ModuleType:
    """The `ray` module, or a ConfigurationError that says how to install it."""
    try:
        import ray
    except ImportError:
        raise ConfigurationError(
            f"--backend ray needs Ray, which is not installed here: {INSTALL_RAY} "
            "(on every node of the cluster); or run with --backend local") from None
    return ray


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
