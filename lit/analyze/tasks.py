"""`lit analyze` for a task other than NLI (docs/tasks.md): a sentiment dataset, question pairs,
two-way entailment, or the inputs of a `lit contrast` output.

Every sentence of every text (lit.tasks.sentences.split: a review is several) is parsed and
counted per side and gold label, as `lit analyze` counts premises and hypotheses; a text's
features for the label-shortcut ranking are the union of its sentences' (phenomena and
predicates, prefixed by the side: ``text:negated``, ``text1:pred=_learn_v_1``). With --mine,
the task's texts are mined as lit.analyze.mine mines NLI pairs, with the task's labels
(docs/mining.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from lit.ace.results import ParseResult
from lit.analyze.analysis import (
    RATE_KEYS,
    PairRow,
    RoleStats,
    count_sentence,
    role_table,
    roles_json,
    shortcut_lines,
)
from lit.analyze.features import role_features
from lit.analyze.mi import rank_features
from lit.analyze.mine import SentenceRow, mined_pair_rows, sentence_rows
from lit.config import DEFAULT_GRAMMAR_VERSION
from lit.errors import InputError
from lit.tasks import TaskProfile, load_task
from lit.tasks.item import TaskItem
from lit.tasks.sentences import split

DEFINITIONS: dict[str, str] = {
    "texts": "valid input records (texts, or text pairs) of the task",
    "sentences": "sentences of a side's texts in the group (a text of several sentences counts "
    "each)",
    "coverage": "share of those sentences with at least one reading; features come from the "
    "top reading only",
    "rates": "share of parsed sentences whose main clause is progressive (prog), perfect "
    "(perf), passive, modal, negated, an it-cleft, a polar question (lit.phenomena.describe)",
    "tense": "counts of the main clause's TENSE (the modal's if there is one)",
    "shortcuts": "features of the texts (each side's phenomena and predicates, over all its "
    "parsed sentences) ranked by mutual information (bits) with the gold label over records "
    "with a gold label and every side's sentences parsed; majority_share = share of the "
    "feature's records that have its most common label",
}


def dataset_task(path: str | Path, given: str | None) -> TaskProfile | None:
    """The task DATASET is to be analysed as: *given* (--task), else the task a `lit contrast`
    output's first record names; None for a task of pair records (nli), which `lit analyze`'s
    own pair path analyses."""
    if given:
        task = load_task(given)
    else:
        task = _contrast_file_task(Path(path))
    return None if task is None or task.pair_records else task


def _contrast_file_task(path: Path) -> TaskProfile | None:
    """The built-in task of a `lit contrast` output (its first record's `task`), else None."""
    from lit.io.readers import detect_format, json_objects

    if str(path) == "-" or not path.is_file():
        return None
    try:
        if detect_format(path) != "jsonl":
            return None
    except InputError:
        return None
    for _, rec, _ in json_objects(path):
        name = (rec or {}).get("task")
        if not name:
            return None
        try:
            return load_task(str(name))
        except InputError:
            raise InputError(f"{path}: records of task {name!r}, which is not built in: pass "
                             "--task with its profile file") from None
    return None


def text_sentences(text: str) -> list[str]:
    """The sentences of a text, as `lit contrast` splits it."""
    return [text[a:b] for a, b in split(text)]


def analyze_task(
    items: Iterable[TaskItem],
    parses: Mapping[str, ParseResult],
    task: TaskProfile,
    grammar_version: str = DEFAULT_GRAMMAR_VERSION,
    top: int = 25,
    min_count: int = 3,
    resamples: int = 1000,
) -> dict:
    """The analysis of a task's *items*, given each sentence's parse: per side and gold label
    coverage and phenomenon rates, and the label-shortcut candidates."""
    roles = {side: {"all": RoleStats(), "by_label": {}} for side in task.sides}
    labelled: list[tuple[set[str], str]] = []
    labels: Counter = Counter()
    invalid = 0
    for item in items:
        if item.error:
            invalid += 1
            continue
        labels[item.gold or "none"] += 1
        features: set[str] | None = set()
        for side, text in zip(task.sides, item.texts):
            for sentence in text_sentences(text):
                found = count_sentence(roles[side], item.gold, parses.get(sentence),
                                       grammar_version)
                if found is None:
                    features = None
                elif features is not None:
                    features |= role_features(side, found)
        if item.gold and features:
            labelled.append((features, item.gold))
    order = [x for x in task.labels.names if x in labels]
    return {
        "task": task.name,
        "definitions": DEFINITIONS,
        "grammar_version": grammar_version,
        "texts": sum(labels.values()),
        "invalid_records": invalid,
        "labels": {k: labels[k] for k in [*order, "none"] if labels[k]},
        "rate_keys": list(RATE_KEYS),
        "roles": roles_json(roles, order),
        "shortcut_pairs": len(labelled),
        "shortcuts": rank_features(labelled, top=top, min_count=min_count, resamples=resamples),
    }


def task_mined_rows(
    items: Iterable[TaskItem], parses: Mapping[str, ParseResult], task: TaskProfile,
    grammar_version: str = DEFAULT_GRAMMAR_VERSION, progress: bool = False,
) -> list[PairRow] | list[SentenceRow]:
    """The rows `lit.analyze.mine.mine` ranks for a task's *items* (docs/mining.md), labelled
    with the task's own labels: a single-text task's texts as sentence rows (a text of several
    sentences when all parsed); a pair task's pairs as NLI pairs are mined, text1 as the
    premise side, when each text is one sentence (the alignment needs one MRS a side)."""
    labelled = [it for it in items if not it.error and it.gold]
    if not task.is_pair:
        return sentence_rows(((it.id, it.texts[0], it.gold) for it in labelled), parses,
                             grammar_version, text_sentences)
    pairs = []
    for it in labelled:
        sides = [text_sentences(text) for text in it.texts]
        if all(len(s) == 1 for s in sides):
            pairs.append(TaskItem(it.id, it.line, it.input, (sides[0][0], sides[1][0]), it.gold))
    return mined_pair_rows(pairs, parses, grammar_version, progress,
                           lambda given, _: ((p, p.gold) for p in given))


def format_task_summary(result: dict) -> str:
    """Coverage and rates per side and label, and the top shortcut candidates."""
    labels = ", ".join(f"{k} {v}" for k, v in result["labels"].items())
    invalid = result["invalid_records"]
    lines = [f"task {result['task']}: {result['texts']} records ({labels})"
             + (f"; {invalid} invalid records" if invalid else "")]
    lines += role_table(result, "side")
    lines.append(f"top label-shortcut candidates (of {result['shortcut_pairs']} records):")
    lines += shortcut_lines(result["shortcuts"][:10])
    return "\n".join(lines)
