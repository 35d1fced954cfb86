"""Turn an NLI dataset into labelled contrast pairs: transform both sentences, label by rule.

INPUT is SNLI/MNLI JSONL (sentence1, sentence2, gold_label; .gz accepted), CSV or TSV (name the
columns with --premise-column etc.), or '-' for JSONL on stdin. Each --specs item is a pair spec
"premise;hypothesis" in the spec syntax of `lit transform` ("p;f +i" = "p+i;f+i"); the default
is the LIT paper's set. OUTPUT gets exactly one JSON line per input record, in input order:
{id, input, status, reason, transforms: [{spec, status, reason, premise, hypothesis, label,
label_rule, label_rationale}], timings} (docs/pipeline.md); the run itself is
lit.run (task nli), so Python users get the same behaviour. --resume appends to OUTPUT, skipping
ids already written (a half-written last line from a killed run is cut off first); an existing
OUTPUT is otherwise only replaced with --overwrite. A progress
bar and, at the end, a summary per spec go to stderr. Only one run at a time writes OUTPUT (a
second is refused, naming the first); a record reaches the disk within seconds of its pair
finishing (in input order: a slow pair holds back only the records after it; with --backend
ray, a batch's records together), and an interrupted run says how many are safe. Exit 0 when the run completes (failed pairs are
recorded with their reason), 1 when no input record could be used (empty input, or every
record invalid_input), 2 on a configuration or input error (or OUTPUT in use), 130/143 when
interrupted (SIGINT/SIGTERM; --resume continues).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lit.pipeline.engine import Engine
    from lit.tasks.profile import TaskProfile


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.commands.options import (
        add_ace_arguments,
        add_input_arguments,
        add_pipeline_arguments,
    )
    from lit.config import PAPER_SPECS

    parser.add_argument("input", metavar="INPUT",
                        help="dataset: JSONL, CSV, TSV or Parquet file (.gz accepted), a folder "
                        "saved by `datasets` (DIR or DIR:SPLIT), hf:NAME[:SPLIT] from the "
                        "Hugging Face cache, or '-' for JSONL on stdin")
    parser.add_argument("-o", "--output", required=True, metavar="OUTPUT",
                        help="JSONL file to write (one record per input record)")
    parser.add_argument("--specs", action="append", metavar="LIST",
                        help="comma-separated pair specs, e.g. 'f;p,p;f,i;i,pa;pa,m;o,p;f +i' "
                             f"(repeatable; default: the paper's set {','.join(PAPER_SPECS)})")
    parser.add_argument("--spec", action="append", metavar="SPEC",
                        help="one pair spec, e.g. 'p;f +i' (repeatable; added after --specs)")
    parser.add_argument("--resume", action="store_true",
                        help="append to OUTPUT, skipping input ids it already holds")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an existing OUTPUT (else an existing OUTPUT is an error)")
    parser.add_argument("--label-rules", metavar="FILE",
                        help="label-rule file (default: LIT's, docs/labelrules.md)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N input records")
    parser.add_argument("--self-pairs", action="store_true",
                        help="pairs (S, S) of every distinct sentence instead of the input's "
                        "pairs, for meaning-changing specs such as 'o;hyper' (labels by "
                        "natural logic; docs/labelrules.md)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--against-shortcut", action="append", metavar="FEATURE",
                        help="also write OUTPUT.against-FEATURE.jsonl: the transforms that keep "
                        "this aligned pair feature (`lit analyze --pairs`) under a label other "
                        "than its majority label in INPUT (repeatable; with no --specs/--spec, "
                        "every pair spec the label rules can label is tried; docs/shortcuts.md)")
    d = parser.add_argument_group("input columns")
    add_input_arguments(d)
    d.add_argument("--id-column", metavar="NAME",
                   help="record id field (default: pairID or id, else the line number)")
    add_pipeline_arguments(parser)
    add_ace_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from lit.tasks import NLI_TASK, load_task

    return run_pairs(args, load_task(NLI_TASK))


def run_pairs(args: argparse.Namespace, profile: TaskProfile) -> int:
    """`lit nli`'s run for *profile*, a task of pair records (nli; `lit contrast --task`
    hands such a task here): --premise-column and --hypothesis-column name its two sides."""
    import sys

    from lit.commands.options import engine_from_args, pair_specs_from_args, spec_warnings
    from lit.commands.runs import finish_run
    from lit.errors import InputError
    from lit.io.meta import now
    from lit.pipeline.run import RunOptions
    from lit.pipeline.run import run as run_task

    if args.against_shortcut:
        from lit.analyze.contrast import check_features

        check_features(args.against_shortcut)
    if args.against_shortcut and args.input == "-":
        raise InputError("--against-shortcut reads INPUT a second time: give a file, not '-'")
    specs = pair_specs_from_args(args, profile.specs)
    made = []  # the run's Engine, for the run metadata
    if args.against_shortcut and not (args.specs or args.spec):
        made.append(engine_from_args(args))
        specs = _shortcut_specs(made[0])
    for line in spec_warnings(specs):
        print(line, file=sys.stderr)

    def engine():
        if not made:
            made.append(engine_from_args(args))
        return made[-1]

    columns = {side: name for side, name in zip(
        profile.sides, (args.premise_column, args.hypothesis_column)) if name}
    started = now()
    result = run_task(args.input, args.output, RunOptions(
        profile, specs, resume=args.resume, overwrite=args.overwrite, limit=args.limit,
        progress=not args.no_progress, engine=engine, format=args.format, columns=columns,
        label_column=args.label_column, id_column=args.id_column, self_pairs=args.self_pairs))
    code = finish_run("nli", args, result, made[-1] if made else None, specs, started,
                      "--premise-column, --hypothesis-column, --label-column")
    if code:
        return code
    if args.against_shortcut:
        for line in _against_shortcuts(args):
            print(f"lit nli: {line}", file=sys.stderr)
    return 0


def _shortcut_specs(engine: Engine) -> list[str]:
    """--against-shortcut with no --specs: every pair spec *engine*'s label rules can label
    (said on stderr); InputError if there is none (the Engine is closed then)."""
    import sys

    from lit.analyze.contrast import candidate_specs
    from lit.errors import InputError

    specs, left = candidate_specs(engine.label_rules, engine.check_pair)
    print(f"lit nli: --against-shortcut with no --specs: trying the {len(specs)} pair "
          f"specs the label rules can label: {','.join(specs)}"
          + (f" (left out: {'; '.join(left)})" if left else ""), file=sys.stderr)
    if not specs:
        engine.close()
        raise InputError("--against-shortcut: no pair spec to try (" + "; ".join(left)
                         + "); name some with --specs")
    return specs


def _against_shortcuts(args: argparse.Namespace) -> list[str]:
    """After `lit nli`: write one contrast set per --against-shortcut feature from OUTPUT;
    return a report line per feature. The input's majority labels come from its own parses
    (read back from the parse cache `lit nli` just filled)."""
    import json
    from collections import Counter
    from itertools import islice

    from lit.ace.options import service_from_args
    from lit.analyze.analysis import pair_rows, parse_sentences
    from lit.analyze.contrast import against, against_path, by_spec, check_features, shortcut
    from lit.analyze.fragments import family
    from lit.analyze.mine import mined_pair_rows
    from lit.config import DEFAULT_GRAMMAR_VERSION
    from lit.io.output import atomic_text
    from lit.records import read_records
    from lit.tasks.reader import read_nli

    items = list(islice(read_nli(args.input, args.format, premise=args.premise_column,
                                 hypothesis=args.hypothesis_column, label=args.label_column,
                                 id_field=args.id_column), args.limit))
    with service_from_args(args) as service:
        parses = parse_sentences(service, (s for it in items if not it.error
                                           for s in (it.premise, it.hypothesis)))
        version = service.config.grammar_version or DEFAULT_GRAMMAR_VERSION
    check_features(args.against_shortcut)
    mined = any(family(f) != "handmade" for f in args.against_shortcut)
    rows = (mined_pair_rows if mined else pair_rows)(items, parses, version)
    lines = []
    for feature in args.against_shortcut:
        short = shortcut(feature, rows)
        if short.majority_label is None:
            lines.append(f"against {feature}: no gold-labelled input pair has it; nothing "
                         "written")
            continue
        counts: Counter = Counter()
        path = against_path(args.output, feature)
        with atomic_text(path) as f:
            for rec in against(read_records(args.output), short, version, counts):
                f.write(json.dumps(rec.to_dict()) + "\n")
        lines.append(
            f"against {feature} (majority {short.majority_label} in {short.support} input "
            f"pairs): {counts['keep_feature']} of {counts['transforms']} labelled transforms "
            f"keep the feature, {counts['against']} with another label "
            f"({by_spec(counts) or 'from no spec'}) -> {path}")
    return lines
