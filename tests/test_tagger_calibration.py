"""The PII tagger's span calibrator, a measuring tool that is not shipped: its features, its trainer on fake data,
its candidate collection; and the shipped recognizer, which keeps the student's own thresholds, on cue-less names
and health conditions."""

from __future__ import annotations

import re

import pytest

from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pii_tagger.training.calibrate import (
    CalibrationConfig,
    Candidate,
    CandidateRecognizer,
    added,
    choose,
    fit,
    probabilities,
    train,
)
from stealthflow.pii_tagger.training.calibration import span_features
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.placeholders.types import Span


def _features(text: str, value: str, label: str = "REAL_NAME", score: float = 0.6, languages=frozenset({"de"})):
    start = text.index(value)
    return span_features(text, start, start + len(value), label, score, languages)


def test_features_tell_a_month_a_common_noun_and_a_given_name_apart():
    text = "Ich habe Sonnencreme im Juli gekauft, sagt Jorge."
    month, noun, name = (_features(text, word) for word in ("Juli", "Sonnencreme", "Jorge"))
    assert month["calendar"] == 1.0 and noun["calendar"] == 0.0
    assert name["given_first"] == 1.0 and noun["given_first"] == 0.0
    assert noun["long_word"] == 1.0 and name["long_word"] == 0.0
    assert month["REAL_NAME:calendar"] == 1.0, "each feature again under the span's type"
    assert month["lang=de"] == 1.0 and month["type=REAL_NAME"] == 1.0


def test_features_tell_a_sentence_opening_capital_from_one_inside_and_read_the_cue_before():
    text = "Jorge me debe 40 euros. Ayer hablé con Inês."
    opening, inside = _features(text, "Jorge", languages=frozenset({"es"})), _features(text, "Inês")
    assert (opening["capital_opens"], opening["capital_inside"]) == (1.0, 0.0)
    assert (inside["capital_opens"], inside["capital_inside"]) == (0.0, 1.0)
    assert inside["cue0=con"] == 1.0 and inside["cue1=hablé"] == 1.0
    assert not any(name.startswith("cue") for name in opening), "no word before it in its sentence"


def test_a_word_before_a_span_that_is_no_frequent_word_or_a_name_is_no_cue():
    text = "Xiomara Okonkwo Lindqvist kommt morgen."
    features = _features(text, "Lindqvist")
    assert {name for name in features if name.startswith("cue")} == {"cue0=?", "cue1=?"}
    named = _features("lunch gehad met roos en sanne", "sanne", languages=frozenset({"nl"}))
    assert {name for name in named if name.startswith("cue")} == {"cue0=?", "cue1=?"}, "'roos' is a name, 'en' no"


def test_a_name_that_is_also_a_word_and_a_health_condition_count_as_no_frequent_word():
    """On the previous features "paz" and "longontsteking" counted as frequent words: the model learnt to drop them."""
    paz = _features("had coffee with paz yesterday", "paz", languages=frozenset({"en"}))
    assert paz["frequent_elsewhere"] == 0.0 and paz["frequent"] == 0.0
    text = "Tom ligt sinds maandag met longontsteking in het ziekenhuis."
    condition = _features(text, "longontsteking", label="HEALTH", languages=frozenset({"nl"}))
    assert not any(name.startswith(("frequent", "HEALTH:frequent")) for name in condition)
    month = _features("Ich habe im Juli gekauft.", "gekauft")
    assert month["frequent"] == 1.0, "a frequent word of the text's language that is no name"


def _fake_candidates() -> list[Candidate]:
    """A fake dataset (labelled as such): names are right, months and common nouns wrong, in four fake sets."""
    rows = []
    for i in range(80):
        name = i % 2 == 0
        features = {"bias": 1.0, "type=REAL_NAME": 1.0, "given_first": float(name), "calendar": float(not name)}
        rows.append(Candidate(features, "REAL_NAME", 0.35 + 0.005 * (i % 10), name, f"set{i % 4}"))
    return rows


def test_the_trainer_learns_a_fake_dataset_and_chooses_a_threshold_between_its_classes():
    config = CalibrationConfig(min_count=1, floors=(None, 0.3, 0.4))
    candidates = _fake_candidates()
    weights = fit(candidates, config)
    assert weights["given_first"] > 0 > weights["calendar"]
    chances = probabilities(weights, candidates)
    floors, thresholds = choose(candidates, chances, config)
    kept = [c.right for c, p in zip(candidates, chances, strict=True) if p >= thresholds["REAL_NAME"]]
    assert kept and all(kept) and len(kept) == sum(c.right for c in candidates)
    assert floors["REAL_NAME"] == 0.3, "confidences 0.35-0.4 and the student keeps none: the lowest number"
    assert "CREDENTIAL" not in train(candidates, config).thresholds


def test_thresholds_keep_at_least_the_right_spans_the_student_keeps():
    """A fake dataset (labelled as such): two right spans the calibrator is unsure of, ten it is sure of, ten wrong
    ones between. The best F1 drops the two; when the student's own thresholds keep all twelve, the choice keeps
    twelve."""
    config = CalibrationConfig(floors=(0.3,))
    unsure = [Candidate({}, "REAL_NAME", 0.6, True, "a", student_keeps=True) for _ in range(2)]
    sure = [Candidate({}, "REAL_NAME", 0.6, True, "a", student_keeps=True) for _ in range(10)]
    wrong = [Candidate({}, "REAL_NAME", 0.6, False, "a") for _ in range(10)]
    chances = [0.2] * 2 + [0.9] * 10 + [0.5] * 10
    _, kept_by_student = choose(unsure + sure + wrong, chances, config)
    assert kept_by_student["REAL_NAME"] <= 0.2
    unkept = [Candidate({}, "REAL_NAME", 0.6, True, "a") for _ in range(2)]
    _, best_f1 = choose(unkept + sure + wrong, chances, config)
    assert 0.5 < best_f1["REAL_NAME"] <= 0.9


def test_the_no_recall_lost_rule_holds_in_every_language_not_only_pooled():
    """A fake dataset (labelled as such): in Spanish the student keeps two right spans the calibrator is unsure of;
    in English two right spans only the lower threshold finds, which the calibrator is sure of. Pooled, dropping the
    Spanish two for the English two loses nothing; per language it loses Spanish recall, so the threshold keeps
    them."""
    config = CalibrationConfig(floors=(0.3,))
    spanish = [Candidate({}, "HEALTH", 0.6, True, "a", True, "es") for _ in range(2)]
    english = [Candidate({}, "HEALTH", 0.35, True, "a", False, "en") for _ in range(2)]
    wrong = [Candidate({}, "HEALTH", 0.6, False, "a", False, "es") for _ in range(10)]
    chances = [0.2] * 2 + [0.9] * 2 + [0.5] * 10
    _, thresholds = choose(spanish + english + wrong, chances, config)
    assert thresholds["HEALTH"] <= 0.2


class ThresholdFakeTagger:
    """A fake (labelled as such): tags given words with a type and confidence; records the token threshold."""

    labels = ["REAL_NAME", "ADDRESS", "EMPLOYER", "HEALTH", "FINANCE", "CREDENTIAL"]
    span_thresholds = {"REAL_NAME": 0.6, "CREDENTIAL": 0.5}

    def __init__(self, words: dict[str, tuple[str, float]]):
        self.words, self.threshold = words, None

    def tag_many(self, texts, batch_size=16, settled=None, threshold=None):
        self.threshold = threshold
        return [
            [
                TaggedSpan(m.start(), m.end(), label, score)
                for word, (label, score) in self.words.items()
                for m in re.finditer(re.escape(word), text)
            ]
            for text in texts
        ]


def test_candidates_keep_every_span_reaching_the_lower_threshold_and_the_shipped_recognizer_its_own():
    text = "Ich habe im Juli mit Jorge Alvarez gesprochen."
    fake = ThresholdFakeTagger({"Juli": ("REAL_NAME", 0.7), "Jorge Alvarez": ("REAL_NAME", 0.35)})
    found = CandidateRecognizer(0.3, tagger=fake).find(text)
    assert fake.threshold == 0.3
    assert {text[s.start : s.end]: s.score for s in found} == {"Juli": 0.7, "Jorge Alvarez": 0.35}
    shipped = PiiTaggerRecognizer(tagger=fake).find(text)
    assert fake.threshold is None and [text[s.start : s.end] for s in shipped] == ["Juli"]


def test_a_lower_threshold_only_adds_candidates_beside_the_student_spans():
    """The shipped span "Steuer" keeps its shape; the lower threshold's "Meine Steuer-ID" overlapping it is no
    candidate; "Willem", which the student does not keep, is one."""
    kept = [Span(6, 12, "REAL_NAME", 0.6, "pii_tagger")]
    found = [Span(0, 15, "REAL_NAME", 0.4, "pii_tagger"), Span(20, 26, "REAL_NAME", 0.35, "pii_tagger")]
    found.append(Span(30, 40, "CREDENTIAL", 0.35, "pii_tagger"))
    assert added(kept, found, ("REAL_NAME",)) == [found[1]]


# Values the student alone masks and the calibrator shipped in fb23b7c..076ca5f dropped (an outside reviewer's texts).
# A known miss of the multilingual student (models/pii-tagger-student-multilingual/README.md, limits); the
# English student masked it. Strict: the test fails once the student masks it again.
KNOWN_MISS = "the multilingual student misses this Portuguese street"
CUELESS_AND_HEALTH = [
    ("Tom ligt sinds maandag met longontsteking in het ziekenhuis.", "longontsteking"),
    ("had coffee with paz yesterday, she finally told me about her crohn's disease", "paz"),
    ("o meu chefe Vasco na Sonae não me deixa ir ao médico", "Sonae"),
    pytest.param(
        "moramos na Rua Direita em Viseu, ao lado da igreja",
        "Rua Direita",
        marks=pytest.mark.xfail(strict=True, reason=KNOWN_MISS),
    ),
]


@pytest.mark.real_model
@pytest.mark.parametrize(("text", "value"), CUELESS_AND_HEALTH)
def test_the_shipped_detector_masks_cueless_names_conditions_and_mistyped_values(text, value):
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])  # each text to its language's student
    masked = [text[s.start : s.end] for s in detector.detect(text)]
    assert any(value in span for span in masked), masked
