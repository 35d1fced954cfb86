"""The rule modules' own examples (``example "SPEC" "SOURCE" -> "TARGET"`` with their gold
MRSs) as the recorded parses the diff tests read: no grammar needed."""

from __future__ import annotations

from delphin.codecs import simplemrs
from delphin.mrs import MRS

from lit.rules import RuleEngine
from lit.rules.syntax import Example

GRAMMAR_VERSION = "2025"


def examples() -> list[tuple[str, Example]]:
    """(module, example) for every ERG 2025 example with both gold MRSs."""
    return [(info.name, ex) for info in RuleEngine.load(GRAMMAR_VERSION).modules
            for ex in info.examples
            if (not ex.versions or GRAMMAR_VERSION in ex.versions)
            and ex.source_mrs and ex.target_mrs]


def example_id(item: tuple[str, Example]) -> str:
    return f"{item[0]}:{item[1].spec}:{item[1].source}"


def mrs(text: str) -> MRS:
    return simplemrs.decode(text)


def find(module: str, source: str) -> Example:
    return next(ex for name, ex in examples() if name == module and ex.source == source)
