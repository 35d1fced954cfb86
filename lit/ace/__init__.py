"""The ACE layer: finding ACE and a grammar, installing them, and a pooled ACE service.

Names are imported lazily so that ``lit --help`` does not load PyDelphin's ACE interface.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "AceConfig": "lit.ace.config",
    "resolve_config": "lit.ace.config",
    "AceService": "lit.ace.service",
    "GenerateResult": "lit.ace.service",
    "ParseResult": "lit.ace.service",
    "Reading": "lit.ace.service",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'lit.ace' has no attribute {name!r}")
