"""Try LIT with no grammar installed: `lit nli` on 10 bundled NLI pairs, with ACE REPLAYED.

Every parse and generation comes from a recording of a real ACE 0.9.30 with ERG 2018 (shipped
in lit/demo/), served through the same protocol a live ACE speaks, so the whole pipeline runs:
parse, transform by rule, generate, rank, verify by re-parsing, label. Nothing is downloaded
and nothing new is parsed: only sentences that were recorded work. For real data, install ACE
and the ERG with `lit setup` (or point LIT at them with LIT_ACE/LIT_GRAMMAR). The output, its
summary and metadata (marked "replayed") are written to OUTPUT (default: a new temporary
folder); open it with `lit report OUTPUT`.
"""

from __future__ import annotations

import argparse

#: How many example pairs the demo prints after its summary.
SHOWN = 6


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="OUTPUT",
                        help="JSONL file to write (default: contrast.jsonl in a new temporary "
                        "folder); replaced if it exists")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _ace_wrapper(folder) -> tuple:
    """An ``ace`` executable that runs the replaying ACE with this interpreter, and the
    placeholder grammar image it is given (the replay needs a file, never reads it)."""
    import shlex
    import sys

    ace = folder / "ace"
    ace.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m lit.demo.replay \"$@\"\n")
    ace.chmod(0o755)
    grammar = folder / "erg-2018-replayed.dat"
    grammar.write_text("not a grammar: `lit demo` replays recorded ACE answers\n")
    return ace, grammar


def _examples(output, limit: int) -> list[str]:
    """Lines showing up to *limit* contrast pairs of *output*, one spec after another:
    original pair, new pair, label and the label rule that gave it."""
    from lit.records import read_records

    by_spec: dict[str, list[list[str]]] = {}
    for record in read_records(output):
        src = record.input
        for t in record.transforms:
            if not t.ok:
                continue
            premise = t.output("premise") or src["sentence1"]
            hypothesis = t.output("hypothesis") or src["sentence2"]
            by_spec.setdefault(str(t.spec), []).append([
                f"  [{t.spec}] {src['sentence1']} / {src['sentence2']} ({src['gold_label']})",
                f"      -> {premise} / {hypothesis}",
                f"      label {t.label} by rule {t.label_rule}"])
    from itertools import zip_longest

    rounds = zip_longest(*by_spec.values())  # one pair of each spec per round
    shown = [pair for one_round in rounds for pair in one_round if pair][:limit]
    return [line for pair in shown for line in pair]


def run(args: argparse.Namespace) -> int:
    import tempfile
    from pathlib import Path

    # the replaying ACE lives in a folder removed at the end; only the output is kept (in a
    # new temporary folder if no OUTPUT is given: the run's result, printed below)
    with tempfile.TemporaryDirectory(prefix="lit-demo-ace-") as ace_folder:
        output = Path(args.output) if args.output else (
            Path(tempfile.mkdtemp(prefix="lit-demo-")) / "contrast.jsonl")
        return _run(args, output, *_ace_wrapper(Path(ace_folder)))


def _run(args: argparse.Namespace, output, ace, grammar) -> int:
    import json
    from importlib import resources
    from pathlib import Path

    from lit.config import PAPER_SPECS, RunConfig
    from lit.io.meta import now, write_meta
    from lit.io.output import write_text_atomic
    from lit.pipeline.engine import Engine
    from lit.pipeline.run import run_nli
    from lit.pipeline.summary import summary_path
    from lit.provenance import Toolchain, build_meta

    pairs = Path(str(resources.files("lit.demo").joinpath("pairs.jsonl")))
    print("lit demo: REPLAYED ACE — answers recorded from ACE 0.9.30 with ERG 2018 "
          "(lit/demo/transcripts.jsonl.gz); no grammar is installed or running.\n"
          f"lit demo: running `lit nli` on the {sum(1 for _ in open(pairs))} bundled pairs "
          f"of {pairs} with the paper's specs", flush=True)
    config = RunConfig(ace=str(ace), grammar=str(grammar), grammar_version="2018",
                       scorer="ace", workers=1)
    started = now()
    with Engine.from_config(config) as engine:
        result = run_nli(pairs, output, PAPER_SPECS, overwrite=True, engine=engine,
                         progress=not args.no_progress)
        write_meta(output, build_meta(
            "demo", started=started, tools=Toolchain.of(engine), specs=list(PAPER_SPECS),
            inputs={"input": pairs},
            options={"replayed": True, "transcripts": "lit/demo/transcripts.jsonl.gz"},
            counts={"records": result.summary.records},
        ))
    write_text_atomic(summary_path(output),
                      json.dumps(result.summary.to_json(), indent=1) + "\n")
    print(result.format())
    print("\nSome contrast pairs (REPLAYED):", *_examples(output, SHOWN), sep="\n")
    print(f"Written: {output} (one record per pair), {summary_path(output).name} and "
          f"{output.name}.meta.json beside it.\n"
          f"Next: `lit report {output} -o demo-report.html` to browse it; `lit setup` then "
          "the README's `lit nli` command for real data (`lit doctor` says what is missing).")
    return 0
