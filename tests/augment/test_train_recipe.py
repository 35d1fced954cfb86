"""tools/train_recipe.py end to end: `lit augment` -> fine-tune a tiny random BERT (built here,
nothing downloaded) for a few CPU steps -> predictions on held-out pairs -> `lit evaluate`."""

from __future__ import annotations

import json

import pytest

from lit.cli import main
from tests.conftest import read_jsonl

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def tiny_bert(path, texts: list[str]):
    """A randomly initialised 1-layer BERT whose vocabulary holds every word of *texts*,
    with a checkpoint-style id2label in another order than LIT's (the recipe remaps)."""
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    path.mkdir()
    words = {w for t in texts for w in t.lower().replace(".", " . ").replace("?", " ? ").split()}
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizerFast(vocab_file=str(path / "vocab.txt")).save_pretrained(path)
    torch.manual_seed(0)
    BertForSequenceClassification(BertConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64, num_labels=2,
    )).save_pretrained(path)
    return path


def test_recipe_fine_tunes_on_augmented_rows_and_lit_evaluate_scores_it(contrast, tmp_path):
    from tools.train_recipe import main as recipe

    records = read_jsonl(contrast)
    train_part, held_out = tmp_path / "train-contrast.jsonl", tmp_path / "heldout.jsonl"
    train_part.write_text("".join(json.dumps(r) + "\n" for r in records[:70]))
    held_out.write_text("".join(json.dumps(r) + "\n" for r in records[70:]))
    data = tmp_path / "train"  # a datasets folder with a ClassLabel
    assert main(["augment", "--from-contrast", str(train_part), "-o", str(data),
                 "--balance"]) == 0
    texts = [s for r in records for s in (r["input"]["sentence1"], r["input"]["sentence2"])]
    texts += [t[side]["output"] or "" for r in records for t in r["transforms"]
              for side in ("premise", "hypothesis")]
    model = tiny_bert(tmp_path / "random", texts)
    out_dir, preds = tmp_path / "tuned", tmp_path / "preds.jsonl"
    assert recipe([str(data), "--model", str(model), "--output-dir", str(out_dir),
                   "--contrast", str(held_out), "--predictions", str(preds),
                   "--max-steps", "4", "--batch-size", "8", "--learning-rate", "1e-3"]) == 0
    tuned = transformers.AutoConfig.from_pretrained(out_dir)
    assert tuned.id2label == {0: "entailment", 1: "neutral", 2: "contradiction"}
    lines = read_jsonl(preds)
    assert {p["prediction"] for p in lines} <= {"entailment", "neutral", "contradiction"}
    assert {p["spec"] for p in lines} >= {"original", "m;o"}
    scores = tmp_path / "scores.json"
    assert main(["evaluate", str(held_out), "--predictions", str(preds), "-o",
                 str(scores)]) == 0
    result = json.loads(scores.read_text())
    assert result["original"]["n"] == len(records) - 70
    assert result["original"]["accuracy"] is not None


def test_filter_model_keeps_only_pairs_the_model_labels_as_the_rule_does(contrast, tmp_path):
    """A constant classifier (it always says neutral) as --filter-model: every transformed row
    kept is neutral, every other one is in --rejected with classifier_label neutral."""
    records = read_jsonl(contrast)
    texts = [s for r in records for s in (r["input"]["sentence1"], r["input"]["sentence2"])]
    texts += [t[side]["output"] or "" for r in records for t in r["transforms"]
              for side in ("premise", "hypothesis")]
    model = tiny_bert(tmp_path / "m", texts)
    from transformers import BertForSequenceClassification

    clf = BertForSequenceClassification.from_pretrained(
        model, num_labels=3, id2label={0: "contradiction", 1: "entailment", 2: "neutral"},
        label2id={"contradiction": 0, "entailment": 1, "neutral": 2},
        ignore_mismatched_sizes=True)
    with torch.no_grad():
        clf.classifier.weight.zero_()
        clf.classifier.bias.copy_(torch.tensor([0.0, 0.0, 5.0]))
    clf.save_pretrained(model)
    plain, kept, rejected = (tmp_path / n for n in ("all.jsonl", "kept.jsonl", "rej.jsonl"))
    assert main(["augment", "--from-contrast", str(contrast), "-o", str(plain)]) == 0
    assert main(["augment", "--from-contrast", str(contrast), "-o", str(kept),
                 "--filter-model", str(model), "--rejected", str(rejected)]) == 0
    rows, dropped = read_jsonl(kept), read_jsonl(rejected)
    assert {r["label"] for r in rows if r["origin"] == "transformed"} == {"neutral"}
    assert [r for r in rows if r["origin"] == "transformed"] == [
        r for r in read_jsonl(plain) if r["origin"] == "transformed" and r["label"] == "neutral"]
    assert dropped and {r["classifier_label"] for r in dropped} == {"neutral"}
    assert "neutral" not in {r["label"] for r in dropped}
