"""The rule layer: the rule language (``rules.lark``), its compiler and the engine."""
