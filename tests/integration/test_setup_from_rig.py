"""`lit setup --from DIR` with the rig's own files, then doctor, parse and nli on the copies it
installed (issue 10).

DIR holds what a user of the rig has: the ACE 0.9.30 tarball shipped in the LIT repository
(``transfer/ace-0.9.30-linux-64.tar.gz``, taken from the bare git mirror the rig was built from,
as ../shared/tools/rig/build_rig.sh does) and the compiled image LIT_GRAMMAR points at, named
as `lit setup --from` documents for images (``erg-<version>*.dat``; the rig calls it erg.dat,
which names no version, so it is linked in as ``erg-2025-x86-64-0.9.30.dat``).

The manifest's ACE is 0.9.34; a user-supplied archive is installed as the version it names
(``ace-0.9.30/ace``) and recorded with its own SHA-256 like every installed file, so the
integrity check still applies to what was installed. Every command after setup runs in a
subprocess with LIT_ACE/LIT_GRAMMAR unset, an empty cache/config of its own (LIT_CACHE_DIR,
LIT_CONFIG) and a PATH without ACE: only the installed copies can be found.

The mirror is looked for at $MIRROR/leo-liuzy+LIT_auto-gen-contrast-set/repo (the rig's own
convention), else /work/.mirror/...; without it the test is skipped and says so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

LIT_REPO = "leo-liuzy+LIT_auto-gen-contrast-set/repo"
ACE_TARBALL = "HEAD:transfer/ace-0.9.30-linux-64.tar.gz"
LIT = Path(sys.executable).with_name("lit")

PAIRS = [
    {"pairID": "p1", "sentence1": "A woman drives a car.",
     "sentence2": "A woman does not drive a car.", "gold_label": "contradiction"},
    {"pairID": "p2", "sentence1": "The teacher praised the students.",
     "sentence2": "The teacher praised the students.", "gold_label": "entailment"},
    {"pairID": "p3", "sentence1": "A dog chases a cat.", "sentence2": "A woman drives a car.",
     "gold_label": "neutral"},
]
SPECS = ["p;f", "pa;pa", "m;o"]


def _mirror() -> Path | None:
    roots = [os.environ.get("MIRROR"), "/work/.mirror"]
    for root in filter(None, roots):
        repo = Path(root) / LIT_REPO
        if (repo / "HEAD").is_file():
            return repo
    return None


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(environment for `lit`, setup's completed process) after `lit setup --from DIR`."""
    mirror = _mirror()
    if mirror is None:
        pytest.skip(f"no bare git mirror of github.com/leo-liuzy/LIT_auto-gen-contrast-set at "
                    f"$MIRROR/{LIT_REPO} or /work/.mirror/{LIT_REPO} (the ACE tarball comes "
                    "from it; see ../shared/tools/rig/README.md)")
    grammar = Path(os.environ["LIT_GRAMMAR"]).resolve()
    assert grammar.is_file(), grammar
    root = tmp_path_factory.mktemp("setup-from-rig")
    from_dir = root / "from"
    from_dir.mkdir()
    tarball = from_dir / "ace-0.9.30-linux-64.tar.gz"
    with open(tarball, "wb") as out:
        subprocess.run(["git", f"--git-dir={mirror}", "show", ACE_TARBALL], stdout=out,
                       check=True)
    (from_dir / "erg-2025-x86-64-0.9.30.dat").symlink_to(grammar)
    env = {k: v for k, v in os.environ.items()
           if k not in ("LIT_ACE", "LIT_GRAMMAR", "LIT_GRAMMAR_VERSION")}
    env.update(LIT_CACHE_DIR=str(root / "cache"), LIT_CONFIG=str(root / "config.toml"),
               PATH=str(LIT.parent), HOME=str(root))
    setup = lit(env, "setup", "--from", str(from_dir), "--no-progress", cwd=root)
    yield env, setup, root
    shutil.rmtree(root / "cache", ignore_errors=True)  # a 200 MB copy of the image


def lit(env: dict[str, str], *args: str, cwd: Path, timeout: float = 300):
    return subprocess.run([str(LIT), *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def test_setup_installs_the_rigs_files(installed):
    env, setup, root = installed
    assert setup.returncode == 0, setup.stderr
    cache = root / "cache"
    assert f"ACE 0.9.30: {cache / 'ace-0.9.30' / 'ace'} (installed from " in setup.stdout
    assert f"ERG 2025: {cache / 'grammars' / 'erg-2025.dat'} (installed from " in setup.stdout
    records = json.loads((cache / "integrity.json").read_text())
    assert set(records) == {"ace-0.9.30/ace", "grammars/erg-2025.dat"}
    assert records["ace-0.9.30/ace"]["source"].endswith("ace-0.9.30-linux-64.tar.gz")
    size = Path(os.environ["LIT_GRAMMAR"]).stat().st_size
    assert records["grammars/erg-2025.dat"]["size"] == size
    assert not (cache / "ace-0.9.34").exists()  # not passed off as the manifest's version


def test_doctor_parse_and_nli_use_the_installed_copies(installed):
    env, setup, root = installed
    assert setup.returncode == 0, setup.stderr
    cache = root / "cache"

    doctor = lit(env, "doctor", cwd=root)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert f"{cache / 'ace-0.9.30' / 'ace'} (from LIT's cache): ACE 0.9.30" in doctor.stdout
    assert "(from LIT's cache): ERG 2025" in doctor.stdout and "SHA-256 verified" in doctor.stdout
    assert "All good" in doctor.stdout

    parse = lit(env, "parse", "A woman drove a car.", cwd=root)
    assert parse.returncode == 0, parse.stderr
    for needle in ("_woman_n_1", "_drive_v_1", "_car_n_1", "TENSE: past"):
        assert needle in parse.stdout, parse.stdout

    (root / "pairs.jsonl").write_text("".join(json.dumps(p) + "\n" for p in PAIRS))
    nli = lit(env, "nli", "pairs.jsonl", "-o", "out.jsonl", "--scorer", "ace", "--workers", "2",
              "--no-progress", "--specs", ",".join(SPECS), cwd=root)
    assert nli.returncode == 0, nli.stderr
    records = [json.loads(line) for line in (root / "out.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == ["p1", "p2", "p3"]
    assert all(r["status"] == "ok" for r in records), [(r["status"], r["reason"]) for r in records]
    assert all([t["spec"] for t in r["transforms"]] == SPECS for r in records)
    by = {(r["id"], t["spec"]): t for r in records for t in r["transforms"]}
    # p;f: both sides transformed, verified, labelled by rule
    t = by[("p3", "p;f")]
    assert t["status"] == "ok", t
    assert (t["premise"]["output"], t["hypothesis"]["output"]) == (
        "A dog chased a cat.", "A woman will drive a car.")
    assert t["premise"]["verified"] and t["hypothesis"]["verified"]
    assert (t["label"], t["label_rule"]) == ("neutral", "tense_decoupled")
    # passive on both sides keeps the gold label
    t = by[("p1", "pa;pa")]
    assert t["status"] == "ok", t
    assert (t["premise"]["output"], t["hypothesis"]["output"]) == (
        "A car is driven by a woman.", "A car is not driven by a woman.")
    assert t["label"] == "contradiction"
    # label rules decide before generation: past premise, no rule for p;f
    t = by[("p2", "p;f")]
    assert t["status"] == "not_applicable" and "tense_decoupled" in t["reason"]
    assert all(by[(p["pairID"], "m;o")]["status"] == "ok" for p in PAIRS)
    assert "3 records" in nli.stderr
