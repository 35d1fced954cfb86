"""`lit doctor --backend ray`: the doctor's checks on every node of a Ray cluster.

Each alive node runs `lit.ace.doctor.diagnose` itself (pinned there by a node-affinity
scheduling strategy), so each reports the ACE and grammar *it* finds: LIT_ACE/LIT_GRAMMAR
as Ray's workers see them, that node's `lit setup` cache, or the paths given (a shared
file system). The report names every node and what it lacks.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import Any

from lit.backend import import_ray


def _diagnose_here(ace: str | None, grammar: str | None, version: str | None,
                   smoke: bool) -> tuple[str, list]:
    """This node's name, LIT's version here and the doctor's checks, run here."""
    import lit
    from lit.ace.doctor import Check, diagnose

    head = Check("LIT", None, f"lit-contrast {lit.__version__} in {os.path.dirname(lit.__file__)}")
    return socket.gethostname(), [head, *diagnose(ace, grammar, version, smoke=smoke)]


def check_nodes(ace: str | None, grammar: str | None, version: str | None, smoke: bool,
                address: str | None = None) -> list[tuple[str, list]]:
    """(node, checks) for every alive node of the Ray cluster at *address* (None:
    RAY_ADDRESS, else a new local Ray)."""
    ray = import_ray()
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        task = ray.remote(_diagnose_here)
        refs = [task.options(num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(
            n["NodeID"], soft=False)).remote(ace, grammar, version, smoke) for n in nodes]
        found = ray.get(refs)
        return [(f"{host} ({n['NodeManagerAddress']})", checks)
                for n, (host, checks) in zip(nodes, found)]
    finally:
        if started:
            ray.shutdown()


def doctor_nodes(args: Any, report: Callable[[list], int]) -> int:
    """Print *report* of each node's checks under its name, then which nodes lack what;
    exit status 0 when every node can parse and generate, else 1."""
    results = check_nodes(args.ace, args.grammar, args.grammar_version,
                          not args.no_parse, getattr(args, "ray_address", None))
    lacking: list[str] = []
    for node, checks in results:
        print(f"== node {node}")
        if report(checks):
            lacking.append(f"{node} lacks: " + ", ".join(
                f"{c.name} ({c.detail})" for c in checks if c.ok is False))
    print(f"{len(results)} node(s) checked; " + (
        "every node can parse and generate." if not lacking else
        f"{len(lacking)} cannot:\n" + "\n".join(f"  {line}" for line in lacking)))
    return 1 if lacking else 0
