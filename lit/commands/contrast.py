"""Turn a dataset of any sentence or sentence-pair task into labelled contrast sets.

`lit contrast INPUT --task TASK -o OUTPUT` is `lit nli` for any task: TASK is a built-in
profile (nli, sst2, qqp, mrpc, rte) or a profile file (.toml) that names the fields holding the
text or two texts and the label, the label set and the label-rule file (docs/tasks.md). Specs
are single specs for a single-text task ('pass,neg,gender=swap') and pair specs for a pair task
('o;n,pa;o'); the default is the profile's. A text of several sentences is changed one
sentence at a time, the rest kept verbatim, and the record says which sentence changed. OUTPUT
gets one JSON line per input record, in input order: {id, task, input, texts, gold, status,
reason, transforms: [{spec, status, reason, SIDE: {output, sentence, ...}, label, label_rule,
label_rationale}], timings}; a record that cannot be used (a missing field, an empty text, a
label outside the task's set) is written with status invalid_input and the reason. A task of
pair records (nli) runs as `lit nli` (same records and options). Options, progress,
--resume, the summary and exit codes are `lit nli`'s: 0 the run completed, 1 no input record
could be used, 2 a configuration or input error, 130/143 interrupted.
"""

from __future__ import annotations

import argparse
import re

#: Where a comma inside a single-text spec list continues a value (swap=ARG1,ARG3).
_ARG = re.compile(r"ARG\d+")
_ENDS_IN_ARG = re.compile(r"[=,]ARG\d+$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.commands.nli import add_arguments as add_nli_arguments

    parser.add_argument("--task", required=True, metavar="TASK",
                        help="a built-in task (nli, sst2, qqp, mrpc, rte) or a task profile "
                        "file (.toml; docs/tasks.md)")
    parser.add_argument("--column", action="append", metavar="SIDE=FIELD",
                        help="the input field that holds a side of the task (e.g. "
                        "text1=question1; repeatable; default: the profile's fields)")
    add_nli_arguments(parser)


def split_text_specs(text: str) -> list[str]:
    """The single specs of one comma-separated --specs value of a single-text task:
    "pass,neg,swap=ARG1,ARG3" -> pass, neg, swap=ARG1,ARG3 (a comma before ARGn continues
    the value before it)."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and _ARG.fullmatch(piece) and _ENDS_IN_ARG.search(specs[-1]):
            specs[-1] += "," + piece
        elif piece:
            specs.append(piece)
    return specs


def columns_from_args(args: argparse.Namespace) -> dict[str, str]:
    """The `--column SIDE=FIELD` options as {side: field}; InputError for a malformed one."""
    from lit.errors import InputError

    columns = {}
    for given in args.column or []:
        side, sep, name = given.partition("=")
        if not sep or not side.strip() or not name.strip():
            raise InputError(f"--column {given!r}: expected SIDE=FIELD, e.g. text1=question1")
        columns[side.strip()] = name.strip()
    return columns


def run(args: argparse.Namespace) -> int:
    from lit.commands import nli
    from lit.commands.options import engine_from_args, pair_specs_from_args
    from lit.commands.runs import finish_run
    from lit.errors import InputError
    from lit.io.meta import now
    from lit.pipeline.run import RunOptions
    from lit.pipeline.run import run as run_task
    from lit.tasks import load_task

    profile = load_task(args.task)
    columns = columns_from_args(args)
    if profile.pair_records:  # `lit nli`'s run (task nli), its columns given either way
        args.premise_column = columns.pop(profile.sides[0], args.premise_column)
        args.hypothesis_column = columns.pop(profile.sides[1], args.hypothesis_column)
        if columns:
            raise InputError(f"--column {next(iter(columns))}=...: task {profile.name}'s "
                             f"sides are {' and '.join(profile.sides)}")
        return nli.run_pairs(args, profile)
    pairs_only = [flag for flag, value in (
        ("--self-pairs", args.self_pairs), ("--against-shortcut", args.against_shortcut),
        ("--premise-column", args.premise_column),
        ("--hypothesis-column", args.hypothesis_column)) if value]
    if pairs_only:
        raise InputError(f"{pairs_only[0]} is for task nli (pair records); task "
                         f"{profile.name} names its fields with --column SIDE=FIELD (sides: "
                         f"{', '.join(profile.sides)})")
    if profile.is_pair:
        specs = pair_specs_from_args(args, profile.specs)
    else:
        specs = [s for text in args.specs or [] for s in split_text_specs(text)]
        specs += [s.strip() for s in args.spec or []]
        specs = specs or list(profile.specs)
    made = []

    def engine():
        made.append(engine_from_args(args))
        return made[-1]

    started = now()
    result = run_task(args.input, args.output, RunOptions(
        profile, specs, resume=args.resume, overwrite=args.overwrite, limit=args.limit,
        progress=not args.no_progress, engine=engine, format=args.format, columns=columns,
        label_column=args.label_column, id_column=args.id_column))
    return finish_run("contrast", args, result, made[-1] if made else None, specs, started,
                      "--column SIDE=FIELD, --label-column")
