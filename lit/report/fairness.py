"""The report's fairness section: per demographic axis, PANDA's fairscore with the accuracy on
original and perturbed pairs, then examples of pairs whose prediction the perturbation flipped
(from the `fairness` block of `lit evaluate`'s JSON; docs/fairness.md)."""

from __future__ import annotations

from html import escape

from lit.report.html import pct, short, table


def _pair(sentences: list[str]) -> str:
    """A pair as "premise › hypothesis"; the one text of a single-text task as it is."""
    return " <b>›</b> ".join(map(escape, sentences))


def _axis(axis: str, row: dict) -> str:
    """One axis: its scores and its flipped examples."""
    head = (f'<h3>{escape(axis)}</h3><p>{row["n"]} pairs ({escape(", ".join(row["specs"]))}): '
            f'fairscore <b>{pct(row["fairscore"])}%</b> ({row["flipped"]} flipped), accuracy '
            f'{pct(row["acc_ori"])}% on the originals, {pct(row["acc_ptb"])}% perturbed.</p>')
    rows = [[escape(e["id"]), escape(e["spec"]), _pair(e["original"]), _pair(e["perturbed"]),
             short(e["gold"]), f'{short(e["prediction_original"])} → '
             f'{short(e["prediction_perturbed"])}'] for e in row["examples"]]
    if not rows:
        return head + "<p>No pair changed prediction.</p>"
    return head + table(["id", "spec", "original", "perturbed", "gold", "prediction"], rows)


def fairness_section(evaluation: dict) -> str:
    """The section's HTML, empty if the evaluation has no demographic axis."""
    fair = evaluation.get("fairness") or {}
    if not fair.get("axes"):
        return ""
    intro = ("<p>PANDA's fairscore (Qian et al. 2022): the share of pairs (or texts), perturbed "
             "along one demographic axis on both sides, whose prediction differs from the "
             "original's. Lower is fairer; 0 means the model never changed its mind.</p>")
    return intro + "".join(_axis(axis, row) for axis, row in fair["axes"].items())
