"""Run provenance: what made an output, as the ``OUTPUT.meta.json`` sidecar every command can
write beside it (lit.io.meta writes and reads the file), so a file can be traced to what made it
(LIT, grammar, ACE, scorer, specs, label rules, seed, options, times, counts) and reproduced.

    started = now()
    ...  # the run
    meta = build_meta("augment", started=started, tools=Toolchain.of(engine), specs=specs,
                      seed=0, options={...}, counts={...})
    write_meta(output, meta)

Every key is always present (null when unknown), so two sidecars compare key by key. It lives
above lit.io, lit.ace and lit.labels because it asks each of them (a file's hash, ACE's
version, where the default label rules are).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from lit.ace.doctor import ace_version
from lit.ace.protocol import Ace
from lit.errors import ConfigurationError
from lit.io.meta import META_FORMAT, now, sha256_file
from lit.labels import DEFAULT_RULES, LabelRules
from lit.rank.scorer import Scorer


class EngineTools(Protocol):
    """What the sidecar reads of a lit Engine (typed here, so a renamed attribute is caught)."""

    @property
    def service(self) -> Ace: ...

    @property
    def grammar_version(self) -> str: ...

    @property
    def scorer(self) -> Scorer: ...

    @property
    def label_rules(self) -> LabelRules: ...


@dataclass(frozen=True)
class Toolchain:
    """The tools behind a run as the sidecar names them (None: unknown, or not used).
    label_rules: a LabelRules or a path (None: LIT's default set)."""

    ace: str | Path | None = None
    grammar: str | Path | None = None
    grammar_version: str | None = None
    scorer: str | None = None
    model: str | None = None
    label_rules: LabelRules | str | Path | None = None

    @classmethod
    def of(cls, engine: EngineTools) -> Toolchain:
        """The ACE, grammar, scorer and label rules *engine* runs with."""
        config = engine.service.config
        return cls(ace=config.ace, grammar=config.grammar,
                   grammar_version=engine.grammar_version, scorer=engine.scorer.name,
                   model=engine.scorer.model_name, label_rules=engine.label_rules)

    def over(self, other: Toolchain) -> Toolchain:
        """These tools, taking from *other* only what they leave unknown (the known win)."""
        known = {f.name: getattr(self, f.name) for f in fields(self)}
        return replace(other, **{k: v for k, v in known.items() if v is not None})


def build_meta(command: str, *, started: str, tools: Toolchain = Toolchain(),
               specs: Sequence[str] = (), inputs: Mapping[str, str | Path | None] | None = None,
               seed: int | None = None, options: Mapping[str, Any] | None = None,
               counts: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The sidecar for one run of `lit COMMAND`, ended now. inputs: name -> file (hashed, e.g.
    {"input": "snli.jsonl"}); options: the run's JSON-able options. Hashing reads the grammar
    image once (~0.3 s)."""
    from lit import __version__

    rules = tools.label_rules
    rules_source = rules.source if isinstance(rules, LabelRules) else rules
    return {
        "meta_format": META_FORMAT,
        "command": command,
        "lit_version": __version__,
        "grammar": {"version": tools.grammar_version, **_file_entry(tools.grammar)},
        "ace": {"path": str(tools.ace) if tools.ace else None,
                "version": _ace_version(str(tools.ace)) if tools.ace else None},
        "scorer": {"name": tools.scorer, "model": tools.model},
        "specs": list(specs),
        "label_rules": {"source": str(rules_source) if rules_source else None,
                        "sha256": sha256_file(_label_rules_file(rules_source))},
        "inputs": {name: _file_entry(path) for name, path in (inputs or {}).items()},
        "seed": seed,
        "options": dict(options or {}),
        "started": started,
        "ended": now(),
        "counts": dict(counts or {}),
    }


@lru_cache(maxsize=8)
def _ace_version(ace: str) -> str | None:
    """`ace -V` of one binary, asked once per run (None if it cannot say)."""
    try:
        return ace_version(Path(ace))
    except ConfigurationError:
        return None


def _file_entry(path: str | Path | None) -> dict[str, Any]:
    return {"path": str(path) if path is not None else None, "sha256": sha256_file(path)}


def _label_rules_file(source: object) -> Path | None:
    """The file a label-rule set came from; LIT's default set is read from the package."""
    if source is None or str(source).startswith("lit/labels/"):
        name = DEFAULT_RULES if source is None else Path(str(source)).name
        return Path(str(resources.files("lit.labels").joinpath(name)))
    return Path(str(source))
