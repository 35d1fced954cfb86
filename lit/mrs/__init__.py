"""The MRS layer: the one alignment of two MRSs (`align`), the parts of an MRS several readers
need (`properties`, `index_ep`, ...) and the labelled graph lit.equivalence compares
(lit.mrs.graph). It sits low: it imports PyDelphin, the standard library and lit.morphology
only."""

from lit.mrs.align import ROLES, Alignment, Link, Method, align, key
from lit.mrs.parts import (
    MODAL_RE,
    Reach,
    entity_head,
    ep_name,
    index_ep,
    modifiers,
    predicate_name,
    properties,
    x_arg,
)

__all__ = ["MODAL_RE", "ROLES", "Alignment", "Link", "Method", "Reach", "align", "entity_head",
           "ep_name", "index_ep", "key", "modifiers", "predicate_name", "properties", "x_arg"]
