"""`lit diff`: the edit from sentence A to sentence B in LIT's vocabulary (issue 42).

lit.diff.model is the data model; lit.diff.difference lists what differs between two
parses under their alignment (lit.mrs.align); lit.diff.search names grammatical edits with
the rule modules; lit.diff.naming names the rest by its shape; lit.diff.core puts them
together (`diff_mrs`); lit.diff.sentences parses pairs and picks the readings
(`diff_sentences`; `diff_parsed` for one pair already parsed).
"""

from lit.diff.core import diff_mrs
from lit.diff.model import EditSize, MrsDiff, NamedEdit, Residue, SentenceDiff
from lit.diff.sentences import diff_parsed, diff_sentences

__all__ = ["EditSize", "MrsDiff", "NamedEdit", "Residue", "SentenceDiff", "diff_mrs",
           "diff_parsed", "diff_sentences"]
