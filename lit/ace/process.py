"""One persistent ACE process speaking ACE's ``--tsdb-stdout`` protocol.

LIT owns this small piece instead of subclassing PyDelphin's ACEParser/ACEGenerator through
their private hooks: it starts ``ace`` with the arguments PyDelphin would use, writes one item
per line, reads the answer up to its terminator and fills a public
:class:`delphin.interface.Response` with :func:`lit.ace.tsdb.read_response`. It never restarts
itself: the service decides that, and knows it happened.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import IO, Any

from delphin.interface import Response

from lit.ace.tsdb import read_response
from lit.config import DEFAULT_MAX_OUTPUT_MEGABYTES

#: What every LIT ACE process is asked for: notes, answers as tsdb s-expressions, labels.
_TSDB_ARGS = ("--tsdb-notes", "--tsdb-stdout", "--report-labels")
#: What a parser is asked for besides: UDX derivations, whose lexical nodes carry their lexical
#: type (``sleep_v1@v_-_le``) for the shortcut miner (lit.analyze.fragments). The parse cache
#: keys its entries by these, so an entry parsed without them is never read as if with.
PARSE_ARGS = ("--udx",)
#: A parse answer ends after two empty lines; a generation answer at its ``(:results .`` line.
_PARSE_TERMINI = (re.compile(r"^$"), re.compile(r"^$"))
_GENERATE_TERMINI = (re.compile(r"\(:results \."),)
#: Line prefixes ACE uses for messages around an answer, and the Response list they go to.
_MESSAGES = {"NOTE: ": "NOTES", "WARNING: ": "WARNINGS", "ERROR: ": "ERRORS"}
_RUN_NOTE = "NOTE: tsdb run:"
#: Output read per item before ACE is judged broken (a real answer is far smaller).
DEFAULT_MAX_OUTPUT_BYTES = DEFAULT_MAX_OUTPUT_MEGABYTES << 20


def resident_megabytes(pid: int) -> float | None:
    """The resident memory of process *pid* in MB (VmRSS), or None where /proc cannot say
    (not Linux, process gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """The processor time process *pid* has used so far (user + system, /proc/PID/stat), or
    None where /proc cannot say (not Linux, process gone)."""
    fields = _stat_fields(pid)
    if fields is None or len(fields) < 13:
        return None
    try:
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    except ValueError:
        return None


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command name (field 3 on), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            stat = f.read()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold anything: the rest follows
    return stat[stat.rfind(")") + 1 :].split()


def process_state(pid: int) -> str | None:
    """The state letter of process *pid* in /proc/PID/stat ("R" running, "S" sleeping, "T"
    stopped by a signal, ...), or None where /proc cannot say (not Linux, process gone)."""
    fields = _stat_fields(pid)
    return fields[0] if fields else None


class AceError(Exception):
    """ACE could not be started."""


class AceOutputError(Exception):
    """ACE wrote more for one item than any answer needs (it is broken, not slow)."""


PR_SET_PDEATHSIG = 1


def _linux_pdeathsig() -> Callable[[], None] | None:
    """On Linux, a function that asks the kernel to SIGKILL the calling (child) process when
    the thread that started it dies: ACE busy with an item would otherwise outlive a
    SIGKILLed LIT until the item ends (it only sees end of input between items). Resolved
    here, before any fork, so the child runs no lookup."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return partial(prctl, PR_SET_PDEATHSIG, signal.SIGKILL)


#: Run in each ACE child before exec (Linux); elsewhere ACE ends at its next end of input.
die_with_parent = _linux_pdeathsig()


@functools.cache
def setpriv_prefix() -> tuple[str, ...] | None:
    """util-linux's ``setpriv --pdeathsig KILL --``, if it works here: ACE started through it
    gets the parent-death signal `die_with_parent` would set, with no Python code to run in
    the child, so Python starts it with vfork. A fork (which a `preexec_fn` needs) copies this
    process's page tables: tens of milliseconds, for every generated item, once torch or a
    large data set is loaded."""
    exe = shutil.which("setpriv") if die_with_parent is not None else None
    if exe is None:
        return None
    prefix = (exe, "--pdeathsig", "KILL", "--")
    try:
        probe = subprocess.run([*prefix, sys.executable, "-S", "-c", ""],
                               capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return prefix if probe.returncode == 0 else None


def _start_args(executable: str) -> tuple[list[str], dict[str, Any]]:
    """What goes before ACE's own command line, and Popen's options, for `die_with_parent`:
    through `setpriv_prefix` when ACE is an executable file (else Popen itself must fail as
    before, naming it), else with `die_with_parent` as `preexec_fn`."""
    prefix = setpriv_prefix()
    if prefix and os.path.isfile(executable) and os.access(executable, os.X_OK):
        return list(prefix), {}
    return [], {"preexec_fn": die_with_parent}


class AceProcess:
    """``ace -g GRAMMAR`` for parsing (*generate* false) or generation, kept running."""

    def __init__(
        self,
        grammar: str,
        executable: str,
        cmdargs: list[str],
        *,
        generate: bool = False,
        env: Mapping[str, str] | None = None,
        stderr: IO[Any] | None = None,
        max_output: int = DEFAULT_MAX_OUTPUT_BYTES,
    ) -> None:
        mode = ["-e", "--tsdb-notes"] if generate else list(PARSE_ARGS)
        self._termini = _GENERATE_TERMINI if generate else _PARSE_TERMINI
        self.max_output = max_output
        # its own session: a Ctrl-C at the terminal reaches LIT, which stops ACE itself
        # (so no half-finished item is recorded as an ACE crash)
        before, options = _start_args(executable)
        self.popen = subprocess.Popen(
            [*before, executable, "-g", grammar, *mode, *cmdargs, *_TSDB_ARGS],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            env=dict(env) if env is not None else None, text=True, start_new_session=True,
            **options,
        )
        if self.popen.poll() is not None and self.popen.returncode != 0:
            raise AceError("ACE process closed on startup")

    def interact(self, datum: str) -> Response:
        """Send one sentence (parse) or SimpleMRS (generate); return ACE's answer."""
        stdin = self.popen.stdin
        assert stdin is not None
        stdin.write(datum.rstrip() + "\n")
        stdin.flush()
        response = Response({"NOTES": [], "WARNINGS": [], "ERRORS": [], "input": datum,
                             "surface": None, "results": []})
        content = []
        for line in self._answer_lines():
            prefix = next((p for p in _MESSAGES if line.startswith(p)), None)
            if prefix:
                response[_MESSAGES[prefix]].append(line[len(prefix):])
            elif line.startswith(("SENT: ", "SKIP: ")):
                response["surface"] = line[6:]
            else:
                content.append(line)
        return read_response(response, " ".join(content))

    def _answer_lines(self) -> list[str]:
        """The non-empty lines of one answer; fewer if ACE closes its output first.
        AceOutputError after `max_output` characters (endless output, with or without
        newlines, must neither hang the item past its deadline nor fill memory)."""
        stdout = self.popen.stdout
        assert stdout is not None
        lines: list[str] = []
        waiting = list(self._termini)
        budget = self.max_output
        while waiting:
            line = stdout.readline(budget + 1)
            budget -= len(line)
            if budget < 0:
                raise AceOutputError(f"ACE wrote more than {self.max_output} bytes for one item")
            if line == "" and self.popen.poll() is not None:
                break
            if line.startswith(_RUN_NOTE):
                continue  # the run's header, printed once
            lines.append(line.rstrip())
            if waiting[0].search(line):
                waiting.pop(0)
        return [line for line in lines if line]
