"""Command-line glue for the pipeline: shared options, `lit transform` sentence mode.

`lit nli` (lit.pipeline.run) and `lit transform` (lit/commands/transform.py, which calls
`transform_sentences` when --mrs is absent) both build their Engine with `engine_from_args`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from lit.backend import add_backend_arguments
from lit.config import DEFAULTS, RunConfig
from lit.rank import SCORERS

if TYPE_CHECKING:
    from lit.pipeline.engine import Engine


def add_input_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                        format_flag: str = "--format") -> None:
    """The input-format option (*format_flag*: `lit augment`'s own --format is its output's)
    and the field options of a command that reads an NLI dataset (lit.io.readers): unnamed
    fields are found by name, SNLI's first, then Hugging Face's."""
    from lit.io.readers import FORMATS

    parser.add_argument(format_flag, choices=FORMATS, metavar="FORMAT",
                        help=f"input format: {', '.join(FORMATS)} (default: from the name)")
    parser.add_argument("--premise-column", metavar="NAME",
                        help="premise field (default: sentence1, else premise)")
    parser.add_argument("--hypothesis-column", metavar="NAME",
                        help="hypothesis field (default: sentence2, else hypothesis)")
    parser.add_argument("--label-column", metavar="NAME",
                        help="gold label field (default: gold_label, else label); words or "
                        "Hugging Face integers 0/1/2 (-1 = no label)")


def add_pipeline_arguments(parser: argparse.ArgumentParser, rules: bool = True) -> None:
    """--scorer, --model, --device, --score-batch-size, --max-candidates, --max-alternatives,
    --verify-readings,
    --keep-unverified, --batch-size and (unless *rules* is false, for a command that declares
    its own) --rules. ACE options come from lit.ace.options."""
    g = parser.add_argument_group("ranking and verification")
    _add_ranking(g)
    _add_reading_and_verification(g)
    g.add_argument("--batch-size", type=int, default=DEFAULTS.batch_size, metavar="N",
                   help=f"inputs per pipeline batch (default {DEFAULTS.batch_size})")
    g.add_argument("--batches-in-flight", type=int, default=DEFAULTS.batches_in_flight,
                   metavar="N", help="batches processed at once, so the ACE pool never waits "
                   f"for a stage boundary (default {DEFAULTS.batches_in_flight})")
    if rules:
        g.add_argument("--rules", action="append", metavar="PATH",
                       help="extra rule module files or directories (repeatable)")
    add_backend_arguments(parser)


def _add_ranking(g: argparse._ArgumentGroup) -> None:
    """How realizations are ranked: the scorer, its model, and the candidates it ranks."""
    g.add_argument("--scorer", choices=SCORERS, default=DEFAULTS.scorer,
                   help="rank realizations by GPT-2 perplexity (gpt2, default; needs the `rank` "
                        "extra; freq stands in when it cannot be loaded), by word frequency "
                        "(freq, no model) or by ACE's own order (ace, no model); "
                        "see docs/pipeline.md, Ranking")
    g.add_argument("--model", metavar="NAME|PATH",
                   help="Hugging Face model name or local directory for --scorer gpt2 "
                        "(default gpt2)")
    g.add_argument("--device", metavar="DEV", help="torch device (default: cuda if available)")
    g.add_argument("--score-batch-size", type=int, default=DEFAULTS.score_batch_size,
                   metavar="N", help="sentences per scorer forward pass "
                   f"(default {DEFAULTS.score_batch_size})")
    g.add_argument("--max-candidates", type=int, default=DEFAULTS.max_candidates, metavar="N",
                   help=f"distinct realizations kept per MRS (default {DEFAULTS.max_candidates})")
    g.add_argument("--realizations-per-candidate", type=float,
                   default=DEFAULTS.realizations_per_candidate, metavar="X",
                   help="realizations ACE is asked for per candidate kept (its -n is X times "
                   f"--max-candidates; default {DEFAULTS.realizations_per_candidate:g})")
    g.add_argument("--max-alternatives", type=int, default=DEFAULTS.max_alternatives,
                   metavar="N", help="when a transformation gives several outputs (a table "
                   "lookup: one per hypernym, antonym, ...), realize up to N in table order "
                   "until one verifies (default "
                   f"{DEFAULTS.max_alternatives}; 1 = the first only)")
    g.add_argument("--closeness-weight", type=float, default=DEFAULTS.closeness_weight,
                   metavar="W", help="weight 0..1 of closeness to the source sentence against "
                   f"the scorer's order (default {DEFAULTS.closeness_weight})")


def _add_reading_and_verification(g: argparse._ArgumentGroup) -> None:
    """Which parse readings are transformed, and how a candidate is verified."""
    g.add_argument("--readings", type=int, default=DEFAULTS.readings, metavar="N",
                   help="parse readings per input sentence to weigh: the first that no check "
                   "speaks against (a lower-case word read as a name, a fragment read as a "
                   "clause, the copula over a progressive) is transformed; up to two later "
                   "trusted ones with the same label phenomena are tried when it does not "
                   "transform, read like the source or round-trip "
                   f"(default {DEFAULTS.readings}; docs/pipeline.md)")
    g.add_argument("--round-trip", action="store_true", default=None,
                   help="also check that a transformed reading's own MRS gives the source "
                   "sentence back, else try the next reading (one generation per sentence "
                   "with an output, kept in the parse cache; docs/pipeline.md)")
    g.add_argument("--verify-readings", type=int, default=DEFAULTS.verify_readings, metavar="N",
                   help="readings per candidate re-parse when verifying (default "
                        f"{DEFAULTS.verify_readings})")
    g.add_argument("--keep-unverified", action="store_true",
                   help="when no candidate verifies, keep the best-ranked one (status stays "
                        "not_verified)")
    g.add_argument("--allow-defects", action="store_true",
                   help="output the best verified candidate even when every verified one has "
                        "a defect (an unexplained word, a non-word, an added comma, no "
                        "inversion); else the side is not_fluent")


_ENDS_IN_VALUE = re.compile(r"=[A-Za-z0-9_,]*$")


def split_specs(text: str) -> list[str]:
    """The pair specs of one comma-separated --specs value: "f;p,p;f +i,m;o".

    A value may itself hold commas (``swap=ARG1,ARG3``), so a comma continues the spec before
    it while that spec has no ';' yet, or when the spec ends in a value and the text after the
    comma has no ';' (every pair spec has exactly one ';'): "f;p,swap=ARG1,ARG3;o" is "f;p"
    and "swap=ARG1,ARG3;o"."""
    specs: list[str] = []
    for piece in text.split(","):
        if specs and (";" not in specs[-1]
                      or (";" not in piece and _ENDS_IN_VALUE.search(specs[-1]))):
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return [s.strip() for s in specs if s.strip()]


def pair_specs_from_args(args: argparse.Namespace, default: Sequence[str]) -> list[str]:
    """The pair specs of --specs LIST (comma-separated, repeatable) then --spec SPEC
    (repeatable), in the order given; *default* when neither is given."""
    given = [s for text in getattr(args, "specs", None) or [] for s in split_specs(text)]
    given += [s.strip() for s in getattr(args, "spec", None) or []]
    return given or list(default)


def spec_warnings(specs: Sequence[str], command: str = "lit nli") -> list[str]:
    """Warnings for stderr before a run, one per spec whose glued '+' ("p;f+i") reads
    differently from the spaced form ("p;f +i"), naming both readings. (Each spec's
    expansion is in the closing summary, lit.pipeline.summary.)"""
    from lit.pipeline.summary import glued_warning

    return [f"{command}: warning: {w}" for w in map(glued_warning, specs) if w]


def command_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options a command ran with, JSON-able, for its run metadata (lit.io.meta)."""
    return {k: v if isinstance(v, (str, int, float, bool, type(None), list)) else str(v)
            for k, v in sorted(vars(args).items()) if not k.startswith("_")}


def write_run_meta(command: str, output: str, started: str, engine: Engine | None,
                   specs: Sequence[str], args: argparse.Namespace,
                   settings: dict[str, Any] | None = None, **inputs: Any) -> None:
    """Write ``OUTPUT.meta.json`` (lit.io.meta) for a command run that wrote *output*:
    versions and hashes of LIT, ACE, the grammar and the label rules, scorer, specs, options,
    start and end time; *settings* are `build_meta` keywords (ace, grammar, ...) for a run
    with no Engine; *inputs* are files to hash (name=path)."""
    from lit.io.meta import build_meta, write_meta

    write_meta(output, build_meta(command, started=started, engine=engine, specs=list(specs),
                                  inputs=inputs, options=command_options(args),
                                  **(settings or {})))


def finish_run(command: str, args: argparse.Namespace, result: Any, engine: Engine | None,
               specs: Sequence[str], started: str, fields: str) -> int:
    """What `lit nli` and `lit contrast` do once their run (a lit.RunResult) is over: print
    it, write ``OUTPUT.meta.json`` and ``OUTPUT.summary.json``; exit status 1, saying why,
    when no input record could be used (*fields*: the options that name the input's fields),
    else 0."""
    from lit.io.output import write_text_atomic
    from lit.pipeline.summary import summary_path

    print(result.format(), file=sys.stderr)
    write_run_meta(command, args.output, started, engine, specs, args,
                   input=None if args.input == "-" else args.input)
    saved = summary_path(args.output)
    write_text_atomic(saved, json.dumps(result.summary.to_json(), indent=1) + "\n")
    print(f"lit {command}: summary saved to {saved}", file=sys.stderr)
    cache = engine.service.parse_cache if engine is not None else None
    if cache is not None and sum(cache.served("parses")):  # (a Ray run's actors keep their own)
        (hits, misses), (made, new) = cache.served("parses"), cache.served("generations")
        print(f"lit {command}: ACE cache {cache.path}: {hits} of {hits + misses} parses and "
              f"{made} of {made + new} generations read from it (`lit cache`)", file=sys.stderr)
    if not result.summary.nothing_usable:
        return 0
    why = ("every one is invalid_input; the reasons are in the summary above"
           if result.summary.records else "it holds no records")
    print(f"lit {command}: error: no record of {args.input} could be used ({why}); check the "
          f"field names ({fields}) and --format", file=sys.stderr)
    return 1


def engine_from_args(args: argparse.Namespace, **overrides: Any) -> Engine:
    """A lit.Engine configured from `add_ace_arguments` + `add_pipeline_arguments` options
    (RunConfig.from_args: options a command did not declare keep their defaults); *overrides*
    are RunConfig fields. With the Ray backend each actor starts its own ACE pool from the
    same options."""
    from lit.pipeline.engine import Engine

    config = RunConfig.from_args(args).replace(**overrides)
    return Engine(config=config, rules=getattr(args, "rules", None),
                  label_rules=getattr(args, "label_rules", None),
                  task=getattr(args, "task", None))


def _sentences(args: argparse.Namespace) -> Iterator[str]:
    from lit.io.readers import read_sentences

    given = list(getattr(args, "sentences", None) or [])
    if not given or given == ["-"]:
        yield from read_sentences("-")
        return
    for s in given:
        if s == "-":
            yield from read_sentences("-")
        else:
            yield s


def transform_sentences(args: argparse.Namespace) -> int:
    """`lit transform --spec SPEC [--spec SPEC ...] [SENTENCE ... | -]`: one `lit transform`
    record (docs/design.md §5) per sentence and spec, in input order, on stdout (or -o FILE).
    Exit 0 when every sentence got its records, whatever their status (each says why)."""
    from lit.errors import InputError

    specs = getattr(args, "spec", None)
    if isinstance(specs, str):
        specs = [specs]
    if not specs:
        raise InputError("--spec is required, e.g. --spec 'tense=fut+pass'")
    from lit.io.output import atomic_text, refuse_input_as_output
    from lit.io.readers import printable

    output = getattr(args, "output", None)
    if output and (not args.sentences or "-" in args.sentences):
        refuse_input_as_output(output, "-")
    given: deque[str] = deque()  # sentences sent, so each record can carry its input

    def sentences() -> Iterator[str]:
        for sentence in _sentences(args):
            given.append(sentence)
            yield sentence

    from lit.io.meta import now

    started = now()
    with engine_from_args(args) as engine, (
        atomic_text(output) if output else nullcontext(sys.stdout)
    ) as out:
        checked = [engine.check_spec(s) for s in specs]
        for k, record in enumerate(engine.transform_all(sentences(), checked)):
            text = given[0] if k % len(checked) < len(checked) - 1 else given.popleft()
            record = {"input": printable(text), **record}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
    if output:
        write_run_meta("transform", output, started, engine, specs, args)
    return 0
