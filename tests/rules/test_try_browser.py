"""The `lit rules try --html` page in a real headless Chromium: no console errors, every
example with its source and result MRS and both DMRS graphs, the changed nodes and links
highlighted, the fired blocks, and a screenshot."""

from __future__ import annotations

from lit.cli import main
from lit.rules.compiler import builtin_rules_dir
from tests.report.test_report_browser import browser  # noqa: F401  (the fixture)


def test_try_page_renders_graphs_with_changes_highlighted(browser, tmp_path, capsys):  # noqa: F811
    page = tmp_path / "modal.html"
    assert main(["rules", "try", str(builtin_rules_dir() / "modal.lit"), "modal=may",
                 "--limit", "40", "--examples", "3", "--html", str(page)]) == 0
    capsys.readouterr()
    assert browser.open(page) == []
    shot = tmp_path / "try.png"
    browser.screenshot(shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"screenshot: {shot}")
    assert browser.evaluate("Array.from(document.querySelectorAll('section')).map(s => s.id)") \
        == ["summary", "examples"]
    applied = "document.querySelectorAll('article.applied')"
    assert browser.evaluate(f"{applied}.length") == 3
    # each applied example: fired rule with file:line, edits, two graphs, two MRSs
    first = f"{applied}[0]"
    assert browser.evaluate(f"{first}.querySelector('h4').textContent") == "mrs/11 — It rained."
    fired = browser.evaluate(f"{first}.querySelector('.fired code').textContent")
    assert fired.startswith("modal.lit:") and fired.endswith("rule wrap")
    assert browser.evaluate(f"{first}.querySelectorAll('svg.dmrs').length") == 2
    assert browser.evaluate(f"Array.from({first}.querySelectorAll('h5')).map(h => h.textContent)"
                            ) == ["source MRS", "result MRS"]
    # the modal is new in the result: its node is highlighted, and drawn (it has a size)
    changed = browser.evaluate(
        f"Array.from({first}.querySelectorAll('svg.dmrs')[1].querySelectorAll('.node.changed'))"
        ".map(g => g.querySelector('text').textContent)")
    assert changed == ["_rain_v_1", "_may_v_modal"]  # the verb has a new label and tense
    box = browser.evaluate(
        f"(() => {{ const g = Array.from({first}.querySelectorAll('svg.dmrs')[1]"
        ".querySelectorAll('.node.changed'))"
        ".find(g => g.querySelector('text').textContent === '_may_v_modal');"
        " const r = g.querySelector('rect').getBoundingClientRect();"
        " return [r.width > 20, r.height > 10,"
        " getComputedStyle(g.querySelector('rect')).fill]; })()")
    assert box[:2] == [True, True] and box[2] == "rgb(255, 224, 138)"
    assert browser.evaluate(
        f"{first}.querySelectorAll('svg.dmrs')[1].querySelectorAll('.link.changed').length") >= 1
    # unchanged nodes are not highlighted; the source graph marks the rewritten verb
    assert browser.evaluate(
        f"{first}.querySelectorAll('svg.dmrs')[0].querySelectorAll('.node.changed').length") == 1
    # one example per refusal reason
    assert browser.evaluate("document.querySelectorAll('article.refusal').length") >= 1
    assert browser.errors() == []
