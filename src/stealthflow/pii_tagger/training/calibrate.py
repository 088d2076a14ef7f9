"""Training the PII tagger's span calibrator (calibration.py) on a detector's candidate spans.

`collect` runs a detector whose tagger keeps every candidate (`PiiTaggerRecognizer(candidates=...)`) over
texts and returns each tagger span's features; the caller labels each right or wrong (benchmarks/
pii_calibration.py: by overlap with an annotated value of its type). `train` fits one logistic regression over
the features of every calibrated type (each feature also under its type, so types share what they can) and
chooses each type's student floor and probability threshold on out-of-fold probabilities (folds by data set):
of the pairs that keep at least as many right candidates as the student's own thresholds keep (no recall lost),
the one with the best F-beta over that type's candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stealthflow.pii_tagger.calibration import Calibrator, span_features
from stealthflow.placeholders.language import shared_guesser
from stealthflow.placeholders.types import Span

TAGGER_SOURCE = "pii_tagger"  # the recognizer name on the tagger's spans


@dataclass(frozen=True)
class CalibrationConfig:
    token_threshold: float = 0.3  # the student's token threshold while calibrated: more candidates
    # the student confidences a type's floor is chosen from; None: the student's own threshold (its type's, language's)
    floors: tuple[float | None, ...] = (None, 0.4, 0.5)
    thresholds: tuple[float, ...] = tuple(round(0.05 * step, 2) for step in range(1, 20))  # 0.05 .. 0.95
    labels: tuple[str, ...] = ("REAL_NAME", "ADDRESS", "EMPLOYER", "HEALTH", "FINANCE")  # never CREDENTIAL
    regularisation: float = 1.0  # LogisticRegression's C
    min_count: int = 5  # a feature seen in fewer candidates is left out (a rare cue word)
    beta: float = 1.25  # F-beta that chooses a type's floor and threshold (recall weighs a little more)
    folds: int = 5  # out-of-fold probabilities for choosing thresholds, folds by data set


@dataclass(frozen=True)
class Candidate:
    """A tagger span of a collected text: its features, type, student confidence, whether it is right, its set,
    whether the student's own thresholds keep it."""

    features: dict[str, float]
    label: str
    score: float
    right: bool = False
    group: str = ""
    student_keeps: bool = False


def collect(detector, texts: list[str]) -> tuple[list[list[Span]], list[list[dict[str, float]]]]:
    """The detector's spans of each text, and the features of each of its tagger spans (None for the others)."""
    found = detector.detect_many(texts)
    guesser = shared_guesser()
    features = []
    for text, spans in zip(texts, found, strict=True):
        languages = guesser.guess(text).candidates
        features.append(
            [
                span_features(text, s.start, s.end, s.type, s.score, languages) if s.source == TAGGER_SOURCE else None
                for s in spans
            ]
        )
    return found, features


def fit(candidates: list[Candidate], config: CalibrationConfig) -> dict[str, float]:
    """The logistic regression's weights (feature -> weight, `bias` its intercept) over `candidates`."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    counts: dict[str, int] = {}
    for candidate in candidates:
        for name in candidate.features:
            counts[name] = counts.get(name, 0) + 1
    usable = {name for name, count in counts.items() if count >= config.min_count and name != "bias"}
    rows = [{k: v for k, v in c.features.items() if k in usable} for c in candidates]
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform(rows)
    y = np.array([c.right for c in candidates])
    if len(set(y.tolist())) < 2:
        return {"bias": 10.0 if y.all() else -10.0}
    model = LogisticRegression(C=config.regularisation, max_iter=2000).fit(x, y)
    weights = {name: round(float(w), 5) for name, w in zip(vectorizer.feature_names_, model.coef_[0], strict=True)}
    weights = {name: w for name, w in weights.items() if w}
    weights["bias"] = round(float(model.intercept_[0]), 5)
    return weights


def probabilities(weights: dict[str, float], candidates: list[Candidate]) -> list[float]:
    calibrator = Calibrator(weights, {}, {}, 0.0)
    return [calibrator.probability(c.features) for c in candidates]


def out_of_fold(candidates: list[Candidate], config: CalibrationConfig) -> list[float]:
    """Each candidate's probability from a model fitted without its fold's data sets."""
    groups = sorted({c.group for c in candidates})
    fold_of = {group: i % config.folds for i, group in enumerate(groups)}
    result = [0.0] * len(candidates)
    for fold in range(min(config.folds, len(groups))):
        inside = [i for i, c in enumerate(candidates) if fold_of[c.group] == fold]
        weights = fit([c for c in candidates if fold_of[c.group] != fold], config)
        for i, p in zip(inside, probabilities(weights, [candidates[i] for i in inside]), strict=True):
            result[i] = p
    return result


def choose(
    candidates: list[Candidate], chances: list[float], config: CalibrationConfig
) -> tuple[dict[str, float], dict[str, float]]:
    """Per type: the (floor, threshold) with the best F-beta over its candidates (recall of its right ones) among
    those keeping at least the right candidates the student's own thresholds keep (the most right ones if none)."""
    floors, thresholds = {}, {}
    for label in config.labels:
        chosen = [(c, p) for c, p in zip(candidates, chances, strict=True) if c.label == label]
        positives = sum(c.right for c, _ in chosen)
        least = sum(c.right and c.student_keeps for c, _ in chosen)
        best, floors[label], thresholds[label] = (False, -1.0), config.floors[0], 0.5
        for floor in config.floors:
            for threshold in config.thresholds:
                kept = [c.right for c, p in chosen if reaches(c, floor) and p >= threshold]
                enough = sum(kept) >= least
                quality = (enough, _f_beta(sum(kept), len(kept), positives, config.beta) if enough else sum(kept))
                if quality > best:
                    best, floors[label], thresholds[label] = quality, floor, threshold
    return floors, thresholds


def reaches(candidate: Candidate, floor: float | None) -> bool:
    """Whether a candidate's student confidence reaches `floor` (None: the student's own threshold)."""
    return candidate.student_keeps if floor is None else candidate.score >= floor


def _f_beta(right: int, kept: int, positives: int, beta: float) -> float:
    if not right:
        return 0.0
    precision, recall = right / kept, right / positives
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def train(candidates: list[Candidate], config: CalibrationConfig, card: dict | None = None) -> Calibrator:
    """A calibrator fitted on `candidates` (of `config.labels`), its floors and thresholds chosen out of fold."""
    candidates = [c for c in candidates if c.label in config.labels]
    floors, thresholds = choose(candidates, out_of_fold(candidates, config), config)
    return Calibrator(fit(candidates, config), thresholds, floors, config.token_threshold, card or {})
