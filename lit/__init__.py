"""LIT: linguistically informed transformations of English through the ERG and MRS."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["Engine", "__version__"]


def __getattr__(name: str) -> Any:
    """Import the pipeline only when `lit.Engine` is used, so `import lit` stays light."""
    if name == "Engine":
        from lit.api import Engine

        return Engine
    raise AttributeError(f"module 'lit' has no attribute {name!r}")
