"""The Python API: lit.api.Engine over the fake ACE."""

from __future__ import annotations

import types

import pytest

from lit.api import Engine, as_item
from lit.errors import ConfigurationError, InputError


@pytest.fixture(scope="module")
def engine(fake_ace_config):
    with Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", workers=2,
                scorer="ace") as e:
        yield e


def test_transform_one_sentence(engine):
    rec = engine.transform("Alice gave Bob a book.", "tense=fut+pass")
    assert rec["status"] == "ok", rec
    assert rec["output"] == "A book will be given by Alice to Bob."
    assert rec["verified"] is True and rec["spec"] == "tense=fut+pass"
    assert "_give_v_1" in rec["mrs"] and "topic" in rec["mrs"]


def test_transform_all_streams_in_order(engine):
    records = engine.transform_all(iter(["A dog is running.", "Nothing parses here."]), "neg")
    assert isinstance(records, types.GeneratorType)
    first, second = list(records)
    assert first["output"] == "A dog is not running." and second["status"] == "no_parse"


def test_nli_accepts_dicts_and_tuples_and_streams(engine):
    pairs = [
        {"pairID": "x", "sentence1": "A woman is driving a car.",
         "sentence2": "A woman is driving a car.", "gold_label": "entailment"},
        ("A girl is reading a book.", "A girl is not reading a book.", "contradiction"),
        ("A girl is reading a book.", ""),
    ]
    stream = engine.nli(pairs, specs=["f;p", "m;o"])
    assert isinstance(stream, types.GeneratorType)
    a, b, c = stream
    assert (a["id"], b["id"], c["id"]) == ("x", "2", "3")
    fp = a["transforms"][0]
    assert fp["spec"] == "f;p" and fp["label"] == "neutral" and fp["status"] == "ok"
    assert b["transforms"][1]["premise"]["output"] == "A girl may be reading a book."
    assert b["input"]["gold_label"] == "contradiction"
    assert c["status"] == "invalid_input"
    assert engine.times.seconds["generate"] > 0


def test_bad_specs_fail_before_any_work(engine):
    with pytest.raises(InputError, match="zap"):
        list(engine.nli([("A.", "B.", "neutral")], specs=["f;zap"]))
    with pytest.raises(InputError, match="column"):
        engine.transform("A dog is running.", "tense=")
    assert "not int" in as_item(42, 1).error  # one bad item is that item's invalid_input


def test_engine_takes_at_most_its_location_by_position():
    with pytest.raises(InputError, match="at most 3 positional options"):
        Engine("ace", "erg.dat", "2018", "gpt2")


def test_one_run_for_every_task(tmp_path):
    """`run_nli` and `run_contrast` are `run` with a task; what is not a task's is refused
    before any ACE starts."""
    import lit

    data = tmp_path / "in.jsonl"
    data.write_text('{"sentence": "A film.", "label": 1}\n', encoding="utf-8")
    with pytest.raises(InputError, match="task sst2's records are not pair records"):
        lit.run(data, tmp_path / "out.jsonl", lit.RunOptions(task="sst2", self_pairs=True))
    with pytest.raises(InputError, match="task sst2 takes a single spec"):
        lit.run_contrast(data, tmp_path / "out.jsonl", "sst2", ["o;n"])
    with pytest.raises(InputError, match="task nli takes a pair spec"):
        lit.run_nli(data, tmp_path / "out.jsonl", ["neg"])


def test_engine_without_ace_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("LIT_ACE", raising=False)
    monkeypatch.delenv("LIT_GRAMMAR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(ConfigurationError):
        Engine(scorer="ace")


def test_close_stops_the_service(fake_ace_config):
    e = Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", workers=1, scorer="ace")
    with e:
        assert e.transform("A dog is running.", "o")["output"] == "A dog is running."
    with pytest.raises(RuntimeError, match="closed"):
        list(e.service.parse(["A dog is running."]))


def test_keep_unverified_is_opt_in(engine, fake_ace_config):
    """s26 'The women have finished the race.' + neg+ques: no realization re-parses to the
    intended MRS (the oracle's one unverifiable pair)."""
    sentence, spec = "The women have finished the race.", "neg+ques"
    dropped = engine.transform(sentence, spec)
    assert dropped["status"] == "not_verified" and dropped["output"] is None
    assert dropped["verified"] is False
    with Engine(fake_ace_config.ace, fake_ace_config.grammar, "2018", workers=1, scorer="ace",
                keep_unverified=True) as keeping:
        kept = keeping.transform(sentence, spec)
    assert kept["status"] == "not_verified" and kept["verified"] is False
    assert kept["output"] == kept["candidates"][0] == dropped["candidates"][0]
