"""GPT-2 scorer: a sentence's total negative log-likelihood (nats), batched.

The total, not the mean per token (log perplexity): a mean rewards adding a likely word (*of*,
*both*), the total never does.

torch and transformers are imported lazily (extra `rank`), and the model loads on first use,
so building a pipeline with another scorer never needs them.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import getproxies

from lit.config import DEFAULTS
from lit.errors import ConfigurationError


def hub_unreachable(timeout: float = 3.0) -> str | None:
    """Why the Hugging Face Hub (``HF_ENDPOINT``, through the HTTPS proxy if one is set)
    cannot be reached, or None if it can or if HF_HUB_OFFLINE already says not to try.
    One TCP connection with a short timeout: a fast answer to "is there any network"."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        return None
    endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    target = urlsplit(getproxies().get(urlsplit(endpoint).scheme) or endpoint)
    port = target.port or (443 if target.scheme == "https" else 80)
    try:
        socket.create_connection((target.hostname or "", port), timeout=timeout).close()
    except OSError as exc:
        return f"{target.hostname}:{port}: {exc.strerror or exc}"
    return None


class PerplexityScorer:
    """Score = total token NLL under a causal LM, in nats; lower is more fluent.

    Candidates of all groups are scored together in batches of `batch_size`, sorted by length
    so padding stays small; each distinct sentence is scored once.
    """

    name = "gpt2"
    #: a difference of 20 nats (a few unlikely tokens) weighs as much as a whole unit of
    #: closeness (lit.rank.ranking)
    scale = 20.0

    def __init__(self, model: str = "gpt2", device: str | None = None,
                 batch_size: int = DEFAULTS.score_batch_size):
        self.model_name = model
        self.device = device
        self.batch_size = max(1, batch_size)
        self.forward_calls = 0  # batches run; the benchmark prints it
        self._model = None
        self._tokenizer = None

    def load(self) -> None:
        """Load the model now (else on first use); ConfigurationError says what to do."""
        if self._model is not None:
            return
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as exc:
            raise ConfigurationError(
                f"the gpt2 scorer needs torch and transformers ({exc.name} is missing): "
                "pip install 'lit-contrast[rank]', or use --scorer ace"
            ) from None
        # Offline, the Hub client retries for ~50 s before failing: look first, in seconds.
        no_network = None if Path(self.model_name).is_dir() else hub_unreachable()
        try:
            tokenizer = AutoTokenizer.from_pretrained(
                self.model_name, local_files_only=no_network is not None)
            model = AutoModelForCausalLM.from_pretrained(
                self.model_name, local_files_only=no_network is not None)
        except (OSError, ValueError) as exc:
            offline = os.environ.get("HF_HUB_OFFLINE") in ("1", "true", "True")
            if no_network:
                hint = (f"the Hugging Face Hub cannot be reached ({no_network}) and the model "
                        "is not in the Hugging Face cache")
            elif offline:
                hint = "HF_HUB_OFFLINE is set, so only models already in the Hugging Face cache load"
            else:
                hint = "the first run downloads it from the Hugging Face Hub"
            detail = str(exc).splitlines()[0] if str(exc) else ""
            raise ConfigurationError(
                f"could not load the scorer model {self.model_name!r} "
                f"({type(exc).__name__}: {detail}). {hint}. Use --scorer ace or --scorer freq "
                "(no model), set HF_HUB_OFFLINE=1 to use only the cache, or pass --model with a "
                "local directory holding a saved model"
            ) from None
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token or tokenizer.unk_token
        tokenizer.padding_side = "right"
        device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.device = device
        self._model = model.to(device).eval()
        self._tokenizer = tokenizer

    def _prefix(self) -> str:
        """Score the first word too: condition on the BOS (GPT-2: <|endoftext|>) token."""
        tok = self._tokenizer
        return tok.bos_token or tok.eos_token or ""

    def score(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        distinct = sorted({s for g in groups for s in g}, key=len)
        if not distinct:
            return [[] for _ in groups]
        self.load()
        scores: dict[str, float] = {}
        for start in range(0, len(distinct), self.batch_size):
            batch = distinct[start : start + self.batch_size]
            scores.update(zip(batch, self._batch_nll(batch)))
        return [[scores[s] for s in g] for g in groups]

    def _batch_nll(self, sentences: list[str]) -> list[float]:
        import torch

        tok, model = self._tokenizer, self._model
        prefix = self._prefix()
        enc = tok([prefix + s for s in sentences], return_tensors="pt", padding=True)
        ids = enc["input_ids"].to(self.device)
        mask = enc["attention_mask"].to(self.device)
        with torch.inference_mode():
            self.forward_calls += 1
            logits = model(input_ids=ids, attention_mask=mask).logits
            scores = []
            # one row at a time: a full-batch log-softmax would double the (batch x length x
            # vocabulary) logits in memory
            for row in range(ids.shape[0]):
                n = int(mask[row].sum())
                logprobs = torch.log_softmax(logits[row, : n - 1].float(), dim=-1)
                target = ids[row, 1:n]
                nll = -logprobs.gather(-1, target.unsqueeze(-1)).squeeze(-1)
                scores.append(float(nll.sum()) if n > 1 else 0.0)
            del logits
        return scores
