"""tools/bench_stages.py on the fake ACE: every ACE item lands in one category, and the
categories agree with what the pipeline itself counts."""

from __future__ import annotations

import json
from itertools import groupby, islice

from lit.tasks.reader import read_nli
from tools import bench_stages
from tools.bench_pipeline import ORACLE_PAIRS

SPECS = ["f;p", "pa;pa"]  # pa;pa generates a route's twin


def test_categories_account_for_every_ace_item(tmp_path, capsys):
    out = tmp_path / "stages.json"
    assert bench_stages.main(["--fake", "--pairs", "3", "--specs", ",".join(SPECS),
                              "--per-spec", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    figures = json.loads(out.read_text())
    cats = figures["categories"]
    assert set(cats) == set(bench_stages.CATEGORIES)
    assert "verification re-parses" in printed and "each spec alone" in printed

    # source parses: each premise group's distinct sentences (no parse cache)
    items = list(islice(read_nli(ORACLE_PAIRS), 3))
    groups = [list(g) for _, g in groupby(items, key=lambda it: it.premise)]
    assert cats["parse"]["items"] == sum(
        len({s for it in g for s in (it.premise, it.hypothesis)}) for g in groups)
    assert figures["sources_distinct"] == len({s for it in items
                                               for s in (it.premise, it.hypothesis)})

    # generation and verification: what the Realizer counts, nothing left unclassified
    stats = figures["realizer_stats"]
    assert cats["generate"]["items"] + cats["twins"]["items"] == (
        stats["MRSs generated"] - stats.get("MRSs refused before generation", 0))
    assert cats["twins"]["items"] > 0
    assert cats["verify"]["items"] == stats["candidates re-parsed"] > 0
    assert cats["verify/repairs"]["items"] <= cats["verify"]["items"]
    assert cats["unclassified"]["items"] == 0
    assert cats["round trips"]["items"] == 0  # round_trip is off by default
    for kind in bench_stages.GENERATIONS:
        parts = [v for k, v in cats.items() if k.startswith(f"{kind}/")]
        assert sum(p["items"] for p in parts) == cats[kind]["items"]
    assert cats["ranking"]["items"] > 0

    # the figures add up
    top = [v for k, v in cats.items() if "/" not in k and k != "ranking"]
    assert abs(sum(c["ace_seconds"] for c in top) - figures["ace_seconds"]) < 1e-6
    assert abs(sum(c["share_of_ace"] for c in top) - 1) < 1e-6
    assert figures["wall_seconds_with_warmup"] > figures["wall_seconds"] > 0
    # busy: the items' worker time (the fake replays ACE's recorded :total, which may exceed
    # its own instant answers, so busy is not compared with utilisation here)
    assert figures["busy"] > 0 and figures["utilisation"] > 0
    assert abs(figures["busy"] - sum(c["wall_seconds"] for c in top) / figures["wall_seconds"] / 2) < 1e-9
    assert figures["processes_started"]["generate"][0] >= cats["generate"]["items"]
    assert "workers busy" in printed and "ACE processes started" in printed
    assert [s["spec"] for s in figures["per_spec"]] == SPECS
    assert all(s["mrss_generated"] > 0 for s in figures["per_spec"])
