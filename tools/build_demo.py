"""Rebuild `lit demo`'s bundled data (lit/demo/pairs.jsonl, lit/demo/transcripts.jsonl.gz) from
the test oracle: the demo pairs, and exactly the recorded ACE transcripts a `lit nli` run on
them with the paper's specs asks for (found by running it through a logging fake ACE).

    python -m tools.build_demo      # prints what it wrote and the sizes
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ORACLE = ROOT / "tests" / "data" / "oracle"
DEMO = ROOT / "lit" / "demo"
#: Oracle NLI pairs shown by the demo: entailment, contradiction and neutral pairs whose
#: sentences transform under several of the paper's specs.
PAIR_IDS = ("s02:pass", "s02:neg", "s09:neg", "s74:neg", "s58:pass", "s54:tense=fut",
            "s55:tense=fut", "s22:same", "s02:cleft=ARG1", "s23:swap")


def _read(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main() -> int:
    from delphin.codecs import simplemrs

    from lit.equivalence import equivalent, fingerprint

    pairs = {r["pairID"]: r for r in _read(ORACLE / "nli-pairs.jsonl.gz")}
    chosen = [{k: pairs[i][k] for k in ("pairID", "sentence1", "sentence2", "gold_label")}
              for i in PAIR_IDS]
    (DEMO / "pairs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in chosen), "utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        wrapper = work / "ace"
        wrapper.write_text(
            "#!/bin/sh\n"
            f'log={work}/parse.log\nfor a in "$@"; do [ "$a" = "-e" ] && log={work}/gen.log; done\n'
            f'if [ "$1" = "-V" ]; then exec {sys.executable} {ROOT}/tests/fake_ace/fake.py "$@"; fi\n'
            f'tee -a "$log" | {sys.executable} {ROOT}/tests/fake_ace/fake.py "$@"\n'
        )
        wrapper.chmod(0o755)
        (work / "erg-2018.dat").write_text("replayed\n")
        subprocess.run(
            [sys.executable, "-m", "lit", "nli", str(DEMO / "pairs.jsonl"), "-o",
             str(work / "out.jsonl"), "--ace", str(wrapper), "--grammar",
             str(work / "erg-2018.dat"), "--grammar-version", "2018", "--scorer", "ace",
             "--workers", "1", "--no-progress", "--no-parse-cache"],
            check=True, capture_output=True, env=dict(os.environ),
        )
        parsed = set((work / "parse.log").read_text("utf-8").splitlines())
        generated = [simplemrs.decode(line) for line in
                     (work / "gen.log").read_text("utf-8").splitlines() if line.strip()]
    by_fp: dict[str, list] = {}
    for m in generated:
        by_fp.setdefault(fingerprint(m), []).append(m)
    kept = []
    for rec in _read(ORACLE / "ace-transcripts.jsonl.gz"):
        if rec["mode"] == "version" or (rec["mode"] == "parse" and rec["input"] in parsed):
            kept.append(rec)
        elif rec["mode"] == "generate":
            mrs = simplemrs.decode(rec["input"])
            if any(equivalent(mrs, m) for m in by_fp.get(fingerprint(mrs), [])):
                kept.append(rec)
    out = DEMO / "transcripts.jsonl.gz"
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        f.write("".join(json.dumps(r) + "\n" for r in kept).encode("utf-8"))
    print(f"{len(chosen)} pairs -> {DEMO / 'pairs.jsonl'}; {len(kept)} transcripts -> {out} "
          f"({out.stat().st_size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
