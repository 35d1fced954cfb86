"""Analyse an NLI dataset through the grammar: parse coverage, phenomenon rates per role and
gold label, premise/hypothesis tense pairs, and label-shortcut candidates."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from lit.ace.service import AceService, ParseResult
from lit.analyze.aligned import aligned_pair_features
from lit.analyze.features import SentenceFeatures, pair_features
from lit.analyze.mi import rank_features
from lit.analyze.parsed import parse_features, top_mrs
from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.labels.names import LABELS, normalize_label
from lit.status import Status
from lit.tasks.item import TaskItem

ROLES = ("premise", "hypothesis")
RATE_KEYS = ("prog", "perf", "passive", "modal", "negated", "cleft", "question")

DEFINITIONS: dict[str, str] = {
    "sentences": "premises (or hypotheses) of the pairs in the group, counted once per pair",
    "coverage": "share of those sentences with at least one reading; features come from the "
    "top reading only",
    "rates": "share of parsed sentences whose main clause is progressive (prog), perfect "
    "(perf), passive (ICONS topic on the main verb's event), modal, negated, an it-cleft, a "
    "polar question (lit.phenomena.describe)",
    "tense": "counts of the main clause's TENSE (the modal's if there is one)",
    "tense_pairs": "counts of premise TENSE > hypothesis TENSE over pairs with both parsed",
    "shortcuts": "pair features (phenomena and predicates of each side, predicates shared by "
    "both sides or on one side only, tense and index-predicate pairs) ranked by mutual "
    "information (bits) with the gold label over pairs with both sides parsed and a gold "
    "label; majority_share = share of the feature's pairs that have its most common label; "
    "mi_ci = 95% percentile bootstrap interval of the MI",
    "pair_shortcuts": "with --pairs: features of the premise/hypothesis MRS alignment "
    "(lit.analyze.aligned, docs/shortcuts.md) ranked like `shortcuts`, with example pairs",
}
#: Example pairs listed per pair feature.
EXAMPLES = 3


@dataclass(frozen=True)
class PairRow:
    """One gold-labelled pair with both sides parsed, and its aligned pair features."""

    item: TaskItem
    label: str
    features: frozenset[str]


def parse_sentences(
    service: AceService, sentences: Iterable[str], progress: bool = False
) -> dict[str, ParseResult]:
    """Each distinct sentence's parse (top reading only)."""
    unique = list(dict.fromkeys(sentences))
    results = service.parse(unique, n=1)
    if progress:
        from tqdm import tqdm

        results = tqdm(results, total=len(unique), desc="parsing", unit="sent")
    return {r.input: r for r in results}


def labelled_pairs(items: Iterable[TaskItem], progress: bool = False
                   ) -> Iterator[tuple[TaskItem, str]]:
    """The valid items with a gold label, and that label (normalised)."""
    if progress:
        from tqdm import tqdm

        items = tqdm(items, desc="aligning", unit="pair")
    for item in items:
        if item.error:
            continue
        try:
            label = normalize_label(item.gold)
        except ValueError:
            continue
        if label:
            yield item, label


def pair_rows(
    items: Iterable[TaskItem], parses: Mapping[str, ParseResult],
    grammar_version: str = DEFAULT_GRAMMAR_VERSION, progress: bool = False,
) -> list[PairRow]:
    """The aligned pair features of every gold-labelled pair whose sides both parsed."""
    # SNLI/MNLI repeat each premise in consecutive pairs: decode it once
    decoded = lru_cache(maxsize=4096)(lambda s: top_mrs(parses.get(s)))
    rows = []
    for item, label in labelled_pairs(items, progress):
        p, h = decoded(item.premise), decoded(item.hypothesis)
        if p is not None and h is not None:
            feats = aligned_pair_features(p, h, grammar_version)
            # interned: a few hundred distinct names shared by SNLI's 550k rows
            rows.append(PairRow(item, label, frozenset(map(sys.intern, feats))))
    return rows


def rank_pair_features(rows: list[PairRow], top: int = 25, min_count: int = 3,
                       resamples: int = 1000) -> list[dict]:
    """`rank_features` over aligned pair features, each with its first example pairs."""
    ranked = rank_features(((r.features, r.label) for r in rows), top=top, min_count=min_count,
                           resamples=resamples)
    for entry in ranked:
        entry["examples"] = [
            {"id": r.item.id, "premise": r.item.premise, "hypothesis": r.item.hypothesis,
             "label": r.label}
            for r in rows if entry["feature"] in r.features][:EXAMPLES]
    return ranked


class RoleStats:
    """Counts for one role within one label group."""

    def __init__(self) -> None:
        self.sentences = 0
        self.status: Counter = Counter()
        self.tense: Counter = Counter()
        self.flags: Counter = Counter()
        self.modals: Counter = Counter()

    def add(self, status: str, f: SentenceFeatures | None) -> None:
        self.sentences += 1
        self.status[status] += 1
        if f is None:
            return
        self.tense[str(f.phenomena.tense)] += 1
        self.flags.update(k for k, v in f.flags().items() if v)
        if f.phenomena.modal:
            self.modals[f.phenomena.modal] += 1

    def to_json(self) -> dict:
        parsed = sum(self.tense.values())
        return {
            "sentences": self.sentences,
            "parsed": parsed,
            "coverage": parsed / self.sentences if self.sentences else None,
            "parse_status": dict(self.status),
            "tense": dict(self.tense.most_common()),
            "counts": {k: self.flags[k] for k in RATE_KEYS},
            "rates": {k: self.flags[k] / parsed if parsed else None for k in RATE_KEYS},
            "modals": dict(self.modals.most_common()),
        }


def roles_json(roles: Mapping[str, dict], order: list[str]) -> dict:
    """Each role's counts ("all", and "by_label" in the labels' *order*) as JSON."""
    return {role: {"all": block["all"].to_json(),
                   "by_label": {k: block["by_label"][k].to_json() for k in order
                                if k in block["by_label"]}}
            for role, block in roles.items()}


def count_sentence(block: dict, label: str | None, result: ParseResult | None,
                   grammar_version: str) -> SentenceFeatures | None:
    """Count one sentence's parse in a role's *block* (its "all" stats and its label's, in
    "by_label"); the sentence's features, None if it gave no usable MRS."""
    found = parse_features(result, grammar_version)
    status = str(result.status) if result else "missing"
    if result is not None and result.status == Status.OK and found is None:
        status = "unreadable_mrs"
    block["all"].add(status, found)
    if label:
        block["by_label"].setdefault(label, RoleStats()).add(status, found)
    return found


def analyze(
    items: Iterable[TaskItem],
    parses: Mapping[str, ParseResult],
    grammar_version: str = DEFAULT_GRAMMAR_VERSION,
    top: int = 25,
    min_count: int = 3,
    pairs: list[PairRow] | None = None,
    resamples: int = 1000,
) -> dict:
    """The analysis of *items*, given each sentence's parse; labels are the items' gold labels.
    With *pairs* (`pair_rows`), the aligned pair features are ranked too."""
    roles = {r: {"all": RoleStats(), "by_label": {}} for r in ROLES}
    tense_pairs: dict[str, Counter] = {"all": Counter()}
    labelled: list[tuple[set[str], str]] = []
    labels: Counter = Counter()
    invalid = 0
    for item in items:
        if item.error:
            invalid += 1
            continue
        try:
            label = normalize_label(item.gold)
        except ValueError:
            label = None
        labels[label or "none"] += 1
        feats = {}
        for role, sentence in zip(ROLES, (item.premise, item.hypothesis)):
            feats[role] = count_sentence(roles[role], label, parses.get(sentence),
                                         grammar_version)
        p, h = feats["premise"], feats["hypothesis"]
        if p is None or h is None:
            continue
        pair = f"{p.phenomena.tense}>{h.phenomena.tense}"
        tense_pairs["all"][pair] += 1
        if label:
            tense_pairs.setdefault(label, Counter())[pair] += 1
            labelled.append((pair_features(p, h), label))
    order = [x for x in LABELS if x in labels]
    return {
        "definitions": DEFINITIONS,
        "grammar_version": grammar_version,
        "pairs": sum(labels.values()),
        "invalid_records": invalid,
        "labels": {k: labels[k] for k in [*order, "none"] if labels[k]},
        "rate_keys": list(RATE_KEYS),
        "roles": roles_json(roles, order),
        "tense_pairs": {
            "all": dict(tense_pairs["all"].most_common()),
            "by_label": {k: dict(tense_pairs[k].most_common()) for k in order if k in tense_pairs},
        },
        "shortcut_pairs": len(labelled),
        "shortcuts": rank_features(labelled, top=top, min_count=min_count, resamples=resamples),
        **({} if pairs is None else {
            "pair_shortcut_pairs": len(pairs),
            "pair_shortcuts": rank_pair_features(pairs, top, min_count, resamples),
        }),
    }


def format_summary(result: dict) -> str:
    """A short plain-text summary: coverage and rates per role, and the top shortcuts."""
    labels = ", ".join(f"{k} {v}" for k, v in result["labels"].items())
    invalid = result["invalid_records"]
    lines = [f"{result['pairs']} pairs ({labels})"
             + (f"; {invalid} invalid records" if invalid else "")]
    lines += role_table(result)
    lines.append(f"top label-shortcut candidates (of {result['shortcut_pairs']} pairs):")
    lines += shortcut_lines(result["shortcuts"][:10])
    if "pair_shortcuts" in result:
        lines.append(f"top aligned pair features (of {result['pair_shortcut_pairs']} pairs):")
        lines += shortcut_lines(result["pair_shortcuts"])
    return "\n".join(lines)


def role_table(result: dict, role: str = "role") -> list[str]:
    """Lines of a table of coverage, tenses and rates per role (or a task's side) and label."""
    head = [role, "label", "sents", "cover%", "tenses", *RATE_KEYS]
    rows = [head]
    for name, block in result["roles"].items():
        for label, st in {"all": block["all"], **block["by_label"]}.items():
            tenses = ",".join(f"{k}:{v}" for k, v in st["tense"].items())
            rows.append([name, label, str(st["sentences"]),
                         "-" if st["coverage"] is None else f"{100 * st['coverage']:.1f}",
                         tenses or "-",
                         *("-" if st["rates"][k] is None else f"{100 * st['rates'][k]:.1f}"
                           for k in RATE_KEYS)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def shortcut_lines(rows: list[dict]) -> list[str]:
    """One line per ranked feature: MI (with its interval), name, count, majority label."""
    return [f"  {s['mi']:.4f}{_ci(s)}  {s['feature']}  n={s['count']}  "
            f"{s['majority_label']} {100 * s['majority_share']:.0f}%" for s in rows]


def _ci(row: dict) -> str:
    return f" [{row['mi_ci'][0]:.4f}, {row['mi_ci'][1]:.4f}]" if "mi_ci" in row else ""
