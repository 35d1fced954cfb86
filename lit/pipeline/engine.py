"""`lit.Engine`: ACE, the rule engine, a scorer and the label rules behind one object.

    with lit.Engine(scorer="ace") as engine:
        engine.transform("Alice saw Bob.", "tense=fut+pass")["output"]
        for record in engine.nli(pairs, specs=["f;p", "m;o"]):
            ...

Records are the plain dicts of docs/design.md §5 — exactly what `lit transform` / `lit nli` write.
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from pathlib import Path

from lit.errors import InputError
from lit.io.readers import NliItem, checked_item
from lit.labels import LabelRules
from lit.pipeline.core import Pipeline
from lit.config import DEFAULT_GRAMMAR_VERSION, DEFAULTS, PAPER_SPECS, RunConfig
from lit.rank import Scorer, get_scorer
from lit.records import NliRecord, TransformRecord
from lit.spec import PairSpec, Spec, parse_pair, parse_spec


def _batches(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def _overlapped(batches: Iterable[list], work, in_flight: int) -> Iterator[dict]:
    """Records of `work(batch)` for each batch, in order, with up to *in_flight* batches
    running at once: while one batch waits for ACE (or sits at a stage boundary), the next
    keeps the ACE pool busy. Batches are read from *batches* in this (the caller's) thread."""
    if in_flight <= 1:
        for batch in batches:
            yield from work(batch)
        return
    with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="lit-batch") as pool:
        pending: deque = deque()
        try:
            for batch in batches:
                pending.append(pool.submit(work, batch))
                if len(pending) >= in_flight:
                    yield from pending.popleft().result()
            while pending:
                yield from pending.popleft().result()
        finally:
            for future in pending:  # the consumer stopped early
                future.cancel()


def as_item(pair: object, line: int) -> NliItem:
    """An NliItem from a dict (SNLI/MNLI fields, or premise/hypothesis/label), a tuple
    (premise, hypothesis[, label[, id]]) or an NliItem; anything else, or a pair that
    cannot be processed, is an item with `error` set (that pair's invalid_input record)."""
    if isinstance(pair, NliItem):
        return pair
    if isinstance(pair, dict):
        premise = pair.get("sentence1", pair.get("premise"))
        hypothesis = pair.get("sentence2", pair.get("hypothesis"))
        gold = pair.get("gold_label", pair.get("label"))
        rid = next((pair[k] for k in ("pairID", "id") if pair.get(k) not in (None, "")), line)
        fields = dict(pair)
    elif isinstance(pair, (tuple, list)) and 2 <= len(pair) <= 4:
        premise, hypothesis = pair[0], pair[1]
        gold = pair[2] if len(pair) > 2 else None
        rid = pair[3] if len(pair) > 3 else line
        fields = {"sentence1": premise, "sentence2": hypothesis, "gold_label": gold}
    else:
        return NliItem(str(line), line, {"raw": ascii(pair)[:2000]}, error=(
            f"pair {line}: expected a dict or a (premise, hypothesis, label) tuple, "
            f"not {type(pair).__name__}"))
    return checked_item(rid, line, fields, premise, hypothesis, gold, f"pair {line}")


class Engine:
    """Everything `lit transform` and `lit nli` run, as one object; close it (or use `with`)
    to stop the ACE processes.

    ace/grammar/grammar_version: as for every `lit` command (else LIT_ACE, LIT_GRAMMAR, the
    config file written by `lit setup`). scorer: "gpt2" (default; `model` names a Hugging Face
    model or a local directory), "ace" (no model: ACE's own order) or any object with
    `score(groups) -> scores` (lower is better). rules: extra rule files or directories.
    label_rules: a label-rule file (default: the one shipped with LIT). batches_in_flight:
    how many batches run at once (threads; the ACE pool does the parallel work). service: an
    existing lit.ace.service.AceService to use instead of starting one (`close` leaves it
    running unless close_service is true).
    """

    def __init__(
        self,
        ace: str | Path | None = None,
        grammar: str | Path | None = None,
        grammar_version: str | None = None,
        *,
        workers: int | None = None,
        timeout: float = DEFAULTS.timeout,
        scorer: str | Scorer = DEFAULTS.scorer,
        model: str | None = None,
        device: str | None = None,
        score_batch_size: int = DEFAULTS.score_batch_size,
        rules: Sequence[str | Path] | None = None,
        label_rules: str | Path | LabelRules | None = None,
        max_candidates: int = DEFAULTS.max_candidates,
        verify_readings: int = DEFAULTS.verify_readings,
        keep_unverified: bool = DEFAULTS.keep_unverified,
        closeness_weight: float = DEFAULTS.closeness_weight,
        readings: int = DEFAULTS.readings,
        batch_size: int = DEFAULTS.batch_size,
        batches_in_flight: int = DEFAULTS.batches_in_flight,
        service=None,
        close_service: bool = False,
    ):
        from lit.rules.engine import RuleEngine

        self._owns_service = service is None or close_service
        if service is None:
            from lit.ace.config import resolve_config
            from lit.ace.service import AceService

            service = AceService(resolve_config(ace, grammar, grammar_version), workers, timeout)
        self.service = service
        # an Engine dropped without close() (or still open at exit) must not leave ACE
        # processes, threads and a temporary directory behind
        self._finalizer = weakref.finalize(
            self, service.close if self._owns_service else lambda: None
        )
        self.grammar_version = (
            grammar_version or getattr(service.config, "grammar_version", None)
            or DEFAULT_GRAMMAR_VERSION
        )
        try:
            self.rules = RuleEngine.load(self.grammar_version, paths=rules)
            if not isinstance(label_rules, LabelRules):
                label_rules = LabelRules.load(label_rules)
            self.scorer = get_scorer(scorer, model=model, device=device,
                                     batch_size=score_batch_size)
            if hasattr(self.scorer, "load"):  # fail now, not after the first batch's ACE work
                self.scorer.load()
        except BaseException:
            self.close()
            raise
        self.label_rules = label_rules
        self.batch_size = max(1, batch_size)
        self.batches_in_flight = max(1, batches_in_flight)
        self.pipeline = Pipeline(
            service, self.rules, self.scorer, grammar_version=self.grammar_version,
            label_rules=label_rules, max_candidates=max_candidates,
            verify_readings=verify_readings, keep_unverified=keep_unverified,
            closeness_weight=closeness_weight, readings=readings,
        )

    @classmethod
    def from_config(
        cls,
        config: RunConfig,
        *,
        rules: Sequence[str | Path] | None = None,
        label_rules: str | Path | LabelRules | None = None,
        service=None,
        close_service: bool = False,
    ) -> Engine:
        """An Engine with every setting of *config* (the CLI builds its Engine this way)."""
        return cls(config.ace, config.grammar, config.grammar_version, workers=config.workers,
                   timeout=config.timeout, scorer=config.scorer, model=config.model,
                   device=config.device, score_batch_size=config.score_batch_size,
                   rules=rules, label_rules=label_rules, max_candidates=config.max_candidates,
                   verify_readings=config.verify_readings,
                   keep_unverified=config.keep_unverified,
                   closeness_weight=config.closeness_weight, readings=config.readings,
                   batch_size=config.batch_size,
                   batches_in_flight=config.batches_in_flight, service=service,
                   close_service=close_service)

    # --- checking specs up front -----------------------------------------------------------

    def check_spec(self, spec: str | Spec) -> Spec:
        """Parse *spec* and check every step names a known module and value (InputError)."""
        return self.rules.check(parse_spec(spec) if isinstance(spec, str) else spec)

    def check_pair(self, spec: str | PairSpec) -> PairSpec:
        pair = parse_pair(spec) if isinstance(spec, str) else spec
        try:
            self.rules.check(pair.premise)
            self.rules.check(pair.hypothesis)
        except InputError as exc:
            raise InputError(f"pair spec {str(spec)!r}: {exc}") from None
        return pair

    # --- work -----------------------------------------------------------------------------

    def transform(self, sentence: str, spec: str | Spec) -> TransformRecord:
        """The `lit transform` record for one sentence: status, reason, spec, mrs, output,
        verified, candidates."""
        return next(self.transform_all([sentence], spec))

    def transform_all(
        self, sentences: Iterable[str], spec: str | Spec | Sequence[str | Spec]
    ) -> Iterator[TransformRecord]:
        """`lit transform` records for many sentences, streamed in input order; with several
        specs, each sentence is parsed once and gets one record per spec, in spec order."""
        specs = [spec] if isinstance(spec, (str, Spec)) else list(spec)
        checked = [self.check_spec(s) for s in specs]
        yield from _overlapped(_batches(sentences, self.batch_size),
                               lambda batch: self.pipeline.transform(batch, checked),
                               self.batches_in_flight)

    def nli(
        self, pairs: Iterable[object], specs: Sequence[str | PairSpec] = PAPER_SPECS
    ) -> Iterator[NliRecord]:
        """One `lit nli` record per pair (see `as_item` for accepted shapes), streamed in
        input order; `specs` are pair specs such as "f;p" or "p;f +i"."""
        checked = [(s, self.check_pair(s)) for s in specs]
        texts = [s.strip() if isinstance(s, str) else str(p) for s, p in checked]
        named = [(t, p) for t, (_, p) in zip(texts, checked)]
        items = (as_item(p, k) for k, p in enumerate(pairs, 1))
        yield from _overlapped(_batches(items, self.batch_size),
                               lambda batch: self.pipeline.nli(batch, named),
                               self.batches_in_flight)

    @property
    def times(self):
        """Seconds per stage so far (lit.pipeline.StageTimes)."""
        return self.pipeline.times

    def close(self) -> None:
        """Stop the ACE processes if this Engine owns them (safe to call twice)."""
        self._finalizer()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
