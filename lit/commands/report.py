"""Write a self-contained HTML report of a `lit nli` or `lit contrast` contrast set of any task
(optionally with the JSON of `lit evaluate` and `lit analyze`): charts, per-spec examples with
the changes highlighted, and a failure breakdown. The file needs no network to view.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("contrast", type=Path, metavar="CONTRAST",
                        help="a `lit nli` or `lit contrast` output file (.jsonl or .jsonl.gz)")
    parser.add_argument("--task", metavar="TASK",
                        help="the task profile file (.toml) `lit contrast` ran with, for a task "
                        "that is not built in (default: the task the records name)")
    parser.add_argument("--evaluation", type=Path, metavar="FILE",
                        help="JSON written by `lit evaluate -o` for CONTRAST (checked: its ids "
                        "and specs must be CONTRAST's)")
    parser.add_argument("--analysis", type=Path, metavar="FILE",
                        help="JSON written by `lit analyze -o`")
    parser.add_argument("--augmentation", type=Path, metavar="FILE",
                        help="JSON written by `lit augment --report JSON`")
    parser.add_argument("--judgements", type=Path, metavar="FILE",
                        help="JSON written by `lit judge agree -o` (human judgements)")
    parser.add_argument("--title", default="LIT contrast set report", metavar="TEXT",
                        help="the page title (default: %(default)s)")
    parser.add_argument("--examples", type=int, default=50, metavar="N",
                        help="example rows per page of each spec's table; every pair is listed, "
                        "N per page (default 50)")
    parser.add_argument("-o", "--output", type=Path, default=Path("lit-report.html"),
                        metavar="FILE", help="the HTML file to write (default lit-report.html)")


def _load_json(path: Path | None, key: str, command: str) -> dict | None:
    from lit.errors import InputError

    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or key not in data:
        raise InputError(f"{path}: not the JSON of `lit {command} -o` (no `{key}`)")
    return data


def run(args: argparse.Namespace) -> int:
    from lit.errors import InputError
    from lit.evaluate import read_contrast_file
    from lit.evaluate.records import failure_note
    from lit.io.meta import read_meta
    from lit.io.output import refuse_input_as_output
    from lit.report import write_report
    from lit.report.build import evaluation_mismatch
    from lit.tasks import load_task

    refuse_input_as_output(args.output, args.contrast, args.evaluation, args.analysis,
                           args.augmentation, args.judgements)
    skipped: list[str] = []
    task = load_task(args.task) if args.task else None
    records = read_contrast_file(args.contrast, skipped, task)
    if skipped:
        print(f"lit report: skipped {len(skipped)} bad record(s) of {args.contrast}; first: "
              f"{skipped[0]}", file=sys.stderr)
    if not records:
        raise InputError(f"{args.contrast}: no `lit nli` or `lit contrast` record to report on"
                         + (f" (first problem: {skipped[0]})" if skipped else ""))
    failed = failure_note(records)
    if failed:
        print(f"lit report: {args.contrast}: {failed}", file=sys.stderr)
    evaluation = _load_json(args.evaluation, "specs", "evaluate")
    mismatch = evaluation and evaluation_mismatch(evaluation, records)
    if mismatch:
        raise InputError(f"{args.evaluation}: not an evaluation of {args.contrast}: {mismatch}; "
                         f"run `lit evaluate {args.contrast} ... -o FILE` and pass that FILE")
    write_report(
        args.output, records, meta=read_meta(args.contrast),
        evaluation=evaluation,
        analysis=_load_json(args.analysis, "roles", "analyze"),
        title=args.title, source=str(args.contrast), examples=args.examples, task=task,
        augmentation=_load_json(args.augmentation, "shortcuts", "augment --report"),
        judging=_load_json(args.judgements, "by_rule", "judge agree"),
    )
    print(f"report written to {args.output}", file=sys.stderr)
    return 0
