"""AceService through the fake ACE: the real subprocess path, real recorded ERG output."""

from __future__ import annotations

import itertools
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from delphin.codecs import simplemrs

from lit.ace.config import AceConfig
from lit.ace.service import AceService
from lit.config import RunConfig
from lit.demo.replay import pick
from lit.equivalence import equivalent
from lit.errors import ConfigurationError
from lit.status import Status
from tests.conftest import ORACLE, read_jsonl
from tests.procs import children


@pytest.fixture(scope="module")
def sources() -> list[dict]:
    return [s for s in read_jsonl(ORACLE / "sources.jsonl.gz") if s["parsed"]]


@pytest.fixture
def one_worker(fake_ace_config: AceConfig):
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=1.0)) as service:
        yield service


def rename_variables(mrs_text: str, offset: int = 100) -> str:
    """The same MRS with every variable renumbered and the EPs in reverse order."""
    m = simplemrs.decode(mrs_text)
    renamed = re.sub(r"\b([hexiup])(\d+)\b", lambda g: f"{g[1]}{int(g[2]) + offset}",
                     simplemrs.encode(m, lnk=False))
    m2 = simplemrs.decode(renamed)
    return simplemrs.encode(
        type(m2)(m2.top, m2.index, list(reversed(m2.rels)), m2.hcons, m2.icons, m2.variables),
        lnk=False,
    )


def test_parse_returns_the_recorded_readings(fake_ace_service, sources):
    sentences = [s["sentence"] for s in sources]
    results = list(fake_ace_service.parse(sentences, n=5))
    assert [r.input for r in results] == sentences
    for source, result in zip(sources, results, strict=True):
        assert result.status is Status.OK, result.reason
        assert result.reason is None
        assert len(result.readings) == min(5, source["readings"])
        chosen = simplemrs.decode(result.readings[source["reading_index"]].mrs)
        assert equivalent(chosen, simplemrs.decode(source["mrs"])), source["sentence"]
        assert result.readings[0].derivation.startswith("(")
        assert result.ace_seconds is not None and result.ace_seconds > 0
        assert result.wall_seconds >= 0


def test_n_truncates_readings(fake_ace_service, sources):
    many = next(s for s in sources if s["readings"] >= 10)
    for n in (1, 3, 20):
        (result,) = fake_ace_service.parse([many["sentence"]], n=n)
        assert len(result.readings) == min(n, many["readings"])
    first = list(fake_ace_service.parse([many["sentence"]], n=1))[0].readings[0]
    assert list(fake_ace_service.parse([many["sentence"]], n=20))[0].readings[0] == first


def test_unknown_sentence_is_no_parse_and_the_next_item_still_parses(one_worker):
    results = list(one_worker.parse(["Colourless green ideas sleep furiously.", "Bob met Alice."]))
    assert results[0].status is Status.NO_PARSE
    assert results[0].reason == "ACE found no parse"
    assert results[1].status is Status.OK


def test_hang_becomes_timeout_and_the_next_item_succeeds(one_worker):
    results = list(one_worker.parse(["__HANG__ forever", "Bob met Alice."]))
    assert results[0].status is Status.TIMEOUT
    assert "within 1 s" in results[0].reason
    assert results[1].status is Status.OK
    assert results[1].readings


def test_crash_is_recovered_with_aces_stderr_as_reason(one_worker):
    results = list(one_worker.parse(["Bob met Alice.", "__CRASH__", "Bob met Alice."]))
    assert [r.status for r in results] == [Status.OK, Status.ACE_ERROR, Status.OK]
    assert "exited with code 134" in results[1].reason
    assert "Assertion" in results[1].reason  # quoted from ACE's stderr


def test_a_process_that_died_between_items_is_replaced(one_worker):
    items = ["__EXIT__ now", "Bob met Alice.", "__EXIT__ again", "A dog is chasing a cat."]
    results = list(one_worker.parse(items))
    assert [r.status for r in results] == [Status.NO_PARSE, Status.OK] * 2


def test_ace_stopping_at_its_own_time_limit_is_a_timeout_after_a_retry(one_worker):
    (result,) = one_worker.parse(["__GIVEUP__ on this one"])
    assert result.status is Status.TIMEOUT
    assert result.reason.startswith("ACE stopped at its 3 s time limit")
    assert result.attempts == 2  # time is a backstop: a fresh process gets one more try
    assert "depended on time, not on the grammar" in result.reason


def test_ace_error_line_is_quoted_in_the_reason(one_worker):
    (result,) = one_worker.parse(["__ERROR__ please"])
    assert result.status is Status.NO_PARSE
    assert "failure on command" in result.reason


@pytest.mark.parametrize("blank", ["", "   ", "\t", "\n", " \r\n "])
def test_empty_and_whitespace_input_is_answered_without_ace(one_worker, blank):
    (result,) = one_worker.parse([blank])
    assert result.status is Status.INVALID_INPUT
    assert result.reason == "empty or whitespace-only input"
    assert result.input == blank


def test_overlong_input_is_refused_with_a_reason(fake_ace_config):
    with AceService(fake_ace_config, RunConfig(workers=1, max_chars=30, max_words=4)) as service:
        long_chars, many_words, ok = service.parse(
            ["A woman is driving a car, very carefully indeed.", "a b c d e", "Bob met Alice."]
        )
    assert long_chars.status is Status.INVALID_INPUT and "limit is 30" in long_chars.reason
    assert many_words.status is Status.INVALID_INPUT and "5 words" in many_words.reason
    assert ok.status is Status.OK


def test_line_break_inside_a_sentence_does_not_desynchronise_ace(one_worker):
    results = list(one_worker.parse(["Bob met\nAlice.", "A woman is driving a car."]))
    assert [r.status for r in results] == [Status.OK, Status.OK]
    assert results[0].input == "Bob met\nAlice."
    assert "_drive_v_1" in results[1].readings[0].mrs


def test_thousand_items_with_faults_come_back_complete_and_in_order(fake_ace_config, sources):
    sentences = [s["sentence"] for s in sources]
    items, expected = [], []
    for i in range(1000):
        if i in (100, 600):
            items.append(f"__HANG__ {i}")
            expected.append(Status.TIMEOUT)
        elif i % 97 == 5:
            items.append(f"__CRASH__ {i}")
            expected.append(Status.ACE_ERROR)
        elif i % 89 == 7:
            items.append(f"__ERROR__ {i}")
            expected.append(Status.NO_PARSE)
        elif i % 83 == 11:
            items.append("  ")
            expected.append(Status.INVALID_INPUT)
        else:
            items.append(sentences[i % len(sentences)])
            expected.append(Status.OK)
    with AceService(fake_ace_config, RunConfig(workers=2, timeout=2.0)) as service:
        results = list(service.parse(items))
    assert len(results) == 1000
    assert [r.input for r in results] == items
    assert [r.status for r in results] == expected
    assert all(r.reason for r in results if r.status is not Status.OK)


def test_results_stream_before_the_input_ends(fake_ace_service):
    endless = itertools.cycle(["Bob met Alice.", "A dog is chasing a cat."])
    first = list(itertools.islice(fake_ace_service.parse(endless), 6))
    assert [r.status for r in first] == [Status.OK] * 6


def test_a_result_arrives_while_the_next_input_is_still_pending(fake_ace_service):
    first_seen = threading.Event()
    waited = []

    def slow_input():
        yield "Bob met Alice."
        waited.append(first_seen.wait(timeout=10))  # like a person typing the next line
        yield "A dog is chasing a cat."

    results = []
    for result in fake_ace_service.parse(slow_input()):
        results.append(result.status)
        first_seen.set()
    assert waited == [True] and results == [Status.OK, Status.OK]


def test_an_error_in_the_input_reaches_the_caller(fake_ace_service):
    def broken():
        yield "Bob met Alice."
        raise OSError("disk on fire")

    stream = fake_ace_service.parse(broken())
    with pytest.raises(OSError, match="disk on fire"):
        list(stream)


def test_concurrent_callers_each_get_their_own_order(fake_ace_service, sources):
    sentences = [s["sentence"] for s in sources]
    batches = [sentences * 3, list(reversed(sentences)) * 3]
    with ThreadPoolExecutor(2) as pool:
        outputs = list(pool.map(lambda b: [r.input for r in fake_ace_service.parse(b)], batches))
    assert outputs == batches


def test_generation_looks_up_by_equivalence_not_by_string(fake_ace_service, oracle_pairs):
    pair = next(p for p in oracle_pairs if p["target_realized"] and p["realizations_total"] > 1)
    renamed = rename_variables(pair["target_mrs_nolnk"])
    original_vars = set(simplemrs.decode(pair["target_mrs_nolnk"]).variables)
    assert not original_vars & set(simplemrs.decode(renamed).variables)
    results = list(fake_ace_service.generate([pair["target_mrs_nolnk"], renamed]))
    assert [r.input for r in results] == [pair["target_mrs_nolnk"], renamed]
    for result in results:
        assert result.status is Status.OK, result.reason
        assert list(result.surfaces[:20]) == pair["realizations"]
        assert len(result.surfaces) == pair["realizations_total"]
    assert pair["target"] in results[1].surfaces


def test_generation_limit_and_mrs_objects(fake_ace_service, oracle_pairs):
    pair = next(p for p in oracle_pairs if 3 <= p["realizations_total"] <= 20)
    mrs = simplemrs.decode(pair["target_mrs"])
    (result,) = fake_ace_service.generate([mrs], limit=2)
    assert result.status is Status.OK
    assert list(result.surfaces) == pick(pair["realizations"], 2)  # what ACE -n 2 gives
    assert simplemrs.decode(result.input).index == mrs.index


def test_generation_limit_holds_for_every_item_of_a_long_lived_generator(
    fake_ace_service, oracle_pairs
):
    """The fake counts -n across inputs as ACE 0.9.30 does, and a capped item's realizations
    depend on the budget left: every item must start with the whole budget, so an item gives
    the same realizations first, second or after any other items (a generator per item
    that consumed budget, counted in `starts`)."""
    pairs = [p for p in oracle_pairs if 4 <= p["realizations_total"] <= 20][:12]
    results = list(fake_ace_service.generate([p["target_mrs_nolnk"] for p in pairs] * 2,
                                             limit=3))
    for pair, result in zip(pairs * 2, results):
        assert result.status is Status.OK, result.reason
        assert list(result.surfaces) == pick(pair["realizations"], 3)
        assert result.capped
    assert fake_ace_service.starts["generate"] == 24
    assert fake_ace_service.start_seconds["generate"] > 0
    (whole,) = fake_ace_service.generate([pairs[0]["target_mrs_nolnk"]])
    assert len(whole.surfaces) == pairs[0]["realizations_total"] and not whole.capped


def test_generation_failures(fake_ace_service, oracle_pairs):
    failed = next(p for p in oracle_pairs if p.get("generation_error"))
    known = next(p for p in oracle_pairs if p["target_realized"])
    unknown = known["target_mrs_nolnk"].replace("_v_", "_zebra_v_", 1)
    crash = '[ TOP: h0 INDEX: e2 RELS: < [ named LBL: h1 ARG0: x3 CARG: "__CRASH__" ] > ]'
    results = list(fake_ace_service.generate(
        [failed["target_mrs_nolnk"], unknown, "not an MRS", "  ", crash, known["target_mrs_nolnk"]]
    ))
    statuses = [r.status for r in results]
    assert statuses == [Status.NO_GENERATION, Status.NO_GENERATION, Status.INVALID_INPUT,
                        Status.INVALID_INPUT, Status.ACE_ERROR, Status.OK]
    assert failed["generation_error"] in results[0].reason
    assert "not covered" in results[0].reason  # ACE's WARNING line from stderr
    assert results[1].reason == "ACE generated nothing"
    assert results[2].reason.startswith("not a SimpleMRS:") and "\n" not in results[2].reason


def test_bad_configuration_is_a_clear_error(fake_ace_config, tmp_path):
    with pytest.raises(ConfigurationError, match="ACE executable not found"):
        AceService(AceConfig(tmp_path / "nope", fake_ace_config.grammar, None))
    with pytest.raises(ConfigurationError, match="grammar image not found"):
        AceService(AceConfig(fake_ace_config.ace, tmp_path / "nope.dat", None))


def test_missing_grammar_at_ace_start_is_an_ace_error_per_item(fake_ace_config, tmp_path):
    grammar = tmp_path / "erg.dat"
    grammar.write_text("x")
    with AceService(AceConfig(fake_ace_config.ace, grammar, None), RunConfig(workers=1)) as service:
        grammar.unlink()  # ACE itself now fails to open it
        results = list(service.parse(["Bob met Alice.", "A dog is chasing a cat."]))
    assert [r.status for r in results] == [Status.ACE_ERROR, Status.ACE_ERROR]
    assert "unable to open grammar" in results[0].reason


def test_close_is_idempotent_and_final(fake_ace_config):
    service = AceService(fake_ace_config, RunConfig(workers=1))
    assert list(service.parse(["Bob met Alice."]))[0].status is Status.OK
    service.close()
    service.close()
    with pytest.raises(RuntimeError, match="closed"):
        list(service.parse(["Bob met Alice."]))


def _ace_children() -> list[tuple[int, bool]]:
    """(pid, is a generator) for every live ACE process started by this test process."""
    found = []
    for pid in children():
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(b"ace" in a for a in argv[:2]):
            found.append((pid, b"-e" in argv))
    return found


def test_no_generator_stays_idle_after_its_item(fake_ace_config, oracle_pairs):
    """A generator serves one item and is closed as soon as it answers, so it does not hold
    that item's memory while the worker parses (issue 23: memory per worker)."""
    mrss = [p["target_mrs_nolnk"] for p in oracle_pairs[:3]]
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=2.0)) as service:
        before = {pid for pid, _ in _ace_children()}
        results = list(service.generate(mrss, limit=4))
        assert all(r.status is Status.OK for r in results)
        assert service.starts["generate"] == 3
        assert not [pid for pid, gen in _ace_children() if gen and pid not in before]


def test_a_parser_holding_more_than_the_idle_cap_is_replaced(fake_ace_config, sources):
    """ACE keeps its largest item's memory: a parser over `idle_megabytes` after an item is
    closed and the next item gets a fresh one; under the cap one parser serves all."""
    sentences = [s["sentence"] for s in sources[:4]]
    with AceService(fake_ace_config, RunConfig(workers=1, timeout=2.0, idle_megabytes=1)) as small:
        assert all(r.status is Status.OK for r in small.parse(sentences))
        assert small.starts["parse"] == 4
    with AceService(
        fake_ace_config, RunConfig(workers=1, timeout=2.0, idle_megabytes=10_000)
    ) as large:
        assert all(r.status is Status.OK for r in large.parse(sentences))
        assert large.starts["parse"] == 1
