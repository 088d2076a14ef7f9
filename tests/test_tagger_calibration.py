"""The PII tagger's span calibrator: its features, its trainer on a fake dataset, the recognizer with it, and the
shipped calibrator on the real student."""

from __future__ import annotations

import re

import pytest

from stealthflow.pii_tagger.calibration import CALIBRATION, Calibrator, load_calibrator, span_features
from stealthflow.pii_tagger.model import TaggedSpan, shipped_pii_tagger_dir
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pii_tagger.training.calibrate import CalibrationConfig, Candidate, choose, fit, probabilities, train


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
    text = "Jorge me debe 40 euros. Ayer vi a Inês."
    opening, inside = _features(text, "Jorge", languages=frozenset({"es"})), _features(text, "Inês")
    assert (opening["capital_opens"], opening["capital_inside"]) == (1.0, 0.0)
    assert (inside["capital_opens"], inside["capital_inside"]) == (0.0, 1.0)
    assert inside["cue0=a"] == 1.0 and inside["cue1=vi"] == 1.0
    assert not any(name.startswith("cue") for name in opening), "no word before it in its sentence"


def test_a_word_before_a_span_that_is_no_frequent_word_is_no_cue():
    text = "Xiomara Okonkwo Lindqvist kommt morgen."
    features = _features(text, "Lindqvist")
    assert {name for name in features if name.startswith("cue")} == {"cue0=?", "cue1=?"}


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
    calibrator = train(candidates, config)
    assert calibrator.token_threshold == config.token_threshold and "CREDENTIAL" not in calibrator.thresholds


def test_a_calibrator_saves_and_loads_beside_a_student(tmp_path):
    calibrator = Calibrator({"bias": -1.0, "calendar": -2.0}, {"REAL_NAME": 0.5}, {"REAL_NAME": 0.3}, 0.3, {"n": 1})
    calibrator.save(tmp_path)
    assert (tmp_path / CALIBRATION).is_file()
    assert load_calibrator(tmp_path) == calibrator
    assert load_calibrator(tmp_path / "none") is None


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


def test_a_calibrated_span_is_kept_by_its_probability_which_becomes_its_confidence_and_a_secret_is_never_dropped():
    text = "Ich habe im Juli mit Jorge Alvarez gesprochen, Passwort: Zebra7Kaffee!"
    fake = ThresholdFakeTagger(
        {"Juli": ("REAL_NAME", 0.7), "Jorge Alvarez": ("REAL_NAME", 0.4), "Zebra7Kaffee!": ("CREDENTIAL", 0.55)}
    )
    fake_calibrator = Calibrator(  # a fake: months are no names, given names are
        {"bias": 0.0, "calendar": -5.0, "given_first": 3.0},
        {"REAL_NAME": 0.5, "CREDENTIAL": 0.99},  # a secret is never calibrated, whatever its threshold here
        {"REAL_NAME": 0.3},
        0.3,
    )
    recognizer = PiiTaggerRecognizer(tagger=fake, calibrator=fake_calibrator)
    found = {text[s.start : s.end]: s for s in recognizer.find_many([text], languages=[frozenset({"de"})])[0]}
    assert fake.threshold == 0.3, "the student tags at the calibrator's token threshold"
    assert set(found) == {"Jorge Alvarez", "Zebra7Kaffee!"}
    assert found["Jorge Alvarez"].score == pytest.approx(1 / (1 + 2.718281828**-3.0), abs=1e-6)
    assert found["Zebra7Kaffee!"].score == 0.55
    uncalibrated = {text[s.start : s.end] for s in PiiTaggerRecognizer(tagger=fake).find(text)}
    assert uncalibrated == {"Juli", "Zebra7Kaffee!"}, "without a calibrator: the student's thresholds"


def test_candidates_keep_every_span_reaching_the_given_confidence_uncalibrated():
    text = "Ich habe im Juli mit Jorge Alvarez gesprochen."
    fake = ThresholdFakeTagger({"Juli": ("REAL_NAME", 0.7), "Jorge Alvarez": ("REAL_NAME", 0.35)})
    found = PiiTaggerRecognizer(tagger=fake, candidates=0.3).find(text)
    assert fake.threshold == 0.3
    assert {text[s.start : s.end]: s.score for s in found} == {"Juli": 0.7, "Jorge Alvarez": 0.35}


@pytest.mark.skipif(
    not (shipped_pii_tagger_dir() / CALIBRATION).is_file(), reason="the shipped student has no calibrator"
)
def test_the_shipped_calibrator_drops_a_month_among_german_nouns_and_keeps_a_name():
    """Real model: without its calibrator (as on main) the student masks "Juli" as a name."""
    german = "Ich habe Sonnencreme und Tischtennis-Schläger im Juli gekauft."
    spanish = "Mi hermana Lucía tiene lúpus."
    languages = [frozenset({"de"}), frozenset({"es"})]
    student = PiiTaggerRecognizer(calibrated=False).find_many([german, spanish], languages=languages)
    assert [german[s.start : s.end] for s in student[0]] == ["Juli"]
    calibrated = PiiTaggerRecognizer().find_many([german, spanish], languages=languages)
    assert calibrated[0] == []
    assert [spanish[s.start : s.end] for s in calibrated[1]] == ["Lucía"]
    assert calibrated[1][0].reason.endswith("calibrated") and 0.5 < calibrated[1][0].score < 1.0
