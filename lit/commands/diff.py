"""Name the edit from sentence A to sentence B in LIT's vocabulary, read off their MRSs.

Both sentences are parsed (up to -n readings each) and the readings that make the smallest
difference are compared: LIT's rule modules name the grammatical edits (tense, prog, perf,
modal, neg, aff, pass, act, cleft, ques, decl, swap, ...: a step of the module that makes A's
MRS into B's), then what is left is named by its shape (lexical substitution with its WordNet
relation, quantifier, modifier or argument added or dropped). What no rule names is printed
as its EP diff (the residue), never dropped. --json prints the SentenceDiff record
(lit.diff.model). Exit 0 when the pair got its answer (parsed or not: a failure says why), 2
on a configuration or input error.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from lit.commands.options import add_ace_arguments

    parser.add_argument("a", metavar="SENTENCE_A", help="the sentence before the edit")
    parser.add_argument("b", metavar="SENTENCE_B", help="the sentence after the edit")
    parser.add_argument("-n", "--readings", type=int, default=5, metavar="N",
                        help="readings of each sentence to choose from (default 5)")
    parser.add_argument("--json", action="store_true", help="print the diff as one JSON object")
    add_ace_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import json

    from lit.ace.options import service_from_args
    from lit.commands.transform import grammar_version
    from lit.diff import diff_sentences
    from lit.diff.render import render
    from lit.errors import InputError

    if args.readings < 1:
        raise InputError("-n must be at least 1")
    with service_from_args(args) as service:
        result = next(diff_sentences(service, [(args.a, args.b)], readings=args.readings,
                                     grammar_version=grammar_version(args)))
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(render(result), end="")
    return 0
