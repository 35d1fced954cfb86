"""The layout the README promises: `labelrules/` shows the label-rule files a linguist edits, as
`rules/` shows the rule modules, while the files themselves ship inside the package."""

from __future__ import annotations

import tomllib

from tools.layout import PACKAGE

ROOT = PACKAGE.parent
SHOWN = ROOT / "labelrules"


def test_labelrules_shows_every_label_rule_file_the_package_ships():
    links = sorted(p for p in SHOWN.rglob("*") if p.is_symlink())
    dangling = [str(p.relative_to(ROOT)) for p in links if not p.exists()]
    assert not dangling, f"links in labelrules/ to no file: {dangling}"
    shown = {p.resolve() for p in links}
    shipped = {p.resolve() for p in PACKAGE.rglob("*.labels")}
    assert shipped, "the package ships no .labels file"
    missing = sorted(str(p.relative_to(ROOT)) for p in shipped - shown)
    assert not missing, f"label-rule files not shown in labelrules/: {missing}"
    outside = sorted(str(p) for p in shown - shipped)
    assert not outside, f"labelrules/ links to files the package does not ship: {outside}"
    assert (ROOT / "rules").resolve() == PACKAGE / "rules" / "modules"


def test_label_rule_files_are_package_data():
    """pip users get the label rules the links show (setuptools package data)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.labels" in config["tool"]["setuptools"]["package-data"]["*"]
