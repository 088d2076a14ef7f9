"""English conditions, treatments, medicines and pregnancy (`conditions` of data/languages/en.yaml) masked as HEALTH in a
sentence about the writer or their people, by the six languages' condition recognizer (`condition_en`); the real
detector (recognizers and the shipped PII taggers) runs every case."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers


@pytest.fixture(scope="module")
def tagged_detector() -> Detector:
    return Detector(build_recognizers(models=True))


def _health(detector: Detector, text: str) -> list[str]:
    return [text[s.start : s.end] for s in detector.detect(text) if s.type == "HEALTH"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("text", "condition"),
    [  # issue 48: each stayed in clear before condition_en
        ("I'm pregnant and my manager doesn't know yet.", "pregnant"),
        ("My sister is pregnant again.", "pregnant"),
        ("Can you add my chemo schedule to the shared calendar?", "chemo"),
        ("Reminder: my chemo schedule changed to Thursdays.", "chemo"),
        ("Can you check whether his chemo starts on Monday?", "chemo"),  # a third-person possessive: English only
        ("Her insulin pump needs a new battery.", "insulin pump"),
    ],
)
def test_a_writers_or_relatives_condition_is_health_data(tagged_detector, text, condition):
    assert condition in _health(tagged_detector, text)


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "text",
    [
        "Pregnancy rates in the UK have fallen for a decade.",
        "Chemo is expensive in general.",
        "Statins are cheap and widely used.",
        "Chemo is expensive in general, I read.",  # issue 48: "I" opens a report of what the writer read
        "I've heard statins are cheap.",
    ],
)
def test_a_condition_about_no_one_is_left(tagged_detector, text):
    assert _health(tagged_detector, text) == []


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("I read that my chemo starts on Monday.", "chemo"),
        ("I heard chemo is hard, and I start it next week.", "chemo"),
    ],
)
def test_a_report_of_what_the_writer_read_leaves_their_own_condition_masked(text, condition):
    (recognizer,) = build_recognizers(["condition_en"])
    assert [text[s.start : s.end] for s in recognizer.find(text)] == [condition]


def test_the_english_condition_recognizer_needs_a_personal_word_in_the_sentence():
    (condition,) = build_recognizers(["condition_en"])
    text = "Insulin prices rose again. My son is on insulin."
    assert [text[s.start : s.end] for s in condition.find(text)] == ["insulin"]
