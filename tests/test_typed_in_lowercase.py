"""Personal data typed without capitals: names after a cue and street addresses in lowercase (issue 48; the
tester's sentences that went out unchanged or half masked)."""

from __future__ import annotations

import pytest
from placeholder_fixtures import protect_config

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.placeholders.recognizers.languages import name_end
from stealthflow.placeholders.recognizers.sentences import in_lowercase_if_shouted, in_lowercase_where_shouted

PATTERNS = Detector(build_recognizers())  # the pattern recognizers, no tagger


def _found(text: str, kind: str) -> list[str]:
    return [text[span.start : span.end] for span in PATTERNS.detect(text) if span.type == kind]


@pytest.mark.parametrize(
    ("text", "code", "name"),
    [
        ("ich heiße jürgen schäfer und suche eine Wohnung", "de", "jürgen schäfer"),
        ("ik heet pieter de vries en zoek een baan", "nl", "pieter de vries"),
        ("mio marito marco bianchi lavora a Milano", "it", "marco bianchi"),
        ("my name is dana whitley and I need a reference letter", "en", "dana whitley"),
    ],
)
def test_a_lowercase_name_after_its_cue_ends_where_its_words_stop_reading_as_a_name(text, code, name):
    start = text.index(name)
    assert name_end(text, start, len(text), code) == start + len(name)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("ich bin müde heute", "de"),
        ("i'm sure she will", "en"),
        ("je suis et reste", "fr"),
        # verbs, given names of other countries only (data/languages/given-names.txt)
        ("mi hijo toma keppra", "es"),
        ("mi hija bebe leche", "es"),
    ],
)
def test_lowercase_words_whose_first_is_no_given_name_or_a_common_word_are_no_name(text, code):
    start = text.index(text.split()[2])
    assert name_end(text, start, len(text), code) == start


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("call me, I'm marcus okafor", "marcus okafor"),
        ("my sister beth lee lives in Cork", "beth lee"),
        ("ich heiße jürgen schäfer und suche eine Wohnung", "jürgen schäfer"),
        ("mein Kollege tobias wendt ist krank", "tobias wendt"),
        ("minha mãe ana ferreira mora no Porto", "ana ferreira"),
    ],
)
def test_the_name_recognizers_mask_a_name_typed_in_lowercase_whole(text, name):
    """Whole: no word of it left in clear (a verb that is also a name may run on: "ana ferreira mora", Mora a surname)."""
    assert any(name in found for found in _found(text, "REAL_NAME"))


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("I live at 14 crane lane, bristol bs1 4dj, can you find a plumber nearby?", "14 crane lane, bristol bs1 4dj"),
        ("my new address is 1120 maple avenue, springfield, il 62704", "1120 maple avenue, springfield, il 62704"),
        ("ich wohne in der hauptstraße 5, 10115 berlin", "hauptstraße 5, 10115 berlin"),
        ("abito in via roma 12, 10121 torino", "via roma 12, 10121 torino"),
        ("j'habite au 12 rue de la paix, 75002 paris", "12 rue de la paix, 75002 paris"),
        ("ik woon aan de keizersgracht 123, 1015 cj amsterdam", "keizersgracht 123, 1015 cj amsterdam"),
        ("I LIVE AT 14 CRANE LANE, BRISTOL BS1 4DJ", "14 CRANE LANE, BRISTOL BS1 4DJ"),
        # a grove, a Dublin postal district, after a name and an employer (ux26 H5: left whole in clear)
        (
            "my brother Michael Jordan is a nurse at st james's hospital and lives at 14 elm grove, dublin 6.",
            "14 elm grove, dublin 6",
        ),
        ("I moved to 14 elm road, leeds 2 weeks ago", "14 elm road"),  # a number going on is no postal district
    ],
)
def test_a_street_address_typed_in_lowercase_or_in_capitals_is_masked_whole(text, address):
    assert _found(text, "ADDRESS") == [address]


@pytest.mark.parametrize(
    "text",
    [
        "Taylor Swift played Wembley Stadium; tickets were 1234 each in row 17.",
        "we walked 2 miles down the road and back",
        "la piazza maggiore alle 7 era già piena di gente, poi siamo andati a cena",
    ],
)
def test_lowercase_words_before_a_street_word_and_a_number_make_no_address_alone(text):
    assert _found(text, "ADDRESS") == []


def test_the_tagger_reads_a_text_in_capitals_in_lowercase_and_any_other_text_as_written():
    assert in_lowercase_if_shouted("CALL ME, I'M MARCUS OKAFOR") == "call me, i'm marcus okafor"
    assert in_lowercase_if_shouted("Call me, I'm Marcus") == "Call me, I'm Marcus"
    assert in_lowercase_if_shouted("İSTANBUL") == "İSTANBUL"  # lowercasing would move the spans: "i̇stanbul"


@pytest.mark.parametrize(
    ("text", "address"),
    [
        (
            "Full name: Maria Gonzalez\nAddress: 45 OAK AVENUE, MANCHESTER M14 5RT\nNHS number",
            "45 OAK AVENUE, MANCHESTER M14 5RT",
        ),
        ("I live at 12 BIRCH ROAD, LEEDS LS6 2AB, near the park.", "12 BIRCH ROAD, LEEDS LS6 2AB"),
        ("Ich wohne in der HAUPTSTRASSE 5, 10115 BERLIN.", "HAUPTSTRASSE 5, 10115 BERLIN"),
    ],
)
def test_a_street_address_in_capitals_inside_mixed_case_text_is_found(text, address):
    """ux23b M5: the capitals were read in lowercase only when the whole text was in capitals."""
    assert _found(text, "ADDRESS") == [address]


def test_the_address_patterns_read_each_run_of_words_in_capitals_in_lowercase():
    assert in_lowercase_where_shouted("Address: 45 OAK AVENUE, M14 5RT") == "Address: 45 oak avenue, m14 5rt"
    assert in_lowercase_where_shouted("My NHS number, I mean") == "My NHS number, I mean"  # one word in capitals: none
    assert in_lowercase_where_shouted("CALL ME\nOK") == "call me\nOK"  # line by line
    assert in_lowercase_where_shouted("İSTANBUL CITY") == "İSTANBUL CITY"  # lowercasing would move the spans


@pytest.mark.parametrize(
    "text",
    [
        "CALL ME, I'M MARCUS OKAFOR",
        "call me, I'm marcus okafor",
        "ich heiße jürgen schäfer und suche eine Wohnung",
        "I live at 14 crane lane, bristol bs1 4dj, can you find a plumber nearby?",
    ],
)
def test_protect_with_the_shipped_tagger_sends_no_word_of_a_lowercase_name_or_address(tmp_path, monkeypatch, text):
    """The real thing: the whole detector with the shipped students, as `protect` runs it."""
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector(build_recognizers(models=True)))
    try:
        sent = protector.protect(text, "s").text
    finally:
        protector.close()
    for word in ("marcus", "okafor", "jürgen", "schäfer", "crane", "bristol", "4dj"):
        assert word not in sent.lower()
