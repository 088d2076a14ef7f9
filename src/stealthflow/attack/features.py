"""What the stylometric classifier reads from a profile: feature blocks, one row per profile.

- `mean`: the mean of the profile's line embeddings (all-MiniLM-L6-v2, L2-normalised lines);
- `words`: which frequent words the profile uses (1 each, the row L2-normalised). A word enters
  the vocabulary only when at least `MIN_PROFILES` training profiles use it, so the artefact
  that stores the vocabulary holds no rare string (a name, a handle).

A single line is featurised as a one-line profile, so the attacker can say which line pushes
hardest towards its guess whatever blocks a model reads.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

import numpy as np

MIN_PROFILES = 5  # a vocabulary word must occur in at least this many training profiles
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def frequent_words(texts: Iterable[str], min_profiles: int = MIN_PROFILES) -> list[str]:
    """The words used by at least `min_profiles` of `texts`, sorted."""
    counts = Counter(word for text in texts for word in set(words(text)))
    return sorted(word for word, n in counts.items() if n >= min_profiles)


class Featurizer:
    """Turns profiles (their line vectors and texts) into feature blocks."""

    def __init__(self, vocabulary: list[str]):
        self.vocabulary = list(vocabulary)
        self._column = {word: i for i, word in enumerate(self.vocabulary)}

    def blocks(self, line_vectors: list[np.ndarray], texts: list[str]) -> dict[str, np.ndarray]:
        """Every block for each profile: `line_vectors[i]` are the embeddings of `texts[i]`'s lines."""
        rows = [self._words_row(text) for text in texts]
        return {
            "mean": np.stack([v.mean(0) for v in line_vectors]).astype(np.float64),
            "words": np.stack(rows) if rows else np.zeros((0, len(self._column))),
        }

    def _words_row(self, text: str) -> np.ndarray:
        row = np.zeros(len(self._column))
        row[[self._column[w] for w in set(words(text)) if w in self._column]] = 1.0
        norm = np.linalg.norm(row)
        return row / norm if norm else row


def stack(blocks: dict[str, np.ndarray], names: Iterable[str]) -> np.ndarray:
    """The named blocks side by side, in the given order."""
    return np.hstack([blocks[name] for name in names])
