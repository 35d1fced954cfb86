"""Dataset analysis by grammar: phenomenon rates per role and label, and label shortcuts."""

from lit.analyze.analysis import DEFINITIONS, RATE_KEYS, analyze, parse_sentences
from lit.analyze.features import SentenceFeatures, pair_features, sentence_features
from lit.analyze.mi import mutual_information, rank_features

__all__ = [
    "DEFINITIONS",
    "RATE_KEYS",
    "SentenceFeatures",
    "analyze",
    "mutual_information",
    "pair_features",
    "parse_sentences",
    "rank_features",
    "sentence_features",
]
