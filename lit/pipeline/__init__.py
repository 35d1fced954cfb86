"""The end-to-end pipeline (docs/design.md §1): parse, transform, dedupe, generate, rank, verify, label.

Names load lazily, so importing one of its modules does not load the rest.
"""

from importlib import import_module

_EXPORTS = {
    "PAPER_SPECS": "lit.config",
    "Parsed": "lit.pipeline.core",
    "Pipeline": "lit.pipeline.core",
    "Realization": "lit.pipeline.realize",
    "Realizer": "lit.pipeline.realize",
    "STAGES": "lit.pipeline.timing",
    "SideResult": "lit.pipeline.records",
    "StageTimes": "lit.pipeline.timing",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'lit.pipeline' has no attribute {name!r}")
