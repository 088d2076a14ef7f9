"""Forms, dates of birth, identifiers, medicines and greetings in the six languages and English (ux25's report: H2,
H6, M2, M5, M6 and "Lieber Florian"): a surname after its form label, a date of birth after a first-person verb of
birth or before one that closes its sentence, a pension or tax number as one value, a payee's initial and particle with
their surname, a medicine of each language's list, a given name after a greeting that opens a line. The recognizers'
cases run without the PII tagger (its answer on a whole form depended on the rest of the form); one form is read by the
real detector and one goes through the real `stealthflow protect` and `restore` commands."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

DETECTOR = Detector(build_recognizers())


def _masked(text: str, detector: Detector = DETECTOR) -> dict[str, str]:
    """What `detector` masks in `text`, value -> type."""
    return {span.text_in(text): span.type for span in detector.detect(text)}


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Nací el 5 de mayo de 1990 en Bilbao.", "5 de mayo de 1990"),
        ("Nací el 05/05/1990.", "05/05/1990"),
        ("Ich bin am 1. April 1975 in Kassel geboren.", "1. April 1975"),
        ("Mein Geburtstag ist der 1. April 1975.", "1. April 1975"),
        ("Nasci a 9 de outubro de 1992 em Braga.", "9 de outubro de 1992"),
        ("Nasci em 9/10/1992.", "9/10/1992"),
        ("Ik ben op 4 juli 1979 in Utrecht geboren.", "4 juli 1979"),
    ],
)
def test_a_date_of_birth_after_or_before_the_verb_of_birth_is_masked(text, date):
    assert _masked(text).get(date) == "PERSONAL"


@pytest.mark.parametrize(
    "text",
    [
        "Ich bin am 1. April 1975 nach Kassel gezogen.",  # a move, no birth
        "Am 1. April 1975. Geboren wurde sie später.",  # the cue in the next sentence
        "Ich bin am 1. April 2099 in Kassel geboren.",  # no past year
    ],
)
def test_a_date_without_its_verb_of_birth_in_its_sentence_is_no_date_of_birth(text):
    assert "PERSONAL" not in _masked(text).values()


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Mon numéro fiscal est 1 23 45 678 901 23.", "1 23 45 678 901 23"),
        ("Mein Personalausweis: L01X00T47, Rentenversicherungsnummer 12 150385 M 014.", "12 150385 M 014"),
        ("RV-Nummer: 65170839J003", "65170839J003"),
    ],
)
def test_a_tax_or_pension_number_is_one_national_id_with_no_piece_left(text, number):
    masked = _masked(text)
    assert masked.get(number) == "NATIONAL_ID"
    assert len(masked) == 1 or "L01X00T47" in masked


def test_a_pension_number_whose_birth_date_is_no_date_is_none():
    assert "NATIONAL_ID" not in _masked("Rentenversicherungsnummer 12 451385 M 014").values()
