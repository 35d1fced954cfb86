"""The data model of `lit diff` (issue 42; contract in /work/notes/contract42.md).

A diff from sentence A to sentence B is a tuple of named edits in LIT's vocabulary, a residue
of what no edit names (never dropped), the edit's size, and the readings it was read off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class NamedEdit:
    """One edit from A to B with a LIT name.

    kind: a rule module's name ("tense", "neg", "pass", ...) or a structural kind ("lexical",
    "modifier_added", "modifier_dropped", "quantifier", "argument_added", "argument_dropped").
    step: the spec step that makes A into B for this edit ("tense=fut", "n"), or None.
    relation: lit.logic.edits relation of B's material to A's for lexical, modifier and
    quantifier edits ("hypernym" means B is more general), else None.
    polarity: polarity of the edited position in A (lit.logic.polarity), when relevant.
    eps_a / eps_b: the EPs of A / B it touched, as text.
    detail: one human line ("past -> fut", "man -> woman (cohyponym)").
    """

    kind: str
    step: str | None
    relation: str | None
    polarity: str | None
    eps_a: tuple[str, ...]
    eps_b: tuple[str, ...]
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "step": self.step,
            "relation": self.relation,
            "polarity": self.polarity,
            "eps_a": list(self.eps_a),
            "eps_b": list(self.eps_b),
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> NamedEdit:
        return cls(
            kind=str(d["kind"]),
            step=d.get("step"),
            relation=d.get("relation"),
            polarity=d.get("polarity"),
            eps_a=tuple(d.get("eps_a", ())),
            eps_b=tuple(d.get("eps_b", ())),
            detail=str(d.get("detail", "")),
        )


@dataclass(frozen=True)
class Residue:
    """What no edit names: EPs of A without counterpart, EPs of B without one, other changes."""

    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def empty(self) -> bool:
        return not (self.removed or self.added or self.changed)

    def to_dict(self) -> dict[str, Any]:
        return {"removed": list(self.removed), "added": list(self.added), "changed": list(self.changed)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Residue:
        return cls(
            removed=tuple(d.get("removed", ())),
            added=tuple(d.get("added", ())),
            changed=tuple(d.get("changed", ())),
        )


@dataclass(frozen=True)
class EditSize:
    """EPs touched, tokens changed (word-level Levenshtein), and Tailor's closeness (0..1)."""

    eps: int
    tokens: int
    closeness: float

    def to_dict(self) -> dict[str, Any]:
        return {"eps": self.eps, "tokens": self.tokens, "closeness": self.closeness}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EditSize:
        return cls(eps=int(d["eps"]), tokens=int(d["tokens"]), closeness=float(d["closeness"]))


@dataclass(frozen=True)
class MrsDiff:
    """The edit from A's MRS to B's: named edits, the residue, its size, the readings used."""

    edits: tuple[NamedEdit, ...]
    residue: Residue = field(default_factory=Residue)
    size: EditSize = field(default_factory=lambda: EditSize(0, 0, 1.0))
    readings: tuple[int, int] = (0, 0)

    def named(self) -> bool:
        """True when at least one edit is named and nothing is left in the residue."""
        return bool(self.edits) and self.residue.empty()

    def kinds(self) -> tuple[str, ...]:
        """The edit kinds, in order."""
        return tuple(edit.kind for edit in self.edits)

    def to_dict(self) -> dict[str, Any]:
        return {
            "edits": [edit.to_dict() for edit in self.edits],
            "residue": self.residue.to_dict(),
            "size": self.size.to_dict(),
            "readings": list(self.readings),
            "named": self.named(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MrsDiff:
        a, b = d.get("readings", (0, 0))
        return cls(
            edits=tuple(NamedEdit.from_dict(e) for e in d.get("edits", ())),
            residue=Residue.from_dict(d.get("residue", {})),
            size=EditSize.from_dict(d["size"]) if "size" in d else EditSize(0, 0, 1.0),
            readings=(int(a), int(b)),
        )


@dataclass(frozen=True)
class SentenceDiff:
    """The diff of one sentence pair; diff is None when either sentence did not parse."""

    a: str
    b: str
    diff: MrsDiff | None
    status: str
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "status": self.status,
            "reason": self.reason,
            "diff": self.diff.to_dict() if self.diff is not None else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SentenceDiff:
        diff = d.get("diff")
        return cls(
            a=str(d["a"]),
            b=str(d["b"]),
            diff=MrsDiff.from_dict(diff) if diff is not None else None,
            status=str(d["status"]),
            reason=d.get("reason"),
        )
