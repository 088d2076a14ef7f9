"""The `ner-mask` baseline: Presidio on a blank spaCy pipeline, offline, on texts with known entities."""

from __future__ import annotations

import pytest

from stealthflow.anonymize import build_method, method_names
from stealthflow.anonymize.ner_mask import NerMask
from stealthflow.config import Settings
from stealthflow.data import Profile


@pytest.fixture(scope="module")
def masker() -> NerMask:
    return NerMask()


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("write to jane.doe@mailbox.com today", "jane.doe@mailbox.com"),
        ("my number is +1 415-555-0134, call me", "+1 415-555-0134"),
        ("see https://mailbox.org/profile for more", "https://mailbox.org/profile"),
        ("the server is at 192.168.10.42 now", "192.168.10.42"),
        ("I'm 34 years old and tired", "34 years old"),
        ("29F here, long time lurker", "29F"),
        ("we met on March 3, 2019 at a party", "March 3, 2019"),
        ("I make $85k a year", "$85k"),
        ("moved here in 1998 with my parents", "1998"),
        ("in my late twenties and still renting", "late twenties"),
    ],
)
def test_known_entities_become_stars_of_the_same_length(masker, text, secret):
    masked = masker.mask_text(text)
    assert len(masked) == len(text)
    start = text.index(secret)
    span = masked[start : start + len(secret)]
    assert secret not in masked
    assert set(span.replace(" ", "")) == {"*"}, span
    assert masked[:start].rstrip("* ") in text  # the rest is untouched


def test_text_without_entities_is_unchanged(masker):
    text = "honestly the best part of autumn is the smell of wet leaves"
    assert masker.mask_text(text) == text


def test_without_a_ner_model_names_and_places_stay(masker):
    # Documented loss of the offline configuration: no spaCy NER, so PERSON/LOCATION pass through.
    text = "John Smith lives in Berlin"
    assert masker.mask_text(text) == text


def test_registered_as_a_method_and_keeps_line_structure():
    assert "ner-mask" in method_names()
    method = build_method("ner-mask", Settings(), pool=None)
    profile = Profile(id="u1", comments=[{"text": "email me: a@b.co"}, {"text": "I'm 40 now"}])
    [result] = method.anonymize_many([profile])
    assert result.text == "email me: ******\n*** ** now"  # "I'm 40" is an age mention
    assert result.rounds == [result.text]
    assert "EMAIL_ADDRESS" in result.details["entities"]


def test_an_uninstalled_spacy_model_is_a_clear_error_not_a_download():
    with pytest.raises(FileNotFoundError, match="not installed"):
        NerMask(spacy_model="en_core_web_nonexistent")
