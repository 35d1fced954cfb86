"""What analysis reads from a parse: its top reading as an MRS and that reading's sentence
features; a parse that failed, or whose MRS will not decode, has neither. Shared by the
dataset analysis (lit.analyze.analysis) and the augmentation report (lit.augment.report)."""

from __future__ import annotations

from delphin.codecs import simplemrs
from delphin.exceptions import PyDelphinException
from delphin.mrs import MRS

from lit.ace.results import ParseResult
from lit.analyze.features import SentenceFeatures, sentence_features
from lit.status import Status


def top_mrs(result: ParseResult | None) -> MRS | None:
    """The best reading's MRS, or None: analysis counts such a sentence as unanalysed."""
    if result is None or result.status != Status.OK or not result.readings:
        return None
    try:
        return simplemrs.decode(result.readings[0].mrs)
    except PyDelphinException:
        return None


def parse_features(result: ParseResult | None, grammar_version: str) -> SentenceFeatures | None:
    """The top reading's features, or None when *result* gave no usable MRS."""
    m = top_mrs(result)
    return None if m is None else sentence_features(m, grammar_version)
