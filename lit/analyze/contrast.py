"""Shortcut-breaking contrast sets (`lit nli --against-shortcut FEATURE`).

A pair feature is a shortcut when most input pairs that have it share one label (its
majority label, measured on the input's gold labels). A transformed pair breaks it when it
still has the feature — read off the transformed MRSs by the same alignment
(lit.analyze.aligned) — but the label rules give it another label: a subject hypernym under
negation is neutral, not entailment. The run's records are filtered down to such transforms.

With no --specs, `lit nli --against-shortcut` picks the transformations itself: it runs every
candidate pair spec the label rules can label (`candidate_specs`: the paper's set and the
meaning-changing edits of issue 15 on the hypothesis) and keeps, per feature, what breaks it;
the report names how many transforms each spec contributed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from delphin.codecs import simplemrs
from delphin.exceptions import PyDelphinException

from lit.analyze.fragments import from_derivation
from lit.analyze.mine import pair_candidates
from lit.config import PAPER_SPECS
from lit.errors import InputError
from lit.io.output import slug
from lit.records import Record, Transform

#: The meaning-changing edits (issue 15, docs/perturbations.md) as pair specs: the hypothesis
#: edited, the premise kept, labelled by the `edit` rules (natural logic).
EDIT_SPECS: tuple[str, ...] = ("o;hyper", "o;hypo", "o;sibling", "o;antonym", "o;drop",
                               "o;quant")


def candidate_specs(label_rules, check: Callable[[str], object] | None = None
                    ) -> tuple[list[str], list[str]]:
    """The pair specs `--against-shortcut` tries when the user names none: those of the
    paper's set and EDIT_SPECS that the label rules (lit.labels.LabelRules) can label and
    *check* (e.g. `Engine.check_pair`, an InputError when the grammar version's rules lack a
    module) accepts; and why the others were left out."""
    from lit.spec import parse_pair

    chosen, left = [], []
    for spec in (*PAPER_SPECS, *EDIT_SPECS):
        if not label_rules.may_label(parse_pair(spec)):
            left.append(f"{spec}: no label rule")
            continue
        try:
            if check is not None:
                check(spec)
        except InputError:
            left.append(f"{spec}: not in the rules for this grammar")
            continue
        chosen.append(spec)
    return chosen, left


@dataclass(frozen=True)
class Shortcut:
    feature: str
    majority_label: str | None  # None: no input pair with a gold label has the feature
    support: int  # input pairs (gold-labelled, both sides parsed) with the feature


def shortcut(feature: str, rows: Iterable) -> Shortcut:
    """The majority label of *feature* over `lit.analyze.analysis.PairRow`s."""
    labels = Counter(r.label for r in rows if feature in r.features)
    if not labels:
        return Shortcut(feature, None, 0)
    label = max(labels.items(), key=lambda kv: (kv[1], kv[0]))[0]
    return Shortcut(feature, label, sum(labels.values()))


def check_features(features: Iterable[str]) -> None:
    """Refuse a feature a transformed pair cannot have: a derivation fragment (transforms
    carry MRSs and strings, not derivations)."""
    for feature in features:
        if from_derivation(feature):
            raise InputError(f"--against-shortcut {feature}: a derivation fragment or lexical type, which "
                             "transformed pairs do not have (they carry MRSs, not derivations); "
                             "name an MRS, alignment, hand-made or n-gram feature")


def transform_features(t: Transform, grammar_version: str) -> frozenset[str] | None:
    """The pair features of one transform's premise and hypothesis MRSs — hand-made and
    mined (lit.analyze.mine), with the n-grams of its outputs — or None when a side has no
    MRS or PyDelphin cannot read it."""
    sides = [t.side(name) for name in ("premise", "hypothesis")]
    if not all(side is not None and side.mrs for side in sides):
        return None
    try:
        p, h = (simplemrs.decode(side.mrs) for side in sides)  # type: ignore[union-attr]
    except PyDelphinException:
        return None
    texts = tuple(side.output for side in sides)  # type: ignore[union-attr]
    return frozenset(pair_candidates(p, h, grammar_version,
                                     texts=texts if all(texts) else None))


def against(records: Iterable[Record], short: Shortcut, grammar_version: str,
            counts: Counter) -> Iterator[Record]:
    """Each record reduced to its ok transforms that keep the feature under another label
    than the majority one (records left with none are dropped). *counts* gets ``transforms``
    (ok and labelled), ``keep_feature`` and ``against``, and ``against SPEC`` per spec."""
    for rec in records:
        kept = []
        for t in rec.transforms:
            if not t.ok or t.label is None:
                continue
            counts["transforms"] += 1
            feats = transform_features(t, grammar_version)
            if feats is None or short.feature not in feats:
                continue
            counts["keep_feature"] += 1
            if t.label != short.majority_label:
                counts["against"] += 1
                counts[f"against {t.spec}"] += 1
                kept.append(t)
        if kept:
            yield replace(rec, transforms=tuple(kept))


def against_path(output: str | Path, feature: str) -> Path:
    """Where the contrast set against *feature* goes: beside OUTPUT, named by the feature."""
    out = Path(output)
    stem = out.name.removesuffix(".gz").removesuffix(".jsonl")
    return out.with_name(f"{stem}.against-{slug(feature)}.jsonl")


def by_spec(counts: Counter) -> str:
    """"o;n 3, m;o 1": the transforms against the shortcut per spec, most first."""
    found = [(k.removeprefix("against "), n) for k, n in counts.most_common()
             if k.startswith("against ")]
    return ", ".join(f"{spec} {n}" for spec, n in found)
