"""`lit diff`: the edit from sentence A to sentence B in LIT's vocabulary (issue 42)."""

from lit.diff.model import EditSize, MrsDiff, NamedEdit, Residue, SentenceDiff

__all__ = ["EditSize", "MrsDiff", "NamedEdit", "Residue", "SentenceDiff"]
