"""The PII tagger's span calibrator: P(a candidate span is personal data of its type), learned from labelled
natural messages (`training/calibrate.py`, `benchmarks/pii_calibration.py`).

The student tags tokens at the calibrator's lower `token_threshold` (more candidates: recall); each shaped and
filtered span of a calibrated type that reaches its type's floor then gets a probability from a logistic
regression over what the student does not see: how common its words are in the text's languages, whether they
are given or family names (the student's lexicon), capitals mid-sentence or at a sentence's start, a famous
name or a brand, a month or a weekday, the word before it, its length; with the student's confidence, type and
the text's languages. A span is kept when that probability reaches its type's `thresholds` and carries it as
its confidence. Secrets (CREDENTIAL) are never calibrated: they keep the student's own threshold.

The calibrator lives beside its student's weights (`calibration.json`): trained on that student's candidates,
it goes with it, and a student without one detects as before.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from stealthflow.pii_tagger.lexicons import alternation, name_lexicon
from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.placeholders.common_words import frequent_in, frequent_in_any, frequent_word, function_word
from stealthflow.placeholders.language import COVERED, ENGLISH
from stealthflow.placeholders.recognizers.public_names import brand, public_name
from stealthflow.placeholders.recognizers.sentences import capitalises, sentence_start
from stealthflow.placeholders.types import TYPE_LEVELS, Level

CALIBRATION = "calibration.json"  # beside a student's weights
_WORD = re.compile(r"\w+")
_CALENDAR = re.compile(rf"(?i:{alternation('weekdays', 'months', 'other_calendars')})")
_OPENING = " \t\"'“‘([-*•>:"  # what may stand between a sentence's start and its first word
LONG_WORD = 10  # letters of a long word (a German compound: "Sonnencreme", "Tischtennis")
CUE_WORDS = 2  # words before a span read as its cue


@dataclass(frozen=True)
class Calibrator:
    """`weights`: feature -> weight of the logistic regression (`bias` its intercept); `thresholds`: label ->
    the probability a span keeps; `floors`: label -> the student confidence a span needs to be scored at all (None:
    the student's own threshold for its type and the text's languages, the card's);
    `token_threshold`: the student's token threshold while calibrated."""

    weights: dict[str, float]
    thresholds: dict[str, float]
    floors: dict[str, float | None]
    token_threshold: float
    card: dict = field(default_factory=dict, compare=False)  # how it was trained and measured

    def calibrates(self, label: str) -> bool:
        """Whether spans of `label` are calibrated: a type with a threshold, never a secret (a PL4 type: a missed
        key leaks, a false alarm does not)."""
        return label in self.thresholds and TYPE_LEVELS.get(label) != Level.PL4

    def probability(self, features: dict[str, float]) -> float:
        weights = self.weights
        logit = sum(weights.get(name, 0.0) * value for name, value in features.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))

    def to_json(self) -> dict:
        return {
            "token_threshold": self.token_threshold,
            "floors": self.floors,
            "thresholds": self.thresholds,
            **self.card,
            "weights": dict(sorted(self.weights.items())),
        }

    def save(self, directory: Path) -> None:
        (directory / CALIBRATION).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def load_calibrator(directory: Path) -> Calibrator | None:
    """The calibrator saved beside a student's weights; None where there is none."""
    return _load(str(directory))


@cache
def _load(directory: str) -> Calibrator | None:
    path = Path(directory) / CALIBRATION
    if not path.is_file():
        return None
    meta = json.loads(path.read_text(encoding="utf-8"))
    kept = ("weights", "thresholds", "floors", "token_threshold")
    return Calibrator(**{key: meta[key] for key in kept}, card={k: v for k, v in meta.items() if k not in kept})


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
        "frequent": _share(any(frequent_in(word, code) for code in codes) for word in words),
        "frequent_elsewhere": _share(frequent_in_any(word) for word in words),
        "frequent_en": _share(frequent_word(word) for word in words),
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


def _cues(text: str, start: int) -> list[str]:
    """The words before `start` in its sentence, nearest first, casefolded; a word that is no frequent or function
    word of a covered language (a name, a number) as "?": no personal word is learnt as a cue."""
    words = _WORD.findall(text, sentence_start(text, start), start)[-CUE_WORDS:]
    return [
        word.casefold() if function_word(word) or frequent_in_any(word) and not word.isdigit() else "?"
        for word in reversed(words)
    ]


def _share(flags) -> float:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else 0.0
