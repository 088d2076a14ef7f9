"""Deterministic stand-in embeddings: a hashed bag of lower-cased words, L2-normalised.

Texts sharing words get similar vectors, and a placeholder such as `<EMAIL_1>` is one word, so
retrieval by a redacted query behaves like it would with a real model, without loading one.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

WORD = re.compile(r"[\w<>]+")


def hash_vectors(texts: list[str], dims: int = 64) -> np.ndarray:
    out = np.zeros((len(texts), dims), np.float32)
    for row, text in enumerate(texts):
        for word in WORD.findall(text.lower()):
            out[row, int(hashlib.sha256(word.encode()).hexdigest(), 16) % dims] += 1
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1, norms)
