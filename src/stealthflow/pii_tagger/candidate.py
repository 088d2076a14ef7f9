"""A span as the verifiers and gates of the PII tagger read it (`Candidate`), and what a verified label is (`Kind`):
apart from verifier.py, so that a gate (reader.py) is read without the verifiers' vocabulary."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple


class Candidate(NamedTuple):
    """A span the tagger keeps, as a verifier reads it: text[start:end], the tagger's confidence, the languages the
    text may be in, and whether a pattern recognizer found a span of its type there too."""

    text: str
    start: int
    end: int
    confidence: float
    languages: frozenset[str]
    agreed: bool


class Kind(NamedTuple):
    """A verified label: its features' names, the function that computes them, the word its reason names it by (and
    its weights file by: `data/pii-tagger/<word>_verifier.json`), and the features (0 or 1) that keep a span unscored
    when one is set (`settling`: neither fitted nor scored)."""

    features: tuple[str, ...]
    compute: Callable[..., list[float]]
    word: str
    settling: tuple[str, ...] = ()

    @property
    def weights(self) -> str:
        """Its weights file, under the data directory."""
        return f"pii-tagger/{self.word}_verifier.json"
