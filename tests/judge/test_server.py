"""`lit judge serve` without a browser: the token, validation, blindness, one server per
answers file."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from lit.errors import InputError
from lit.judge.answers import read_answers
from lit.judge.sample import items_of
from lit.judge.server import JudgeApp, make_server, page_url
from tests.judge.fixtures import RECORDS, SCRIPT


@pytest.fixture
def served(tmp_path):
    items = [it for r in RECORDS for it in items_of(r)]
    app = JudgeApp(items, tmp_path / "answers.jsonl")
    server = make_server(app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, page_url(server, app)
    server.shutdown()
    server.server_close()
    app.close()


def _get(url: str) -> tuple[int, dict | str, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            body = r.read().decode()
            kind = r.headers["Content-Type"]
            return r.status, json.loads(body) if "json" in kind else body, dict(r.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), dict(exc.headers)


def _post(url: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(url + "answer", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_page_and_state_are_behind_the_token(served):
    app, url = served
    assert url.startswith("http://127.0.0.1:") and app.token in url
    status, page, headers = _get(url)
    assert status == 200 and "judge.js" in page
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert _get(url.replace(app.token, "x" * len(app.token)))[0] == 404
    assert _get(url.rsplit("/", 2)[0] + "/")[0] == 404
    status, state, _ = _get(url + "state?annotator=ann")
    assert status == 200 and len(state["items"]) == 4
    assert "label" not in state["items"][0] and "label_rule" not in json.dumps(state)
    r3 = next(it for it in state["items"] if it["item"].startswith("r3"))
    # the changed words are marked; the markup is plain data inside JSON
    kind, text = r3["sides"][0]["output"][0]
    assert kind == "same" and text.startswith(SCRIPT)
    assert {kind for kind, _ in r3["sides"][0]["output"]} == {"same", "ins"}
    assert _get(url + "state?annotator=%3Cb%3E")[0] == 400


def test_answers_are_checked_saved_at_once_and_unblind_the_label(served, tmp_path):
    app, url = served
    item = "r2::f;p"
    ask = lambda q, a, who="ann": _post(url, json.dumps(  # noqa: E731
        {"annotator": who, "item": item, "question": q, "answer": a}).encode())
    assert _get(url + f"reveal?annotator=ann&item={item}")[0] == 403
    assert ask("label", "maybe") == (400, {"error": "label: one of entailment, neutral, "
                                                    "contradiction"})
    assert ask("fluent", "perhaps")[0] == 400
    assert ask("colour", "red")[0] == 400
    assert ask("label", "neutral", who="")[0] == 400
    assert _post(url, b"not json")[0] == 400
    assert _post(url, b"[1]")[0] == 400
    assert ask("label", "neutral") == (200, {"saved": True})
    assert read_answers(tmp_path / "answers.jsonl")[-1]["answer"] == "neutral"
    status, revealed, _ = _get(url + f"reveal?annotator=ann&item={item}")
    assert status == 200 and revealed["label"] == "neutral"
    assert revealed["label_rule"] == "tense_decoupled"
    assert _get(url + f"reveal?annotator=other&item={item}")[0] == 403  # per annotator


def test_one_server_per_answers_file(served, tmp_path):
    with pytest.raises(InputError, match="being written by another run"):
        JudgeApp([it for r in RECORDS for it in items_of(r)], tmp_path / "answers.jsonl")


def test_answers_of_another_sample_are_refused(tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps({"annotator": "a", "item": "elsewhere::i;i",
                                "question": "label", "answer": "neutral"}) + "\n")
    with pytest.raises(InputError, match="not in the sample"):
        JudgeApp([it for r in RECORDS for it in items_of(r)], path)


def test_serve_refuses_a_weak_token_or_a_bad_name(tmp_path, capsys):
    from lit.cli import main
    from tests.judge.fixtures import write_contrast

    contrast = write_contrast(tmp_path / "contrast.jsonl")
    sample = tmp_path / "sample.jsonl"
    assert main(["judge", "sample", str(contrast), "-o", str(sample), "-n", "4"]) == 0
    assert main(["judge", "serve", str(sample), "--token", "short"]) == 2
    assert "--token: at least 16" in capsys.readouterr().err
    assert main(["judge", "serve", str(sample), "--annotator", "<b>"]) == 2
    assert "--annotator: annotator: 1 to 64" in capsys.readouterr().err
