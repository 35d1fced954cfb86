"""Where pipeline batches run: in this process (``local``) or on Ray actors (``ray``).

Both backends take the same batches and return the same records in input order; the Ray
backend runs each batch with the very code the local one runs (lit.pipeline.core.Pipeline),
inside actors that each own an ACE pool, the rule engine and the label rules. docs/scale.md
says when to use which. Nothing here imports Ray until a Ray backend is opened.
"""

from __future__ import annotations

from types import ModuleType

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
