"""Which predicates the grammar can generate: checked before ACE is asked to generate.

ACE refuses an MRS with a predicate outside its generation index ("input EP not in index"),
but only after starting the item (building a chart for the rest, on a fresh generator when the
last item used its -n budget), and a caller learns nothing about *which* predicate. The index
is in the compiled grammar, and SEM-I files are not shipped with it, so it is read from ACE
itself: one probe MRS holding one bare EP per predicate not yet known (no arguments but ARG0,
so nothing can combine and the chart stays tiny) is sent to the generator, and ACE names each
EP that is "not covered" (on the rig: about 0.1 s for a dozen predicates, where a refused
item costs a chart for the rest of its MRS). Answers are kept for the life of the index (an
AceService), so a predicate is probed once.

Predicates the grammar itself produced in a parse are taken as known without a probe (`vouch`):
a lexical entry or a rule gave them, so nearly all are in the index. Not an unknown word's
generic predicate ("_cartwheel/NN_u_unknown"), probed like a rule's new predicate; and an entry
the grammar parses but does not generate (on the rig `_broken_a_1`, 5 of 374 MRSs of 200 pairs)
is then refused by ACE itself at once (~0.07 s, "input EP not in index" in the reason).

Only what ACE says is believed: a probe that fails in any other way (a time-out, a crash)
leaves its predicates unknown, and they are probed again next time; EPs with a constant
argument (names, numbers) are never judged, since ACE may cover them with generic entries.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

from delphin import variable
from delphin.mrs import MRS

from lit.status import Status

#: ACE's warning for an EP no lexical entry or rule of the index covers.
_NOT_COVERED = re.compile(r"EP '(.+?)' is not covered")
#: An unknown word's predicate from a generic lexical entry: parsed, never generated.
_GENERIC = re.compile(r"/|_u_unknown$")
#: The error ACE gives an item with such an EP; reasons quote it, so records stay comparable.
NOT_IN_INDEX = "input EP not in index"


def _predicates(mrs: MRS) -> dict[str, str]:
    """The predicates of *mrs* the check judges (EPs with a constant argument are not), each
    with its ARG0's variable type."""
    return {ep.predicate: variable.type(ep.iv) if ep.iv else "x"
            for ep in mrs.rels if ep.carg is None}


def probe_mrs(predicates: dict[str, str]) -> str:
    """One SimpleMRS with a bare EP per predicate, its ARG0 of the given variable type."""
    eps = []
    for k, (pred, kind) in enumerate(predicates.items()):
        text = pred if re.fullmatch(r"[^\s\"<>\[\]:]+", pred) else f'"{pred}"'
        eps.append(f"[ {text} LBL: h{2 * k + 1} ARG0: {kind}{2 * k + 2} ]")
    return f"[ TOP: h0 INDEX: e{2 * len(eps) + 2} RELS: < {' '.join(eps)} > ]"


class SemanticIndex:
    """The grammar's generation index as far as it was needed, learnt through *probe* (one
    SimpleMRS and a generation limit -> ACE's lit.ace.service.GenerateResult). Safe to share
    between threads."""

    def __init__(self, probe: Callable[[str, int | None], Any]) -> None:
        self.probe = probe
        self.known: dict[str, bool] = {}  # predicate -> in the index
        self.probes = 0  # ACE items spent learning it
        self._lock = threading.Lock()

    def missing(self, mrss: Iterable[MRS], limit: int | None = 1) -> list[tuple[str, ...]]:
        """For each MRS, its predicates ACE would refuse as "not in index" (empty: none). A
        probe is generated with *limit* (the caller's own, so it runs on the generator the
        caller's items use and starts no other process)."""
        found = [_predicates(m) for m in mrss]
        with self._lock:
            new = {p: kind for preds in found for p, kind in preds.items()
                   if p not in self.known}
        if new:
            self._learn(dict(sorted(new.items())), limit)
        with self._lock:
            return [tuple(p for p in preds if self.known.get(p) is False) for preds in found]

    def vouch(self, mrss: Iterable[MRS]) -> None:
        """Take the predicates of MRSs this grammar produced by parsing as in its index (no
        probe for them), except unknown words' generic ones."""
        with self._lock:
            for m in mrss:
                for pred in _predicates(m):
                    if pred not in self.known and not _GENERIC.search(pred):
                        self.known[pred] = True

    def _learn(self, predicates: dict[str, str], limit: int | None) -> None:
        result = self.probe(probe_mrs(predicates), limit)
        said = result.reason or ""
        uncovered = {_unquote(m) for m in _NOT_COVERED.findall(said)}
        with self._lock:
            self.probes += 1
            if result.status == Status.OK:
                uncovered = set()
            elif result.status != Status.NO_GENERATION or (NOT_IN_INDEX in said
                                                           and not uncovered):
                return  # no answer about the index: judge nothing
            for pred in predicates:
                self.known[pred] = pred not in uncovered


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] == '"' else text
