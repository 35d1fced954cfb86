"""The rule layer: the rule language (``rules.lark``), its compiler and the engine.

``syntax`` is the typed syntax tree, ``parser`` builds it, ``compiler`` links rule libraries
and ``checker`` checks the result; ``matcher`` applies blocks to MRSs; ``engine`` runs specs.
"""

from lit.rules.engine import RuleEngine
from lit.rules.syntax import Module, Preference

__all__ = ["Module", "Preference", "RuleEngine"]
