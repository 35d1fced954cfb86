"""The Hugging Face path, through the real loading code, on a tiny randomly initialised BERT
built offline in a tmp dir (no weights can be downloaded): batching and label mapping."""

from __future__ import annotations

import json

import pytest

from lit.cli import main
from lit.errors import ConfigurationError, InputError
from lit.evaluate.model import HFClassifier, label_map_from_config, parse_label_map
from tests.conftest import DATA

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

CONTRAST = DATA / "eval" / "contrast.jsonl"
ID2LABEL = {0: "CONTRADICTION", 1: "ENTAILMENT", 2: "NEUTRAL"}


def _vocab() -> list[str]:
    """Special tokens plus every lower-cased word and punctuation mark of the fixture."""
    words = set()
    for line in CONTRAST.read_text().splitlines():
        rec = json.loads(line)
        texts = [rec["input"]["sentence1"], rec["input"]["sentence2"]]
        for t in rec["transforms"]:
            texts += [(t.get(side) or {}).get("output") or "" for side in ("premise", "hypothesis")]
        for text in texts:
            words.update(text.lower().replace(".", " . ").replace("?", " ? ").split())
    return ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]


def _save_tiny_bert(path, bias: list[float] | None = None):
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    path.mkdir()
    vocab = _vocab()
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizerFast(vocab_file=str(path / "vocab.txt")).save_pretrained(path)
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64, num_labels=3, id2label=ID2LABEL,
        label2id={v: k for k, v in ID2LABEL.items()},
    )
    model = BertForSequenceClassification(config)
    if bias is not None:  # a constant classifier: its answer shows which index maps to what
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.copy_(torch.tensor(bias))
    model.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def random_model(tmp_path_factory):
    return _save_tiny_bert(tmp_path_factory.mktemp("m") / "random")


@pytest.fixture(scope="module")
def constant_model(tmp_path_factory):
    return _save_tiny_bert(tmp_path_factory.mktemp("m") / "constant", bias=[0.0, 5.0, 0.0])


PAIRS = [
    ("A woman is driving a car.", "A woman is not driving a car."),
    ("A dog is chasing a cat.", "It is a dog that is chasing a cat."),
    ("Mary likes the dog.", "The dog is liked by Mary."),
    ("The man may be painting a wall.", "The man will be painting a wall."),
    ("A girl is reading a book.", "A girl is reading a book."),
]


def test_batching_does_not_change_predictions(random_model):
    one = HFClassifier(str(random_model), batch_size=1, device="cpu")
    three = HFClassifier(str(random_model), batch_size=3, device="cpu")
    preds = one.predict(PAIRS)
    assert preds == three.predict(PAIRS)
    assert len(preds) == len(PAIRS) and set(preds) <= {"entailment", "neutral", "contradiction"}
    # the same as calling the model by hand, one unpadded pair at a time
    for (p, h), pred in zip(PAIRS, preds):
        enc = one.tokenizer(p, h, return_tensors="pt")
        index = int(one.model(**enc).logits.argmax())
        assert pred == ID2LABEL[index].lower()


def test_label_map_from_config_and_override(constant_model):
    """The constant model always picks class 1: ENTAILMENT by its config, or whatever
    --label-map says class 1 is."""
    clf = HFClassifier(str(constant_model))
    assert clf.label_map == {"contradiction": 0, "entailment": 1, "neutral": 2}
    assert set(clf.predict(PAIRS)) == {"entailment"}
    remapped = HFClassifier(str(constant_model), parse_label_map("E=2,N=1,C=0"))
    assert set(remapped.predict(PAIRS)) == {"neutral"}


def test_cli_with_model(constant_model, tmp_path, capsys):
    out, saved = tmp_path / "scores.json", tmp_path / "preds.jsonl"
    argv = ["evaluate", str(CONTRAST), "--model", str(constant_model), "--batch-size", "4",
            "-o", str(out), "--save-predictions", str(saved)]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    specs = {r["spec"]: r for r in data["specs"]}
    # always "entailment": right on originals with gold E (i;i originals all E), wrong on N labels
    assert specs["i;i"]["acc_ori"] == 1.0 and specs["i;i"]["acc_ctr"] == 1.0
    assert specs["f;p"]["acc_ctr"] == 0.0 and specs["f;p"]["same_prediction"] == 1.0
    assert specs["f;p"]["consistency"] == 0.0
    assert data["label_map"] == {"contradiction": 0, "entailment": 1, "neutral": 2}
    assert data["original"] == {"n": 15, "accuracy": pytest.approx(7 / 15)}
    assert len(saved.read_text().splitlines()) == 47
    # the saved predictions score the same through --predictions
    assert main(["evaluate", str(CONTRAST), "--predictions", str(saved), "-o", str(out)]) == 0
    assert {r["spec"]: r for r in json.loads(out.read_text())["specs"]} == specs


def test_load_failure_is_a_configuration_error(tmp_path):
    with pytest.raises(ConfigurationError, match="HF_HUB_OFFLINE"):
        HFClassifier(str(tmp_path / "no-such-model"))


def test_config_without_nli_labels_needs_label_map():
    with pytest.raises(ConfigurationError, match="--label-map"):
        label_map_from_config({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})


@pytest.mark.parametrize("text", ["entailment=0,neutral=1", "E=0,N=1,X=2", "E0,N=1,C=2"])
def test_bad_label_map(text):
    with pytest.raises(InputError, match="--label-map"):
        parse_label_map(text)
