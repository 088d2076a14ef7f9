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
    def __init__(self, model_path: str | Path | None = None, max_tokens: int = 1024):
        from stealthflow.llm.embedded import converted_model_path
        from stealthflow.utility.causal_lm import CausalLM

        self.model = CausalLM(model_path or converted_model_path(), max_tokens)
        self._prefix = self.model.encode(PREFIX)
        self._lock = threading.Lock()

    def compare(self, originals: list[str], rewrites: list[str]) -> list[Fluency]:
        """Each rewrite's `Fluency` against its original. Only the tokens the comparison reads are
        scored: an original is read once for all its candidates, and a rewrite from where it departs
        from its original to the end of its last edit's junction."""
        texts = list(dict.fromkeys([*originals, *rewrites]))
        ids = {text: self.model.encode(text) for text in texts}
        where = {text: number for number, text in enumerate(texts)}
        wanted: list[set[int]] = [set() for _ in texts]
        bases: list[int | None] = [None] * len(texts)
        offset = len(self._prefix)  # the neutral prefix's tokens come first
        bare = set(originals)
        edits = [edit_positions(ids[a], ids[b]) for a, b in zip(originals, rewrites, strict=True)]
        for a, b, (a_pos, b_pos) in zip(originals, rewrites, edits, strict=True):
            wanted[where[a]].update(offset + p for p in a_pos)
            wanted[where[b]].update(offset + p for p in b_pos)
            if b not in bare and bases[where[b]] is None:
                bases[where[b]] = where[a]  # a rewrite starts from its original's keys and values
        with self._lock:
            scored = self.model.logprobs([self._prefix + ids[t] for t in texts], wanted, bases)
        return [
            difference([scored[where[a]][offset + p] for p in a_pos], [scored[where[b]][offset + p] for p in b_pos])
            for a, b, (a_pos, b_pos) in zip(originals, rewrites, edits, strict=True)
        ]


def edit_positions(a_ids: list[int], b_ids: list[int]) -> tuple[list[int], list[int]]:
    """The positions of each sequence where the two differ, plus the junction tokens after each edit."""
    a_pos: set[int] = set()
    b_pos: set[int] = set()
    matcher = difflib.SequenceMatcher(a=a_ids, b=b_ids, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        a_pos.update(range(i1, min(len(a_ids), i2 + JUNCTION_TOKENS)))
        b_pos.update(range(j1, min(len(b_ids), j2 + JUNCTION_TOKENS)))
    return sorted(a_pos), sorted(b_pos)


def edit_fluency(original: tuple[list[int], list[float]], rewrite: tuple[list[int], list[float]]) -> Fluency:
    """Compare two scored token sequences over the stretches where they differ (plus the junction
    tokens after each), so the unchanged rest of a long post does not dilute a broken edit."""
    (a_ids, a_lp), (b_ids, b_lp) = original, rewrite
    a_pos, b_pos = edit_positions(a_ids, b_ids)
    return difference([a_lp[i] for i in a_pos], [b_lp[j] for j in b_pos])


def difference(a_vals: list[float], b_vals: list[float]) -> Fluency:
    """The rewrite's edited stretch against the original's (0 for identical texts: nothing to compare)."""
    if not a_vals and not b_vals:
        return Fluency(0.0, 0.0)
    a_vals, b_vals = a_vals or [0.0], b_vals or [0.0]
    return Fluency(score=sum(b_vals) / len(b_vals) - sum(a_vals) / len(a_vals), worst=min(b_vals) - min(a_vals))


@cache
def shared_scorer() -> FluencyScorer:
    """One scorer per process (the model is ~0.5 GB in float32)."""
    return FluencyScorer()
