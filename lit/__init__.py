"""LIT: linguistically informed transformations of English through the ERG and MRS.

The public API (docs/api.md) is re-exported here from lit.api and loads on first use, so
`import lit` (and `lit --help`) stays light.
"""

from __future__ import annotations

from lit.public import API_NAMES

__version__ = "0.1.0"

#: typing.TYPE_CHECKING without importing typing: `import lit` stays light (the fake ACE of
#: the tests and `lit demo`, lit.demo.replay, starts once per generated item)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from lit.api import *  # noqa: F403

__all__ = [*API_NAMES, "__version__"]


def __getattr__(name: str) -> Any:
    """Load lit.api (the pipeline, the rule engine) only when one of its names is used."""
    if name in API_NAMES:
        from lit import api

        return getattr(api, name)
    raise AttributeError(f"module 'lit' has no attribute {name!r}")
