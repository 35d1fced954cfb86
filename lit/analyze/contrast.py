"""Shortcut-breaking contrast sets (`lit nli --against-shortcut FEATURE`).

A pair feature is a shortcut when most input pairs that have it share one label (its
majority label, measured on the input's gold labels). A transformed pair breaks it when it
still has the feature — read off the transformed MRSs by the same alignment
(lit.analyze.align) — but the label rules give it another label: a subject hypernym under
negation is neutral, not entailment. The run's records are filtered down to such transforms.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from delphin.codecs import simplemrs
from delphin.exceptions import PyDelphinException

from lit.analyze.align import aligned_pair_features
from lit.evaluate.splits import slug
from lit.io.output import atomic_text
from lit.status import Status


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


def transform_features(t: Mapping, grammar_version: str) -> frozenset[str] | None:
    """The aligned pair features of one transform's premise and hypothesis MRSs (None when a
    side has no MRS or PyDelphin cannot read it)."""
    try:
        p, h = (simplemrs.decode(t[side]["mrs"]) for side in ("premise", "hypothesis"))
    except (PyDelphinException, KeyError, TypeError):
        return None
    return frozenset(aligned_pair_features(p, h, grammar_version))


def against(records: Iterable[dict], short: Shortcut, grammar_version: str,
            counts: Counter) -> Iterator[dict]:
    """Each record reduced to its ok transforms that keep the feature under another label
    than the majority one (records left with none are dropped). *counts* gets ``transforms``
    (ok and labelled), ``keep_feature`` and ``against``."""
    for rec in records:
        kept = []
        for t in rec.get("transforms", []):
            if t.get("status") != Status.OK.value or t.get("label") is None:
                continue
            counts["transforms"] += 1
            feats = transform_features(t, grammar_version)
            if feats is None or short.feature not in feats:
                continue
            counts["keep_feature"] += 1
            if t["label"] != short.majority_label:
                counts["against"] += 1
                kept.append(t)
        if kept:
            yield dict(rec, transforms=kept)


def against_path(output: str | Path, feature: str) -> Path:
    """Where the contrast set against *feature* goes: beside OUTPUT, named by the feature."""
    out = Path(output)
    stem = out.name.removesuffix(".gz").removesuffix(".jsonl")
    return out.with_name(f"{stem}.against-{slug(feature)}.jsonl")


def against_shortcuts_from_args(args: argparse.Namespace) -> list[str]:
    """After `lit nli`: write one contrast set per --against-shortcut feature from OUTPUT;
    return a report line per feature. The input's majority labels come from its own parses
    (read back from the parse cache `lit nli` just filled)."""
    from lit.ace.options import service_from_args
    from lit.analyze.analysis import pair_rows, parse_sentences
    from lit.config import DEFAULT_GRAMMAR_VERSION
    from lit.io.jsonl import iter_jsonl
    from lit.io.readers import read_nli

    items = list(islice(read_nli(args.input, args.format, premise=args.premise_column,
                                 hypothesis=args.hypothesis_column, label=args.label_column,
                                 id_field=args.id_column), args.limit))
    with service_from_args(args) as service:
        parses = parse_sentences(service, (s for it in items if not it.error
                                           for s in (it.premise, it.hypothesis)))
        version = service.config.grammar_version or DEFAULT_GRAMMAR_VERSION
    rows = pair_rows(items, parses, version)
    lines = []
    for feature in args.against_shortcut:
        short = shortcut(feature, rows)
        if short.majority_label is None:
            lines.append(f"against {feature}: no gold-labelled input pair has it; nothing "
                         "written")
            continue
        counts: Counter = Counter()
        path = against_path(args.output, feature)
        records = (rec for _, rec in iter_jsonl(Path(args.output)))
        with atomic_text(path) as f:
            for rec in against(records, short, version, counts):
                f.write(json.dumps(rec) + "\n")
        lines.append(
            f"against {feature} (majority {short.majority_label} in {short.support} input "
            f"pairs): {counts['keep_feature']} of {counts['transforms']} labelled transforms "
            f"keep the feature, {counts['against']} with another label -> {path}")
    return lines
