"""The rule engine: loads rule modules for one grammar version and applies specs to MRSs.

A step applies only if no ``not_applicable`` guard fires, some ``rule`` matches, and the result
differs from the input (lit.equivalence); otherwise it is ``not_applicable`` with a reason.
Steps compose left to right; the first step that does not apply stops the spec.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from threading import Lock

from delphin import predicate
from delphin.mrs import MRS

from lit.config import DEFAULT_GRAMMAR_VERSION, GRAMMAR_VERSIONS
from lit.equivalence import equivalent
from lit.errors import InputError
from lit.mrs import properties
from lit.rules.compiler import LIBRARY_SUFFIX, builtin_rules_dir, compile_file
from lit.rules.matcher import (
    MAX_ALTERNATIVES,
    Application,
    MatchBudgetExceeded,
    Matcher,
    NoTableValue,
    apply_all,
    targets,
)
from lit.rules.syntax import Block, Example, Guard, Module, Preference, Route, Rule
from lit.spec import Spec, Step, parse_spec
from lit.status import Status

IDENTITY = "o"
RULE_SUFFIX = ".lit"


@dataclass(frozen=True)
class StepOutcome:
    """``fired``: the guard that refused the step, or the rules applied (each once), so a
    rule author sees which blocks did it (``lit rules try``)."""

    step: Step
    status: Status
    reason: str | None
    fired: tuple[Block, ...] = ()


@dataclass(frozen=True)
class TransformOutcome:
    """``mrs`` is the first output; ``alternatives`` holds every output (a table lookup with
    several values gives several, e.g. one per hypernym), ``mrs`` first."""

    spec: Spec
    status: Status
    reason: str | None
    mrs: MRS | None
    steps: tuple[StepOutcome, ...]
    alternatives: tuple[MRS, ...] = ()


@dataclass(frozen=True)
class Routed:
    """How to realize a target MRS the grammar will not generate: the *twin* MRS to generate
    from and the routes that built it (applied in turn; docs/rules.md, "Realization routes").
    Realizations of the twin are candidates for the target only if every route admits them
    (and, in the pipeline, if they add no comma to the source: a twin's relative clauses come
    with commas its target never has), and only those that re-parse to the target verify."""

    twin: MRS
    routes: tuple[Route, ...]

    @property
    def name(self) -> str:
        """The routes as the record names them: ``module.route``, joined by ``+``."""
        return "+".join(r.name for r in self.routes)

    @property
    def candidates(self) -> int | None:
        """How many times the usual candidates the twin keeps: the most any of its routes
        asks for (None: no route says)."""
        return max((r.candidates for r in self.routes if r.candidates), default=None)

    def rewrite(self, realization: str) -> str:
        """*realization* with every route's rewrites applied, route by route."""
        for route in self.routes:
            realization = route.rewrite(realization)
        return realization

    def admits(self, realization: str) -> bool:
        return all(r.admits(realization) for r in self.routes)


@dataclass(frozen=True)
class ModuleInfo:
    """What ``lit rules`` lists about one module."""

    name: str
    codes: tuple[tuple[str, str | None], ...]
    description: str
    versions: tuple[str, ...]
    params: tuple[str, ...]
    default: str | None
    examples: tuple[Example, ...]
    paths: tuple[str, ...]

    @property
    def code(self) -> str | None:
        """The LIT paper's code for this module (its first, e.g. "p" for tense), if any."""
        return self.codes[0][0] if self.codes else None


def rule_files(paths) -> list[Path]:
    """Rule files under *paths* (files or directories), in a stable order."""
    found: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found += sorted(f for f in p.iterdir() if f.suffix == RULE_SUFFIX)
        elif p.is_file():
            found.append(p)
        else:
            raise InputError(f"rule path {p} does not exist")
    return found


def _merge(base: Module, extra: Module) -> Module:
    """A second file for the same module and version adds values, guards, rules and
    preferences; each block keeps its own file."""
    clash = set(base.params) & set(extra.params)
    if clash:
        raise InputError(
            f"{extra.path}: module {extra.name} value(s) {', '.join(sorted(clash))} "
            f"already defined in {', '.join(base.paths)}"
        )
    return Module(
        name=base.name,
        paths=base.paths + extra.paths,
        codes=base.codes + extra.codes,
        description=base.description or extra.description,
        versions=base.versions,
        values=base.values + extra.values,
        default=base.default or extra.default,
        examples=base.examples + extra.examples,
        otherwise=base.otherwise or extra.otherwise,
        blocks=base.blocks + extra.blocks,
        preferences=base.preferences + extra.preferences,
        tables={**base.tables, **extra.tables},
        routes=base.routes + extra.routes,
        inverses=base.inverses + extra.inverses,
    )


def _stamps(modules: dict[str, Module]) -> dict[str, int]:
    """Modification times of the modules' data tables (a changed table is reloaded)."""
    stamps = {}
    for module in modules.values():
        for table in module.tables.values():
            try:
                stamps[table.file] = os.stat(table.file).st_mtime_ns
            except OSError:
                stamps[table.file] = -1
    return stamps


_CACHE: dict[tuple, RuleEngine] = {}
_LOCK = Lock()


class RuleEngine:
    """The modules of one grammar version; ``apply`` never mutates its input MRS."""

    def __init__(self, modules: dict[str, Module], grammar_version: str) -> None:
        self._modules = modules
        self.grammar_version = grammar_version
        self._table_stamps = _stamps(modules)

    @classmethod
    def load(cls, grammar_version: str = DEFAULT_GRAMMAR_VERSION, paths=None) -> RuleEngine:
        """The built-in modules plus those under *paths*, compiled once per process (a changed
        file is recompiled)."""
        version = str(grammar_version)
        if version not in GRAMMAR_VERSIONS:
            raise InputError(
                f"unknown grammar version {version!r}; use one of {', '.join(GRAMMAR_VERSIONS)}"
            )
        files = rule_files([builtin_rules_dir(), *(paths or ())])
        libraries = sorted({lib for f in files for lib in f.parent.glob(f"*{LIBRARY_SUFFIX}")})
        key = (version, tuple((str(f), os.stat(f).st_mtime_ns) for f in files + libraries))
        with _LOCK:
            if key not in _CACHE or _CACHE[key]._tables_changed():
                modules: dict[str, Module] = {}
                for f in files:
                    module = compile_file(f)
                    if version not in module.versions:
                        continue
                    old = modules.get(module.name)
                    modules[module.name] = _merge(old, module) if old else module
                _CACHE[key] = cls(modules, version)
            return _CACHE[key]

    def with_module(self, module: Module) -> RuleEngine:
        """This engine with *module* in place of the module of the same name, if any (a rule
        author's edited copy of a built-in module replaces it rather than extending it)."""
        if self.grammar_version not in module.versions:
            raise InputError(f"{module.path}: module {module.name} is not for ERG "
                             f"{self.grammar_version} (versions {', '.join(module.versions)})")
        return RuleEngine({**self._modules, module.name: module}, self.grammar_version)

    def _tables_changed(self) -> bool:
        """Has a data table of a loaded module changed since it was read?"""
        return self._table_stamps != _stamps(self._modules)

    @property
    def modules(self) -> list[ModuleInfo]:
        return [
            ModuleInfo(m.name, m.codes, m.description, m.versions, m.params, m.default,
                       m.examples, m.paths)
            for m in sorted(self._modules.values(), key=lambda m: m.name)
        ]

    def module(self, name: str) -> Module:
        try:
            return self._modules[name]
        except KeyError:
            known = ", ".join(sorted(self._modules))
            raise InputError(
                f"unknown transformation {name!r} for ERG {self.grammar_version}; known: {known}"
            ) from None

    def preferences(self, spec: Spec | str) -> tuple[Preference, ...]:
        """The realization preferences of *spec*'s modules, in step order, each once."""
        found: dict[Preference, None] = {}
        for step in self.check(spec).steps:
            if step.name == IDENTITY and step.value is None:
                continue
            found.update(dict.fromkeys(self.module(step.name).preferences))
        return tuple(found)

    def route(self, mrs: MRS) -> Routed | None:
        """The twin to generate *mrs* from, if some module's ``route`` matches it (None: the
        grammar generates *mrs* itself). Routes are tried module by module (by name), each in
        file order; every route that matches applies, to the twin built so far."""
        twin, used = mrs, []
        for module in sorted(self._modules.values(), key=lambda m: m.name):
            for route in module.routes:
                params = {"value": "", "version": self.grammar_version}
                matcher = Matcher(twin, params, route.file, tables=module.tables)
                binding = matcher.match_block(route)
                if binding is None:
                    continue
                twin = apply_all(matcher, [(route, binding)], limit=1)[0]
                used.append(replace(route, name=f"{module.name}.{route.name}"))
        return Routed(twin, tuple(used)) if used else None

    def check(self, spec: Spec | str) -> Spec:
        """Parse *spec* and check every step names a module and a value it accepts."""
        spec = parse_spec(spec) if isinstance(spec, str) else spec
        for step in spec.steps:
            if step.name == IDENTITY and step.value is None:
                continue
            module = self.module(step.name)
            value = step.value if step.value is not None else module.default
            if module.params and value not in module.params:
                wanted = " | ".join(module.params)
                raise InputError(
                    f"{step}: {module.name} needs a value: {module.name}={wanted}"
                    if step.value is None
                    else f"{step}: unknown value {step.value!r} for {module.name} (use {wanted})"
                )
            if not module.params and step.value is not None:
                raise InputError(f"{step}: {module.name} takes no value")
        return spec

    def apply(self, mrs: MRS, spec: Spec | str) -> TransformOutcome:
        """Apply *spec*'s steps in order to *mrs*; stops at the first step that does not apply.
        A step with several outputs passes each on to the next step (at most MAX_ALTERNATIVES
        in all); the spec applies if some output survives every step."""
        spec = self.check(spec)
        current: list[MRS] = [mrs]
        outcomes: list[StepOutcome] = []
        for step in spec.steps:
            results: list[MRS] = []
            reason = None
            fired: list[Block] = []
            for m in current:
                try:
                    found, why, blocks = self.apply_step(m, step)
                except MatchBudgetExceeded as exc:  # a combinatorial rule: this item, not the run
                    reason = f"{step}: {exc}"
                    outcomes.append(StepOutcome(step, Status.TIMEOUT, reason))
                    return TransformOutcome(spec, Status.TIMEOUT, reason, None, tuple(outcomes))
                results += found
                reason = reason or why
                fired += blocks
            if not results:
                outcomes.append(StepOutcome(step, Status.NOT_APPLICABLE, reason, _distinct(fired)))
                return TransformOutcome(spec, Status.NOT_APPLICABLE, reason, None, tuple(outcomes))
            outcomes.append(StepOutcome(step, Status.OK, None, _distinct(fired)))
            current = results[:MAX_ALTERNATIVES]
        return TransformOutcome(spec, Status.OK, None, current[0], tuple(outcomes),
                                tuple(current))

    def apply_step(self, mrs: MRS, step: Step
                   ) -> tuple[list[MRS], str | None, tuple[Block, ...]]:
        """(new MRSs, None, rules applied) if *step* applies, else ([], reason, the guard that
        refused it or no block). Blocks are tried in order: a
        guard that holds stops the step; a plain rule that matches is applied (with the
        matches of the ``every`` rules before it); an ``every`` rule adds each of its matches
        that changes nothing another already changes, and the search goes on."""
        if step.name == IDENTITY and step.value is None:
            return [mrs], None, ()
        module = self.module(step.name)
        value = step.value if step.value is not None else module.default
        params = {**module.bindings(value), "version": self.grammar_version}
        label = str(step)
        matcher = Matcher(mrs, params, module.path, tables=module.tables)
        applications: list[Application] = []
        claimed: set[tuple[str, object]] = set()
        for block in module.blocks:
            if isinstance(block, Guard):
                if matcher.match_block(block) is not None:
                    return [], _fill(block.reason, params, label), (block,)
                continue
            every = isinstance(block, Rule) and block.every
            for binding in matcher.bindings(block):
                changes = targets(matcher, block, binding)
                if changes & claimed:
                    continue
                claimed |= changes
                applications.append((block, binding))
                if not every:
                    break
            if applications and applications[-1][0] is block and not every:
                break
        if not applications:
            reason = module.otherwise or "{step}: no rule of this module matches"
            return [], _fill(reason, params, label), ()
        blocks = _distinct(block for block, _ in applications)
        try:
            results = apply_all(matcher, applications)
        except NoTableValue as exc:
            return [], f"{label}: {exc}", blocks
        results = [r for r in results if not same_meaning(r, mrs)]
        if not results:
            return [], f"{label}: changes nothing", blocks
        return results, None, blocks


def _distinct(blocks) -> tuple[Block, ...]:
    """*blocks* each once, in order (by identity: hashing a block walks its whole tree)."""
    seen: dict[int, Block] = {}
    for block in blocks:
        seen.setdefault(id(block), block)
    return tuple(seen.values())


#: Properties of individuals that lit.equivalence ignores (re-parses differ in them), but
#: that a rule may change on purpose: "I saw her." -> "I saw him." is GEND alone.
AGREEMENT = ("PERS", "NUM", "GEND")


def same_meaning(result: MRS, source: MRS) -> bool:
    """Does *result* (e.g. built from *source*) change nothing? lit.equivalence plus the
    agreement it ignores; the cheap differences are looked at before the graph isomorphism."""

    def agreement(m: MRS) -> dict[str, dict[str, str]]:
        return {v: properties(m, v, AGREEMENT) for v in m.variables}

    def words(m: MRS) -> list[tuple[str, str | None]]:
        return sorted((predicate.normalize(ep.predicate), ep.args.get("CARG")) for ep in m.rels)

    if agreement(result) != agreement(source) or words(result) != words(source):
        return False
    return equivalent(result, source)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _fill(text: str, params: dict[str, str], step: str, depth: int = 0) -> str:
    """Fill ``{param}`` and ``{step}`` placeholders of a reason, including placeholders
    inside a binding's own value (``why="{step}: ..."``); unknown names stay as written."""
    values = {**params, "step": step}

    def one(m: re.Match[str]) -> str:
        value = values.get(m[1])
        if value is None:
            return m[0]
        return _fill(value, params, step, depth + 1) if depth < 3 else value

    return _PLACEHOLDER.sub(one, text)
