"""A span calibrator for the PII tagger, a measuring tool that is not shipped: P(a candidate span is personal
data), learned from labelled natural messages (`calibrate.py`, `benchmarks/pii_calibration.py`); the recognizer
keeps the student's own thresholds.

The student tags tokens at a lower token threshold (more candidates); each shaped and filtered span of a calibrated
type that reaches its type's floor gets a probability from a logistic regression over what the student does not
see: how common its words are in the text's languages (words of the name lexicon and health conditions left out:
a name that is also a word, "paz", "roos", and a condition, "longontsteking", are frequent words), whether they are
given or family names (the student's lexicon), capitals mid-sentence or at a sentence's start, a famous name or a
brand, a month or a weekday, the words before it, its length; with the student's confidence, type and the text's
languages. A span is kept when that probability reaches its type's `thresholds`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from stealthflow.pii_tagger.lexicons import alternation, name_lexicon
from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.placeholders.common_words import frequent_in, frequent_in_any, frequent_word, function_word
from stealthflow.placeholders.language import COVERED, ENGLISH
from stealthflow.placeholders.recognizers.public_names import brand, public_name
from stealthflow.placeholders.recognizers.sentences import capitalises, sentence_start

_WORD = re.compile(r"\w+")
_CALENDAR = re.compile(rf"(?i:{alternation('weekdays', 'months', 'other_calendars')})")
_OPENING = " \t\"'“‘([-*•>:"  # what may stand between a sentence's start and its first word
LONG_WORD = 10  # letters of a long word (a German compound: "Sonnencreme", "Tischtennis")
CUE_WORDS = 2  # words before a span read as its cue
HEALTH = "HEALTH"


@dataclass(frozen=True)
class Calibrator:
    """`weights`: feature -> weight of the logistic regression (`bias` its intercept); `thresholds`: label ->
    the probability a span keeps; `floors`: label -> the student confidence a span needs to be scored at all (None:
    the student's own threshold for its type and the text's languages)."""

    weights: dict[str, float]
    thresholds: dict[str, float]
    floors: dict[str, float | None]
    card: dict = field(default_factory=dict, compare=False)  # how it was trained

    def probability(self, features: dict[str, float]) -> float:
        weights = self.weights
        logit = sum(weights.get(name, 0.0) * value for name, value in features.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))

    def to_json(self) -> dict:
        return {
            "floors": self.floors,
            "thresholds": self.thresholds,
            **self.card,
            "weights": dict(sorted(self.weights.items())),
        }


def span_features(
    text: str, start: int, end: int, label: str, score: float, languages: frozenset[str]
) -> dict[str, float]:
    """The features of the `label` span text[start:end] whose student confidence is `score`, in a text that may
    be in any of `languages`: each feature as it is and again under the span's type ("REAL_NAME:frequent")."""
    codes = sorted(languages & set(COVERED)) or [ENGLISH]
    words = _WORD.findall(text, start, end) or [text[start:end]]
    lexicon = name_lexicon()
    flags = [lexicon.get(word.casefold(), 0) for word in words]
    first_capital = text[start : start + 1].isupper()
    opens = not text[sentence_start(text, start) : start].strip(_OPENING)
    base = {
        "score": score,
        "logit": math.log(max(score, 1e-6) / max(1.0 - score, 1e-6)),
        f"words={min(len(words), 3)}": 1.0,
        **_frequency(words, flags, codes, label),
        "given_first": float(bool(flags[0] & GIVEN)),
        "family_last": float(bool(flags[-1] & FAMILY)),
        "name_words": _share(bool(flag) for flag in flags),
        "capital_opens": float(first_capital and opens),
        "capital_inside": float(first_capital and not opens),
        "lowercase": float(text[start:end].islower()),
        "writer_capitalises": float(capitalises(text, start)),
        "public": float(public_name(text, start, end)),
        "brand": float(brand(text, start, end)),
        "calendar": _share(bool(_CALENDAR.fullmatch(word)) for word in words),
        "digit": float(any(c.isdigit() for c in text[start:end])),
        "long_word": float(max(len(word) for word in words) >= LONG_WORD),
    }
    for code in codes:
        base[f"lang={code}"] = 1.0 / len(codes)
    for position, cue in enumerate(_cues(text, start)):
        base[f"cue{position}={cue}"] = 1.0
    features = {"bias": 1.0, f"type={label}": 1.0, **base}
    features.update({f"{label}:{name}": value for name, value in base.items()})
    return features


def _frequency(words: list[str], flags: list[int], codes: list[str], label: str) -> dict[str, float]:
    """The share of the span's words frequent in its text's languages, in any covered language, in English; a word
    of the name lexicon counts as not frequent ("paz", "roos", "hope": names that are also words), and a health
    condition has none of these features (a condition is a word: "Lungenentzündung", "Epilepsie")."""
    if label == HEALTH:
        return {}
    return {
        "frequent": _share(not flag and any(frequent_in(w, code) for code in codes) for w, flag in zip(words, flags)),
        "frequent_elsewhere": _share(not flag and frequent_in_any(w) for w, flag in zip(words, flags)),
        "frequent_en": _share(not flag and frequent_word(w) for w, flag in zip(words, flags)),
    }


def _cues(text: str, start: int) -> list[str]:
    """The words before `start` in its sentence, nearest first, casefolded; a word that is no frequent or function
    word of a covered language (a name, a number), or a frequent word of the name lexicon ("paz", "roos", "mark"), as
    "?": no personal word is learnt as a cue."""
    words = _WORD.findall(text, sentence_start(text, start), start)[-CUE_WORDS:]
    lexicon = name_lexicon()
    return [
        word.casefold()
        if function_word(word) or frequent_in_any(word) and not word.isdigit() and not lexicon.get(word.casefold())
        else "?"
        for word in reversed(words)
    ]


def _share(flags) -> float:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else 0.0
