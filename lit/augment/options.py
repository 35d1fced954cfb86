"""How a `lit augment` run is configured: one frozen object the CLI builds from its flags and
Python callers from keywords (`lit.augment(..., balance=True)`), so run_augment and build take
it whole instead of a keyword list passed on by hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lit.config import RunConfig
from lit.tasks import TaskProfile


@dataclass(frozen=True)
class AugmentOptions:
    """Every option of `lit augment` (docs/augment.md); each default is the CLI's."""

    #: A `lit nli` or `lit contrast` output to read instead of running the pipeline on INPUT.
    from_contrast: str | Path | None = None
    #: Pair specs to run (None: the paper's; with balance, every spec that can change a label).
    specs: Sequence[str] | None = None
    #: Per source, one transformed row for each label other than the gold one.
    balance: bool = False
    #: At most this many transformed rows per source (0: only the originals).
    max_per_source: int | None = None
    #: Write each source's original row.
    originals: bool = True
    #: Labels as "text", "int", or "auto" (as the input wrote them).
    label_format: str = "auto"
    #: Output format (None: from the output's name).
    format: str | None = None
    #: Seed of the choices of balance and max_per_source.
    seed: int = 0
    #: The feedback filter's classifier: a Hugging Face model, or a prediction file.
    filter_model: str | None = None
    filter_predictions: str | Path | None = None
    #: Where the filtered-out rows go (None: OUTPUT.rejected.jsonl when filtering).
    rejected: str | Path | None = None
    #: Replace existing outputs.
    overwrite: bool = False
    #: Measure the label distribution and shortcut MI before and after (parses with ACE).
    report: bool = False
    #: The pipeline's options, for the Engine a run starts (and the report's parser).
    config: RunConfig | None = None
    #: A label-rule file (None: LIT's, or the task's).
    label_rules: str | Path | None = None
    #: Only the first N sources.
    limit: int | None = None
    #: A progress bar on stderr.
    progress: bool = False
    #: How INPUT is read: its format and the fields of its texts, label and id.
    input_format: str | None = None
    premise_column: str | None = None
    hypothesis_column: str | None = None
    label_column: str | None = None
    id_column: str | None = None
    #: A task profile (name or file): INPUT is that task's dataset.
    task: str | Path | TaskProfile | None = None
    #: A task's side -> the input field it is read from.
    text_columns: dict[str, str] | None = None
