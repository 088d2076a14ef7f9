"""Training the PII tagger's span calibrator (calibration.py, a measuring tool that is not shipped) on a detector's
candidate spans.

`CandidateRecognizer` tags at a lower token threshold and keeps every span reaching it; `added` keeps of those only
the ones beside the student's own spans (a lower threshold only adds candidates; the student's spans keep their
shape). The caller labels each candidate right or wrong (benchmarks/pii_calibration.py: by overlap with any
annotated value, of whatever type: masking does not depend on the type). `train` fits one logistic regression over
the features of every calibrated type (each feature also under its type, so types share what they can) and chooses
each type's student floor and probability threshold on out-of-fold probabilities (folds by data set): of the pairs
that keep, in every language, at least as many right candidates of the type as the student's own thresholds keep
(no recall lost in any language), the one with the best F-beta over that type's candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stealthflow.pii_tagger.model import SpanTagger, TaggedSpan
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pii_tagger.training.calibration import Calibrator, span_features
from stealthflow.pii_tagger.training.metrics import f_beta
from stealthflow.placeholders.types import Span

TAGGER_SOURCE = PiiTaggerRecognizer.name  # the source of the tagger's spans


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
    whether the student's own thresholds keep it, the text's language."""

    features: dict[str, float]
    label: str
    score: float
    right: bool = False
    group: str = ""
    student_keeps: bool = False
    language: str = ""


class CandidateRecognizer(PiiTaggerRecognizer):
    """The tagger's recognizer collecting a calibrator's candidates: the student tags tokens at `threshold` and
    every shaped and filtered span whose confidence reaches it is kept, of every type."""

    def __init__(self, threshold: float, directory: str | None = None, tagger: SpanTagger | None = None):
        super().__init__(directory, tagger)
        self.threshold = threshold

    def _tag(
        self, tagger: SpanTagger, texts: list[str], bounds: list[list[tuple[int, int]]], tokens: list | None = None
    ) -> list[list[TaggedSpan]]:
        if tokens is None:  # a tagger given (a fake) need not take them
            return tagger.tag_many(texts, self.batch_size, bounds, self.threshold)
        return tagger.tag_many(texts, self.batch_size, bounds, self.threshold, tokens)

    def _reaches(self, text: str, span: Span, floors: dict[str, float]) -> bool:
        return span.score >= self.threshold - 1e-9


def added(kept: list[Span], found: list[Span], labels: tuple[str, ...]) -> list[Span]:
    """The tagger spans of `labels` among `found` (a `CandidateRecognizer`'s detector) that overlap no span of
    `kept` (the detector as shipped): candidates a lower threshold adds; where the student keeps a span, its shape."""
    return [
        s
        for s in found
        if s.source == TAGGER_SOURCE
        and s.type in labels
        and not any(s.start < other.end and other.start < s.end for other in kept)
    ]


def candidates_in(
    text: str, kept: list[Span], found: list[Span], languages: frozenset[str], labels: tuple[str, ...]
) -> list[tuple[Span, Candidate]]:
    """One text's candidates and their spans: the shipped detector's tagger spans of `labels` (`kept`), then the
    ones a lower threshold adds (`found`: see `added`); right, set and language are the caller's."""
    own = [s for s in kept if s.source == TAGGER_SOURCE and s.type in labels]
    return [
        (
            span,
            Candidate(
                span_features(text, span.start, span.end, span.type, span.score, languages),
                span.type,
                span.score,
                student_keeps=span in own,
            ),
        )
        for span in own + added(kept, found, labels)
    ]


def calibrated(kept: list[Span], chosen: list[Span], labels: tuple[str, ...]) -> list[Span]:
    """The shipped detector's spans (`kept`) with its tagger spans of the calibrated `labels` replaced by the
    candidates the calibrator keeps (`chosen`)."""
    return [s for s in kept if s.source != TAGGER_SOURCE or s.type not in labels] + chosen


def keeps(calibrator: Calibrator, candidate: Candidate, chance: float) -> bool:
    """Whether `calibrator` keeps a candidate of probability `chance`: it reaches its type's floor and threshold."""
    return reaches(candidate, calibrator.floors[candidate.label]) and chance >= calibrator.thresholds[candidate.label]


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
    calibrator = Calibrator(weights, {}, {})
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
    those keeping, in each language, at least the right candidates the student's own thresholds keep there (the
    most right ones if none)."""
    floors, thresholds = {}, {}
    for label in config.labels:
        chosen = [(c, p) for c, p in zip(candidates, chances, strict=True) if c.label == label]
        positives = sum(c.right for c, _ in chosen)
        languages = sorted({c.language for c, _ in chosen})
        least = {lang: sum(c.right and c.student_keeps for c, _ in chosen if c.language == lang) for lang in languages}
        best, floors[label], thresholds[label] = (False, -1.0), config.floors[0], 0.5
        for floor in config.floors:
            for threshold in config.thresholds:
                kept = [(c.right, c.language) for c, p in chosen if reaches(c, floor) and p >= threshold]
                enough = all(
                    sum(r for r, lang in kept if lang == language) >= least[language] for language in languages
                )
                right = sum(r for r, _ in kept)
                f = f_beta(right / len(kept), right / positives, config.beta) if right else 0.0
                quality = (enough, f if enough else right)
                if quality > best:
                    best, floors[label], thresholds[label] = quality, floor, threshold
    return floors, thresholds


def reaches(candidate: Candidate, floor: float | None) -> bool:
    """Whether a candidate's student confidence reaches `floor` (None: the student's own threshold)."""
    return candidate.student_keeps if floor is None else candidate.score >= floor


def train(candidates: list[Candidate], config: CalibrationConfig, card: dict | None = None) -> Calibrator:
    """A calibrator fitted on `candidates` (of `config.labels`), its floors and thresholds chosen out of fold."""
    candidates = [c for c in candidates if c.label in config.labels]
    floors, thresholds = choose(candidates, out_of_fold(candidates, config), config)
    return Calibrator(fit(candidates, config), thresholds, floors, card or {})
