"""`lit audit`: check anyone's counterfactuals (issue 42). lit.diff names the edit that made
each edited pair from its original; lit.audit.predict says what LIT's label rules make of
that edit; lit.audit.rows reads the pairs (two aligned files or one file with both),
lit.audit.run writes one record per edited pair, lit.audit.summary counts them. docs/audit.md.
"""

from lit.audit.predict import Prediction, predict

__all__ = ["Prediction", "predict"]
