"""lit.ace.process: how an ACE process is started. On Linux ACE gets the parent-death signal
(tests/system/test_small_items.py checks that it dies with a SIGKILLed driver); through
util-linux's setpriv where it works, so the start needs no fork of LIT's own (possibly large)
process; a missing ACE still fails at the start, named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lit.ace.process import AceProcess, die_with_parent, setpriv_prefix


def test_ace_is_started_through_setpriv_where_it_sets_the_death_signal(fake_ace_config):
    if die_with_parent is None:  # not Linux: nothing to set, nothing in front of ACE
        assert setpriv_prefix() is None
    ace = AceProcess(str(fake_ace_config.grammar), str(fake_ace_config.ace), ["-n", "3"])
    try:
        prefix = list(setpriv_prefix() or ())
        assert ace.popen.args[:len(prefix) + 1] == [*prefix, str(fake_ace_config.ace)]
        if sys.platform.startswith("linux") and Path("/usr/bin/setpriv").exists():
            assert prefix[1:] == ["--pdeathsig", "KILL", "--"]
        response = ace.interact("Bob met Alice.")
        assert response["results"], response
        # the process LIT knows is ACE itself (setpriv execs it), not a parent of it
        cmdline = Path(f"/proc/{ace.popen.pid}/cmdline").read_bytes()
        assert b"fake.py" in cmdline and b"setpriv" not in cmdline
    finally:
        ace.popen.stdin.close()
        ace.popen.wait(timeout=30)
        ace.popen.stdout.close()


@pytest.mark.parametrize("executable", ["/nonexistent/ace", __file__])
def test_an_ace_that_cannot_run_fails_at_the_start_naming_it(fake_ace_config, executable):
    """A missing or non-executable ACE: Popen itself fails, as without setpriv."""
    with pytest.raises(OSError, match=executable):
        AceProcess(str(fake_ace_config.grammar), executable, [])
