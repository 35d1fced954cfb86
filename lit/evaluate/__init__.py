"""Scoring NLI models on `lit nli` contrast sets (the LIT paper's Acc@Ori, Acc@Ctr, consistency)."""

from lit.evaluate.metrics import DEFINITIONS, EvaluateOptions, evaluate, predict
from lit.evaluate.predictions import read_predictions, write_predictions
from lit.evaluate.records import ORIGINAL, Item, contrast_items, read_contrast_file

__all__ = [
    "DEFINITIONS",
    "EvaluateOptions",
    "ORIGINAL",
    "Item",
    "contrast_items",
    "evaluate",
    "predict",
    "read_contrast_file",
    "read_predictions",
    "write_predictions",
]
