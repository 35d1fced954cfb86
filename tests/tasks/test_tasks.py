"""Task profiles, label sets and label rules for any task, sentence splitting and the task
readers (issue 26; docs/tasks.md). No ACE: `lit contrast` itself is tested through the fake
ACE in tests/commands/test_contrast.py."""

from __future__ import annotations

import json

import pytest
from delphin.codecs import simplemrs

from lit.errors import InputError, RuleError
from lit.labels import LabelRules, phenomena_of
from lit.labels.names import NLI, LabelSet
from lit.spec import parse_pair, parse_text_spec
from lit.status import Status
from lit.tasks import NLI_TASK, builtin_tasks, load_task
from lit.tasks.item import TaskItem
from lit.tasks.reader import as_item, read_nli, read_task
from lit.tasks.sentences import split
from tests.conftest import ORACLE, read_jsonl


@pytest.fixture(scope="module")
def ph() -> dict:
    """Phenomena of the oracle sources' analyses (ERG 2018), by source id."""
    return {s["id"]: phenomena_of(simplemrs.decode(s["mrs"]), "2018")
            for s in read_jsonl(ORACLE / "sources.jsonl.gz") if s["mrs"]}


# --- profiles -------------------------------------------------------------------------------

def test_builtin_profiles_load_with_their_rules():
    assert builtin_tasks() == ("mrpc", "nli", "qqp", "rte", "sst2")
    for name in builtin_tasks():
        profile = load_task(name)
        rules = profile.load_label_rules()
        assert profile.name == name and rules.rules and profile.specs
        assert all(r.why for r in rules.rules)  # a rationale per rule
    sst2, qqp = load_task("sst2"), load_task("qqp")
    assert (sst2.sides, sst2.is_pair, sst2.labels.names) == (("text",), False,
                                                            ("negative", "positive"))
    assert (qqp.sides, qqp.is_pair, qqp.fields["text1"]) == (("text1", "text2"), True,
                                                             ("question1",))


def test_nli_profile_is_lit_nli_labels_and_rules():
    """The nli profile describes what `lit nli` reads: the same labels, spellings, integers
    and the default rule file."""
    nli = load_task(NLI_TASK)
    for part in ("names", "codes", "spellings", "integers", "no_consensus"):
        assert getattr(nli.labels, part) == getattr(NLI, part), part
    default = LabelRules.load()
    assert [r.id for r in nli.load_label_rules().rules] == [r.id for r in default.rules]
    assert nli.sides == ("premise", "hypothesis")


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
name = "mine"
sides = ["review"]
label_rules = "mine.labels"
[fields]
review = ["body", "text"]
[labels]
names = ["bad", "good"]
"""


@pytest.mark.parametrize("text, expected", [
    ("name = 'x'\nsides = [", "not a TOML task profile"),
    (GOOD.replace('sides = ["review"]', 'sides = ["review"]\ncolour = 1'),
     "colour: unknown key"),
    (GOOD.replace('label_rules = "mine.labels"', ""), "label_rules: missing"),
    (GOOD.replace('label_rules = "mine.labels"', 'label_rules = "gone.labels"'),
     "label_rules: no file"),
    (GOOD.replace('review = ["body", "text"]', 'text = ["body"]'),
     "fields.text: not a side, label or id"),
    (GOOD.replace('sides = ["review"]', 'sides = ["a", "b", "c"]'), "sides: expected one side"),
    (GOOD.replace('sides = ["review"]', 'sides = ["label"]').replace("review =", "label ="),
     "sides: 'label' is a record key"),
    (GOOD.replace('names = ["bad", "good"]', 'names = ["bad", "good"]\n'
                  'spellings = { bad = ["good"] }'), "'good' spells two labels"),
    (GOOD.replace('names = ["bad", "good"]', 'names = ["bad", "none"]'),
     "cannot spell a label"),
    (GOOD.replace('name = "mine"', 'name = "nli"'), "the built-in task"),
    (GOOD.replace('name = "mine"', 'name = "sst2"'), "the built-in task"),
    (GOOD.replace('sides = ["review"]', 'sides = ["review"]\nrecords = "rows"'),
     "records: expected 'pairs' or 'contrast'"),
    (GOOD.replace('sides = ["review"]', 'sides = ["review"]\nrecords = "pairs"'),
     "records: 'pairs' records need two sides"),
])
def test_profile_mistakes_name_the_file_and_key(tmp_path, text, expected):
    write(tmp_path / "mine.labels", "")
    path = write(tmp_path / "mine.toml", text)
    with pytest.raises(InputError) as err:
        load_task(str(path))
    assert str(path) in str(err.value) and expected in str(err.value)


def test_unknown_task_lists_the_builtin_ones():
    with pytest.raises(InputError, match="unknown task 'imdb'.*mrpc, nli, qqp, rte, sst2"):
        load_task("imdb")


def test_custom_profile_needs_no_python(tmp_path):
    write(tmp_path / "mine.labels", 'rule keeps { specs "pass" map * -> keep why "Same." }\n')
    profile = load_task(str(write(tmp_path / "mine.toml", GOOD)))
    assert (profile.sides, profile.fields["review"], profile.fields["label"]) == (
        ("review",), ("body", "text"), ())
    d = profile.load_label_rules().decide(parse_text_spec("pass"), "good")
    assert (d.status, d.label, d.rule) == (Status.OK, "good", "keeps")


# --- label sets -----------------------------------------------------------------------------

def test_label_set_reads_every_spelling():
    labels = load_task("qqp").labels
    assert [labels.name(v) for v in (0, 1, "duplicate", " D ", "not duplicate", "ND")] == [
        "not_duplicate", "duplicate", "duplicate", "duplicate", "not_duplicate",
        "not_duplicate"]
    assert [labels.name(v) for v in (-1, None, "", "hidden")] == [None] * 4
    with pytest.raises(ValueError, match="not a label of task qqp: 'maybe' "
                       r"\(use not_duplicate, duplicate or ND/D\)"):
        labels.name("maybe")
    with pytest.raises(ValueError, match=r"integers 0, 1 = ND, D; -1 = none"):
        labels.name(2)


def test_nli_label_set_keeps_its_messages():
    with pytest.raises(ValueError, match=r"not an NLI label: 'maybe' \(use entailment, neutral, "
                       "contradiction or E/N/C\\)"):
        NLI.code("maybe")
    assert (NLI.code(-1), NLI.code("-"), NLI.code("-1"), NLI.name("-")) == ("-", "-", "-", None)


def test_label_set_build_refuses_ambiguity():
    with pytest.raises(ValueError, match="distinct"):
        LabelSet.build(("a", "a"))
    with pytest.raises(ValueError, match="not a label"):
        LabelSet.build(("a", "b"), spellings={"c": ("x",)})


# --- label rules over a task's labels -------------------------------------------------------

def test_rule_files_speak_the_tasks_labels():
    labels = load_task("sst2").labels
    with pytest.raises(RuleError) as err:
        LabelRules.parse('rule r {\n    specs "pass"\n    map E -> E\n    why "x"\n}\n',
                         "mine.labels", labels)
    assert (err.value.line, err.value.column) == (3, 9)
    assert "'E' is not a label of task sst2 (labels: NEG, POS; or *, =)" in str(err.value)
    rules = LabelRules.parse('rule r { specs "pass" map positive -> NEG, NEG -> keep '
                             'why "x" }', "mine.labels", labels)
    assert rules.decide(parse_text_spec("pass"), "positive").label == "negative"
    assert rules.decide(parse_text_spec("pass"), 0).label == "negative"  # kept
    assert rules.preserves_label("r") is False


def test_keep_is_label_preserving_and_none_is_not():
    rules = load_task("sst2").load_label_rules()
    assert rules.preserves_label("passive_keeps") is True
    assert rules.preserves_label("negation_open") is False


@pytest.mark.parametrize("spec, gold, label, rule", [
    ("pass", "positive", "positive", "passive_keeps"),
    ("cleft", "negative", "negative", "cleft_keeps"),
    ("tense=past", "positive", "positive", "tense_keeps"),
    ("gender=swap", "negative", "negative", "demographic_keeps"),
    ("name=f", "positive", "positive", "demographic_keeps"),
    ("neg", "positive", None, "negation_open"),
    ("modal=may", "negative", None, "modal_open"),
    ("ques", "positive", None, "question_no_label"),
    ("pass", None, None, "passive_keeps"),  # unlabelled data stays unlabelled
])
def test_sst2_rules(ph, spec, gold, label, rule):
    d = load_task("sst2").load_label_rules().decide(parse_text_spec(spec), gold, ph["s16"],
                                                    ph["s16"])
    assert (d.status, d.label, d.rule) == (Status.OK, label, rule)
    assert d.rationale


def test_sst2_tense_exception_comes_before_the_invariance(ph):
    """s60 'The boy can swim.' has a modal: moving it in time gets no label, and says why."""
    rules = load_task("sst2").load_label_rules()
    d = rules.decide(parse_text_spec("tense=past"), "positive", ph["s60"], ph["s60"])
    assert (d.status, d.label, d.rule) == (Status.OK, None, "tense_under_modal")
    assert "could have been great" in d.rationale


def test_uncovered_single_text_spec_names_the_spec():
    d = load_task("sst2").load_label_rules().decide(parse_text_spec("prog=+"), "positive")
    assert d.status == Status.NOT_APPLICABLE and d.label is None
    assert d.reason == "no label rule covers prog=+"


@pytest.mark.parametrize("task, pair, gold, label, rule", [
    ("qqp", "o;p", "duplicate", "not_duplicate", "tense_one_side"),
    ("qqp", "o;f", "not_duplicate", None, "tense_one_side"),
    ("qqp", "pa;o", "duplicate", "duplicate", "identity+passive_neutral"),
    ("qqp", "gender=swap;gender=swap", "not_duplicate", "not_duplicate", "demographic_both"),
    ("qqp", "o;gender=swap", "duplicate", "not_duplicate", "demographic_one_side"),
    ("qqp", "o;n", "duplicate", None, "negation_open"),
    ("mrpc", "o;n", "equivalent", "not_equivalent", "negation_one_side"),
    ("mrpc", "o;q", "equivalent", "not_equivalent", "question_one_side"),
    ("mrpc", "p;p", 1, "equivalent", "same_tense_both"),
    ("rte", "o;n", "entailment", "not_entailment", "negated_hypothesis"),
    ("rte", "o;n", "not_entailment", None, "negated_hypothesis"),
    ("rte", "m;m", "not_entailment", "not_entailment", "modal_both"),
    ("rte", "m;o", 0, "not_entailment", "modal_premise"),
    ("rte", "f;p", "entailment", "not_entailment", "tense_decoupled"),
])
def test_pair_task_rules(ph, task, pair, gold, label, rule):
    d = load_task(task).load_label_rules().decide(parse_pair(pair), gold, ph["s02"], ph["s06"])
    assert (d.status, d.label, d.rule) == (Status.OK, label, rule)


def test_rte_rules_are_the_nli_rules_with_neutral_and_contradiction_merged(ph):
    """Wherever an NLI rule sends N and C to one label, RTE's rule of the same id sends
    not_entailment there; E goes where NLI sends it (C, N -> not_entailment)."""
    nli, rte = LabelRules.load(), load_task("rte").load_label_rules()
    merged = {"entailment": "entailment", "neutral": "not_entailment",
              "contradiction": "not_entailment", None: None}
    for rule in rte.rules:
        for pair in rule.pairs:
            for gold in ("entailment", "neutral", "contradiction"):
                old = nli.decide(pair, gold, ph["s02"], ph["s06"])
                new = rte.decide(pair, merged[gold], ph["s02"], ph["s06"])
                if old.status != Status.OK:
                    continue
                assert new.rule == old.rule
                if new.label is not None:
                    assert new.label == merged[old.label], (rule.id, gold)


# --- sentences ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, sentences", [
    ("The film is long. I loved it!", ["The film is long.", "I loved it!"]),
    ("  Mr. Smith arrived at 3.5 p.m. today.\n\nHe left. ",
     ["Mr. Smith arrived at 3.5 p.m. today.", "He left."]),
    ("it 's a charming and often affecting journey . ",
     ["it 's a charming and often affecting journey ."]),
    ("one sentence without a stop", ["one sentence without a stop"]),
])
def test_sentences_are_spans_of_the_text(text, sentences):
    spans = split(text)
    assert [text[a:b] for a, b in spans] == sentences
    between = [text[b:a] for (_, b), (a, _) in zip(spans, spans[1:])]
    assert all(not gap.strip() for gap in between)


# --- readers --------------------------------------------------------------------------------

def test_task_reader_reads_fields_labels_and_bad_records(tmp_path):
    path = write(tmp_path / "sst2.jsonl", "\n".join([
        json.dumps({"idx": 7, "sentence": "A dog is running.", "label": 1}),
        json.dumps({"idx": 8, "text": "A woman is dancing.", "label": "negative"}),
        json.dumps({"idx": 9, "label": 0}),
        json.dumps({"idx": 10, "sentence": "   ", "label": 0}),
        json.dumps({"idx": 11, "sentence": "A dog is running.", "label": "maybe"}),
        json.dumps({"idx": 12, "sentence": "A dog is running.", "label": -1}),
        "{not json",
    ]) + "\n")
    items = list(read_task(path, load_task("sst2")))
    assert [i.id for i in items] == ["7", "8", "9", "10", "11", "12", "7"]
    assert [(i.texts, i.gold) for i in items[:2]] == [
        (("A dog is running.",), "positive"), (("A woman is dancing.",), "negative")]
    assert items[5].gold is None and items[5].error is None
    errors = [i.error for i in items[2:5]] + [items[6].error]
    assert errors[0] == f"{path}:3: no field for text (tried sentence, text; fields: idx, label)"
    assert errors[1] == f"{path}:4: no text in field 'sentence'"
    assert errors[2].startswith(f"{path}:5: field 'label': not a label of task sst2: 'maybe'")
    assert errors[3].startswith(f"{path}:7: not JSON")


def test_csv_digits_and_named_columns(tmp_path):
    path = write(tmp_path / "qqp.csv", "id,q1,q2,is_duplicate\n"
                 "1,A dog is running.,A woman is dancing.,0\n2,A dog is running.,,1\n")
    items = list(read_task(path, load_task("qqp"), columns={"text1": "q1", "text2": "q2"}))
    assert (items[0].id, items[0].texts, items[0].gold) == (
        "1", ("A dog is running.", "A woman is dancing."), "not_duplicate")
    assert items[1].error == f"{path}:3: no text in field 'q2'"
    missing = list(read_task(path, load_task("qqp")))
    assert all("no field for text1 (tried question1; fields: id, q1, q2, is_duplicate)"
               in i.error for i in missing)
    with pytest.raises(InputError, match="task qqp has no side 'text'"):
        list(read_task(path, load_task("qqp"), columns={"text": "q1"}))


def test_datasets_folder_labels_come_from_its_class_label(tmp_path):
    datasets = pytest.importorskip("datasets")
    features = datasets.Features({"sentence": datasets.Value("string"),
                                  "label": datasets.ClassLabel(names=["neg", "pos"]),
                                  "idx": datasets.Value("int32")})
    data = datasets.Dataset.from_dict(
        {"sentence": ["A dog is running.", "A woman is dancing."], "label": [1, 0],
         "idx": [0, 1]}, features=features)
    data.save_to_disk(str(tmp_path / "sst2"))
    items = list(read_task(tmp_path / "sst2", load_task("sst2")))
    assert [(i.id, i.gold) for i in items] == [("0", "positive"), ("1", "negative")]
    odd = datasets.Features({**features, "label": datasets.ClassLabel(names=["bad", "spam"])})
    datasets.Dataset.from_dict({"sentence": ["A dog is running."], "label": [1], "idx": [0]},
                               features=odd).save_to_disk(str(tmp_path / "odd"))
    (item,) = read_task(tmp_path / "odd", load_task("sst2"))
    assert "field 'label': ClassLabel name 'spam' (integer 1): not a label of task sst2" \
        in item.error


def test_hf_name_reads_through_load_dataset(tmp_path):
    """`hf:NAME:SPLIT` goes through `datasets.load_dataset(NAME, split=SPLIT)`; a local folder
    of data files stands in for a hub dataset (no network here)."""
    pytest.importorskip("datasets")
    folder = tmp_path / "glue-qqp"
    folder.mkdir()
    write(folder / "validation.jsonl", json.dumps(
        {"question1": "A dog is running.", "question2": "A woman is dancing.", "label": 1,
         "idx": 4}) + "\n")
    (item,) = read_task(f"hf:{folder}:validation", load_task("qqp"))
    assert (item.id, item.gold, item.error) == ("4", "duplicate", None)


# --- one item, one reader -------------------------------------------------------------------


def test_only_the_nli_profile_says_its_records_are_pairs():
    """What sets NLI apart is the profile's data (`records = "pairs"`), not its name."""
    assert [t for t in builtin_tasks() if load_task(t).pair_records] == [NLI_TASK]


def test_a_user_profile_of_pair_records_reads_as_nli_does(tmp_path):
    write(tmp_path / "two.labels", load_task(NLI_TASK).label_rules.read_text(encoding="utf-8"))
    profile = write(tmp_path / "two.toml", GOOD.replace('name = "mine"', 'name = "two"')
                    .replace('sides = ["review"]', 'sides = ["a", "b"]\nrecords = "pairs"')
                    .replace('label_rules = "mine.labels"', 'label_rules = "two.labels"')
                    .replace('review = ["body", "text"]', 'a = ["first"]\nb = ["second"]'))
    data = write(tmp_path / "d.jsonl", json.dumps({"first": "A.", "second": ""}) + "\n")
    (item,) = read_task(data, load_task(str(profile)))
    assert item.error == f"{data}:1: no sentence in field 'second'"


def test_as_item_reads_tuples_and_dicts_by_the_profile():
    sst2 = load_task("sst2")
    item = as_item(("The film is charming.", 1, "s7"), 3, sst2)
    assert (item.id, item.texts, item.gold, item.input) == (
        "s7", ("The film is charming.",), "positive",
        {"sentence": "The film is charming.", "label": 1})
    assert item.premise == item.hypothesis == "The film is charming."
    pair = as_item(("A dog runs.", "An animal runs.", "entailment"), 1)
    assert pair.input == {"sentence1": "A dog runs.", "sentence2": "An animal runs.",
                          "gold_label": "entailment"} and pair.id == "1"
    # ids are looked for under the profile's id fields, one list for files and Python
    assert as_item({"premise": "A.", "hypothesis": "B.", "idx": 9}, 2).id == "9"
    assert as_item(TaskItem("x", 1, {}, ("A.",)), 1, sst2).id == "x"
    assert as_item(42, 5, sst2).error == ("record 5: expected a dict of the task's fields or "
                                          "a (text, label) tuple, not int")


def test_read_nli_is_read_task_with_the_nli_profile(tmp_path):
    data = write(tmp_path / "d.jsonl", "\n".join(json.dumps(r) for r in (
        {"pairID": "p1", "sentence1": "A.", "sentence2": "B.", "gold_label": "-"},
        {"premise": "C.", "hypothesis": "D.", "label": 2, "idx": 4})) + "\n")
    items = list(read_nli(data))
    assert items == list(read_task(data, load_task(NLI_TASK)))
    # the gold stays as read: the label rules see SNLI's "-" (no consensus) as such
    assert [(i.id, i.texts, i.gold) for i in items] == [
        ("p1", ("A.", "B."), "-"), ("4", ("C.", "D."), 2)]
