"""Which arguments a predicate takes, from the ERG 2025 SEM-I, for rule preconditions.

The full SEM-I (``erg.smi`` and friends) is not installed with LIT, so the package ships a
compact table extracted from it: ``data/erg-2025-semi.json`` maps each predicate to its synopses,
each a list of ``"ROLE:type"`` (``?`` marks an optional role; ARG0 is left out). Rebuild it with::

    python -m lit.lexicon.semi tests/data/erg-2025-semi/erg.smi lit/lexicon/data/erg-2025-semi.json
"""

from __future__ import annotations

import json
import sys
import warnings
from functools import lru_cache
from importlib import resources

from delphin import predicate as delphin_predicate

TABLE = "erg-2025-semi.json"


@lru_cache(maxsize=1)
def table() -> dict[str, list[list[str]]]:
    """The shipped predicate -> synopses table (loaded once)."""
    text = resources.files("lit.lexicon").joinpath("data", TABLE).read_text(encoding="utf-8")
    return json.loads(text)


#: The leaf types each variable type subsumes (u > i, p; i > e, x; p > h, x).
_LEAVES = {"u": {"e", "x", "h"}, "i": {"e", "x"}, "p": {"h", "x"}, "e": {"e"}, "x": {"x"},
           "h": {"h"}}


def has_role(pred: str, role: str, vtype: str) -> bool | None:
    """True if some synopsis of *pred* has *role* with a type compatible with *vtype* (the
    ERG 2025 SEM-I gives e.g. `_chase_v_1` an ARG2 of type p, which admits x); None if the
    SEM-I does not know *pred* (unknown words, or predicates of another grammar version)."""
    synopses = table().get(delphin_predicate.normalize(pred))
    if synopses is None:
        return None
    want = _LEAVES.get(vtype, {vtype})
    for syn in synopses:
        for entry in syn:
            name, _, rtype = entry.rstrip("?").partition(":")
            if name == role and _LEAVES.get(rtype, {rtype}) & want:
                return True
    return False


def roles(pred: str) -> tuple[set[str], set[str]] | None:
    """(every role some synopsis of *pred* has, the roles its first synopsis requires), ARG0
    left out; None if the SEM-I does not know *pred*."""
    synopses = table().get(delphin_predicate.normalize(pred))
    if synopses is None:
        return None
    every = {entry.rstrip("?").partition(":")[0] for syn in synopses for entry in syn}
    required = {e.partition(":")[0] for e in (synopses[0] if synopses else []) if "?" not in e}
    return every, required


def extract(smi_path: str) -> dict[str, list[list[str]]]:
    """Build the compact table from a SEM-I file (needs the whole SEM-I directory)."""
    from delphin import semi

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sem = semi.load(smi_path)
    out: dict[str, list[list[str]]] = {}
    for pred, synopses in sorted(sem.predicates.items()):
        rows = []
        for syn in synopses:
            row = [f"{r.name}:{r.value}" + ("?" if r.optional else "")
                   for r in syn if r.name != "ARG0"]
            if row not in rows:
                rows.append(row)
        out[pred] = rows
    return out


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    source, target = sys.argv[1], sys.argv[2]
    with open(target, "w", encoding="utf-8") as f:
        json.dump(extract(source), f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
