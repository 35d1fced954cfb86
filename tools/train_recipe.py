"""Fine-tune any Hugging Face sequence-classification checkpoint on a `lit augment` dataset,
then write its predictions on a held-out `lit nli` contrast set for `lit evaluate`
(docs/augment.md: the LIT paper's Table 3 AUG row).

    python -m tools.train_recipe train.parquet --model bert-base-uncased --output-dir model \
        --contrast heldout.jsonl --epochs 3
    lit evaluate heldout.jsonl --predictions model/predictions.jsonl

TRAIN is any format `lit augment` writes; its labels (names, 0/1/2 or a ClassLabel) become
classes 0 entailment, 1 neutral, 2 contradiction, saved as the model's id2label so
`lit evaluate --model DIR` maps them too. Plain Hugging Face `Trainer`; CPU or GPU.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("train", type=Path, help="a `lit augment` output (file or datasets folder)")
    p.add_argument("--model", required=True, help="checkpoint: Hub name or local directory")
    p.add_argument("--output-dir", type=Path, required=True,
                   help="where the fine-tuned model and tokenizer are saved")
    p.add_argument("--contrast", type=Path,
                   help="a held-out `lit nli` output to predict on after training")
    p.add_argument("--predictions", type=Path,
                   help="prediction file to write (default OUTPUT_DIR/predictions.jsonl)")
    p.add_argument("--epochs", type=float, default=3.0)
    p.add_argument("--max-steps", type=int, default=-1, help="stop after N steps (overrides "
                   "--epochs when > 0)")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--learning-rate", type=float, default=2e-5)
    p.add_argument("--max-length", type=int, default=128, help="tokens per pair")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def class_labels(dataset) -> list[int]:
    """Class indices 0/1/2 (entailment, neutral, contradiction) whatever the label format."""
    from datasets import ClassLabel

    from lit.labels.names import LABELS, normalize_label

    feature = dataset.features["label"]
    values = list(dataset["label"])
    if isinstance(feature, ClassLabel):
        values = [feature.int2str(v) for v in values]
    return [LABELS.index(normalize_label(v)) for v in values]


def train(args: argparse.Namespace) -> Path:
    """Fine-tune and save; the saved model's directory."""
    from transformers import (AutoModelForSequenceClassification, AutoTokenizer, Trainer,
                              TrainingArguments, set_seed)

    from lit.augment.write import load
    from lit.labels.names import LABELS

    set_seed(args.seed)
    data = load(args.train)
    labels = class_labels(data)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(
        args.model, num_labels=len(LABELS), id2label=dict(enumerate(LABELS)),
        label2id={name: k for k, name in enumerate(LABELS)}, ignore_mismatched_sizes=True)
    encoded = tokenizer(list(data["premise"]), list(data["hypothesis"]), truncation=True,
                        max_length=args.max_length)
    rows = [{**{k: v[i] for k, v in encoded.items()}, "labels": labels[i]}
            for i in range(len(labels))]
    trainer = Trainer(
        model=model,
        args=TrainingArguments(
            output_dir=str(args.output_dir), num_train_epochs=args.epochs,
            max_steps=args.max_steps, per_device_train_batch_size=args.batch_size,
            learning_rate=args.learning_rate, seed=args.seed, save_strategy="no",
            report_to=[], logging_steps=max(1, args.max_steps // 5) if args.max_steps > 0
            else 50, disable_tqdm=True),
        train_dataset=rows,
        data_collator=_collator(tokenizer),
    )
    trainer.train()
    trainer.save_model(str(args.output_dir))
    tokenizer.save_pretrained(str(args.output_dir))
    return args.output_dir


def _collator(tokenizer):
    from transformers import DataCollatorWithPadding

    return DataCollatorWithPadding(tokenizer)


def predict_contrast(model_dir: Path, contrast: Path, out: Path, max_length: int) -> int:
    """Predictions of the model in *model_dir* for every pair `lit evaluate` scores in
    *contrast*, written in its prediction-file format; how many."""
    from lit.evaluate import read_contrast_file, write_predictions
    from lit.evaluate.metrics import needed_items, predict
    from lit.evaluate.model import HFClassifier

    records = read_contrast_file(contrast)
    clf = HFClassifier(str(model_dir), max_length=max_length)
    predictions = predict(needed_items(records, contrast), clf.predict, progress=False)
    write_predictions(predictions, out)
    return len(predictions)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    model_dir = train(args)
    print(f"train_recipe: model saved to {model_dir}", file=sys.stderr)
    if args.contrast:
        out = args.predictions or model_dir / "predictions.jsonl"
        n = predict_contrast(model_dir, args.contrast, out, args.max_length)
        print(f"train_recipe: {n} predictions written to {out}; score them with: "
              f"lit evaluate {args.contrast} --predictions {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
