"""docs/rules-tutorial.md runs as written: its files are written in order (a later block for
the same file replaces it), and each `$ lit ...` command runs in that directory and prints the
lines shown under it, in order ("..." stands for lines left out). Commands in a ```console ace
block need ACE and run only as an integration test."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from lit.cli import main

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "rules-tutorial.md"
FENCE = re.compile(r"^```(\S*)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def steps(text: str):
    """("file", path, content) and ("run", command, expected lines, needs ACE), in order."""
    for kind, info, body in FENCE.findall(text):
        named = re.search(r"file=(\S+)", info)
        if named:
            yield "file", named.group(1), body
        elif kind == "console":
            for chunk in re.split(r"^\$ ", body, flags=re.MULTILINE)[1:]:
                command, *shown = chunk.rstrip("\n").split("\n")
                yield "run", command, shown, "ace" in info.split()


def _follows(shown: list[str], printed: list[str]) -> str | None:
    """The first shown line not printed (after the lines before it), or None."""
    at = 0
    for line in shown:
        if line.strip() == "...":
            continue
        try:
            at = printed.index(line, at) + 1
        except ValueError:
            return line
    return None


def _run_tutorial(tmp_path, monkeypatch, capsys, ace: bool) -> int:
    monkeypatch.chdir(tmp_path)
    commands = 0
    for step in steps(TUTORIAL.read_text(encoding="utf-8")):
        if step[0] == "file":
            path = tmp_path / step[1]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(step[2], encoding="utf-8")
            continue
        _, command, shown, needs_ace = step
        if needs_ace and not ace:
            continue
        argv = shlex.split(command)
        assert argv[0] == "lit", command
        code = main(argv[1:])
        out = capsys.readouterr()
        assert code == 0, f"{command}: exit {code}\n{out.err}"
        missing = _follows(shown, (out.out + out.err).splitlines())
        assert missing is None, f"{command}: did not print {missing!r}\n{out.out}{out.err}"
        commands += 1
    return commands


def test_the_tutorial_runs_as_written(tmp_path, monkeypatch, capsys):
    assert _run_tutorial(tmp_path, monkeypatch, capsys, ace=False) == 8  # every command found


@pytest.mark.integration
def test_the_tutorial_runs_with_ace(tmp_path, monkeypatch, capsys):
    assert _run_tutorial(tmp_path, monkeypatch, capsys, ace=True) == 9


def test_the_checker_catches_a_wrong_line(tmp_path):
    """The check above can fail: a line the command does not print is reported."""
    assert _follows(["a", "...", "c"], ["a", "b", "c"]) is None
    assert _follows(["c", "a"], ["a", "b", "c"]) == "a"
    assert _follows(["x"], ["a"]) == "x"
