"""Fluency: how natural a rewrite reads to a language model, relative to the post it came from.

A rewrite that cuts a phrase out of a sentence ("my night shift at.") leaves a place where the
next word is very unlikely. The scorer reads both texts with a small causal LM (the embedded
SmolLM2-135M, without any adapter) and compares them where they differ: the log-probabilities of
the tokens a rewrite put in, plus the tokens right after each edit (where a cut sentence breaks),
against the same stretch of the original. Identical texts score 0; a rewrite that reads as well as
its original scores about 0; a broken one scores well below.
"""

from __future__ import annotations

import difflib
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: tokens after an edit that still count as part of it (a cut sentence breaks at the next token or two)
JUNCTION_TOKENS = 2
PREFIX = "Post: "  # a neutral context: the first token of a post is then scored too


@dataclass(frozen=True)
class Fluency:
    """`score`: mean log-probability per token over the edited stretches, rewrite minus original
    (0 for identical texts; negative when the rewrite reads worse). `worst`: the lowest single
    token log-probability among the rewrite's edited stretches, minus the original's there."""

    score: float
    worst: float


class FluencyScorer:
    def __init__(self, model_path: str | Path | None = None, batch_size: int = 16):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        from stealthflow.llm.embedded import converted_model_path

        path = str(model_path or converted_model_path())
        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
        self.batch_size = batch_size
        self._lock = threading.Lock()

    def token_logprobs(self, texts: list[str]) -> list[tuple[list[int], list[float]]]:
        """Per text: its token ids (after the neutral prefix) and each token's log-probability."""
        torch = self._torch
        prefix = self.tokenizer(PREFIX, add_special_tokens=False)["input_ids"]
        encoded = [prefix + self.tokenizer(t, add_special_tokens=False)["input_ids"] for t in texts]
        results: list[tuple[list[int], list[float]]] = []
        with self._lock, torch.inference_mode():
            for start in range(0, len(encoded), self.batch_size):
                batch = encoded[start : start + self.batch_size]
                width = max(len(ids) for ids in batch)
                pad = self.tokenizer.pad_token_id
                ids = torch.tensor([row + [pad] * (width - len(row)) for row in batch])
                mask = torch.tensor([[1] * len(row) + [0] * (width - len(row)) for row in batch])
                logits = self.model(input_ids=ids, attention_mask=mask).logits.float()
                logprobs = torch.log_softmax(logits[:, :-1], dim=-1).gather(2, ids[:, 1:, None])[..., 0]
                for row, values in zip(batch, logprobs.tolist(), strict=True):
                    results.append((row[len(prefix) :], values[len(prefix) - 1 : len(row) - 1]))
        return results

    def compare(self, originals: list[str], rewrites: list[str]) -> list[Fluency]:
        unique = list(dict.fromkeys([*originals, *rewrites]))  # an original is often compared with many candidates
        scored = dict(zip(unique, self.token_logprobs(unique), strict=True))
        return [edit_fluency(scored[a], scored[b]) for a, b in zip(originals, rewrites, strict=True)]


def edit_fluency(original: tuple[list[int], list[float]], rewrite: tuple[list[int], list[float]]) -> Fluency:
    """Compare two scored token sequences over the stretches where they differ (plus the junction
    tokens after each), so the unchanged rest of a long post does not dilute a broken edit."""
    (a_ids, a_lp), (b_ids, b_lp) = original, rewrite
    if a_ids == b_ids:
        return Fluency(0.0, 0.0)
    a_pos: set[int] = set()
    b_pos: set[int] = set()
    matcher = difflib.SequenceMatcher(a=a_ids, b=b_ids, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        a_pos.update(range(i1, min(len(a_ids), i2 + JUNCTION_TOKENS)))
        b_pos.update(range(j1, min(len(b_ids), j2 + JUNCTION_TOKENS)))
    a_vals = [a_lp[i] for i in sorted(a_pos)] or [0.0]
    b_vals = [b_lp[j] for j in sorted(b_pos)] or [0.0]
    return Fluency(score=sum(b_vals) / len(b_vals) - sum(a_vals) / len(a_vals), worst=min(b_vals) - min(a_vals))


@cache
def shared_scorer() -> FluencyScorer:
    """One scorer per process (the model is ~0.5 GB in float32)."""
    return FluencyScorer()
