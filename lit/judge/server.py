"""The judging page's server (`lit judge serve`): the standard library's HTTP server on
127.0.0.1 by default, every path under a random token so only who has the URL can judge.

The page gets items without the rule's label; an item's label, rule and original label come
only from /reveal, once that annotator has answered the label question (blind judging).
Every answer is appended to the answers file and on the disk before the reply is sent.
Dataset text only ever reaches the page as JSON that the page puts in with textContent, and
the Content-Security-Policy runs no script but the page's own.
"""

from __future__ import annotations

import json
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

from lit.io.lock import OutputLock
from lit.judge.answers import (
    QUESTIONS,
    AnswerLog,
    check_annotator,
    check_answer,
    check_items,
    latest,
    read_answers,
)
from lit.worddiff import word_changes

_STATIC = {"": ("page.html", "text/html"), "judge.js": ("judge.js", "text/javascript"),
           "judge.css": ("judge.css", "text/css")}
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
MAX_BODY = 16384


def page_item(item: dict) -> dict:
    """What the page shows of an item before it is answered: no label, rule or original
    label; each side's words marked same/del/ins."""
    sides = []
    for side in item["sides"]:
        before, after = word_changes(side["original"], side["output"])
        sides.append({"role": side["role"], "original": before, "output": after})
    return {"item": item["item"], "spec": item["spec"], "intended": item["intended"],
            "labels": item["labels"], "sides": sides}


def reveal(item: dict) -> dict:
    return {k: item.get(k) for k in ("label", "label_rule", "label_rationale",
                                     "original_label")}


class JudgeApp:
    """One sample served to any number of named annotators, answers into one file."""

    def __init__(self, items: list[dict], answers: Path, token: str | None = None) -> None:
        self.items = {it["item"]: it for it in items}
        self.order = [it["item"] for it in items]
        self.token = token or secrets.token_urlsafe(18)
        self.lock = OutputLock(answers, "lit judge serve")
        self.lock.acquire()
        try:
            self.judgements = latest(read_answers(answers))
            check_items(self.judgements, items, str(answers))
            self.log = AnswerLog(answers)
        except BaseException:
            self.lock.release()
            raise
        self._mutex = threading.Lock()

    def state(self, annotator: str) -> tuple[int, dict]:
        if problem := check_annotator(annotator):
            return HTTPStatus.BAD_REQUEST, {"error": problem}
        with self._mutex:
            answers = {item: dict(a) for (who, item), a in self.judgements.items()
                       if who == annotator}
        return HTTPStatus.OK, {"items": [page_item(self.items[i]) for i in self.order],
                               "answers": answers, "questions": list(QUESTIONS)}

    def answer(self, body: dict) -> tuple[int, dict]:
        who, item = body.get("annotator"), body.get("item")
        question, value = body.get("question"), body.get("answer")
        problem = check_answer(who, item, question, value, self.items)
        if problem:
            return HTTPStatus.BAD_REQUEST, {"error": problem}
        with self._mutex:
            self.log.append(who, item, question, value)
            self.judgements.setdefault((who, item), {})[question] = value
        return HTTPStatus.OK, {"saved": True}

    def revealed(self, annotator: str, item: str) -> tuple[int, dict]:
        with self._mutex:
            answered = "label" in self.judgements.get((annotator, item), {})
        if item not in self.items:
            return HTTPStatus.NOT_FOUND, {"error": f"no item {item!r}"}
        if not answered:
            return HTTPStatus.FORBIDDEN, {"error": "answer the label question first (blind)"}
        return HTTPStatus.OK, reveal(self.items[item])

    def close(self) -> None:
        self.log.close()
        self.lock.release()


def _handler(app: JudgeApp) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "lit-judge"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            """Quiet: the token is in every request line."""

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", _CSP)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Referrer-Policy", "no-referrer")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: dict) -> None:
            self._send(status, json.dumps(data, ensure_ascii=False).encode(), "application/json")

        def _route(self) -> tuple[str, dict] | None:
            """The path after /TOKEN/ and the query, or None (and a 404 sent) if the token
            is wrong."""
            url = urlsplit(self.path)
            parts = url.path.split("/", 2)
            if len(parts) < 3 or not secrets.compare_digest(parts[1].encode(),
                                                            app.token.encode()):
                self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})
                return None
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            return parts[2], query

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            route = self._route()
            if route is None:
                return
            path, query = route
            if path in _STATIC:
                name, kind = _STATIC[path]
                text = resources.files("lit.judge").joinpath(name).read_text(encoding="utf-8")
                self._send(HTTPStatus.OK, text.encode(), kind)
            elif path == "state":
                self._json(*app.state(query.get("annotator", "")))
            elif path == "reveal":
                self._json(*app.revealed(query.get("annotator", ""), query.get("item", "")))
            else:
                self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})

        def do_POST(self) -> None:  # noqa: N802
            route = self._route()
            if route is None:
                return
            if route[0] != "answer":
                self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})
                return
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                self._json(HTTPStatus.BAD_REQUEST, {"error": "body missing or too long"})
                return
            try:
                body = json.loads(self.rfile.read(length))
            except (ValueError, UnicodeDecodeError):
                self._json(HTTPStatus.BAD_REQUEST, {"error": "body is not JSON"})
                return
            if not isinstance(body, dict):
                self._json(HTTPStatus.BAD_REQUEST, {"error": "body is not a JSON object"})
                return
            self._json(*app.answer(body))

    return Handler


def make_server(app: JudgeApp, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server for *app* (port 0: any free port); serve it with ``serve_forever``."""
    server = ThreadingHTTPServer((host, port), _handler(app))
    server.daemon_threads = True
    return server


def page_url(server: ThreadingHTTPServer, app: JudgeApp, annotator: str | None = None) -> str:
    host, port = server.server_address[:2]
    shown = "[" + host + "]" if ":" in str(host) else host
    query = f"?annotator={quote(annotator)}" if annotator else ""
    return f"http://{shown}:{port}/{app.token}/{query}"

