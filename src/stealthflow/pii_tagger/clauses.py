"""Health and money told in a clause ("I'm already behind on the car payments", "seit meinem Schlaganfall", "debo dos
meses de arriendo"), which the students seldom tag: MiniLM's bottom layers and a three-way token head (nothing, HEALTH,
FINANCE), fine-tuned on every sentence of the readers' annotated sets that holds such a value and on sentences that
hold none (`stealthflow tagger clauses`, pii_tagger/training/clauses.py).

Opt-in (`protect: {clause_tagger: true}`): it reads, in all seven languages, each sentence where the routed student's
own HEALTH or FINANCE probability of a word piece reaches the card's `floor`; each run of word pieces whose HEALTH or
FINANCE probability reaches its `threshold` (runs at most `GAP` characters apart joined) is grown to whole tokens and
shaped as the students' spans (spans.py). recognizer.py adds those that overlap nothing found and that the label's
reader keeps. Shipped as models/pii-clause-tagger/ (clause_tagger.json: layers, threshold, floor and how they were
chosen; clause_tagger.safetensors: the trained layers and head).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from stealthflow.pii_tagger.minilm import MiniLMRuntime, minilm_with, vocabulary
from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.reader import MAX_PIECES
from stealthflow.pii_tagger.spans import shaped, whole_tokens
from stealthflow.resources import resource_dir
from stealthflow.sentence_ends import sentence_ends, words_end

LABELS = ("O", "HEALTH", "FINANCE")
SHIPPED = "pii-clause-tagger"
CARD = "clause_tagger.json"
WEIGHTS = "clause_tagger.safetensors"
GAP = 3  # characters between two runs of a label that are one span


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text` that holds more than white space, without the white space after it: the
    pieces the clause tagger is trained on and reads."""
    bounds, at = [], 0
    for match in sentence_ends(text):
        if text[at : words_end(match)].strip():
            bounds.append((at, words_end(match)))
        at = match.end()
    return bounds + ([(at, len(text))] if text[at:].strip() else [])


def sentence_maxima(
    text: str, offsets: np.ndarray, probabilities: np.ndarray, tags: list[str]
) -> list[tuple[tuple[int, int], float]]:
    """Each sentence of `text` (`sentences`) with a student's highest HEALTH or FINANCE probability of a word piece in
    it (B and I together), from the student's token `offsets` (in text order) and `probabilities` over its `tags`,
    which detection has computed already. Linear in the text: each sentence's pieces are found by bisection."""
    columns = [[tags.index(f"B-{label}"), tags.index(f"I-{label}")] for label in LABELS[1:] if f"B-{label}" in tags]
    offsets = np.asarray(offsets).reshape(-1, 2)
    real = np.flatnonzero(offsets[:, 1] > offsets[:, 0])
    starts, chosen = offsets[real, 0], np.asarray(probabilities)[real]
    best = np.zeros(len(real))
    for pair in columns:
        best = np.maximum(best, chosen[:, pair].sum(axis=1))
    found = []
    for low, high in sentences(text):
        first, last = np.searchsorted(starts, [low, high])
        found.append(((low, high), float(best[first:last].max()) if last > first else 0.0))
    return found


@dataclass(frozen=True)
class ClauseTagger:
    """Marks health and money in the sentences it is given (see the module's docstring)."""

    runtime: MiniLMRuntime
    threshold: float
    floor: float  # the student's probability a sentence must reach to be read (`sentence_maxima`)

    def read(self, text: str, bounds: list[tuple[int, int]]) -> list[tuple[int, list, np.ndarray]]:
        """[(a sentence's start, its word pieces' offsets, their probabilities)] for the sentences `bounds` of `text`
        (at most `MAX_PIECES` word pieces of each, as trained)."""
        read = [vocabulary().window(text[low:high], MAX_PIECES) for low, high in bounds]
        found = self.runtime.padded_probabilities([window for window, _ in read]) if read else []
        return [(low, o, p) for (low, _), (_, o), p in zip(bounds, read, found, strict=True)]

    def spans(self, text: str, read: list[tuple[int, list, np.ndarray]], threshold: float | None = None) -> list:
        """The `TaggedSpan`s of what `read` marks in `text` at `threshold` (default: the card's): runs of word pieces
        whose HEALTH or FINANCE probability reaches it, two runs of a label at most `GAP` characters apart joined, each
        grown to whole tokens and shaped as the students' spans; a span's score is its word pieces' mean probability."""
        least = self.threshold if threshold is None else threshold
        found = []
        for low, offsets, probabilities in read:
            for k in (1, 2):
                runs: list[list[int]] = []  # [start, end, first piece, last piece]
                for n, (a, b) in enumerate(offsets):
                    if b > a and probabilities[n + 1, k] >= least:
                        if runs and low + a - runs[-1][1] <= GAP:
                            runs[-1][1], runs[-1][3] = low + b, n
                        else:
                            runs.append([low + a, low + b, n, n])
                for a, b, first, last in runs:
                    score = float(probabilities[first + 1 : last + 2, k].mean())
                    a, b = shaped(text, *whole_tokens(text, a, b), LABELS[k])
                    if b > a:
                        found.append(TaggedSpan(a, b, LABELS[k], score))
        return found

    def tag(self, text: str, maxima: list[tuple[tuple[int, int], float]]) -> list:
        """The spans it marks in the sentences of `text` whose student maximum (`sentence_maxima`) reaches `floor`."""
        chosen = [bounds for bounds, best in maxima if best >= self.floor]
        return self.spans(text, self.read(text, chosen)) if chosen else []


def read_clause_tagger(directory: Path) -> ClauseTagger:
    from safetensors.numpy import load_file

    card = json.loads((directory / CARD).read_text(encoding="utf-8"))
    runtime = minilm_with(load_file(str(directory / WEIGHTS)), card["layers"], directory, quantized=True)
    if runtime.tags != len(LABELS):
        raise ValueError(f"{directory}: a head of {len(LABELS)} outputs ({', '.join(LABELS)}) was expected")
    return ClauseTagger(runtime, card["threshold"], card["floor"])


@cache
def shipped_clause_tagger() -> ClauseTagger:
    """models/pii-clause-tagger/, loaded once per process."""
    return read_clause_tagger(resource_dir("models") / SHIPPED)
