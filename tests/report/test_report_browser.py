"""The HTML report in a real headless Chromium: no console errors, working filters, and a
screenshot. Console errors are read through the DevTools protocol (Runtime/Log domains)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from lit.config import RunConfig
from lit.evaluate import evaluate, read_contrast_file, read_predictions
from lit.report import write_report
from tests.conftest import DATA, ORACLE

CONTRAST = DATA / "eval" / "contrast.jsonl"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--window-size=1280,900",
]


def _missing(message: str):
    """Fail in CI (the check must run there), skip on a developer machine."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        _missing("chromium is not installed (apt-get install -y chromium)")
    try:
        import websocket  # noqa: F401  (websocket-client, the `dev` extra)
    except ImportError:
        _missing("websocket-client is not installed (pip install websocket-client)")
    return exe


class Browser:
    """One headless Chromium page driven over the DevTools protocol."""

    def __init__(self, exe: str, home: Path):
        """Chromium's profile and its own temp files (org.chromium.Chromium.*) go under *home*,
        so nothing is left in the temp folder."""
        import websocket

        self.timeout_error = websocket.WebSocketTimeoutException
        profile, temp = home / "profile", home / "tmp"
        profile.mkdir()
        temp.mkdir()
        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "TMPDIR": str(temp)},
        )
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not port_file.exists() or not port_file.read_text().strip():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            page = next(t for t in json.load(r) if t["type"] == "page")
        self.ws = websocket.create_connection(
            page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True
        )
        self.next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]
            self.events.append(msg)

    def wait_for(self, event: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == event for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(event)
            self.events.append(json.loads(self.ws.recv()))

    def drain(self, seconds: float) -> None:
        """Collect events that arrive in the next *seconds* (late script errors)."""
        self.ws.settimeout(0.1)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.events.append(json.loads(self.ws.recv()))
            except self.timeout_error:  # nothing arrived
                pass
        self.ws.settimeout(30)

    def errors(self) -> list[str]:
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e.get("method") == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                out.append(d.get("exception", {}).get("description") or d.get("text", ""))
            elif e.get("method") == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif e.get("method") == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(p["entry"]["text"])
        return out

    def open(self, path: Path) -> list[str]:
        """Load *path*; return every console error, uncaught exception and CSP violation."""
        for domain in ("Runtime", "Log", "Page"):
            self.call(f"{domain}.enable")
        self.call("Page.navigate", url=path.resolve().as_uri())
        self.wait_for("Page.loadEventFired")
        self.drain(0.5)
        return self.errors()

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def screenshot(self, path: Path) -> None:
        height = self.call("Page.getLayoutMetrics")["cssContentSize"]["height"]
        self.call("Emulation.setDeviceMetricsOverride", width=1280,
                  height=int(min(height, 8000)), deviceScaleFactor=1, mobile=False)
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        if getattr(self, "ws", None):
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def browser():
    exe = _chromium()
    # under /tmp, not the session's deeper TMPDIR: Chromium's SingletonSocket path (in its
    # TMPDIR) must stay under 108 bytes
    with tempfile.TemporaryDirectory(prefix="lit-chromium-", dir="/tmp",
                                     ignore_cleanup_errors=True) as home:
        b = Browser(exe, Path(home))
        try:
            yield b
        finally:
            b.close()


def _analysis(fake_ace_config) -> dict:
    """`lit analyze` of the oracle NLI pairs through the fake ACE."""
    from lit.ace.service import AceService
    from lit.analyze import analyze, parse_sentences
    from lit.tasks.reader import read_nli

    items = list(read_nli(ORACLE / "nli-pairs.jsonl.gz"))
    with AceService(fake_ace_config, RunConfig(workers=2, timeout=10)) as service:
        parses = parse_sentences(service, (s for it in items for s in (it.premise, it.hypothesis)))
    return analyze(items, parses, "2018", top=15)


@pytest.fixture(scope="module")
def report(tmp_path_factory, fake_ace_config) -> Path:
    records = read_contrast_file(CONTRAST)
    result = evaluate(records, read_predictions(DATA / "eval" / "predictions.jsonl"))
    result["predictions"] = [
        {"id": i, "spec": s, "prediction": p}
        for (i, s), p in read_predictions(DATA / "eval" / "predictions.jsonl").items()
    ]
    path = tmp_path_factory.mktemp("report") / "report.html"
    write_report(path, records, evaluation=result, analysis=_analysis(fake_ace_config),
                 source=str(CONTRAST))
    return path


def test_report_renders_without_console_errors(browser, report, tmp_path):
    assert browser.open(report) == []
    shot = tmp_path / "report.png"
    browser.screenshot(shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"screenshot: {shot}")
    # the page really rendered: every section, charts, and every spec's example table
    sections = browser.evaluate("Array.from(document.querySelectorAll('section')).map(s => s.id)")
    assert sections == ["summary", "evaluation", "analysis", "tailor", "failures", "labelrules",
                        "examples"]
    assert browser.evaluate("document.querySelectorAll('svg.chart rect').length") > 10
    assert browser.evaluate("document.querySelectorAll('table.examples').length") == 4


def test_report_filters_work_in_the_browser(browser, report):
    assert browser.open(report) == []
    visible = "Array.from(document.querySelectorAll('table.examples')[3].tBodies[0].rows)" \
              ".filter(r => !r.hidden).length"
    assert browser.evaluate(visible) == 14  # m;o: every pair
    browser.evaluate(
        "var box = document.querySelectorAll('table.examples')[3].parentNode"
        ".querySelector('input[type=checkbox]'); box.checked = true;"
        "box.dispatchEvent(new Event('change'))"
    )
    # m;o rows with a wrong prediction on the original or the contrast: 14 - 7 right on both
    assert browser.evaluate(visible) == 7
    assert browser.errors() == []


def test_examples_are_paged_and_every_table_exports_csv(browser, tmp_path):
    records = read_contrast_file(CONTRAST)
    path = tmp_path / "paged.html"
    write_report(path, records, examples=5)
    assert browser.open(path) == []
    table = "document.querySelectorAll('table.examples')[3]"  # m;o: 14 pairs, 5 per page
    visible = f"Array.from({table}.tBodies[0].rows).filter(r => !r.hidden).map(r => r.cells[0]" \
              ".textContent)"
    first = browser.evaluate(visible)
    assert len(first) == 5
    assert browser.evaluate(f"{table}.parentNode.querySelector('.page').textContent") \
        == "page 1 of 3"
    browser.evaluate(f"{table}.parentNode.querySelector('.next').click()")
    second = browser.evaluate(visible)
    assert len(second) == 5 and not set(first) & set(second)
    browser.evaluate(f"{table}.parentNode.querySelector('.next').click()")
    browser.evaluate(f"{table}.parentNode.querySelector('.next').click()")
    assert len(browser.evaluate(visible)) == 4  # the last page, not past it
    # every table gets a CSV button; the CSV holds every row, pages and drill-downs aside
    tables = browser.evaluate("document.querySelectorAll('main table').length")
    drills = browser.evaluate("document.querySelectorAll('details.drill table').length")
    assert browser.evaluate("document.querySelectorAll('button.csv').length") == tables - drills
    csv = browser.evaluate(f"window.litTableCsv({table})").splitlines()
    assert len(csv) == 1 + 14 and csv[0].startswith('"id","original premise / hypothesis"')
    assert "candidates" not in csv[1]
    assert browser.errors() == []


@pytest.mark.parametrize(
    "injected, expected",
    [
        ("<script>notDefinedAnywhere();</script>", "notDefinedAnywhere"),
        ("<script>console.error('broken chart')</script>", "broken chart"),
        ('<img src="http://example.invalid/logo.png" alt="">', "Content Security Policy"),
    ],
)
def test_checker_catches_injected_errors(browser, report, tmp_path, injected, expected):
    """The check above can fail: a script error, console.error or a network fetch is caught."""
    broken = tmp_path / "broken.html"
    broken.write_text(report.read_text().replace("</main>", injected + "</main>"))
    errors = browser.open(broken)
    assert any(expected in e for e in errors), errors


def test_end_to_end_nli_evaluate_analyze_report(fake_ace_config, browser, tmp_path, capsys):
    """`lit nli` over the oracle NLI pairs with the fake ACE, then `lit evaluate` with the
    predictions of a constant model (always entailment), `lit analyze`, and `lit report`."""
    from lit.cli import main
    from tests.conftest import read_jsonl

    nli = ORACLE / "nli-pairs.jsonl.gz"
    ace = ["--ace", str(fake_ace_config.ace), "--grammar", str(fake_ace_config.grammar),
           "--grammar-version", "2018", "--workers", "2"]
    contrast = tmp_path / "contrast.jsonl"
    assert main(["nli", str(nli), "-o", str(contrast), "--specs", "f;p,pa;pa,m;o",
                 "--scorer", "ace", "--no-progress", *ace]) == 0
    records = read_jsonl(contrast)
    assert len(records) == 255

    preds = tmp_path / "preds.jsonl"
    ok = [(r, t) for r in records for t in r["transforms"] if t["status"] == "ok" and t["label"]]
    keys = [(r["id"], "original") for r in records] + [(r["id"], t["spec"]) for r, t in ok]
    preds.write_text("".join(
        json.dumps({"id": i, "spec": s, "prediction": "entailment"}) + "\n" for i, s in keys))
    scores = tmp_path / "scores.json"
    assert main(["evaluate", str(contrast), "--predictions", str(preds), "-o", str(scores)]) == 0
    result = {row["spec"]: row for row in json.loads(scores.read_text())["specs"]}
    assert set(result) == {"f;p", "pa;pa", "m;o"}
    for spec, row in result.items():
        pairs = [(r["input"]["gold_label"], t["label"]) for r, t in ok if t["spec"] == spec]
        n = len(pairs)
        # always "entailment": right exactly where the gold label is entailment
        assert row["n"] == n > 0
        assert row["acc_ori"] == pytest.approx(sum(g == "entailment" for g, _ in pairs) / n)
        assert row["acc_ctr"] == pytest.approx(sum(x == "entailment" for _, x in pairs) / n)
        assert row["same_prediction"] == 1.0
        both = sum(g == x == "entailment" for g, x in pairs) / n
        assert row["contrast_consistency"] == pytest.approx(both)
        preserving = all(g == x for g, x in pairs)
        assert row["consistency"] == (1.0 if preserving else pytest.approx(both))
    assert result["m;o"]["kind"] == "label_changing" and result["m;o"]["acc_ctr"] == 0.0

    analysis = tmp_path / "analysis.json"
    assert main(["analyze", str(nli), *ace, "-o", str(analysis)]) == 0
    report = tmp_path / "report.html"
    assert main(["report", str(contrast), "--evaluation", str(scores), "--analysis",
                 str(analysis), "-o", str(report)]) == 0
    capsys.readouterr()
    assert browser.open(report) == []
    browser.screenshot(tmp_path / "end-to-end.png")
    specs = browser.evaluate(
        "Array.from(document.querySelectorAll('#examples > details > summary'))"
        ".map(s => s.textContent)")
    assert {s.split(" (")[0] for s in specs} == {"f;p", "pa;pa", "m;o"}


def test_a_sentence_task_report_in_the_browser(browser, tmp_path):
    """An SST-2 contrast set (one text per record, issue 26) with its evaluation: no console
    error, the fairness section, one text per example row, the model-errors filter works."""
    from lit.tasks import load_task
    from tests.tasks.test_downstream import FAIR_PREDICTIONS, FAIR_RECORDS

    contrast = tmp_path / "sst2.jsonl"
    contrast.write_text("".join(json.dumps(r) + "\n" for r in FAIR_RECORDS))
    records = read_contrast_file(contrast)
    labels = load_task("sst2").labels
    given = {k: labels.name(p) for k, p in FAIR_PREDICTIONS.items()}  # "pos", "NEG", 1 ...
    result = evaluate(records, given)
    result["predictions"] = [{"id": i, "spec": s, "prediction": p} for (i, s), p in given.items()]
    path = tmp_path / "sst2.html"
    write_report(path, records, evaluation=result, source=str(contrast))
    assert browser.open(path) == []
    sections = browser.evaluate("Array.from(document.querySelectorAll('section')).map(s => s.id)")
    assert "fairness" in sections and "examples" in sections
    table = "document.querySelectorAll('table.examples')[0]"  # gender=swap: a and c
    visible = f"Array.from({table}.tBodies[0].rows).filter(r => !r.hidden).length"
    assert browser.evaluate(visible) == 2
    assert browser.evaluate(f"{table}.tHead.rows[0].cells[1].textContent") == "original text"
    browser.evaluate(f"var box = {table}.parentNode.querySelector('input[type=checkbox]');"
                     "box.checked = true; box.dispatchEvent(new Event('change'))")
    assert browser.evaluate(visible) == 1  # c: the perturbed text predicted negative
    assert browser.errors() == []
