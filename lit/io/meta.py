"""The run-metadata sidecar as a file: where ``OUTPUT.meta.json`` goes, writing it in one step
and reading it back. What goes in it (the run's provenance) is built by lit.provenance.

The format is versioned (`meta_format`); `read_meta` refuses another one.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lit.errors import InputError
from lit.io.output import write_text_atomic

#: Version of the sidecar's layout; bump it when a key changes meaning.
META_FORMAT = 1
META_SUFFIX = ".meta.json"


def meta_path(output: str | Path) -> Path:
    """Where the sidecar of *output* (a file or a folder) goes: ``OUTPUT.meta.json`` beside it."""
    output = Path(output)
    return output.with_name(output.name + META_SUFFIX)


def now() -> str:
    """The current UTC time as ISO 8601 (seconds), for `started`/`ended`."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def sha256_file(path: str | Path | None) -> str | None:
    """The SHA-256 of a whole file, or None if there is no such readable file."""
    if path is None:
        return None
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def write_meta(output: str | Path, meta: dict[str, Any]) -> Path:
    """Write *meta* as ``OUTPUT.meta.json`` in one step (never half-written); its path."""
    path = meta_path(output)
    write_text_atomic(path, json.dumps(meta, indent=1, ensure_ascii=False, default=str) + "\n")
    return path


def read_meta(output: str | Path) -> dict[str, Any] | None:
    """The sidecar of *output*, or None if it has none; InputError naming the sidecar if it
    is not JSON or has another `meta_format`."""
    path = meta_path(output)
    if not path.exists():
        return None
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable LIT metadata file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("meta_format") != META_FORMAT:
        found = meta.get("meta_format") if isinstance(meta, dict) else None
        raise InputError(f"{path}: metadata format {found!r}, this LIT reads {META_FORMAT} "
                         "(written by another version of LIT)")
    return meta
