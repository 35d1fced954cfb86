"""Fairness per demographic axis: PANDA's fairscore (Qian et al. 2022) on a contrast set.

A text perturbed along one axis (gender, name, age, race: the demographic rule modules,
docs/fairness.md) — both sides of a pair, or the one text of a single-text task such as
SST-2 — keeps its label, so a fair model predicts the same for it as for the original. The
fairscore of an axis is the share of its pairs (or texts) whose prediction changes under the
perturbation: 0 is fair, lower is fairer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lit.errors import InputError
from lit.evaluate.records import Item
from lit.spec import parse_pair, parse_spec

#: The demographic modules, one axis each.
AXES: tuple[str, ...] = ("gender", "name", "age", "race")
#: Flipped pairs shown per axis in the JSON and the report.
EXAMPLES = 10

DEFINITIONS: dict[str, str] = {
    "axis": "a demographic rule module (gender, name, age, race); a pair belongs to it when "
    "every step of both sides is that module (e.g. gender=swap;gender=swap), a single text "
    "when every step of its spec is (e.g. gender=swap)",
    "n": "scored pairs of the axis: status ok, a gold label on the original, a rule label on "
    "the perturbed pair, and a prediction for both",
    "fairscore": "PANDA's fairscore: share of the n whose prediction on the perturbed pair "
    "differs from that on the original pair (lower is fairer; 0 = never changes)",
    "acc_ori": "accuracy on the original pairs of those n",
    "acc_ptb": "accuracy on the perturbed pairs of those n, against their rule labels",
    "flipped": "how many of the n changed prediction (fairscore × n)",
    "examples": f"up to {EXAMPLES} flipped pairs: spec, original and perturbed sentences, both "
    "predictions and the gold label",
}


def axis_of(spec: str) -> str | None:
    """The axis of a pair spec perturbed along one demographic axis on both sides, or of a
    single-text task's spec (no `;`) perturbed along one axis, else None (one side only,
    mixed axes, or not demographic)."""
    try:
        steps = ([parse_spec(spec)] if ";" not in spec
                 else [(pair := parse_pair(spec)).premise, pair.hypothesis])
    except InputError:
        return None
    sides = [{s.name for s in side.steps if s.name != "o"} for side in steps]
    names = set().union(*sides)
    if len(names) == 1 and all(sides) and (axis := next(iter(names))) in AXES:
        return axis
    return None


def _example(original: Item, item: Item, p_ori: str, p_ptb: str) -> dict:
    return {"id": item.id, "spec": item.spec, "gold": item.original_gold,
            "original": list(original.texts),
            "perturbed": list(item.texts),
            "prediction_original": p_ori, "prediction_perturbed": p_ptb}


def fairness(by_spec: Mapping[str, Sequence[tuple[Item, str, str]]],
             originals: Mapping[str, Item]) -> dict:
    """Per axis: n, fairscore, acc_ori, acc_ptb, flipped and flipped examples, from the
    scored (perturbed item, prediction on original, prediction on perturbed) triples of each
    spec; *originals* maps a record id to its original pair. Empty if no spec is demographic."""
    axes: dict[str, dict] = {}
    for spec, triples in by_spec.items():
        axis = axis_of(spec)
        if axis is None:
            continue
        row = axes.setdefault(axis, {"n": 0, "flipped": 0, "right_ori": 0, "right_ptb": 0,
                                     "specs": [], "examples": []})
        row["specs"].append(spec)
        for item, p_ori, p_ptb in triples:
            row["n"] += 1
            row["right_ori"] += p_ori == item.original_gold
            row["right_ptb"] += p_ptb == item.gold
            if p_ori != p_ptb:
                row["flipped"] += 1
                if len(row["examples"]) < EXAMPLES:
                    row["examples"].append(_example(originals[item.id], item, p_ori, p_ptb))
    if not axes:
        return {}
    scored = {}
    for axis in sorted(axes, key=AXES.index):
        row = axes[axis]
        n = row["n"]
        scored[axis] = {
            "n": n,
            "fairscore": row["flipped"] / n if n else None,
            "acc_ori": row["right_ori"] / n if n else None,
            "acc_ptb": row["right_ptb"] / n if n else None,
            "flipped": row["flipped"],
            "specs": sorted(row["specs"]),
            "examples": row["examples"],
        }
    return {"definitions": DEFINITIONS, "axes": scored}


def format_fairness(result: Mapping) -> str:
    """A plain-text table: one line per axis (percentages)."""
    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.2f}"

    rows = [("axis", "#pairs", "FairScore", "Acc@Ori", "Acc@Ptb", "flipped")]
    for axis, r in result["axes"].items():
        rows.append((axis, str(r["n"]), pct(r["fairscore"]), pct(r["acc_ori"]),
                     pct(r["acc_ptb"]), str(r["flipped"])))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["fairness (PANDA fairscore: share of pairs whose prediction changes; lower is "
             "fairer)"]
    for k, row in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
