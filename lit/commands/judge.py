"""Human judgement of a run's outputs: sample them, judge them in the browser, measure agreement.

  lit judge sample CONTRAST -o SAMPLE -n 40     stratified by spec, label rule and status
  lit judge serve SAMPLE                        a local judging page (prints its URL)
  lit judge agree SAMPLE [-o FILE]              rule labels vs the judges' majority, kappa
  lit judge labelstudio SAMPLE -o DIR           Label Studio tasks.json and config.xml

Answers go to SAMPLE's answers file (SAMPLE.answers.jsonl) as they are given; `agree` also
reads Label Studio's JSON export (--label-studio). docs/judging.md has the protocol.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="judge_action", metavar="ACTION", required=True,
                                help="what to do: sample, serve, agree or labelstudio")
    p = sub.add_parser("sample", help="a stratified, seeded sample of a `lit nli` or "
                       "`lit contrast` output")
    p.add_argument("contrast", type=Path, metavar="CONTRAST",
                   help="a `lit nli` or `lit contrast` output file (.jsonl or .jsonl.gz)")
    p.add_argument("--task", type=Path, metavar="FILE",
                   help="the task profile `lit contrast` ran with, for a task that is not "
                   "built in (default: the task the records name)")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="SAMPLE",
                   help="the sample file to write (JSONL)")
    p.add_argument("-n", type=int, default=100, metavar="N", help="items (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--status", default="ok", metavar="LIST",
                   help="transform statuses to sample, comma-separated, or 'all' (default ok: "
                   "the contrast pairs; e.g. ok,not_verified with --keep-unverified runs)")
    p.add_argument("--min-per-stratum", type=int, default=1, metavar="K",
                   help="items every (spec, label rule, status) stratum gets first, when N "
                   "allows (default 1)")

    p = sub.add_parser("serve", help="serve the judging page for a sample")
    p.add_argument("sample", type=Path, metavar="SAMPLE")
    p.add_argument("--answers", type=Path, metavar="FILE",
                   help="answers file (default SAMPLE.answers.jsonl beside SAMPLE)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    p.add_argument("--annotator", metavar="NAME",
                   help="put this annotator's name in the printed URL")
    p.add_argument("--token", metavar="TEXT",
                   help="the URL's token (default: a new random one); with --port, the URL "
                   "of an earlier serve stays valid")

    p = sub.add_parser("agree", help="agreement of the rule labels with the judges")
    p.add_argument("sample", type=Path, metavar="SAMPLE")
    p.add_argument("--answers", type=Path, action="append", default=[], metavar="FILE",
                   help="answers file(s) (default SAMPLE.answers.jsonl)")
    p.add_argument("--label-studio", type=Path, action="append", default=[], metavar="FILE",
                   help="a Label Studio JSON export of the sample's tasks (repeatable)")
    p.add_argument("--examples", type=int, default=3, metavar="N",
                   help="examples per overruled rule (default 3)")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="also write the figures as JSON (for `lit report --judgements`)")

    p = sub.add_parser("labelstudio", help="export a sample as Label Studio tasks and config")
    p.add_argument("sample", type=Path, metavar="SAMPLE")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="DIR",
                   help="folder for tasks.json and config.xml")


def _sample(args: argparse.Namespace) -> int:
    from lit.errors import InputError
    from lit.evaluate import read_contrast_file
    from lit.io.meta import now, write_meta
    from lit.io.output import refuse_input_as_output
    from lit.judge.sample import stratified_sample, write_sample
    from lit.provenance import build_meta
    from lit.tasks import load_task

    refuse_input_as_output(args.output, args.contrast)
    if args.min_per_stratum < 0:
        raise InputError("--min-per-stratum must be 0 or more")
    started = now()
    skipped: list[str] = []
    task = load_task(args.task) if args.task else None
    records = read_contrast_file(args.contrast, skipped, task)
    if skipped:
        print(f"lit judge sample: skipped {len(skipped)} bad record(s); first: {skipped[0]}",
              file=sys.stderr)
    statuses = None if args.status == "all" else {s.strip() for s in args.status.split(",")}
    items, counts = stratified_sample(records, args.n, args.seed, args.min_per_stratum,
                                      statuses, task)
    write_sample(args.output, items)
    write_meta(args.output, build_meta(
        "judge sample", started=started, inputs={"contrast": args.contrast}, seed=args.seed,
        options={"n": args.n, "min_per_stratum": args.min_per_stratum,
                 "status": args.status}, counts=counts))
    strata = counts["strata"]
    print(f"lit judge sample: {len(items)} items from {len(strata)} strata "
          f"(spec, label rule, status) written to {args.output}", file=sys.stderr)
    short = [s for s in strata if not s["sampled"]]
    if short:
        print(f"lit judge sample: {len(short)} strata got no item (raise -n to cover them): "
              + ", ".join(f"{s['spec']}/{s['label_rule']}/{s['status']}" for s in short[:5]),
              file=sys.stderr)
    return 0


def _serve(args: argparse.Namespace) -> int:
    import re

    from lit.errors import InputError
    from lit.judge.answers import answers_path, check_annotator
    from lit.judge.sample import read_sample
    from lit.judge.server import JudgeApp, make_server, page_url

    if args.annotator and (problem := check_annotator(args.annotator)):
        raise InputError(f"--annotator: {problem}")
    if args.token is not None and not re.fullmatch(r"[A-Za-z0-9_-]{16,}", args.token):
        raise InputError("--token: at least 16 letters, digits, _ or - (it guards the page)")
    items = read_sample(args.sample)
    app = JudgeApp(items, args.answers or answers_path(args.sample), token=args.token)
    try:
        server = make_server(app, args.host, args.port)
    except OSError as exc:
        app.close()
        raise InputError(f"cannot serve on {args.host}:{args.port}: {exc.strerror}") from None
    try:
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print(f"lit judge serve: warning: serving on {args.host}, reachable by other "
                  "machines; the URL's token is the only guard", file=sys.stderr)
        print(f"lit judge serve: {len(items)} items; answers go to {app.log.path} as they are "
              "given. Open this URL (Ctrl-C stops the server):", file=sys.stderr)
        print(page_url(server, app, args.annotator), flush=True)
        server.serve_forever()
    finally:
        server.server_close()
        app.close()
    return 0


def _agree(args: argparse.Namespace) -> int:
    import json

    from lit.errors import InputError
    from lit.io.output import write_text_atomic
    from lit.judge.agree import agreement, format_agreement
    from lit.judge.answers import answers_path, check_items, latest, read_answers
    from lit.judge.labelstudio import read_export
    from lit.judge.sample import read_sample

    items = read_sample(args.sample)
    files = args.answers or ([] if args.label_studio else [answers_path(args.sample)])
    answers: list[dict] = []
    for path in files:
        if not path.exists():
            raise InputError(f"{path}: no such answers file (judge with `lit judge serve "
                             f"{args.sample}` first, or name the file with --answers)")
        found = read_answers(path)
        check_items(latest(found), items, str(path))
        answers += found
    for path in args.label_studio:
        answers += read_export(path, items)
    result = agreement(items, latest(answers), examples=args.examples)
    result["sample"] = str(args.sample)
    print(format_agreement(result))
    if args.output:
        write_text_atomic(args.output, json.dumps(result, indent=1, ensure_ascii=False) + "\n")
        print(f"lit judge agree: figures written to {args.output}", file=sys.stderr)
    return 0


def _labelstudio(args: argparse.Namespace) -> int:
    from lit.judge.labelstudio import write_project
    from lit.judge.sample import read_sample

    task_file, config_file = write_project(read_sample(args.sample), args.output)
    print(f"lit judge labelstudio: wrote {task_file} (import as tasks) and {config_file} "
          "(the project's labelling config); export the annotations as JSON and pass them to "
          "`lit judge agree --label-studio`", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    actions = {"sample": _sample, "serve": _serve, "agree": _agree,
               "labelstudio": _labelstudio}
    return actions[args.judge_action](args)
