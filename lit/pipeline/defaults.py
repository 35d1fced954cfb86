"""Pipeline defaults under their old names; the values live in lit.config (stated once)."""

from lit.config import DEFAULTS, PAPER_SPECS

DEFAULT_MAX_CANDIDATES = DEFAULTS.max_candidates
DEFAULT_VERIFY_READINGS = DEFAULTS.verify_readings
DEFAULT_BATCH_SIZE = DEFAULTS.batch_size
DEFAULT_BATCHES_IN_FLIGHT = DEFAULTS.batches_in_flight

__all__ = ["DEFAULT_BATCHES_IN_FLIGHT", "DEFAULT_BATCH_SIZE", "DEFAULT_MAX_CANDIDATES",
           "DEFAULT_VERIFY_READINGS", "PAPER_SPECS"]
