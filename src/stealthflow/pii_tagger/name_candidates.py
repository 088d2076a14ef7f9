"""Names the student is silent on: each capitalised word of the name lexicon (names.py: Faker's given and family names
of every locale), or pair of such words, that no span of the tagger or of a pattern recognizer holds is a candidate, and
a learned judge decides which are names. The judge is a tree ensemble like the name verifier's (verifier.py) over the
name verifier's features, the student's own REAL_NAME and any-label probability for the candidate's tokens (below
its threshold) and whether the tagger masked the same word elsewhere in the text; fitted on annotated text by
`benchmarks/pii_name_candidates.py` and stored as data (`data/pii-tagger/name_candidates.json`: its features, trees,
thresholds by route and how they were chosen). Without the file no candidate is judged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from stealthflow.pii_tagger.lexicons import name_lexicon
from stealthflow.pii_tagger.verifier import _WORD, NAME_FEATURES, Kind, Verifier, name_features
from stealthflow.placeholders.types import Span
from stealthflow.resources import resource_dir

CANDIDATES_FILE = "pii-tagger/name_candidates.json"  # under the data directory
CANDIDATE_FEATURES = (
    *NAME_FEATURES,  # "confidence": the student's mean REAL_NAME probability over the candidate's tokens
    "inside",  # the student's mean probability of any label over them (1 - P(O))
    "masked_elsewhere",  # a REAL_NAME span the tagger keeps elsewhere in the text holds the same word
)
CANDIDATE_KIND = Kind(CANDIDATE_FEATURES, name_features, "name candidate")


def candidate_places(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The candidates of `text`: each word that a capital opens (and some lower-case letter follows) and that the name
    lexicon holds, joined to the next such word when one space parts them ("Regilene Souza"), none overlapping a range of
    `taken`."""
    lexicon = name_lexicon()
    words = [
        (m.start(), m.end())
        for m in _WORD.finditer(text)
        if m.group()[:1].isupper() and not m.group().isupper() and m.group().casefold() in lexicon
    ]
    places: list[tuple[int, int]] = []
    paired: list[bool] = []
    for start, end in words:
        if places and not paired[-1] and places[-1][1] + 1 == start and text[places[-1][1]] == " ":
            places[-1], paired[-1] = (places[-1][0], end), True
        else:
            places.append((start, end))
            paired.append(False)
    return [(s, e) for s, e in places if not any(a < e and s < b for a, b in taken)]


def token_means(tokens: tuple[np.ndarray, np.ndarray], columns: tuple[int, ...], start: int, end: int) -> float:
    """The mean over the tokens of text[start:end] of the probability summed over `columns` (0: none there)."""
    offsets, probabilities = tokens
    first = int(np.searchsorted(offsets[:, 1], start, side="right"))
    stop = int(np.searchsorted(offsets[:, 0], end, side="left"))
    if stop <= first:
        return 0.0
    return float(probabilities[first:stop, list(columns)].sum(axis=1).mean())


def candidate_features(
    text: str,
    start: int,
    end: int,
    tokens: tuple[np.ndarray, np.ndarray],
    name_columns: tuple[int, int],
    languages: frozenset[str],
    masked_words: frozenset[str],
) -> list[float]:
    """The values of `CANDIDATE_FEATURES` for the candidate text[start:end]: `tokens` the student's (offsets,
    probabilities) for the text, `name_columns` its B- and I-REAL_NAME columns, `masked_words` the casefolded words of
    the REAL_NAME spans it keeps in the text."""
    confidence = token_means(tokens, name_columns, start, end)
    inside = 1.0 - token_means(tokens, (0,), start, end)
    elsewhere = any(word.casefold() in masked_words for word in _WORD.findall(text, start, end))
    return [*name_features(text, start, end, confidence, languages, False), inside, float(elsewhere)]


@dataclass(frozen=True)
class CandidateJudge(Verifier):
    """The tree ensemble that scores name candidates (`Verifier`'s trees over `CANDIDATE_FEATURES`), with its threshold
    for a text read as English and for one in the six other languages."""

    @property
    def kind(self) -> Kind:
        return CANDIDATE_KIND

    def judge(
        self, text: str, places: list[tuple[int, int]], rows: list[list[float]], languages: frozenset[str]
    ) -> list[float]:
        """The score of each candidate at `places` of `text`, whose features' values are `rows`."""
        return self.scores(rows)

    def added(
        self,
        text: str,
        kept: list[Span],
        settled: list[Span],
        tokens: tuple[np.ndarray, np.ndarray],
        labels: list[str],
        languages: frozenset[str],
    ) -> list[tuple[int, int, float]]:
        """The candidates of `text` the judge keeps, as (start, end, score): none overlapping the tagger's `kept` spans
        or the pattern recognizers' `settled` ones."""
        if "REAL_NAME" not in labels:
            return []
        places = candidate_places(text, [(s.start, s.end) for s in (*kept, *settled)])
        if not places:
            return []
        at = 1 + 2 * labels.index("REAL_NAME")
        masked = frozenset(
            word.casefold() for s in kept if s.type == "REAL_NAME" for word in _WORD.findall(text, s.start, s.end)
        )
        rows = [candidate_features(text, s, e, tokens, (at, at + 1), languages, masked) for s, e in places]
        least = self.least(languages)
        scored = zip(places, self.judge(text, places, rows, languages), strict=True)
        return [(s, e, score) for (s, e), score in scored if score >= least]


def read_judge(path: Path) -> CandidateJudge:
    """The judge stored at `path`; a ValueError when its features are not this version's."""
    stored = json.loads(path.read_text(encoding="utf-8"))
    if tuple(stored["features"]) != CANDIDATE_FEATURES:
        raise ValueError(f"{path}: its features {stored['features']} are not this version's {list(CANDIDATE_FEATURES)}")
    trees = tuple(tuple(tuple(node) for node in tree) for tree in stored["trees"])
    return CandidateJudge(
        "REAL_NAME", trees, stored["base"], stored["rate"], stored["threshold"], stored["threshold_others"]
    )


@cache
def shipped_candidate_judge() -> CandidateJudge | None:
    """The judge shipped as data, or None."""
    path = resource_dir("data") / CANDIDATES_FILE
    return read_judge(path) if path.exists() else None
