"""A stratified, seeded sample of a run's outputs for human judging (`lit judge sample`).

Strata are (spec, label rule, status), so every rule a run used gets judged; each stratum
gets at least ``min_per_stratum`` items (when the sample is big enough for that) and the
rest of the sample is shared in proportion to the strata's sizes. The sample is a JSONL file,
one item per line, that carries all a judge needs (and the rule's label, which the judging
page hides until the judge has answered).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

from lit.errors import InputError
from lit.evaluate.records import original_item, task_of
from lit.io.jsonl import RecordWriter, iter_jsonl
from lit.labels.names import LabelSet
from lit.records import Record
from lit.spec import parse_pair, parse_spec
from lit.tasks import TaskProfile

#: The keys every sample item has.
ITEM_KEYS = ("item", "id", "spec", "status", "label", "label_rule", "label_rationale",
             "original_label", "intended", "sides", "labels")


def _steps(spec: object) -> str:
    return "unchanged" if str(spec) == "o" else str(spec)


def intended_change(spec: str, roles: Sequence[str]) -> str:
    """What the spec asks of each side, in the canonical step names ("premise: tense=fut;
    hypothesis: tense=past"; "unchanged" for o); the spec itself if it does not parse."""
    try:
        if ";" in spec:
            pair = parse_pair(spec)
            parts = {"premise": pair.premise, "hypothesis": pair.hypothesis}
            return "; ".join(f"{role}: {_steps(parts[role])}" for role in roles if role in parts)
        return f"{', '.join(roles)}: {_steps(parse_spec(spec))}"
    except InputError:
        return spec


def _name(labels: LabelSet, value: object) -> str | None:
    """The label's canonical name, or the value as written if the task has no such label."""
    try:
        return labels.name(value)
    except ValueError:
        return str(value)


def items_of(record: Record, task: TaskProfile | None = None) -> list[dict]:
    """The judgeable transforms of one `lit nli` or `lit contrast` record as sample items:
    those with an output text on some side (a side without one shows its original text).
    *task*: the record's task profile (default: the built-in one it names)."""
    task = task_of(record, task, f"record {record.id!r}")
    orig = original_item(record, task=task)
    if orig is None:
        return []
    out = []
    for t in record.transforms:
        sides = [{"role": role, "original": text, "output": t.output(role) or text,
                  "changed": bool(t.output(role))}
                 for role, text in zip(task.sides, orig.texts)]
        if not any(s["changed"] for s in sides):
            continue
        spec = str(t.spec)
        out.append({
            "item": f"{record.id}::{spec}", "id": record.id, "spec": spec,
            "status": str(t.status), "label": _name(task.labels, t.label),
            "label_rule": t.label_rule, "label_rationale": t.label_rationale,
            "original_label": orig.gold,
            "intended": intended_change(spec, list(task.sides)),
            "sides": sides, "labels": list(task.labels.names),
        })
    return out


def stratum(item: dict) -> tuple[str, str, str]:
    return (item["spec"], str(item["label_rule"] or "–"), item["status"])


def _allocate(sizes: dict[tuple, int], n: int, minimum: int) -> dict[tuple, int]:
    """How many items each stratum gives: *minimum* each (capped by its size) when *n*
    allows, then the rest in proportion to the sizes (largest remainders first)."""
    floor = minimum if minimum * len(sizes) <= n else n // max(1, len(sizes))
    take = {s: min(size, floor) for s, size in sizes.items()}
    left = n - sum(take.values())
    while left > 0:
        room = {s: sizes[s] - take[s] for s in sizes if sizes[s] > take[s]}
        if not room:
            break
        total = sum(room.values())
        shares = {s: left * r / total for s, r in room.items()}
        extra = {s: min(room[s], int(shares[s])) for s in room}
        rest = left - sum(extra.values())
        for s in sorted(room, key=lambda s: (-(shares[s] % 1), s)):  # largest remainders
            if rest and extra[s] < room[s]:
                extra[s] += 1
                rest -= 1
        for s, k in extra.items():
            take[s] += k
        left -= sum(extra.values())
    return take


def stratified_sample(records: Iterable[Record], n: int, seed: int = 0,
                      min_per_stratum: int = 1,
                      statuses: Collection[str] | None = ("ok",),
                      task: TaskProfile | None = None) -> tuple[list[dict], dict]:
    """*n* items drawn from *records* stratified by (spec, label rule, status), in a shuffled
    order (so no spec comes in a block), and counts: eligible and sampled per stratum, and
    the transforms left out, per status: those without an output sentence and those whose
    status is not in *statuses* (None: every status; by default only ok transforms, the
    contrast pairs a run made); *task* as `items_of`."""
    if n < 1:
        raise InputError(f"a sample needs at least one item (got -n {n})")
    by_stratum: dict[tuple, list[dict]] = {}
    skipped: dict[str, int] = {}
    for record in records:
        items = items_of(record, task)
        for t in record.transforms:
            skipped[str(t.status)] = skipped.get(str(t.status), 0) + 1
        for it in items:
            if statuses is None or it["status"] in statuses:
                skipped[it["status"]] -= 1
                by_stratum.setdefault(stratum(it), []).append(it)
    if not by_stratum:
        wanted = "" if statuses is None else f" and status {', '.join(sorted(statuses))}"
        raise InputError(f"no transform in the input has an output sentence{wanted} to judge")
    rng = random.Random(seed)
    take = _allocate({s: len(v) for s, v in sorted(by_stratum.items())}, n, min_per_stratum)
    chosen = [it for s in sorted(by_stratum) for it in rng.sample(by_stratum[s], take[s])]
    rng.shuffle(chosen)
    counts = {
        "strata": [{"spec": s[0], "label_rule": s[1], "status": s[2],
                    "eligible": len(by_stratum[s]), "sampled": take[s]}
                   for s in sorted(by_stratum)],
        "left_out": {k: v for k, v in sorted(skipped.items()) if v},
        "sampled": len(chosen),
    }
    return chosen, counts


def write_sample(path: Path, items: Sequence[dict]) -> None:
    with RecordWriter(path) as writer:
        for it in items:
            writer.write(it)
        writer.flush()


def read_sample(path: Path) -> list[dict]:
    """The items of a sample file; InputError naming file and line for a line that is not
    an item, or an item id that occurs twice."""
    items, seen = [], set()
    for lineno, obj in iter_jsonl(Path(path)):
        missing = [k for k in ITEM_KEYS if k not in obj]
        if missing:
            raise InputError(f"{path}:{lineno}: not a `lit judge sample` item "
                             f"(no {', '.join(missing)})")
        if obj["item"] in seen:
            raise InputError(f"{path}:{lineno}: item {obj['item']!r} occurs twice")
        seen.add(obj["item"])
        items.append(obj)
    if not items:
        raise InputError(f"{path}: no item to judge")
    return items
