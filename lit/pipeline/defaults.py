"""Pipeline defaults, in a module light enough for `lit --help` to import."""

#: Distinct realizations kept per transformed MRS (ACE's first N; the oracle shows one of the
#: first 10 verifies for 625 of 626 pairs).
DEFAULT_MAX_CANDIDATES = 10
#: Readings per re-parse when verifying (the intended reading is often not the first).
DEFAULT_VERIFY_READINGS = 20
#: Inputs that go through the stages together.
DEFAULT_BATCH_SIZE = 32
#: Batches processed at once (threads): one waits at a stage boundary while another keeps
#: the ACE pool busy.
DEFAULT_BATCHES_IN_FLIGHT = 2
#: The paper's pair specs (DESIGN §2 table, without o;o): the default of `lit nli --specs`.
PAPER_SPECS: tuple[str, ...] = (
    "f;p", "p;f", "i;i", "pa;pa", "m;o", "f;p +i", "p;f +i", "f;p +pa", "p;f +pa",
)
