"""A second look at each name the tagger keeps: a small tree ensemble (gradient boosting) over what the runtime can
tell cheaply about the span (the student's confidence, capitals and position, the name lexicon, how common its words
are in the text's languages, cue words before it, whether a pattern recognizer found the name too), fitted on the
annotated development sets by `benchmarks/pii_name_verifier.py` and stored as data (`data/pii-tagger/name_verifier.json`:
the features' names, the trees, the thresholds and how they were chosen). A REAL_NAME span the tagger keeps whose
score falls below its threshold is dropped; else its reason gives the score.

The student's confidence alone does not part its false names from true ones (capitalised ordinary words and titles at
0.8-1.0); the other features do, in part (the file's `chosen` says by how much, on sets it was not fitted on). Only the
tagger's REAL_NAME spans are scored: a few look-ups, a share of capitals in its line and 150 short tree walks per name,
and a share of capitals per text (cached for the batch).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from stealthflow.pii_tagger.lexicons import RELATIVES, name_lexicon
from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.pii_tagger.route import may_be_english
from stealthflow.placeholders.common_words import at_ceiling, common_word, frequent_in, function_word
from stealthflow.placeholders.language import ENGLISH, OTHERS, language_file
from stealthflow.placeholders.recognizers.introductions import GREETINGS, greeted, introduced_before
from stealthflow.placeholders.recognizers.public_names import city_names, country_names, name_key, territory_names
from stealthflow.placeholders.recognizers.sentences import sentence_around, sentence_start
from stealthflow.resources import resource_dir

WEIGHTS = "pii-tagger/name_verifier.json"  # under the data directory
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_REACH = 40  # characters before a name that a cue may take, as introductions.py reads them
_RELATIVE_BEFORE = re.compile(rf"(?<!\w)(?i:{RELATIVES})\s*,?\s*$")
_GREETING_BEFORE = re.compile(rf"(?<!\w)(?i:{GREETINGS})\s*,?\s*$")
_OPENING_MARKS = " \t\"'«„“(-*#>"
_POSSESSIVE_AFTER = re.compile(r"['’]s\b")
_NEXT_WORD = re.compile(rf"[ \t]*({_WORD.pattern})")
# The first letter of the text's, each sentence's and each line's first word: after the text's start, a line break or
# ".", "!", "?", ":" that no letter or digit follows (not "rajesh.kumar@contoso.com", "10:30"), and spaces and marks.
_OPENING_WORD = re.compile(rf"(?:^|[.!?:](?!\w)|\n)[{re.escape(_OPENING_MARKS)}]*([^\W\d_])")
_TEXT_REACH = 2000  # characters of the text read for its capitals, and of a line on either side of a name

FEATURES = (
    "confidence",  # the student's mean token probability
    "words",  # words in the span, at most 4
    "lowercase",  # the span opens with a lowercase letter
    "all_caps",  # every letter a capital ("NHS")
    "sentence_start",  # nothing but marks before it in its sentence or line
    "line_capitals",  # share of the other words of its line, past each sentence's first, with a capital (titles)
    # the word just before it, inside the sentence, has a capital ("Prince William"); a sentence's first word only where a
    # comma parts it from the name ("Hope, Joy", not "Ask Rajesh"). Fitted and chosen on n-v as the script does, texts
    # without PII flagged: 423 without the comma's case, 422 with it (names found 2 134 and 2 131 of 2 491), no gain
    # beyond noise; it keeps "Joy" of the otters ("Hope, Joy and Faith are ...", test_name_verifier.py) in clear.
    "capital_before",
    "capital_after",  # the word just after it has a capital ("Normal People")
    "given",  # share of its words that are given names of the name lexicon (Faker's, names.py)
    "family",  # share that are family names there
    "common",  # share that are words of English (WordNet's lower-case lemmas, function words)
    "frequent",  # share that are frequent words of a language the text may be in (wordfreq, Zipf >= 3)
    "ceiling",  # share at the frequency ceiling of one of the six languages (common-<code>.txt)
    "introduced",  # a self-introduction or a relative before it ("my name is", "meine Frau", "my sister")
    "greeted",  # a greeting just before it ("Hi Deepak,")
    "english",  # the text may be English
    "agreed",  # a pattern recognizer found a REAL_NAME overlapping it
    "function_before",  # the word just before it is a function word of a language the text may be in ("bei", "the")
    "possessive_after",  # "'s" follows it
    "personal",  # its sentence holds a personal word ("my", "ich", "nous": `personal_words`)
    "place",  # it is a city, country or territory name (GeoNames, `public_names`)
    "text_capitals",  # share of the text's words, past each sentence's first, written with a capital
)


def features(
    text: str, start: int, end: int, confidence: float, languages: frozenset[str], agreed: bool
) -> list[float]:
    """The values of `FEATURES` for the name text[start:end] the tagger tagged with `confidence`, in a text that may be
    in any of `languages`; `agreed`: a pattern recognizer found a name there too."""
    value = text[start:end]
    words = _WORD.findall(value) or [value]
    lexicon = name_lexicon()
    codes = {code for code in languages if code in OTHERS or code == ENGLISH} or {ENGLISH}
    line_start = max(text.rfind("\n", max(0, start - _TEXT_REACH), start) + 1, start - _TEXT_REACH)
    line_end = text.find("\n", end, end + _TEXT_REACH)
    opening = sentence_start(text, start)
    before = _WORD.findall(text[opening:start])
    after = _NEXT_WORD.match(text, end)

    def share(test) -> float:
        return sum(bool(test(word)) for word in words) / len(words)

    return [
        confidence,
        min(len(words), 4),
        float(value[:1].islower()),
        float(len(value) > 1 and value.isupper()),
        float(not text[opening:start].strip(_OPENING_MARKS)),
        _capitals(text[line_start:start] + text[end : line_end if line_end >= 0 else end + _TEXT_REACH]),
        float(bool(before) and before[-1][:1].isupper() and (len(before) > 1 or "," in text[opening:start])),
        float(bool(after) and after.group(1)[:1].isupper()),
        share(lambda word: lexicon.get(word.casefold(), 0) & GIVEN),
        share(lambda word: lexicon.get(word.casefold(), 0) & FAMILY),
        share(common_word),
        share(lambda word: any(frequent_in(word, code) for code in codes)),
        share(lambda word: any(at_ceiling(word, code) for code in codes if code in OTHERS)),
        float(
            introduced_before(text, start) or _RELATIVE_BEFORE.search(text, max(0, start - _REACH), start) is not None
        ),
        float(greeted(text, start, end) or _GREETING_BEFORE.search(text, max(0, start - _REACH), start) is not None),
        float(may_be_english(languages)),
        float(agreed),
        float(bool(before) and before[-1].islower() and _function_word_of(before[-1].casefold(), codes)),
        float(_POSSESSIVE_AFTER.match(text, end) is not None),
        float(bool(set(_WORD.findall(sentence_around(text, start, end).casefold())) & _personal_words(codes))),
        float(_place(value)),
        _capitals(text[:_TEXT_REACH]),
    ]


def _function_word_of(word: str, codes: set[str]) -> bool:
    return function_word(word) or any(word in _language_words(code, "function_words") for code in codes)


def _personal_words(codes: set[str]) -> frozenset[str]:
    return frozenset().union(*(_language_words(code, "personal_words") for code in codes))


@cache
def _language_words(code: str, key: str) -> frozenset[str]:
    return frozenset(word.casefold() for word in language_file(code).get(key, ()))


def _place(value: str) -> bool:
    key = name_key(value)
    return key in city_names() or key in country_names() or key in territory_names()


@lru_cache(maxsize=64)  # the lines and texts of a batch's names: `clear_caches` empties it after each batch
def _capitals(piece: str) -> float:
    """Share of the words of `piece` that a capital opens, each sentence's and line's first word aside
    (`_OPENING_WORD`)."""
    words = _WORD.findall(piece)
    openers = _OPENING_WORD.findall(piece)
    capitals = sum(word[:1].isupper() for word in words) - sum(letter.isupper() for letter in openers)
    return capitals / max(len(words) - len(openers), 1)


class Name(NamedTuple):
    """A name the tagger keeps, as the verifier reads it: text[start:end], the tagger's confidence, the languages the
    text may be in, and whether a pattern recognizer found a name there too."""

    text: str
    start: int
    end: int
    confidence: float
    languages: frozenset[str]
    agreed: bool


@dataclass(frozen=True)
class NameVerifier:
    """A tree ensemble over `FEATURES` (gradient boosting: the log-odds `base` plus `rate` times the leaf each tree
    reaches) and the score a name must reach in a text read as English (`threshold`, the English student's) and in one
    of the six other languages (`threshold_others`, the multilingual student's). A tree is a tuple of nodes (feature,
    threshold, left, right, value): a node whose feature is negative is a leaf; else a name goes left when its
    feature's value is at most the threshold."""

    trees: tuple[tuple[tuple[int, float, int, int, float], ...], ...]
    base: float
    rate: float
    threshold: float
    threshold_others: float

    def judge_many(self, names: list[Name]) -> list[float]:
        """The score of each name (`features`, `scores`)."""
        return self.scores([features(*name) for name in names])

    def scores(self, rows: list[list[float]]) -> list[float]:
        """The model's probability that each row of `FEATURES` values is a real name's: every tree walked for every
        row at once, one level a step."""
        feature, threshold, left, right, value, depth = self._arrays
        x = np.asarray(rows, dtype=float).reshape(len(rows), len(FEATURES))
        trees, each = np.arange(len(self.trees)), np.arange(len(rows))[:, None]
        node = np.zeros((len(rows), len(self.trees)), dtype=np.intp)
        for _ in range(depth):
            at_left = x[each, feature[trees, node]] <= threshold[trees, node]
            node = np.where(at_left, left[trees, node], right[trees, node])
        z = self.base + self.rate * value[trees, node].sum(axis=1)
        return (1.0 / (1.0 + np.exp(-z))).tolist()

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """The trees as arrays of (tree, node): feature, threshold, left, right, value; a leaf leads to itself (feature
        0, threshold infinite); and the deepest tree's depth."""
        width = max(len(tree) for tree in self.trees)
        feature = np.zeros((len(self.trees), width), dtype=np.intp)
        threshold = np.full((len(self.trees), width), np.inf)
        left = np.tile(np.arange(width), (len(self.trees), 1))
        right, value = left.copy(), np.zeros((len(self.trees), width))
        for t, tree in enumerate(self.trees):
            for n, (node_feature, node_threshold, node_left, node_right, node_value) in enumerate(tree):
                value[t, n] = node_value
                if node_feature >= 0:
                    feature[t, n], threshold[t, n], left[t, n], right[t, n] = (
                        node_feature, node_threshold, node_left, node_right
                    )  # fmt: skip
        return feature, threshold, left, right, value, max(_depth(tree) for tree in self.trees)

    def least(self, languages: frozenset[str]) -> float:
        """The score a name must reach in a text that may be in any of `languages` (`threshold` where route.py sends
        it to the English student)."""
        return self.threshold if may_be_english(languages) else self.threshold_others

    def to_json(self, **about) -> dict:
        return {
            "features": list(FEATURES),
            "base": self.base,
            "rate": self.rate,
            "threshold": self.threshold,
            "threshold_others": self.threshold_others,
            **about,
            "trees": [[list(node) for node in tree] for tree in self.trees],
        }


def _depth(tree: tuple[tuple[int, float, int, int, float], ...], node: int = 0) -> int:
    feature, _, left, right, _ = tree[node]
    return 0 if feature < 0 else 1 + max(_depth(tree, left), _depth(tree, right))


def read_verifier(path: Path) -> NameVerifier:
    """The verifier stored at `path`; a ValueError when its features are not `FEATURES` (a model of another version)."""
    stored = json.loads(path.read_text(encoding="utf-8"))
    if tuple(stored["features"]) != FEATURES:
        raise ValueError(f"{path}: its features {stored['features']} are not this version's {list(FEATURES)}")
    trees = tuple(tuple(tuple(node) for node in tree) for tree in stored["trees"])
    return NameVerifier(trees, stored["base"], stored["rate"], stored["threshold"], stored["threshold_others"])


def clear_caches() -> None:
    """Forget the lines and texts read (no text stays in memory past its batch)."""
    _capitals.cache_clear()


@cache
def shipped_verifier() -> NameVerifier:
    """The verifier shipped as data (`WEIGHTS`)."""
    return read_verifier(resource_dir("data") / WEIGHTS)
