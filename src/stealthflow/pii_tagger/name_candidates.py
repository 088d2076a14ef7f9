"""Names the student is silent on: each capitalised word of the name lexicon (names.py: Faker's given and family names
of every locale), or pair of such words, that no span of the tagger or of a pattern recognizer holds is a candidate, and
a learned judge decides which are names. The judge is a tree ensemble like the name verifier's (verifier.py) over the
name verifier's features, the student's own REAL_NAME and any-label probability for the candidate's tokens (below
its threshold) and whether the tagger masked the same word elsewhere in the text; fitted on annotated text by
`benchmarks/pii_name_candidates.py` and stored as data (`data/pii-tagger/name_candidates.json`: its features, trees,
thresholds by route and how they were chosen). Without the file no candidate is judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from stealthflow.pii_tagger.lexicons import name_lexicon
from stealthflow.pii_tagger.verifier import _WORD, NAME_FEATURES, Kind, Verifier, name_features, read_verifier
from stealthflow.placeholders.types import Span
from stealthflow.resources import resource_dir

CANDIDATES_FILE = "pii-tagger/name_candidates.json"  # under the data directory
CANDIDATE_FEATURES = (
    *NAME_FEATURES,  # "confidence": the student's mean REAL_NAME probability over the candidate's tokens
    "inside",  # the student's mean probability of any label over them (1 - P(O))
    "masked_elsewhere",  # a REAL_NAME span the tagger keeps elsewhere in the text holds the same word
)
CANDIDATE_KIND = Kind(CANDIDATE_FEATURES, name_features, "name candidate")
# The words of `_WORD` that no ASCII lower-case letter opens (the rest are read by `str.isupper`): the same matches as
# `_WORD.finditer`, as it starts none inside a word or after a letter and a joiner ("O'Brien", "Jean-Luc" whole). The
# letter is looked at first: most places fail there, before the look-behinds are tried.
_UNLOWERED_WORD = re.compile(rf"(?=[^\W\d_a-z])(?<![^\W\d_])(?<![^\W\d_]['’-]){_WORD.pattern}")


def candidate_places(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The candidates of `text`: each word that a capital opens (and some lower-case letter follows) and that the name
    lexicon holds, joined to the next such word when one space parts them ("Regilene Souza"), none overlapping a range of
    `taken`."""
    lexicon = name_lexicon()
    words = [
        m.span()
        for m in _UNLOWERED_WORD.finditer(text)
        if (word := m.group())[:1].isupper() and not word.isupper() and word.casefold() in lexicon
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


class TokenReader:
    """A text's tokens as the candidates read them: per token its start, end, REAL_NAME probability (B and I summed,
    `name_columns`) and probability of no label. The means are `np.add.reduce` over the count: `ndarray.mean`'s
    figures without its wrapper's cost."""

    def __init__(self, tokens: tuple[np.ndarray, np.ndarray], name_columns: tuple[int, int]):
        offsets, probabilities = tokens
        self.starts, self.ends = offsets[:, 0], offsets[:, 1]
        self.name = probabilities[:, name_columns[0]] + probabilities[:, name_columns[1]]
        self.outside = probabilities[:, 0]

    def means(self, start: int, end: int) -> tuple[float, float]:
        """The mean REAL_NAME probability and the mean probability of any label over the tokens of text[start:end]
        (0 and 0 where none is)."""
        first, stop = int(self.ends.searchsorted(start, "right")), int(self.starts.searchsorted(end, "left"))
        if stop <= first:
            return 0.0, 0.0
        count = stop - first
        name, outside = np.add.reduce(self.name[first:stop]), np.add.reduce(self.outside[first:stop])
        return float(name / count), 1.0 - float(outside / count)


def candidate_features(
    text: str, start: int, end: int, tokens: TokenReader, languages: frozenset[str], masked_words: frozenset[str]
) -> list[float]:
    """The values of `CANDIDATE_FEATURES` for the candidate text[start:end]: `tokens` the student's for the text,
    `masked_words` the casefolded words of the REAL_NAME spans it keeps in the text."""
    confidence, inside = tokens.means(start, end)
    elsewhere = any(word.casefold() in masked_words for word in _WORD.findall(text, start, end))
    return [*name_features(text, start, end, confidence, languages, False), inside, float(elsewhere)]


@dataclass(frozen=True)
class CandidateJudge(Verifier):
    """The tree ensemble that scores name candidates (`Verifier`'s trees over `CANDIDATE_FEATURES`), with its threshold
    for a text read as English and for one in the six other languages."""

    @property
    def kind(self) -> Kind:
        return CANDIDATE_KIND

    def judge(self, rows: list[list[float]], places: list[tuple[str, int, int]]) -> list[float]:
        """The score of each candidate, whose features' values are `rows` (`places`: its text, start and end: what a
        recorder of candidates reads)."""
        return self.scores(rows) if rows else []

    def added(
        self,
        texts: list[str],
        kept: list[list[Span]],
        settled: list[list[Span]],
        tokens: list[tuple[np.ndarray, np.ndarray]],
        labels: list[str],
        languages: list[frozenset[str]],
    ) -> list[list[tuple[int, int, float]]]:
        """Per text, the candidates the judge keeps, as (start, end, score): none overlapping the tagger's `kept` spans
        or the pattern recognizers' `settled` ones (a batch's candidates scored at once)."""
        if "REAL_NAME" not in labels:
            return [[] for _ in texts]
        at = 1 + 2 * labels.index("REAL_NAME")
        rows, places, owners = [], [], []
        for index, (text, spans) in enumerate(zip(texts, kept, strict=True)):
            found = candidate_places(text, [(s.start, s.end) for s in (*spans, *settled[index])])
            if not found:
                continue
            reader = TokenReader(tokens[index], (at, at + 1))
            masked = frozenset(
                word.casefold() for s in spans if s.type == "REAL_NAME" for word in _WORD.findall(text, s.start, s.end)
            )
            rows += [candidate_features(text, s, e, reader, languages[index], masked) for s, e in found]
            places += [(text, s, e) for s, e in found]
            owners += [index] * len(found)
        added: list[list[tuple[int, int, float]]] = [[] for _ in texts]
        for index, (_, start, end), score in zip(owners, places, self.judge(rows, places), strict=True):
            if score >= self.least(languages[index]):
                added[index].append((start, end, score))
        return added


def read_judge(path: Path) -> CandidateJudge:
    """The judge stored at `path`; a ValueError when its features are not this version's."""
    return read_verifier(path, "REAL_NAME", CANDIDATE_KIND, CandidateJudge)


@cache
def shipped_candidate_judge() -> CandidateJudge | None:
    """The judge shipped as data, or None."""
    path = resource_dir("data") / CANDIDATES_FILE
    return read_judge(path) if path.exists() else None
