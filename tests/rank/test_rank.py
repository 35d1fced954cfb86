"""Scorers: the no-model order, and a tiny randomly initialised GPT-2 through the real loader."""

from __future__ import annotations

import pytest

from lit.errors import ConfigurationError
from lit.rank import AceOrderScorer, get_scorer, rank

SENTENCES = [
    "A woman was driving a car.",
    "A car was driven by a woman.",
    "Alice saw Bob.",
    "It is Alice who saw Bob.",
    "Bob was seen by Alice.",
    "The dog did not bark.",
    "The dog didn't bark.",
]


def test_ace_order_keeps_generator_order():
    groups = [["b", "a", "c"], [], ["z"]]
    assert rank(AceOrderScorer(), groups) == [["b", "a", "c"], [], ["z"]]


def test_rank_sorts_by_score_and_keeps_ties_stable():
    class ByLength:
        name = "len"

        def score(self, groups):
            return [[float(len(s)) for s in g] for g in groups]

    assert rank(ByLength(), [["ccc", "a", "bb", "d"]]) == [["a", "d", "bb", "ccc"]]


def test_unknown_scorer_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="unknown scorer"):
        get_scorer("bert")


def build_tiny_gpt2(path, sentences=SENTENCES, n_layer=1, n_embd=32, n_head=2, vocab_size=300,
                    model_vocab_size=None):
    """Save a randomly initialised GPT-2 and a byte-level BPE tokenizer trained on *sentences*
    to *path*, the way a Hub model is saved (no download needed). *model_vocab_size* pads the
    embedding matrix, e.g. to GPT-2's 50257 for a model of GPT-2's real size."""
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    bpe.train_from_iterator(list(sentences) * 3, trainer)
    tok = transformers.PreTrainedTokenizerFast(
        tokenizer_object=bpe, bos_token="<|endoftext|>", eos_token="<|endoftext|>"
    )
    tok.save_pretrained(path)
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=max(len(tok), model_vocab_size or 0), n_positions=128, n_embd=n_embd,
        n_layer=n_layer, n_head=n_head,
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
    )
    transformers.GPT2LMHeadModel(config).save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    return build_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"))


def test_gpt2_scorer_batches_across_groups(tiny_gpt2):
    scorer = get_scorer("gpt2", model=str(tiny_gpt2), batch_size=4)
    groups = [SENTENCES[:3], SENTENCES[3:], [SENTENCES[0]]]  # 7 distinct sentences
    scores = scorer.score(groups)
    assert [len(s) for s in scores] == [3, 4, 1]
    assert scorer.forward_calls == 2  # ceil(7 / 4): batched, each distinct sentence once
    assert scores[2][0] == scores[0][0]
    assert len({round(s, 6) for g in scores for s in g}) > 1  # a random model still differs


def test_gpt2_batched_scores_match_one_at_a_time(tiny_gpt2):
    """Padding must not change a sentence's score."""
    batched = get_scorer("gpt2", model=str(tiny_gpt2), batch_size=8).score([SENTENCES])[0]
    single = get_scorer("gpt2", model=str(tiny_gpt2), batch_size=1)
    one_by_one = single.score([SENTENCES])[0]
    assert single.forward_calls == len(SENTENCES)
    assert batched == pytest.approx(one_by_one, abs=1e-4)


def test_gpt2_scorer_prefers_what_it_was_trained_on(tiny_gpt2, tmp_path):
    """Ranking follows the model: a few steps of training on one sentence make it rank first."""
    import torch
    import transformers

    tok = transformers.AutoTokenizer.from_pretrained(tiny_gpt2)
    model = transformers.AutoModelForCausalLM.from_pretrained(tiny_gpt2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    ids = tok("<|endoftext|>" + "The dog didn't bark.", return_tensors="pt")["input_ids"]
    for _ in range(30):
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    scorer = get_scorer("gpt2", model=str(tmp_path))
    best = rank(scorer, [["The dog did not bark.", "The dog didn't bark."]])[0][0]
    assert best == "The dog didn't bark."


def test_missing_model_says_what_to_do(tmp_path, monkeypatch):
    pytest.importorskip("transformers")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    scorer = get_scorer("gpt2", model=str(tmp_path / "no-such-model"))
    with pytest.raises(ConfigurationError, match="HF_HUB_OFFLINE.*--model"):
        scorer.score([["Alice saw Bob."]])
