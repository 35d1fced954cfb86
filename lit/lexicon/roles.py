"""Whether one predicate can stand where another stood: the roles the SEM-I gives them."""

from __future__ import annotations

from lit.lexicon import semi
from lit.lexicon.words import pos


def _roles(pred: str) -> list[set[str]]:
    return [{r.rstrip("?").partition(":")[0] for r in syn} for syn in semi.table().get(pred, [])]


def fits_roles(old: str, new: str) -> bool:
    """True if *new* is in the SEM-I and, for a verb or adjective, has a synopsis with every
    role of some synopsis of *old* without its optional ones, so the EP's arguments still have
    a place. Nouns' own arguments (``_programmer_n_of``'s ARG1) are left unexpressed in
    nearly every use, so a noun may replace a noun whatever its roles."""
    new_roles = _roles(new)
    if not new_roles:
        return False
    if pos(old) == "n":
        return True
    required = [{r.partition(":")[0] for r in syn if not r.endswith("?")}
                for syn in semi.table().get(old, [[]])]
    return any(req <= roles for req in required for roles in new_roles)
