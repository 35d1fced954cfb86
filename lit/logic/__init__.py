"""Natural logic over MRS (issue 15): the polarity of each position from the scopal structure
(lit.logic.polarity) and the single edit between a sentence and its perturbation with its
lexical relation (lit.logic.edits). Label rules combine the two (docs/labelrules.md)."""

from lit.logic.edits import Edit, determiner_relation, edit_between, position
from lit.logic.polarity import DOWN, NONE, UP, Polarity, compose, polarities, polarity_of

__all__ = ["DOWN", "NONE", "UP", "Edit", "Polarity", "compose", "determiner_relation",
           "edit_between", "polarities", "polarity_of", "position"]
