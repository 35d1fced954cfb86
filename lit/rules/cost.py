"""Rules whose matching is combinatorial, found statically for `lit rules check`.

Each context or input EP pattern with neither an anchor (`@index`) nor a predicate (`*` or no
predicate) can match every EP, and the matcher tries every combination: K such items on an
MRS of N EPs cost up to N^K tries. At run time the matcher's budget turns such a rule into a
`timeout` for the item; this warns the rule's author before that happens.
"""

from __future__ import annotations

from lit.rules.syntax import Context, EPPattern, Input, Module, PredAny, Rule

#: Unconstrained items from which a rule is reported (20 EPs ^ 4 = 160,000 tries).
WARN_FROM = 4
#: A typical ERG MRS size, for the estimate in the message.
TYPICAL_EPS = 20


def _unconstrained(item: object) -> bool:
    return (isinstance(item, EPPattern) and item.anchor is None
            and (item.pred is None or isinstance(item.pred, PredAny)))


def combinatorial_warnings(module: Module) -> list[str]:
    """One message per rule of *module* with WARN_FROM or more items that match any EP."""
    warnings = []
    for block in module.blocks:
        if not isinstance(block, Rule):
            continue
        free = sum(_unconstrained(item) for cond in block.conditions
                   if isinstance(cond, (Context, Input)) for item in cond.items)
        if free >= WARN_FROM:
            warnings.append(
                f"{block.file}:{block.line}: warning: rule {block.name} has {free} items that "
                f"match any EP (no predicate, no anchor): up to {TYPICAL_EPS}^{free} = "
                f"{TYPICAL_EPS ** free:,} tries on a {TYPICAL_EPS}-EP MRS; give them "
                "predicates, or an anchor"
            )
    return warnings
