"""One `lit audit` record per edited row (docs/audit.md, "Output"): the row's texts and labels,
the diff of each edited side (lit.diff), the label the rules predict (lit.audit.predict) and
whether the claimed label agrees.

`audit_records` works in batches: every text of a batch's rows (originals and edits) is parsed
in one call, so the ACE pool parses them in parallel, as `lit contrast` batches its pairs, and
each text once: lit.diff diffs each edited side from those parses, and the label rules read
the readings the diff chose from them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import islice

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.ace.protocol import Ace
from lit.ace.results import ParseResult
from lit.audit.predict import BOTH, Prediction, Words, no_label, predict
from lit.audit.rows import AuditRow
from lit.diff.model import MrsDiff, SentenceDiff
from lit.labels import LabelRules
from lit.labels.model import phenomena_of
from lit.logic import UP, polarities
from lit.logic.support import is_word, word_key
from lit.phenomena import Phenomena
from lit.status import Status
from lit.tasks.profile import TaskProfile

#: lit.diff.diff_parsed's signature: (a, b, parse_a, parse_b[, grammar_version]) -> its diff.
Differ = Callable[..., SentenceDiff]
#: Rows per batch for each ACE worker.
ROWS_PER_WORKER = 8
#: Readings of each sentence the diff chooses from.
DEFAULT_READINGS = 5


def agrees(prediction: Prediction, claimed: str | None) -> bool | None:
    """True/False when the rules predict a label and the row claims one; None otherwise."""
    if prediction.label is None or claimed is None:
        return None
    return prediction.label == claimed


def size_of(diffs: Sequence[MrsDiff]) -> dict | None:
    """The whole edit's size: EPs and tokens summed over the edited sides, the least close
    side's closeness (None without a diff)."""
    if not diffs:
        return None
    return {"eps": sum(d.size.eps for d in diffs), "tokens": sum(d.size.tokens for d in diffs),
            "closeness": min(d.size.closeness for d in diffs)}


def base_record(row: AuditRow, profile: TaskProfile) -> dict:
    """The fields every record has, as read."""
    return {
        "id": row.id, "original_id": row.original_id, "task": profile.name,
        "input": row.input,
        "original": dict(zip(profile.sides, row.original)) if row.original else None,
        "edited": dict(zip(profile.sides, row.edited)),
        "original_label": row.original_label, "claimed_label": row.claimed_label,
        "edited_sides": list(row.edited_sides(profile.sides)) if row.original else [],
        "status": str(Status.OK), "reason": None,
        "edits": {}, "kinds": [], "named": None, "size": None,
        "prediction": no_label("not audited").to_dict(), "agrees": None,
    }


def failed_record(row: AuditRow, profile: TaskProfile, status: Status, reason: str) -> dict:
    record = base_record(row, profile)
    record.update(status=str(status), reason=reason,
                  prediction=no_label(f"{status}: {reason}").to_dict())
    return record


def _failure_status(text: str) -> Status:
    """A diff's failing status as a Status (error for ok without a diff, or an unknown one)."""
    try:
        status = Status(text)
    except ValueError:
        return Status.ERROR
    return Status.ERROR if status is Status.OK else status


def audited_record(row: AuditRow, profile: TaskProfile, rules: LabelRules,
                   diffs: dict[str, SentenceDiff], originals: Sequence[TextAnalysis | None],
                   edited_premise: TextAnalysis | None = None) -> dict:
    """The record of a row whose edited sides were diffed (*diffs* by side); *originals* is
    what was read of the original texts, by side (None: not parsed), *edited_premise* what
    was read of the edited first text where it was edited."""
    record = base_record(row, profile)
    sides = tuple(record["edited_sides"])
    record["edits"] = {s: d.to_dict() for s, d in diffs.items()}
    failed = [(s, d) for s, d in diffs.items() if d.diff is None or d.status != str(Status.OK)]
    if failed:
        side, d = failed[0]
        reason = f"{side}: {d.reason or d.status}"
        record.update(status=str(_failure_status(d.status)),
                      reason=reason, prediction=no_label(reason).to_dict())
        return record
    mrs_diffs = [diffs[s].diff for s in sides]
    record["kinds"] = [e.kind for d in mrs_diffs for e in d.edits]
    record["named"] = all(d.named() for d in mrs_diffs) if mrs_diffs else None
    record["size"] = size_of(mrs_diffs)
    premise, hypothesis = (tuple(o.phenomena if o else None for o in originals)
                           + (None, None))[:2]
    words = _words(originals, edited_premise) if len(profile.sides) > 1 else None
    if len(sides) == 1:
        side, diff = sides[0], mrs_diffs[0]
    else:  # both sides, or none (the identity rule then speaks)
        side, diff = BOTH, tuple(diffs[s].diff if s in diffs else MrsDiff(())
                                 for s in profile.sides)
    prediction = predict(row.original_label, side, diff, rules, sides=profile.sides,
                         premise=premise, hypothesis=hypothesis, words=words)
    record.update(prediction=prediction.to_dict(), agrees=agrees(prediction, row.claimed_label))
    return record


@dataclass(frozen=True)
class TextAnalysis:
    """What the label rules read of one reading of a text: its MRS (None if the reader
    refuses it), its phenomena (for `when` conditions; None if the reader refuses the MRS)
    and its predicates (the premise's stand on an edit, lit.logic.support)."""

    mrs: MRS | None
    phenomena: Phenomena | None
    predicates: frozenset[str]

    @cached_property
    def asserts(self) -> bool:
        """Whether the reading asserts every open-class word it has (all at an upward
        position: no negation, no *every* restrictor, no *believe*), without which its words
        cannot be read one by one as said; only a premise edit asks."""
        if self.mrs is None:
            return False
        try:
            pols = polarities(self.mrs)
        except Exception:  # noqa: BLE001 -- a scope the reader refuses asserts nothing sure
            return False
        return all(p == UP for ep, p in zip(self.mrs.rels, pols) if is_word(word_key(ep)))


def _words(originals: Sequence[TextAnalysis | None], edited: TextAnalysis | None) -> Words:
    """The predicates the premise's stand is read from (lit.audit.predict.Words): the
    hypothesis's and the edited premise's only where all three texts assert their words."""
    first, second = (tuple(originals) + (None, None))[:2]
    if first is None:
        return Words()
    asserted = bool(second and edited and first.asserts and second.asserts and edited.asserts)
    return Words(first.predicates, second.predicates if asserted and second else None,
                 edited.predicates if asserted and edited else None)


def _analysis(parsed: ParseResult, reading: int, grammar_version: str | None
              ) -> TextAnalysis | None:
    """What the rules read of one reading of a parsed text (None: no such reading)."""
    if reading >= len(parsed.readings):
        return None
    try:
        mrs = simplemrs.decode(parsed.readings[reading].mrs)
    except Exception:  # noqa: BLE001 -- an MRS the reader refuses says nothing
        return TextAnalysis(None, None, frozenset())
    try:
        phenomena = phenomena_of(mrs, grammar_version)
    except Exception:  # noqa: BLE001 -- an MRS the reader refuses has no phenomena
        phenomena = None
    return TextAnalysis(mrs, phenomena, frozenset(map(word_key, mrs.rels)))


def _batch_records(rows: list[AuditRow], service: Ace, profile: TaskProfile,
                   rules: LabelRules, differ: Differ, readings: int) -> list[dict]:
    usable = [r for r in rows if not r.error]
    texts = list(dict.fromkeys(t for r in usable for t in (*r.original, *r.edited)
                               if t is not None))
    parsed = dict(zip(texts, service.parse(texts, n=readings))) if texts else {}
    version = service.config.grammar_version
    options = {"grammar_version": version} if version else {}
    read: dict[tuple[str, int], TextAnalysis | None] = {}

    def read_of(text: str | None, reading: int) -> TextAnalysis | None:
        if text is None or text not in parsed:
            return None
        if (text, reading) not in read:
            read[(text, reading)] = _analysis(parsed[text], reading, version)
        return read[(text, reading)]

    out = []
    for row in rows:
        if row.error:
            out.append(failed_record(row, profile, Status.INVALID_INPUT, row.error))
            continue
        at = {s: profile.sides.index(s) for s in row.edited_sides(profile.sides)}
        diffs = {s: differ(row.original[i], row.edited[i], parsed[row.original[i]],
                           parsed[row.edited[i]], **options) for s, i in at.items()}
        chosen = [diffs[s].diff.readings[0] if s in diffs and diffs[s].diff else 0
                  for s in profile.sides]
        originals = [read_of(text, k) for text, k in zip(row.original, chosen)]
        first = diffs.get(profile.sides[0])
        premise = (read_of(row.edited[0], first.diff.readings[1])
                   if first and first.diff and len(profile.sides) > 1 else None)
        out.append(audited_record(row, profile, rules, diffs, originals, premise))
    return out


def audit_records(rows: Iterable[AuditRow], service: Ace, profile: TaskProfile,
                  rules: LabelRules, *, differ: Differ | None = None,
                  readings: int = DEFAULT_READINGS, batch: int | None = None
                  ) -> Iterator[dict]:
    """One record per row, in order; a batch whose diff fails gives each of its rows an
    error record with the reason, and the run goes on."""
    if differ is None:
        from lit.diff import diff_parsed as differ  # type: ignore[attr-defined,no-redef]
    size = batch or max(1, ROWS_PER_WORKER * service.workers)
    it = iter(rows)
    while chunk := list(islice(it, size)):
        yield from _guarded(chunk, lambda rows: _batch_records(
            rows, service, profile, rules, differ, readings), profile)


def _guarded(chunk: list[AuditRow], work: Callable[[list[AuditRow]], list[dict]],
             profile: TaskProfile) -> list[dict]:
    """*work*'s records for *chunk*; if the batch fails, each row again on its own, and a row
    that fails alone gets an error record with the exception as its reason."""
    try:
        return work(chunk)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:  # noqa: BLE001 -- every row still gets its record
        if len(chunk) > 1:
            return [r for row in chunk for r in _guarded([row], work, profile)]
        row = chunk[0]
        if row.error:
            return [failed_record(row, profile, Status.INVALID_INPUT, row.error)]
        return [failed_record(row, profile, Status.ERROR, f"{type(exc).__name__}: {exc}")]
