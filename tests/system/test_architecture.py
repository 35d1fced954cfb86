"""Package structure: no import cycle between LIT's packages, a typed rule syntax tree, the
public API `import lit` promises (docs/api.md), and one MRS alignment and one set of MRS helpers
(lit/mrs)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import lit
from tools.layout import PACKAGE, depth, part_imports


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state and (found := visit(dep)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_cycle_among_packages():
    graph = part_imports()
    assert {"lit.rules", "lit.labels", "lit.config"} <= graph["lit.pipeline"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_rule_syntax_tree_is_typed():
    """Rules are dataclasses dispatched by type, not (kind, args) tuples."""
    for path in (PACKAGE / "rules").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\.args\[", text), path.name
        assert not re.search(r"\bkind ==", text), path.name


def test_the_public_api():
    for name in ("Engine", "RuleEngine", "Status", "RunConfig", "run_nli", "LitError",
                 "InputError", "ConfigurationError", "RuleError", "NliRecord",
                 "TransformRecord", "PairTransform", "SideRecord", "to_json"):
        assert name in lit.__all__ and getattr(lit, name) is not None, name
    assert (PACKAGE / "py.typed").exists()
    err = lit.RuleError("x.lit", 3, 9, "a variable like ?x")
    assert (err.file, err.line, err.column) == ("x.lit", 3, 9)
    assert str(err) == "x.lit:3:9: a variable like ?x" and isinstance(err, lit.InputError)
    assert lit.DEFAULTS.score_batch_size == 32 and lit.DEFAULTS.timeout == 60
    assert lit.to_json({"id": "é"}) == '{"id": "é"}'


def _sources() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py")}


#: The most parameters a function takes (self and cls do not count; *args and **kwargs one
#: each) and the most lines it spans (its def to its last line, decorators aside).
MAX_PARAMETERS = 8
MAX_LINES = 60
#: Functions allowed past those limits ("file:Class.function" -> why). Keep it near empty: a
#: long argparse table or keyword list is not a reason, it is split or becomes an options object.
ALLOWED: dict[str, str] = {}


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> int:
    """Parameters a caller can pass: a method's self or cls is not one."""
    a = node.args
    named = [*a.posonlyargs, *a.args]
    skip = 1 if method and named and named[0].arg in ("self", "cls") else 0
    return (len(named) - skip + len(a.kwonlyargs) + (a.vararg is not None)
            + (a.kwarg is not None))


def _functions(tree: ast.AST, prefix: str = "", method: bool = False):
    """(qualified name, node, is a method) of every function in *tree*, nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node, method
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.", method=True)
        else:
            yield from _functions(node, prefix, method)


def test_no_function_takes_more_than_eight_parameters_or_spans_more_than_sixty_lines():
    """Run functions take (input, output, options object), not long keyword lists passed on
    by hand; a long function is split into small ones that say why. Every function and method
    of lit/ is checked, constructors included."""
    over = []
    for path, tree in _sources().items():
        for name, node, method in _functions(tree):
            where = f"{path.relative_to(PACKAGE).as_posix()}:{name}"
            count = _parameters(node, method)
            lines = node.end_lineno - node.lineno + 1
            if (count > MAX_PARAMETERS or lines > MAX_LINES) and where not in ALLOWED:
                over.append(f"{where} ({count} parameters, {lines} lines)")
    assert not over, f"functions over {MAX_PARAMETERS} parameters or {MAX_LINES} lines: {over}"


def test_the_function_limits_can_fail():
    """The walk sees methods, nested functions and every kind of parameter."""
    tree = ast.parse("class A:\n    def f(self, a, /, b, *c, d, **e):\n        def g(x): pass\n")
    found = {name: _parameters(node, method) for name, node, method in _functions(tree)}
    assert found == {"A.f": 5, "A.f.g": 1}


def test_no_probing_of_lits_own_service_or_scorer():
    """The ACE service and the scorer have Protocols (lit.ace.protocol.Ace, lit.rank.Scorer):
    LIT's objects use what they declare instead of getattr(self.service, ..., default). (A
    user's scorer is adapted once, in lit.rank.scorer.GivenScorer.)"""
    probes = [f"{path.relative_to(PACKAGE)}:{node.lineno}"
              for path, tree in _sources().items() for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr") and node.args
              and re.fullmatch(r"self\.(service|scorer)", ast.unparse(node.args[0]))]
    assert not probes, f"getattr/hasattr on a service or scorer: {probes}"


def test_package_inits_only_re_export():
    """A package's __init__.py names its parts; the code lives in modules with one job each."""
    long = [f"{path.relative_to(PACKAGE)} ({len(path.read_text().splitlines())} lines)"
            for path in PACKAGE.rglob("__init__.py")
            if len(path.read_text(encoding="utf-8").splitlines()) > 60]
    assert not long, f"__init__.py files over 60 lines: {long}"


#: The MRS helpers lit.mrs defines once (issue 54: three alignments, three index EPs, four
#: property readers): a function of one of these names elsewhere in lit/ is a second copy.
MRS_HELPERS = frozenset({"align", "Alignment", "properties", "props", "_props", "_properties",
                         "index_ep", "_index_ep", "main_ep"})


def _reads_properties(node: ast.AST) -> bool:
    """What lit.mrs.properties does once: ``m.variables.get(var, ...).get(...)`` or
    ``.items()`` (a variable's properties read straight off the MRS), or a dict comprehension
    ``{k.upper(): str(v).lower() ...}`` (properties normalized by hand)."""
    if isinstance(node, ast.DictComp):
        return (isinstance(node.key, ast.Call) and isinstance(node.key.func, ast.Attribute)
                and node.key.func.attr == "upper" and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "lower")
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "items") and isinstance(node.func.value, ast.Call)
            and isinstance(inner := node.func.value.func, ast.Attribute) and inner.attr == "get"
            and isinstance(inner.value, ast.Attribute) and inner.value.attr == "variables")


def test_one_mrs_alignment_and_one_set_of_mrs_helpers():
    """One `align` and one `Alignment` in lit/ (lit.mrs.align: one function, its Method an
    option), and the MRS helpers (properties, the index EP) defined only in lit/mrs; nothing
    else reads a variable's properties straight off the MRS."""
    defined: dict[str, list[str]] = {}
    reads = []
    for path, tree in _sources().items():
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(tree):
            if (isinstance(node, (ast.FunctionDef, ast.ClassDef))
                    and node.name in MRS_HELPERS):
                defined.setdefault(node.name, []).append(f"{where}:{node.lineno}")
            if _reads_properties(node) and path.parent.name != "mrs":
                reads.append(f"{where}:{node.lineno}")
    assert [p.split(":")[0] for p in defined.get("align", [])] == ["mrs/align.py"], defined
    assert [p.split(":")[0] for p in defined.get("Alignment", [])] == ["mrs/align.py"], defined
    elsewhere = {name: [p for p in places if not p.startswith("mrs/")]
                 for name, places in defined.items()}
    assert not any(elsewhere.values()), f"MRS helpers outside lit/mrs: {elsewhere}"
    assert not reads, f"properties read off .variables outside lit/mrs: {reads}"


def _road(graph: dict[str, set[str]], floors: dict[str, int], part: str) -> list[str]:
    """The chain of imports that sets *part*'s floor, top first."""
    road = [part]
    while floors[road[-1]]:
        road.append(next(d for d in sorted(graph[road[-1]]) if floors[d] == floors[road[-1]] - 1))
    return road


def test_the_layout_has_at_most_twelve_floors():
    """A helper in a package above its users' stacks the layers (issue 54): a part imports
    what lies below it, and the tallest road from lit.errors up has at most 12 floors."""
    graph = part_imports()
    floors = depth(graph)
    top = max(floors, key=lambda p: floors[p])
    assert floors[top] <= 11, " -> ".join(_road(graph, floors, top))
