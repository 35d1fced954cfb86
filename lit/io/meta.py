"""Run metadata: the sidecar ``OUTPUT.meta.json`` every command can write beside its output, so
a file can be traced to what made it (LIT, grammar, ACE, scorer, specs, label rules, seed,
options, times, counts) and reproduced.

    started = now()
    ...  # the run
    meta = build_meta("augment", started=started, engine=engine, specs=specs,
                      label_rules=engine.label_rules, seed=0, options={...}, counts={...})
    write_meta(output, meta)

Every key is always present (null when unknown), so two sidecars compare key by key.
The format is versioned (`meta_format`); `read_meta` refuses another one.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from functools import lru_cache
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


@lru_cache(maxsize=8)
def _ace_version(ace: str) -> str | None:
    from lit.ace.doctor import ace_version
    from lit.errors import ConfigurationError

    try:
        return ace_version(Path(ace))
    except ConfigurationError:
        return None


def _file_entry(path: str | Path | None) -> dict[str, Any]:
    return {"path": str(path) if path is not None else None, "sha256": sha256_file(path)}


def engine_settings(engine: Any) -> dict[str, Any]:
    """The `build_meta` keywords a lit Engine determines: ace, grammar, grammar_version,
    scorer, model, label_rules."""
    config = engine.service.config
    return {
        "ace": config.ace,
        "grammar": config.grammar,
        "grammar_version": engine.grammar_version,
        "scorer": engine.scorer.name,
        "model": engine.scorer.model_name,
        "label_rules": engine.label_rules,
    }


def build_meta(
    command: str,
    *,
    started: str,
    ended: str | None = None,
    engine: Any = None,
    ace: str | Path | None = None,
    grammar: str | Path | None = None,
    grammar_version: str | None = None,
    scorer: str | None = None,
    model: str | None = None,
    specs: list[str] | tuple[str, ...] = (),
    label_rules: Any = None,
    inputs: dict[str, str | Path | None] | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    counts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The sidecar for one run of `lit COMMAND`.

    engine: a lit Engine, whose ACE, grammar, scorer and label rules are used (explicit
    keywords win). label_rules: a lit.labels.LabelRules or a path (None: LIT's default set).
    inputs: name -> file (hashed, e.g. {"input": "snli.jsonl"}). options: the run's
    JSON-able options. ended: default now. Hashing reads the grammar image once (~0.3 s).
    """
    from lit import __version__

    given = {"ace": ace, "grammar": grammar, "grammar_version": grammar_version,
             "scorer": scorer, "model": model, "label_rules": label_rules}
    settings = engine_settings(engine) if engine is not None else {}
    settings.update({k: v for k, v in given.items() if v is not None})
    from lit.labels import LabelRules

    rules = settings.get("label_rules")
    rules_source = rules.source if isinstance(rules, LabelRules) else rules
    rules_file = _label_rules_file(rules_source)
    ace_path = settings.get("ace")
    return {
        "meta_format": META_FORMAT,
        "command": command,
        "lit_version": __version__,
        "grammar": {"version": settings.get("grammar_version"),
                    **_file_entry(settings.get("grammar"))},
        "ace": {"path": str(ace_path) if ace_path else None,
                "version": _ace_version(str(ace_path)) if ace_path else None},
        "scorer": {"name": settings.get("scorer"), "model": settings.get("model")},
        "specs": list(specs),
        "label_rules": {"source": str(rules_source) if rules_source else None,
                        "sha256": sha256_file(rules_file)},
        "inputs": {name: _file_entry(path) for name, path in (inputs or {}).items()},
        "seed": seed,
        "options": dict(options or {}),
        "started": started,
        "ended": ended or now(),
        "counts": dict(counts or {}),
    }


def _label_rules_file(source: object) -> Path | None:
    """The file a label-rule set came from; LIT's default set is read from the package."""
    if source is None or str(source).startswith("lit/labels/"):
        from importlib import resources

        from lit.labels import DEFAULT_RULES

        name = DEFAULT_RULES if source is None else Path(str(source)).name
        return Path(str(resources.files("lit.labels").joinpath(name)))
    return Path(str(source))


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
