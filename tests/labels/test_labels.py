"""Label rules: semantics of the default set on real ERG analyses, and the rule-file language."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.errors import InputError
from lit.labels import LabelRules, gold_code, phenomena_of
from lit.labels.names import label_code, normalize_label
from lit.spec import parse_pair
from lit.status import Status
from tests.conftest import ORACLE, read_jsonl


@pytest.fixture(scope="module")
def rules() -> LabelRules:
    return LabelRules.load()


@pytest.fixture(scope="module")
def ph() -> dict:
    """Phenomena of the oracle sources' analyses (ERG 2018), by source id."""
    return {
        s["id"]: phenomena_of(simplemrs.decode(s["mrs"]), "2018")
        for s in read_jsonl(ORACLE / "sources.jsonl.gz")
        if s["mrs"]
    }


def decide(rules, pair, gold, premise=None, hypothesis=None):
    return rules.decide(parse_pair(pair), gold, premise, hypothesis)


@pytest.mark.parametrize("pair", ["f;p", "p;f", "f;p +i", "p;f +i", "f;p +pa", "p;f +pa"])
@pytest.mark.parametrize("gold", ["entailment", "neutral", "contradiction"])
def test_tense_rows_make_present_pairs_neutral(rules, ph, pair, gold):
    d = decide(rules, pair, gold, ph["s02"], ph["s06"])  # both present progressive
    assert (d.status, d.label, d.rule) == (Status.OK, "neutral", "tense_decoupled")
    assert "different times" in d.rationale


def test_past_tense_original_blocks_the_tense_rule(rules, ph):
    """s16 'The teacher praised the students.' is past: no tense decoupling, no label."""
    for premise, hypothesis in [(ph["s16"], ph["s02"]), (ph["s02"], ph["s16"])]:
        d = decide(rules, "f;p", "entailment", premise, hypothesis)
        assert d.status == Status.NOT_APPLICABLE and d.label is None
        assert "tense_decoupled: precondition both.tense = pres does not hold" in d.reason


def test_missing_analysis_fails_preconditions(rules, ph):
    assert decide(rules, "f;p", "neutral", None, ph["s02"]).status == Status.NOT_APPLICABLE


def test_pair_expansion_matches_the_composed_rows(rules, ph):
    """'p;f +i' is 'p+i;f+i' (a row); 'p;f+i' is 'p;(f+i)', covered via the cleft-neutral rule."""
    spelled = decide(rules, "p+cleft;f+cleft", "entailment", ph["s02"], ph["s06"])
    assert (spelled.label, spelled.rule) == ("neutral", "tense_decoupled")
    glued = decide(rules, "p;f+i", "entailment", ph["s02"], ph["s06"])
    assert (glued.label, glued.rule) == ("neutral", "tense_decoupled+cleft_neutral")


@pytest.mark.parametrize("gold", ["entailment", "neutral", "contradiction"])
def test_label_preserving_rows(rules, gold):
    for pair, rule in [("o;o", "identity"), ("i;i", "cleft_both"), ("pa;pa", "passive_both")]:
        d = decide(rules, pair, gold)
        assert (d.status, d.label, d.rule) == (Status.OK, gold, rule)


def test_passive_or_cleft_composed_onto_any_covered_spec(rules):
    d = decide(rules, "n;o +pa", "contradiction")
    assert (d.label, d.rule) == ("neutral", "negated_premise+passive_neutral")
    d = decide(rules, "o;n+cleft=ARG2", "entailment")
    assert (d.label, d.rule) == ("contradiction", "negated_hypothesis+cleft_neutral")
    d = decide(rules, "pa;o", "contradiction")
    assert (d.label, d.rule) == ("contradiction", "identity+passive_neutral")


def test_modal_rows(rules):
    assert decide(rules, "m;o", "entailment").label == "neutral"
    assert decide(rules, "m;o", None).label == "neutral"  # `*` covers a missing label too
    assert decide(rules, "o;m", "entailment").label == "entailment"
    d = decide(rules, "o;m", "contradiction")
    assert d.status == Status.NOT_APPLICABLE and d.label is None
    assert "modal_hypothesis: maps no label for gold 'contradiction'" in d.reason
    assert decide(rules, "m;m", "contradiction").label == "neutral"
    assert decide(rules, "modal=must;o", "neutral").status == Status.NOT_APPLICABLE


def test_negation_on_either_side(rules):
    assert decide(rules, "o;n", "entailment").label == "contradiction"
    assert decide(rules, "o;n", "contradiction").label == "entailment"
    assert decide(rules, "o;n", "neutral").label == "neutral"
    assert decide(rules, "n;o", "entailment").label == "neutral"
    assert decide(rules, "n;n", "contradiction").label == "neutral"


@pytest.mark.parametrize("pair", ["q;q", "o;q", "q;o", "n+q;f", "f;p +q"])
def test_questions_get_no_label(rules, ph, pair):
    d = decide(rules, pair, "entailment", ph["s02"], ph["s06"])
    assert (d.status, d.label, d.rule) == (Status.OK, None, "question_no_label")
    assert "asserts nothing" in d.rationale


def test_no_consensus_label_is_skipped(rules):
    rule_id, reason = rules.skip_reason("-")
    assert rule_id == "no_consensus" and "no consensus" in reason
    assert rules.skip_reason("entailment") is None
    assert rules.skip_reason(None) is None
    for hf_or_text in (-1, "-1", " - "):  # Hugging Face datasets write -1 for SNLI's "-"
        assert rules.skip_reason(hf_or_text)[0] == "no_consensus"
    assert gold_code(-1) == "-" and gold_code(0) == "E" and gold_code("Contradiction") == "C"
    assert gold_code("maybe") is None and gold_code("hidden") is None and gold_code(True) is None


@pytest.mark.parametrize(
    "raw, code, label",
    [("E", "E", "entailment"), ("Neutral", "N", "neutral"), ("CONTRADICTION", "C", "contradiction"),
     ("entails", "E", "entailment"), ("contradicts", "C", "contradiction"), (" n ", "N", "neutral"),
     (0, "E", "entailment"), (1, "N", "neutral"), (2, "C", "contradiction"),
     ("-", "-", None), (-1, "-", None), ("-1", "-", None),
     (None, None, None), ("", None, None), ("hidden", None, None)],
)
def test_label_spellings(raw, code, label):
    assert label_code(raw) == code
    assert normalize_label(raw) == label


@pytest.mark.parametrize("raw", ["maybe", 3, -2, True, 1.0])
def test_unknown_label_spellings_are_errors(raw):
    with pytest.raises(ValueError, match="not an NLI label"):
        label_code(raw)
    with pytest.raises(ValueError, match="not an NLI label"):
        normalize_label(raw)


def test_preserves_label_reads_the_rule_map(rules):
    preserving = ["identity", "cleft_both", "passive_both", "identity+passive_neutral",
                  "passive_both+cleft_neutral",
                  "modal_hypothesis"]  # E and N to themselves; C gets no label, so is never scored
    changing = ["tense_decoupled", "modal_premise", "negated_hypothesis", "negated_both",
                "modal_both", "question_no_label", "negated_premise+passive_neutral",
                "tense_decoupled+passive_neutral+cleft_neutral"]
    assert [rules.preserves_label(r) for r in preserving] == [True] * len(preserving)
    assert [rules.preserves_label(r) for r in changing] == [False] * len(changing)
    for unknown in ["tense-future-past", "identity+no_such_neutral"]:
        with pytest.raises(KeyError, match=unknown.rpartition("+")[2]):
            rules.preserves_label(unknown)


def test_uncovered_pairs_get_no_guessed_label(rules, ph):
    for pair in ["s;s", "o;s", "f;o", "tense=past;tense=past"]:
        d = decide(rules, pair, "entailment", ph["s02"], ph["s06"])
        assert d.status == Status.NOT_APPLICABLE and d.label is None and d.rule is None
        assert d.reason.startswith(f"no label rule covers {parse_pair(pair)}")


def test_unknown_gold_label_is_uncovered_where_the_map_needs_it(rules):
    d = decide(rules, "o;o", "hidden")
    assert d.status == Status.NOT_APPLICABLE and "maps no label" in d.reason


def test_rules_apply_in_file_order_and_conditions_compare(ph):
    rules = LabelRules.parse(
        """
        rule past_first { pairs "f;f" when premise.tense = past map * -> C why "test" }
        rule not_negated { pairs "f;f" when both.negated != true, hypothesis.modal = none
                           map E -> E why "second" }
        """
    )
    assert decide(rules, "f;f", "entailment", ph["s16"], ph["s02"]).rule == "past_first"
    assert decide(rules, "f;f", "entailment", ph["s02"], ph["s06"]).rule == "not_negated"
    d = decide(rules, "f;f", "entailment", ph["s02"], ph["s55"])  # s55 'Alice did not see Bob.'
    assert d.status == Status.NOT_APPLICABLE
    assert decide(rules, "f;f", "entailment", ph["s02"], ph["s60"]).label is None  # 'can'


@pytest.mark.parametrize(
    "text, where",
    [
        ('rule a {\n  pairs "o;o"\n  map E => E why "x" }', "<t>:3:9"),
        ('rule a {\n  pairs "o;;o"\n  map E -> E why "x" }', "<t>:2:9"),
        ('rule a {\n  pairs "o;o"\n  why "x" }', "<t>:1"),
        ('rule a { why "x" }', "<t>:1"),
        ('rule a { pairs "o;o" map E -> E }', "<t>:1"),
        ('rule a { gold "-" why "x" }', "<t>:1"),
        ('rule a { pairs "o;o" map E -> E why "x" }\nrule a { gold "-" skip why "y" }', "<t>:2"),
        ('rule a { pairs "o;o" when premise.colour = red map * -> N why "x" }', "<t>:1:"),
    ],
)
def test_bad_rule_files_name_file_and_line(text, where):
    with pytest.raises(InputError) as exc:
        LabelRules.parse(text, "<t>")
    assert str(exc.value).startswith(where)


def test_load_names_a_missing_file(tmp_path):
    with pytest.raises(InputError, match="no-such.labels: cannot read"):
        LabelRules.load(tmp_path / "no-such.labels")


# --- `edit REL at POL` rules (issue 15) ------------------------------------------------------

def _edit(relation: str, polarity: str):
    from lit.logic import Edit

    return Edit("substitute", "_dog_n_1", "_animal_n_1", "ARG1 of _bark_v_1", polarity, relation)


def test_edit_rules_match_relation_and_polarity_with_wildcards():
    rules = LabelRules.parse(
        'rule up { edit hypernym at up\n map = -> E, E -> E\n why "up" }\n'
        'rule any { edit * at down\n map = -> N\n why "down" }\n'
    )
    pair = parse_pair("o;hyper")
    d = rules.decide(pair, "entailment", edit=_edit("hypernym", "up"), same_sentence=True)
    assert (d.label, d.rule, d.edit["polarity"]) == ("entailment", "up", "up")
    assert "ARG1 of _bark_v_1" in d.rationale
    d = rules.decide(pair, "contradiction", edit=_edit("sibling", "down"), same_sentence=True)
    assert (d.label, d.rule) == ("neutral", "any")
    # a real premise with gold E: `=` does not apply, E -> E does
    d = rules.decide(pair, "entailment", edit=_edit("hypernym", "up"))
    assert d.label == "entailment"
    d = rules.decide(pair, "neutral", edit=_edit("hypernym", "up"))
    assert d.status == Status.NOT_APPLICABLE and "maps no label for gold 'neutral'" in d.reason


def test_a_given_premise_rule_matches_only_an_edit_with_that_stand():
    """`given premise silent` needs a caller that read the premise (lit audit): an edit whose
    stand is unknown (lit nli's) or another stand falls through to the rules without it."""
    from dataclasses import replace

    rules = LabelRules.parse(
        'rule silent { edit hyponym at up given premise silent\n map E -> N\n why "s" }\n'
        'rule plain { edit hyponym at up\n map C -> C\n why "p" }\n'
    )
    pair, hypo = parse_pair("o;hypo"), _edit("hyponym", "up")
    d = rules.decide(pair, "entailment", edit=replace(hypo, premise="silent"))
    assert (d.label, d.rule, d.edit["premise"]) == ("neutral", "silent", "silent")
    assert "premise silent" in d.rationale
    for stand in (None, "supports", "excludes"):
        d = rules.decide(pair, "entailment", edit=replace(hypo, premise=stand))
        assert d.label is None and "plain: maps no label for gold 'entailment'" in d.reason
    assert rules.decide(pair, "contradiction", edit=replace(hypo, premise="silent")).rule == "plain"


def test_an_edit_no_rule_covers_is_not_applicable_with_the_edit_named(rules):
    d = rules.decide(parse_pair("o;hyper"), "entailment", edit=_edit("unrelated", "up"),
                     same_sentence=True)
    assert d.status == Status.NOT_APPLICABLE and d.label is None
    assert "relation unrelated" in d.reason and "polarity up" in d.reason


@pytest.mark.parametrize("text, where, message", [
    ('rule r { edit hypernym at sideways\n map = -> E\n why "x" }', "1:27", "polarity"),
    ('rule r { edit meronym at up\n map = -> E\n why "x" }', "1:15", "lexical relation"),
    ('rule r { edit hypernym at up\n why "x" }', "1:6", "needs a `map`"),
    ('rule r { edit hyponym at up given premise quiet\n map E -> N\n why "x" }', "1:43",
     "stand on the new material"),
])
def test_edit_rule_errors_name_line_and_column(text, where, message):
    from lit.errors import RuleError

    with pytest.raises(RuleError) as err:
        LabelRules.parse(text, "mine.labels")
    assert f"mine.labels:{where}" in str(err.value) and message in str(err.value)


@pytest.mark.parametrize("pair", ["o;hyper+tense=past", "o;hyper+neg", "pass;hyper"])
def test_an_edit_with_other_meaning_changes_is_not_labelled(rules, pair):
    d = rules.decide(parse_pair(pair), "entailment", edit=_edit("hypernym", "up"),
                     same_sentence=True)
    assert d.status == Status.NOT_APPLICABLE and "one meaning-changing step" in d.reason


def test_a_truth_preserving_step_beside_the_edit_is_allowed(rules):
    d = rules.decide(parse_pair("o;hyper+pass"), "entailment", edit=_edit("hypernym", "up"),
                     same_sentence=True)
    assert (d.label, d.rule) == ("entailment", "edit_generalize_up")
