"""LIT's public Python API, re-exported by ``import lit`` (docs/api.md lists it).

    with lit.Engine(scorer="ace") as engine:
        engine.transform("Alice saw Bob.", "tense=fut+pass")["output"]
    lit.run("sst2.parquet", "contrast.jsonl", lit.RunOptions(task="sst2", resume=True))
    lit.run_nli("snli.jsonl", "contrast.jsonl", ["f;p", "m;o"], resume=True)  # task nli

This module only gathers names; each lives in the package that owns it.
"""

# ruff: noqa: F401 - every import here is a re-export
from __future__ import annotations

from lit.augment import augment
from lit.config import DEFAULTS, GRAMMAR_VERSIONS, PAPER_SPECS, RunConfig
from lit.diff import (
    EditSize,
    MrsDiff,
    NamedEdit,
    Residue,
    SentenceDiff,
    diff_mrs,
    diff_sentences,
)
from lit.errors import ConfigurationError, InputError, LitError, RuleError
from lit.pipeline.engine import Engine
from lit.pipeline.run import RunOptions, RunResult, run, run_contrast, run_nli
from lit.public import API_NAMES  # the one list of public names
from lit.records import NliRecord, PairTransform, SideRecord, TransformRecord, to_json
from lit.rules.engine import RuleEngine, StepOutcome, TransformOutcome
from lit.status import Status
from lit.tasks.item import TaskItem
from lit.tasks.reader import as_item

__all__ = list(API_NAMES)
