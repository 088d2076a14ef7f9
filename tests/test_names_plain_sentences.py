"""Private people's names in the plainest English sentences (issue 48, ux27 H1 and H8), through the shipped detector.
Each known miss is marked with the stage that loses it (benchmarks/pii_name_stages.py,
benchmarks/results/pii_names_t27.md): strict, so a student round or verifier that finds it fails here until the mark
goes."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers


def known_miss(stage: str):
    return pytest.mark.xfail(strict=True, reason=f"missed: {stage} (benchmarks/results/pii_names_t27.md)")


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(build_recognizers(models=True))


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Sven Byrne works as a nurse.", "Sven Byrne"),
        ("I had coffee with Folasade Balogun this morning.", "Folasade Balogun"),
        pytest.param(
            "Sven Byrne lives in Leeds.", "Sven Byrne", marks=known_miss("read by both students: neither tags it")
        ),
        ("Pedro Petrova works as a nurse.", "Pedro Petrova"),  # name verifier 0.47: kept from 0.42 in English
        # no function word, read as Dutch too and unsure: the multilingual student's name is kept (route28)
        ("Kenji Lindgren lives in Leeds.", "Kenji Lindgren"),
        pytest.param(
            "Sven Byrne lives in Leeds and Aoife Byrne lives in Cork.",
            "Aoife Byrne",
            marks=known_miss("the t47b English student tags neither name (t23's: the name verifier kept it at 0.45)"),
        ),
        pytest.param(
            "Is Ottilie Brennan the same as ottilie.b@posteo.de?",
            "Ottilie Brennan",
            marks=known_miss("name filter: a full name asked about"),
        ),
        # read as Dutch or Spanish, unsure: the English student reads it too (route28)
        ("I met Tuğba Karakaya yesterday.", "Tuğba Karakaya"),
        # unsure too: the multilingual student's name is kept beside the English student's reading (route27 lost it)
        ("Anneke de Boer lives in Hull.", "Anneke de Boer"),
        pytest.param(
            "I met Dmytro Hrytsenko yesterday.",
            "Dmytro Hrytsenko",
            marks=known_miss("read by both students: the English one tags 'Dmytro' HEALTH, the other keeps nothing"),
        ),
        ("I met Oksana Hrytsenko yesterday.", "Oksana Hrytsenko"),  # found since the t47b English student
    ],
)
def test_a_private_persons_name_in_a_plain_sentence_is_masked(detector, text, name):
    start = text.index(name)
    spans = [s for s in detector.detect(text) if s.type == "REAL_NAME"]
    assert any(s.start <= start and start + len(name) <= s.end for s in spans), spans
