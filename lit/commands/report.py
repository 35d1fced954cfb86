"""Write a self-contained HTML report of a `lit nli` or `lit contrast` contrast set of any task
(optionally with the JSON of `lit evaluate` and `lit analyze`): charts, per-spec examples with
the changes highlighted, and a failure breakdown. The file needs no network to view. A `lit
audit` output, as CONTRAST or with --audit, adds its section: edits by kind, agreement of the
claimed labels with the rules, the rows to review (docs/audit.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DEFAULT_TITLE = "LIT contrast set report"


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
    parser.add_argument("--audit", type=Path, metavar="FILE",
                        help="a `lit audit` output (its records) to report on beside CONTRAST")
    parser.add_argument("--title", default=DEFAULT_TITLE, metavar="TEXT",
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


def _is_audit_file(path: Path) -> bool:
    """True if the first record of *path* is one `lit audit` wrote."""
    from lit.errors import InputError
    from lit.io.jsonl import iter_jsonl
    from lit.report.audit import is_audit_record

    try:
        return any(is_audit_record(rec) for _, rec in iter_jsonl(path, []))
    except InputError:
        return False


def _audit_records(path: Path) -> list[dict]:
    """The records of a `lit audit` output; InputError if it holds none."""
    from lit.errors import InputError
    from lit.io.jsonl import iter_jsonl
    from lit.report.audit import is_audit_record

    if not path.exists():
        raise InputError(f"{path}: no such file")
    records = [rec for _, rec in iter_jsonl(path, []) if is_audit_record(rec)]
    if not records:
        raise InputError(f"{path}: not a `lit audit` output (no record with a prediction "
                         "and a claimed label)")
    return records


def run(args: argparse.Namespace) -> int:
    from lit.errors import InputError
    from lit.evaluate import read_contrast_file
    from lit.evaluate.records import failure_note
    from lit.io.meta import read_meta
    from lit.io.output import refuse_input_as_output
    from lit.report import ReportOptions, write_report
    from lit.report.build import evaluation_mismatch
    from lit.tasks import load_task

    refuse_input_as_output(args.output, args.contrast, args.evaluation, args.analysis,
                           args.augmentation, args.judgements, args.audit)
    audit = _audit_records(args.audit) if args.audit else None
    if audit is None and _is_audit_file(args.contrast):
        from lit.io.output import write_text_atomic
        from lit.report.build import build_audit_report

        title = args.title if args.title != DEFAULT_TITLE else "LIT counterfactual audit"
        write_text_atomic(args.output, build_audit_report(
            _audit_records(args.contrast), title=title, source=str(args.contrast)))
        print(f"report written to {args.output}", file=sys.stderr)
        return 0
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
    write_report(args.output, records, ReportOptions(
        meta=read_meta(args.contrast), evaluation=evaluation,
        analysis=_load_json(args.analysis, "roles", "analyze"),
        title=args.title, source=str(args.contrast), examples=args.examples, task=task,
        augmentation=_load_json(args.augmentation, "shortcuts", "augment --report"),
        judging=_load_json(args.judgements, "by_rule", "judge agree"), audit=audit,
    ))
    print(f"report written to {args.output}", file=sys.stderr)
    return 0
