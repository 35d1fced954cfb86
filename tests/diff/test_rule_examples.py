"""Acceptance (issue 42): `lit diff` on every example pair of the rule modules names that
module's edit. Offline: the examples' gold MRSs stand for the parses of source and target; and
the target the engine builds by applying the example's step to the source is named the same."""

from __future__ import annotations

import pytest

from lit.diff import diff_mrs
from lit.rules import RuleEngine
from tests.diff.examples import GRAMMAR_VERSION, example_id, examples, mrs

EXAMPLES = examples()


def test_every_module_has_examples_here():
    modules = {info.name for info in RuleEngine.load(GRAMMAR_VERSION).modules}
    assert {name for name, _ in EXAMPLES} == modules


@pytest.mark.parametrize("item", EXAMPLES, ids=[example_id(i) for i in EXAMPLES])
def test_gold_pair_names_the_module(item):
    module, ex = item
    diff = diff_mrs(mrs(ex.source_mrs), mrs(ex.target_mrs), GRAMMAR_VERSION,
                    sentences=(ex.source, ex.target))
    assert diff.kinds() == (module,), diff.to_dict()
    assert diff.named()
    assert diff.residue.empty()


@pytest.mark.parametrize("item", EXAMPLES, ids=[example_id(i) for i in EXAMPLES])
def test_engine_target_names_the_module_and_a_step_that_makes_it(item):
    module, ex = item
    engine = RuleEngine.load(GRAMMAR_VERSION)
    source = mrs(ex.source_mrs)
    target = engine.apply(source, ex.spec).mrs
    diff = diff_mrs(source, target, GRAMMAR_VERSION)
    assert diff.kinds() == (module,), diff.to_dict()
    step = diff.edits[0].step
    assert step is not None and step.split("=")[0] == module
    assert engine.apply(source, step).status == "ok"
