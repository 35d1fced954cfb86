"""The README's promises: exactly two set-up commands, CI runs the second, the Python tour runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(text: str, lang: str) -> list[str]:
    return [b.strip() for b in re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)]


def _setup_section() -> str:
    return README.split("## Set up", 1)[1].split("\n## ", 1)[0]


def test_exactly_two_setup_commands_and_ci_runs_the_test_command():
    commands = _blocks(_setup_section(), "sh")
    assert len(commands) == 2 and all("\n" not in c for c in commands), commands
    install_and_run, run_tests = commands
    assert "pip install" in install_and_run and "lit nli" in install_and_run
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert run_tests in ci.splitlines(), "'.ci/run' must run the README's test command verbatim"


def test_python_tour_runs(fake_ace_config, monkeypatch):
    """The README's Python example, run as written against the replaying fake ACE."""
    monkeypatch.setenv("LIT_ACE", str(fake_ace_config.ace))
    monkeypatch.setenv("LIT_GRAMMAR", str(fake_ace_config.grammar))
    monkeypatch.setenv("LIT_GRAMMAR_VERSION", fake_ace_config.grammar_version)
    (example,) = _blocks(README, "python")
    printed: list[tuple] = []
    exec(compile(example, "README.md", "exec"), {"print": lambda *a: printed.append(a)})
    assert printed[0] == ("A book will be given by Alice to Bob.",)
    assert printed[1:] == [
        ("p;f", "A dog was chasing a cat.", "A dog will not be chasing a cat.", "neutral"),
        ("m;o", "A dog may be chasing a cat.", "A dog is not chasing a cat.", "neutral"),
    ]


@pytest.mark.parametrize("doc", re.findall(r"\]\((docs/[\w.-]+\.md|lit/labels/default\.labels)\)", README))
def test_linked_documents_exist(doc):
    assert (ROOT / doc).is_file()
