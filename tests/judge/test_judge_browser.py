"""The judging page in a real headless Chromium, driven by the keyboard only (DevTools
Input.dispatchKeyEvent): two annotators judge a sample, the server is killed (SIGKILL) midway
and served again, the page resumes where the answers file left off, and `lit judge agree`
gives the figures computed by hand; a sentence with a <script> in it is shown as text."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from lit.cli import main
from lit.judge.answers import answers_path, read_answers
from lit.judge.sample import read_sample
from tests.judge.fixtures import PLAN, SCRIPT, write_contrast
from tests.judge.test_agree import expected_by_hand
from tests.report.test_report_browser import browser  # noqa: F401  (the headless Chromium fixture)

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"Enter": ("Enter", 13, "\r"), "Backspace": ("Backspace", 8, ""),
        "ArrowLeft": ("ArrowLeft", 37, ""), "ArrowRight": ("ArrowRight", 39, "")}


class Server:
    """`lit judge serve` in its own process, so the test can SIGKILL it."""

    def __init__(self, sample: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lit", "judge", "serve", str(sample)], cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            self.proc.kill()
            raise RuntimeError(f"no URL from lit judge serve: {self.proc.stderr.read()}")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)


def goto(browser, url: str) -> None:  # noqa: F811
    browser.events.clear()
    for domain in ("Runtime", "Log", "Page"):
        browser.call(f"{domain}.enable")
    browser.call("Page.navigate", url=url)
    browser.wait_for("Page.loadEventFired")


def wait(browser, expression: str, timeout: float = 30):  # noqa: F811
    deadline = time.monotonic() + timeout
    while True:
        value = browser.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(expression)
        time.sleep(0.05)


def press(browser, key: str) -> None:  # noqa: F811
    name, code, text = KEYS[key] if key in KEYS else (key, ord(key.upper()), key)
    browser.call("Input.dispatchKeyEvent", type="keyDown", key=name, text=text,
                 windowsVirtualKeyCode=code)
    browser.call("Input.dispatchKeyEvent", type="keyUp", key=name, windowsVirtualKeyCode=code)
    wait(browser, "!document.body.dataset.busy")


def state(browser) -> tuple[str, str]:  # noqa: F811
    wait(browser, "document.body.dataset.item")
    return tuple(browser.evaluate("[document.body.dataset.item, document.body.dataset.asking]"))


def answer(browser, who: str, question: str) -> None:  # noqa: F811
    """Answer the page's current question for its current item as PLAN says."""
    item, asking = state(browser)
    assert asking == question
    fluent, change, label = PLAN[who][item.split("::")[0]]
    if question == "label":
        assert browser.evaluate("document.getElementById('reveal').hidden")  # blind
        press(browser, label[0])
        wait(browser, "!document.getElementById('reveal').hidden")
        assert browser.evaluate("document.getElementById('rule-label').textContent")
    else:
        press(browser, "y" if {"fluent": fluent, "change": change}[question] == "yes" else "n")
    wait(browser, f"document.body.dataset.asking !== {json.dumps(question)} || "
                  f"document.body.dataset.item !== {json.dumps(item)}")


def judge_item(browser, who: str, notes: str = "") -> str:  # noqa: F811
    item, _ = state(browser)
    for question in ("fluent", "change", "label"):
        if state(browser)[1] == question:  # a resumed item starts at its first open question
            answer(browser, who, question)
    assert state(browser) == (item, "notes")
    assert browser.evaluate("document.activeElement.id") == "notes"
    if notes:
        browser.call("Input.insertText", text=notes)
    press(browser, "Enter")
    wait(browser, f"document.body.dataset.item !== {json.dumps(item)} || "
                  "!document.getElementById('done').hidden")
    return item


def progress(browser) -> str:  # noqa: F811
    return wait(browser, "document.getElementById('progress').textContent")


@pytest.fixture
def sample(tmp_path) -> Path:
    contrast = write_contrast(tmp_path / "contrast.jsonl")
    path = tmp_path / "sample.jsonl"
    assert main(["judge", "sample", str(contrast), "-o", str(path), "-n", "4"]) == 0
    return path


def test_judge_by_keyboard_kill_the_server_resume_and_agree(browser, sample, tmp_path,  # noqa: F811
                                                            capsys):
    order = [it["item"] for it in read_sample(sample)]
    server = Server(sample)
    try:
        goto(browser, server.url + "?annotator=alice")
        assert progress(browser) == "0 of 4 judged by alice"
        seen = []
        for _ in range(2):
            notes = "odd <b>markup</b>" if state(browser)[0].startswith("r3") else ""
            seen.append(judge_item(browser, "alice", notes))
        assert seen == order[:2]
        assert progress(browser) == "2 of 4 judged by alice"
        third, _ = state(browser)
        answer(browser, "alice", "fluent")
        # the answer is on the disk before the page moves on
        assert read_answers(answers_path(sample))[-1]["item"] == third
    finally:
        server.kill()
    # an answer given while the server is down is not taken: the page says so and stays put
    press(browser, "y")
    assert "Not saved" in wait(browser, "document.getElementById('error').hidden ? '' : "
                                        "document.getElementById('error').textContent")
    assert state(browser) == (third, "change")

    server = Server(sample)  # served again: a new token, the same answers file
    try:
        goto(browser, server.url + "?annotator=alice")
        assert state(browser) == (third, "change")  # resumed mid-item
        assert progress(browser) == "2 of 4 judged by alice"
        while browser.evaluate("document.getElementById('done').hidden"):
            notes = "odd <b>markup</b>" if state(browser)[0].startswith("r3") else ""
            judge_item(browser, "alice", notes)
        assert progress(browser) == "4 of 4 judged by alice"

        # bob types his name on the page, then judges every item
        goto(browser, server.url)
        wait(browser, "!document.getElementById('who').hidden")
        assert browser.evaluate("document.activeElement.id") == "name"
        browser.call("Input.insertText", text="bob")
        press(browser, "Enter")
        assert state(browser)[0] == order[0]
        # Backspace takes the last answer back: bob first says "no", then corrects himself
        item, _ = state(browser)
        wrong = "n" if PLAN["bob"][item.split("::")[0]][0] == "yes" else "y"
        press(browser, wrong)
        wait(browser, "document.body.dataset.asking === 'change'")
        press(browser, "Backspace")
        wait(browser, "document.body.dataset.asking === 'fluent'")
        while browser.evaluate("document.getElementById('done').hidden"):
            judge_item(browser, "bob")
        assert progress(browser) == "4 of 4 judged by bob"
        assert browser.errors() == []

        # blind: the page's data has no rule label, and /reveal refuses before an answer
        base = server.url.split("?")[0]
        with urllib.request.urlopen(base + "state?annotator=carol") as r:
            page_data = r.read().decode()
        assert "label_rule" not in page_data and "modal_premise" not in page_data
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base + f"reveal?annotator=carol&item={order[0]}")
        assert refused.value.code == 403
        with pytest.raises(urllib.error.HTTPError) as wrong_token:
            urllib.request.urlopen(base.replace(base.split("/")[3], "guess") + "state")
        assert wrong_token.value.code == 404
    finally:
        server.kill()

    out = tmp_path / "agree.json"
    assert main(["judge", "agree", str(sample), "-o", str(out)]) == 0
    capsys.readouterr()
    result = json.loads(out.read_text())
    expected_by_hand(result)
    notes = result["rejected"][0]["examples"][0]["judges"]
    assert set(notes) == {"alice", "bob"}
    alice_r3 = [a for a in read_answers(answers_path(sample))
                if a["annotator"] == "alice" and a["question"] == "notes" and a["answer"]]
    assert [a["answer"] for a in alice_r3] == ["odd <b>markup</b>"]

    # `lit report --judgements` shows the figures, and the page renders cleanly
    report = tmp_path / "report.html"
    assert main(["report", str(tmp_path / "contrast.jsonl"), "--judgements", str(out),
                 "-o", str(report)]) == 0
    capsys.readouterr()
    assert browser.open(report) == []
    assert browser.evaluate("document.querySelector('#judging h2').textContent") \
        == "Human judgements"
    assert "modal_premise" in browser.evaluate("document.getElementById('judging').textContent")


def test_markup_in_a_sentence_is_shown_as_text(browser, sample):  # noqa: F811
    server = Server(sample)
    try:
        goto(browser, server.url + "?annotator=eve")
        while not state(browser)[0].startswith("r3"):
            press(browser, "ArrowRight")
        table = browser.evaluate("document.getElementById('pair').textContent")
        assert SCRIPT in table  # the markup is text on the page...
        assert browser.evaluate("typeof window.pwned") == "undefined"  # ...and never ran
        assert browser.evaluate("document.scripts.length") == 1  # the page's own script
        assert browser.evaluate("document.querySelectorAll('#pair script').length") == 0
        assert browser.errors() == []
    finally:
        server.kill()
