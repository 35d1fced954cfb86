"""`lit rules try FILE [SPEC]`: compile the module once, read the inputs once, apply each spec
to every input, and print (or write) what happened; with --watch, again on every save."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from lit.config import RunConfig
from lit.errors import InputError, LitError
from lit.rules.compiler import compile_file
from lit.rules.engine import RuleEngine
from lit.rules.syntax import Module
from lit.spec import Spec, Step
from lit.workbench import page, sources, trial
from lit.workbench.render import (
    SpecRun,
    as_json,
    example_lines,
    examples_json,
    header,
    text,
)
from lit.workbench.watch import watch


def module_specs(module: Module, text: str | None, engine: RuleEngine) -> list[Spec]:
    """*text* checked to use *module*, or, without it, one spec per value of the module (the
    bare module if it takes none)."""
    if text is None:
        return [Spec((Step(module.name, v),)) for v in module.params] or [
            Spec((Step(module.name),))]
    spec = engine.check(text)
    if not any(step.name == module.name for step in spec.steps):
        raise InputError(f"spec {text!r} does not use module {module.name} ({module.path})")
    return [spec]


def _watched(module: Module) -> set[Path]:
    """The files a compiled module came from: its own, its libraries', its tables'."""
    files = {Path(p) for p in module.paths} | {Path(b.file) for b in module.blocks}
    return files | {Path(t.file) for t in module.tables.values()}


class Session:
    """One `try` invocation: the inputs are read once; each run compiles the module file
    afresh (and RuleEngine.load the rule files again if any changed)."""

    def __init__(self, args: argparse.Namespace, stack: ExitStack) -> None:
        self.args = args
        self.stack = stack
        self._service = None
        self.errors = 0  # inputs a rule raised on, in the last run
        self.version = str(args.grammar_version)
        if args.on == sources.GOLD and self.version != "2025":
            raise InputError(f"the gold MRSs are ERG 2025 analyses; for ERG {self.version} "
                             "give --on a file of its MRSs")
        started = time.perf_counter()
        self.source, self.items = sources.load(args.on, args.limit, self._parse)
        self.read_seconds = time.perf_counter() - started

    def service(self):
        """The ACE service, started the first time it is needed."""
        if self._service is None:
            from lit.ace.options import service_from_args

            self._service = self.stack.enter_context(service_from_args(self.args))
        return self._service

    def _parse(self, sentences, n):
        return self.service().parse(sentences, n=n)

    def engine_for(self, path: str) -> tuple[RuleEngine, Module]:
        """The engine with the module file *path* in it, and the file's module: a file LIT
        already loads (built in, or under --rules) as it is now; a copy of a loaded module
        (it declares some of the same values) in its place; a new module, or a file that
        adds values to one, added as `--rules` would add it."""
        module = compile_file(path)
        loaded = RuleEngine.load(self.version, self.args.rules)
        known = {info.name: info for info in loaded.modules}
        info = known.get(module.name)
        if info is not None and Path(path).resolve() in {Path(p).resolve() for p in info.paths}:
            return loaded, module
        if info is not None and set(info.params) & set(module.params):
            return loaded.with_module(module), module
        return RuleEngine.load(self.version, [*self.args.rules, path]), module

    def once(self) -> set[Path]:
        """One run; returns the files to watch. With --watch an error in a rule file is
        printed and the session waits for the next save."""
        args = self.args
        watched = {Path(args.files[0])} | ({Path(args.against)} if args.against else set())
        try:
            watched |= self._run()
        except LitError as exc:
            if not args.watch:
                raise
            print(f"lit rules try: error: {exc}", file=sys.stderr)
        return watched

    def _run(self) -> set[Path]:
        args = self.args
        started = time.perf_counter()
        engine, module = self.engine_for(args.files[0])
        old, watched = None, _watched(module)
        if args.against:
            old, previous = self.engine_for(args.against)
            if previous.name != module.name:
                raise InputError(f"--against {args.against} is module {previous.name}, "
                                 f"not {module.name}")
            watched |= _watched(previous)
        specs = module_specs(module, args.files[1] if len(args.files) > 1 else None, engine)
        runs = []
        for spec in specs:
            outcomes = trial.run(engine, spec, self.items)
            run = SpecRun(trial.summarize(spec, outcomes), outcomes)
            if old is not None:
                old.check(spec)  # a value the old version lacks: say so, once
                run.changes = trial.compare(trial.run(old, spec, self.items), outcomes)
            if args.realize:
                run.realized = self._realize(engine, spec, outcomes)
            runs.append(run)
        checked = trial.check_examples(engine, module)
        seconds = time.perf_counter() - started
        self._show(module, runs, checked)
        print(f"lit rules try: {len(self.items):,} input(s) x {len(specs)} spec(s) in "
              f"{seconds:.1f} s (inputs read in {self.read_seconds:.1f} s)", file=sys.stderr)
        self.errors = sum(r.summary.count(trial.ERROR) for r in runs) + sum(
            why is not None for _, why in checked)
        return watched

    def _realize(self, engine: RuleEngine, spec: Spec, outcomes) -> dict:
        from lit.pipeline.core import Pipeline
        from lit.rank import get_scorer
        from lit.workbench.realize import realize

        pipeline = Pipeline(
            self.service(),
            engine,
            get_scorer(self.args.scorer),
            options=RunConfig(grammar_version=engine.grammar_version),
        )
        return realize(pipeline, spec, outcomes, self.args.realize)

    def _show(self, module: Module, runs: list[SpecRun], checked) -> None:
        args = self.args
        title = header(module.name, args.files[0], self.source, len(self.items))
        if args.json:
            print(json.dumps({"module": module.name, "file": args.files[0],
                              "source": self.source, "inputs": len(self.items),
                              "examples": examples_json(checked),
                              "specs": [as_json(r, args.examples) for r in runs]},
                             ensure_ascii=False, indent=1))
        else:
            print(title)
            print("\n".join(example_lines(checked)))
            for r in runs:
                print()
                print("\n".join(text(r, args.examples, args.diff)))
        if args.html:
            page.write(args.html, f"lit rules try: module {module.name}", title, runs,
                       args.examples)
            print(f"lit rules try: wrote {args.html}", file=sys.stderr)
        sys.stdout.flush()


def run(args: argparse.Namespace, runs: int | None = None,
        sleep: Callable[[float], None] = time.sleep) -> int:
    """`lit rules try`; exit 1 if a rule raised on some input (each such input is counted
    under ``error`` with the exception) or an example of the module does not hold, else 0.
    *runs* and *sleep* are for tests of --watch."""
    if not 1 <= len(args.files) <= 2:
        raise InputError("lit rules try needs a rule FILE and at most one SPEC")
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be at least 1")
    with ExitStack() as stack:
        session = Session(args, stack)
        if args.watch:
            print(f"lit rules try: watching {args.files[0]} (Ctrl-C stops)", file=sys.stderr)
            try:
                watch(session.once, runs=runs, sleep=sleep)
            except KeyboardInterrupt:  # how a watch ends
                print("lit rules try: stopped watching", file=sys.stderr)
            return 0
        session.once()
        return 1 if session.errors else 0

