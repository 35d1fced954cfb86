"""The fake ``ace`` of the tests: lit.demo.replay (the replaying ACE `lit demo` ships) over the
whole oracle, tests/data/oracle/ace-transcripts.jsonl.gz. Faults on command and the protocol
are described in lit/demo/replay.py.

LIT starts a generator per item, so every millisecond of start-up counts: the wrapper
(tests/fake_ace/fixtures.py) runs this with ``python -S``, and it imports only what answering
needs (not pathlib); `site`, which puts the installed packages (PyDelphin) on sys.path, runs
only when an import needs it (an MRS whose text was never recorded).
"""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)  # run as a script by tests/fake_ace/ace, lit may not be installed


class _SiteOnDemand:
    """Last on sys.meta_path under ``python -S``: the first import nothing else finds runs
    `site` (the installed packages join sys.path), then is looked up again."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if path is not None:  # a submodule: its package was found already
            return None
        sys.meta_path.remove(_SiteOnDemand)
        import importlib.machinery
        import site

        site.main()
        return importlib.machinery.PathFinder.find_spec(name)


if sys.flags.no_site:
    sys.meta_path.append(_SiteOnDemand)

from lit.demo import replay  # noqa: E402
from lit.demo.replay import join_results, split_results  # noqa: E402,F401 (tests use them)

TRANSCRIPTS = os.path.join(ROOT, "tests", "data", "oracle", "ace-transcripts.jsonl.gz")


def build_index(path, transcripts=TRANSCRIPTS):
    from pathlib import Path

    return replay.build_index(Path(path), Path(transcripts))


def default_index_path(transcripts=TRANSCRIPTS):
    from pathlib import Path

    return replay.default_index_path(Path(transcripts))


if __name__ == "__main__":
    os.environ.setdefault("LIT_FAKE_ACE_TRANSCRIPTS", TRANSCRIPTS)
    sys.exit(replay.main())
