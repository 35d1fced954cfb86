"""MRS features of sentences and of premise/hypothesis pairs, as strings for counting."""

from __future__ import annotations

from dataclasses import dataclass

from delphin.mrs import MRS

from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.phenomena import Phenomena, describe


@dataclass(frozen=True)
class SentenceFeatures:
    """What the analysis needs of one parsed sentence (its top reading)."""

    phenomena: Phenomena
    predicates: frozenset[str]

    def flags(self) -> dict[str, bool]:
        """The yes/no phenomena whose rates the analysis reports."""
        ph = self.phenomena
        return {
            "prog": ph.prog == "+",
            "perf": ph.perf == "+",
            "passive": ph.passive,
            "modal": ph.modal is not None,
            "negated": ph.negated,
            "cleft": ph.cleft,
            "question": ph.question,
        }


def sentence_features(m: MRS, grammar_version: str = DEFAULT_GRAMMAR_VERSION) -> SentenceFeatures:
    preds = frozenset(ep.predicate.strip('"') for ep in m.rels)
    return SentenceFeatures(describe(m, grammar_version), preds)


def role_features(role: str, f: SentenceFeatures) -> set[str]:
    """One side's features, prefixed by its role: tense, phenomena, modal, predicates."""
    out = {f"{role}:tense={f.phenomena.tense}"}
    out.update(f"{role}:{k}" for k, v in f.flags().items() if v)
    if f.phenomena.modal:
        out.add(f"{role}:modal={f.phenomena.modal}")
    out.update(f"{role}:pred={p}" for p in f.predicates)
    return out


def pair_features(premise: SentenceFeatures, hypothesis: SentenceFeatures) -> set[str]:
    """Phenomena and predicates of each side, predicates shared by both sides or found on one
    side only, and the pairs of tenses and of main (index) predicates."""
    out = role_features("premise", premise) | role_features("hypothesis", hypothesis)
    p, h = premise.predicates, hypothesis.predicates
    out.update(f"shared:{x}" for x in p & h)
    out.update(f"premise_only:{x}" for x in p - h)
    out.update(f"hypothesis_only:{x}" for x in h - p)
    out.add(f"tense_pair={premise.phenomena.tense}>{hypothesis.phenomena.tense}")
    out.add(
        f"index_pair={premise.phenomena.index_predicate}>{hypothesis.phenomena.index_predicate}"
    )
    return out
