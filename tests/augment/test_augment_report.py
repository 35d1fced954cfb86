"""`lit augment --report`: label distribution and shortcut MI before/after (fake ACE parses),
and its section in `lit report`."""

from __future__ import annotations

import json
from collections import Counter

from lit.cli import main
from tests.augment.conftest import ace_args
from tests.conftest import read_jsonl


def test_report_shows_labels_and_shortcut_mi_before_and_after(contrast, fake_ace_config,
                                                             tmp_path, capsys):
    out, rep = tmp_path / "train.jsonl", tmp_path / "rep.json"
    code = main(["augment", "--from-contrast", str(contrast), "-o", str(out), "--balance",
                 "--report", str(rep), *ace_args(fake_ace_config)])
    printed = capsys.readouterr().out
    assert code == 0
    report = json.loads(rep.read_text())
    golds = Counter(r["input"]["gold_label"] for r in read_jsonl(contrast))
    assert report["labels"]["before"] == {k: golds[k] for k in report["labels"]["before"]}
    assert report["labels"]["after"] == dict(Counter(r["label"] for r in read_jsonl(out)))
    assert report["parsed_pairs"]["before"] > 90 and len(report["shortcuts"]) == 10
    by_name = {s["feature"]: s for s in report["shortcuts"]}
    for s in report["shortcuts"]:
        for when in ("before", "after"):
            m = s[when]
            assert m["ci"][0] <= m["ci"][1] and m["count"] > 0
    # negation only ever marked contradictions; the negated premises (n;o, label N) and
    # negated hypotheses (o;n, label E) that augmentation adds break that shortcut
    neg = by_name["hypothesis:negated"]
    assert neg["before"]["mi"] > 0.25 and neg["after"]["ci"][1] < neg["before"]["ci"][0]
    assert "label distribution" in printed and "hypothesis:negated" in printed

    html = tmp_path / "r.html"
    assert main(["report", str(contrast), "--augmentation", str(rep), "-o", str(html)]) == 0
    page = html.read_text()
    assert 'id="augmentation"' in page and "hypothesis:negated" in page


def test_report_json_from_another_command_is_refused(contrast, tmp_path, capsys):
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"specs": {}}))  # what `lit evaluate -o` writes
    code = main(["report", str(contrast), "--augmentation", str(wrong), "-o",
                 str(tmp_path / "r.html")])
    assert code == 2 and f"{wrong}: not the JSON of `lit augment" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()
