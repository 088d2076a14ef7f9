"""ux26's MEDIUM findings on typed values: a home's coordinates and what3words address are one ADDRESS (never PHONE or
PASSWORD, both halves in one span), `0044 (0)20 ...` is one PHONE, a MAC address a DEVICE_ID (M10); a UK sort code and
account number side by side are FINANCE, not a PHONE (M9); an organisation after an employer's noun of the seven
languages is an EMPLOYER, not a person (M8). The real detector, PII tagger on, as `protect` builds it."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(build_recognizers(models=True))


def found(detector: Detector, text: str) -> list[tuple[str, str]]:
    return [(s.text_in(text), s.type) for s in detector.detect(text)]


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("Coordinates of my house: 51.5072, -0.1276", "51.5072, -0.1276", "ADDRESS"),
        ("My house is at 52.370216, 4.895168", "52.370216, 4.895168", "ADDRESS"),
        ("Pin for our cabin: 61.21843, -149.90028", "61.21843, -149.90028", "ADDRESS"),  # was PASSWORD and clear
        ("Mein Haus liegt bei 48.137154, 11.576124.", "48.137154, 11.576124", "ADDRESS"),
        ("We are at 51°30'26\"N 0°7'39\"W tonight", "51°30'26\"N 0°7'39\"W", "ADDRESS"),
        ("what3words: ///filled.count.soap for my front door", "filled.count.soap", "ADDRESS"),
        ("meet me at ///index.home.raft", "index.home.raft", "ADDRESS"),
        ("Call me on 0044 (0)20 7946 0958 tonight", "0044 (0)20 7946 0958", "PHONE"),
        ("my laptop's mac 3C:22:FB:12:34:56 keeps dropping", "3C:22:FB:12:34:56", "DEVICE_ID"),
        ("Mum: Lloyds, 30-94-57 41836290, Mrs B", "30-94-57 41836290", "FINANCE"),
    ],
)
def test_a_position_a_dialled_number_a_device_and_bank_details_are_one_value_of_their_type(detector, text, value, kind):
    spans = found(detector, text)
    assert (value, kind) in spans, spans
    assert not [s for s in spans if s[1] in ("PHONE", "PASSWORD", "IP_ADDRESS") and s[1] != kind], spans


@pytest.mark.parametrize(
    "text",
    [
        "loss 0.4567, 0.3456 at step 3, accuracy 0.9123",  # readings: no word names a place
        "The release is 2024.0101, 3.1415 is pi",
        "see docs.python.org or config.yaml.bak",  # dotted words without the three slashes or a name
        "file:///home.user.txt",
        "Rates went from 1.2345, 1.2399 to 1.2401 today",
        "The interval was 0.4567, 0.3456 in my house experiment.",  # a place word after the pair (was ADDRESS)
    ],
)
def test_numbers_and_dotted_words_that_name_no_place_stay(detector, text):
    assert not [s for s in found(detector, text) if s[1] == "ADDRESS"], found(detector, text)


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("Mijn werkgever Philips is gelukkig heel begripvol.", "Philips"),
        ("Mein Arbeitgeber Siemens zahlt gut.", "Siemens"),
        ("Mon employeur Capgemini est sympa.", "Capgemini"),
        ("Il mio datore di lavoro Fiat mi ha licenziato.", "Fiat"),
        ("O meu empregador Sonae é bom.", "Sonae"),
        ("Mi empleador Telefónica me paga tarde.", "Telefónica"),
        ("My employer Tesco is fine with it.", "Tesco"),
    ],
)
def test_an_organisation_after_an_employers_noun_is_an_employer_not_a_person(detector, text, employer):
    spans = found(detector, text)
    assert (employer, "EMPLOYER") in spans and not [s for s in spans if s[1] == "REAL_NAME"], spans
