"""What makes a `lit nli` run the run it is, so `--resume` never mixes two runs in one file.

A run stores its identity beside its output (``OUTPUT.lit-run.json``): the input (path, size,
hash of its first MiB), the pair specs, the label rules, the rule modules, the grammar (path,
size, hash of its first MiB, version) and the options that change records. `--resume` compares
and refuses a mismatch, naming what differs, except a change of ACE's limits alone (time
limits, memory caps): that run goes on, and when a limit grew it retries the records a limit
stopped (lit.pipeline.retry).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from lit.ace.protocol import Ace
from lit.errors import InputError
from lit.io.output import write_text_atomic

HEAD_BYTES = 1 << 20
#: The identity's key for ACE's limits: the one part a resumed run may change.
LIMITS = "limits"


def identity_path(output: Path) -> Path:
    return output.with_name(output.name + ".lit-run.json")


def file_fingerprint(path: str | Path | None) -> dict[str, Any] | None:
    """Path, size and the SHA-256 of the first MiB (enough to tell files apart cheaply)."""
    if path is None or str(path) == "-":
        return None if path is None else {"path": "-"}
    p = Path(path)
    try:
        with open(p, "rb") as f:
            head = hashlib.sha256(f.read(HEAD_BYTES)).hexdigest()
        return {"path": str(p.resolve()), "size": p.stat().st_size, "sha256_first_mib": head}
    except OSError:
        return {"path": str(p)}


def run_identity(input: str | Path, specs: list[str], engine: Any,
                 options: dict[str, Any]) -> dict[str, Any]:
    """The identity of a run of *engine* (a lit Engine) over *input* with *specs*."""
    realizer = engine.pipeline.realizer
    label_source = engine.label_rules.source
    return {
        "input": file_fingerprint(input),
        "specs": list(specs),
        "label_rules": file_fingerprint(label_source) if label_source and
        Path(label_source).is_file() else label_source,
        "rule_modules": sorted([m.name, list(m.paths)] for m in engine.rules.modules),
        "grammar": file_fingerprint(engine.service.config.grammar),
        "grammar_version": engine.grammar_version,
        "scorer": engine.scorer.name,
        "max_candidates": realizer.max_candidates,
        "max_alternatives": engine.pipeline.max_alternatives,
        "verify_readings": realizer.verify_readings,
        "keep_unverified": realizer.keep_unverified,
        "realizations_per_candidate": realizer.realizations_per_candidate,
        LIMITS: limits_of(engine.service),
        "allow_defects": realizer.allow_defects,
        **options,
    }


def limits_of(service: Ace) -> dict[str, float]:
    """The ACE limits of *service* by option name (timeout s, caps MB)."""
    from lit.ace.service import LIMIT_OPTIONS

    limits = service.limits
    return {option.lstrip("-").replace("-", "_"): value
            for kind, options in LIMIT_OPTIONS.items()
            for option, value in zip(options, (limits[kind].seconds,
                                               limits[kind].chart_megabytes,
                                               limits[kind].unpack_megabytes))}


def save_identity(output: Path, identity: dict[str, Any]) -> None:
    write_text_atomic(identity_path(output), json.dumps(identity, indent=1) + "\n")


def check_resume(output: Path, identity: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """InputError naming every difference between this run and the one that wrote *output*,
    other than its ACE limits; the limits that changed, as (name, was, now) (a run with a
    larger limit retries what a limit stopped). An output without a stored identity (written
    by an older LIT) is resumed as before."""
    path = identity_path(output)
    if not output.exists() or not path.exists():
        return []
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the stored run identity ({exc}); move it away "
                         "to resume without the check") from None
    differ = [key for key in sorted(set(stored) | set(identity))
              if stored.get(key) != identity.get(key) and key != LIMITS]
    if differ:
        detail = "; ".join(f"{k}: was {_short(stored.get(k))}, now {_short(identity.get(k))}"
                           for k in differ)
        raise InputError(f"{output}: cannot --resume: this run differs from the one that wrote "
                         f"it ({detail}); use --overwrite to start again or another -o")
    was, now = stored.get(LIMITS) or {}, identity.get(LIMITS) or {}
    return [(k, was[k], now[k]) for k in now if k in was and now[k] != was[k]]


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."
