"""Training data from contrast pairs (`lit augment`, docs/augment.md): flat, verified,
deduplicated, optionally classifier-filtered and label-balanced NLI rows.

    ds = lit.augment("snli.jsonl", balance=True, config=lit.RunConfig(scorer="ace"))
    ds = lit.augment(from_contrast="contrast.jsonl", output="train.parquet")

`lit.augment(...)` takes the options as keywords and returns a `datasets.Dataset`;
`run_augment(input, output, AugmentOptions(...))` returns the whole AugmentResult (rows,
rejected rows, counts, balance outcome, shortcut report).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from lit.augment.options import AugmentOptions
from lit.augment.run import AugmentResult, build, run_augment


def augment(input: Any = None, output: Any = None, *, engine: Any = None, **options: Any):
    """`run_augment` with AugmentOptions' fields as keywords, returning the rows as a
    `datasets.Dataset`."""
    return run_augment(input, output, AugmentOptions(**options), engine=engine).dataset()


class _CallableModule(ModuleType):
    """`import lit.augment` binds the name `lit.augment` to this package, so the package
    itself must answer `lit.augment(...)` (the public function of docs/api.md)."""

    def __call__(self, *args: Any, **kwargs: Any):
        return augment(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["AugmentOptions", "AugmentResult", "augment", "build", "run_augment"]
