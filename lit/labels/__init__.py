"""Label rules as data: (pair spec, old label, preconditions) -> new label (docs/design.md §2).

A rule set speaks one task's labels (a lit.labels.names.LabelSet: NLI's E/N/C by default, a
task profile's otherwise, lit.tasks). A rule file (format in docs/labelrules.md; the default
NLI set is `default.labels` beside this module, the built-in tasks' sets are in
lit/tasks/profiles) holds five kinds of rule, tried in this order for a transformed pair:

1. `gold` + `skip` — pairs whose gold label says there is nothing to transform (SNLI "-");
2. `either` — a step on either side decides alone (questions get no NLI label);
3. `pairs` — exact pair specs (`specs` for a single-text task's spec, run as the pair
   "spec;o"), with `when` preconditions on the *original* sentences;
4. `neutral` — truth-preserving steps (passive, cleft) are removed from both sides and the
   `pairs` rules are tried again, so `f;p +pa` falls back to `f;p`;
5. `edit` — for a pair whose hypothesis is a meaning-changing edit of its premise side
   (lit.logic.edits), the edit's lexical relation at the polarity of its position decides
   (natural logic, issue 15); only these rules are consulted for such a pair.

No rule, or a rule that maps no label for the gold label: the pair is *uncovered* and gets no
label — never a guessed one. A `map` may send a label to `keep` (the gold label stays: an
invariance) or to `none` (covered, but no label: a change that may or may not flip it).

The package: lit.labels.parser reads a rule file, lit.labels.model is a rule and a decision,
lit.labels.decide picks the rule for a pair, lit.labels.ruleset is the set (LabelRules),
lit.labels.steps compares steps; this module only re-exports.
"""

from __future__ import annotations

from lit.labels.model import (
    KEEP,
    Condition,
    LabelDecision,
    LabelRule,
    gold_code,
    phenomena_of,
)
from lit.labels.parser import TERMINAL_NAMES
from lit.labels.ruleset import DEFAULT_RULES, LABEL_SUFFIX, LabelRules
from lit.labels.steps import IDENTITY_STEPS

__all__ = [
    "DEFAULT_RULES", "IDENTITY_STEPS", "KEEP", "LABEL_SUFFIX", "TERMINAL_NAMES", "Condition",
    "LabelDecision", "LabelRule", "LabelRules", "gold_code", "phenomena_of",
]
