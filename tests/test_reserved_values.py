"""Values no person owns (placeholders/reserved.py, data/reserved_values.yaml): the email, URL and IP recognizers
leave documentation domains, addresses that reach no public host and public resolvers; the card, IBAN and national ID
recognizers leave published test and specimen numbers, and the phone recognizers their digits; personal values beside
them, and a number one digit (and its check) away from a sample, stay masked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.placeholders.recognizers.national_ids import ChecksumIdRecognizer
from stealthflow.placeholders.recognizers.structured import luhn_valid
from stealthflow.placeholders.reserved import RESERVED_VALUES, reserved_host, sample_value
from stealthflow.resources import data_yaml

DETECTOR = Detector(build_recognizers())
TAGGED = Detector(build_recognizers(models=True))  # the real detector, the PII tagger on


def found(text: str) -> list[tuple[str, str]]:
    return [(s.type, text[s.start : s.end]) for s in DETECTOR.detect(text)]


@pytest.mark.parametrize(
    "text",
    [
        "The sample data in the onboarding wizard uses john.doe@example.com, which confuses our users.",
        "The IT helpdesk (ext. 2000, helpdesk@company.example) will have a skeleton crew.",
        "CONTACT_EMAIL=admin@example.org",
        "Seed the staging users with qa@db.test and nobody@host.invalid.",
        "You can read the full policy at www.example.com/privacy.",
        "Status updates at status.example.com, or reset at https://accounts.example.net/reset.",
    ],
)
def test_documentation_domains_are_no_ones_email_or_url(text):
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "$ ping -c 2 192.168.1.1",
        '10.0.0.5 - - [04/Nov/2024:12:00:01 +0000] "GET /health HTTP/1.1" 200 2',
        "Firewall log shows repeated SSH attempts from 203.0.113.45 and 198.51.100.7 overnight.",
        "Please whitelist the documentation range 192.0.2.0/24 and 2001:db8::/32 in the test environment.",
        "The printer fell back to 169.254.12.7 and the carrier NAT hands out 100.64.3.9.",
        "ping 8.8.8.8 -c 3, then set the resolvers to 1.1.1.1 and 2606:4700:4700::1111.",
    ],
)
def test_addresses_that_reach_no_public_host_and_public_resolvers_are_no_ones(text):
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("new email is r.nakamura.1990@proton.me, the old yahoo one got hacked", "r.nakamura.1990@proton.me", "EMAIL"),
        ("Questions? customer.care@example-shop.com", "customer.care@example-shop.com", "EMAIL"),
        ("My profile https://community.example-forum.net/u/ravi", "https://community.example-forum.net/u/ravi", "URL"),
        ('failed login for user "k.hoffmann" from 91.64.118.203 (Home-Office)', "91.64.118.203", "IP_ADDRESS"),
        ("ssh me@2a00:23c6:9fb::3e -p 2222 should work now", "2a00:23c6:9fb::3e", "IP_ADDRESS"),
        # a Teredo address (2001::/32, not global to `ipaddress`) holds its client's public IPv4: 84.112.57.203
        (
            "My Teredo address is 2001:0:4136:e378:8000:63bf:ab8f:c634 if that helps.",
            "2001:0:4136:e378:8000:63bf:ab8f:c634",
            "IP_ADDRESS",
        ),
    ],
)
def test_a_personal_value_on_a_public_domain_or_address_stays_masked(text, value, kind):
    assert (kind, value) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "the Stripe test card 4242 4242 4242 4242 works in test mode",
        "Sandbox: 4111-1111-1111-1111, any CVC, any future date.",
        "Beispiel-IBAN aus der Doku: DE89 3704 0044 0532 0130 00.",
        "Voorbeeld: NL91 ABNA 0417 1643 00 (de IBAN uit de documentatie).",
        "Il codice fiscale d'esempio è RSSMRA80A01H501U.",
        "Per le prove usate rssmra80a01h501u.",
        "Mijn BSN is 999999990 (een testnummer).",
        "Voorbeeld BSN: 111222333.",
        "Número de ejemplo del DNI: 99999999R.",
        "NHS number 943 476 5919 is the worked example.",
    ],
)
def test_published_sample_numbers_are_no_ones(text):
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        # each one digit away from a listed sample, its check digit(s) recomputed: a number someone may hold
        ("my card is 4242 4242 4242 4341 exp 04/28", "4242 4242 4242 4341", "CREDIT_CARD"),
        ("Meine IBAN: DE44 3704 0044 0532 9130 00.", "DE44 3704 0044 0532 9130 00", "IBAN"),
        ("Il mio codice fiscale è RSSMRA80A02H501Z.", "RSSMRA80A02H501Z", "NATIONAL_ID"),
        ("Mijn BSN is 999899909.", "999899909", "NATIONAL_ID"),
        ("Mijn BSN is 111222345.", "111222345", "NATIONAL_ID"),
        ("My NHS number is 943 476 5927.", "943 476 5927", "NATIONAL_ID"),
    ],
)
def test_a_number_beside_a_sample_stays_masked(text, value, kind):
    assert (kind, value) in found(text)


@pytest.mark.parametrize("text", ["BSN 123456782", "Mijn BSN is 123456782.", "my BSN: 123 456 782"])
def test_the_bsn_an_encyclopaedia_illustrates_is_a_national_id(text):
    """Issue 48: "BSN 123456782" came out as CREDENTIAL (the tagger took what the BSN recognizer left as a sample):
    it is no number the issuer keeps out of issue, so it is masked as NATIONAL_ID, the tagger on as shipped."""
    assert [s.type for s in TAGGED.detect(text)] == ["NATIONAL_ID"]


@pytest.mark.parametrize("text", ["Mijn BSN is 111222333", "Mijn BSN is 111222333.", "BSN: 111 222 333"])
def test_a_sample_bsn_the_tagger_masks_is_a_national_id_not_a_secret(text):
    """ux22 M2: "Mijn BSN is 111222333" (a published specimen, left by the recognizer) became <CREDENTIAL_1> and the
    user was told to rotate a secret. The tagger's span on a named number whose checksum holds is a NATIONAL_ID."""
    assert [s.type for s in TAGGED.detect(text) if s.source == "pii_tagger"] in ([], ["NATIONAL_ID"])
    assert "CREDENTIAL" not in [s.type for s in TAGGED.detect(text)]


def test_a_named_checksum_id_needs_its_name_and_its_checksum():
    from stealthflow.placeholders.recognizers.national_ids import named_checksum_id

    def at(text: str, value: str) -> bool:
        return named_checksum_id(text, text.index(value), text.index(value) + len(value))

    assert at("Mijn BSN is 111222333", "111222333") and at("Mijn BSN is 123456782.", "123456782")
    assert not at("Mijn BSN is 111222334", "111222334")  # the 11-check fails
    assert not at("Mijn pincode is 111222333", "111222333")  # no name of the number


def test_the_nhs_recognizer_leaves_the_test_range_only():
    """999 000 0000 to 999 999 9999 are never issued; the phone recognizer may still read such a number as a phone
    number (99900 00018 is an Indian mobile's shape), so this is the NHS recognizer's own answer."""
    recognizer = next(r for r in build_recognizers(["gb_nhs"]))
    assert recognizer.find("NHS number 999 000 0018 is a test patient.") == []
    assert len(recognizer.find("NHS number 998 000 0007 is mine.")) == 1


def test_every_listed_sample_passes_its_recognizers_check():
    """An entry its recognizer would never find (a typo, a failed checksum) would hide nothing: each one is live."""
    recognizers = {r.name: r for r in build_recognizers()}
    for kind, values in data_yaml(RESERVED_VALUES)["sample_values"].items():
        recognizer = recognizers[kind]
        for value in map(str, values):
            assert sample_value(kind, value), (kind, value)
            if isinstance(recognizer, ChecksumIdRecognizer):
                assert recognizer.number.is_valid(value), (kind, value)
            elif kind == "credit_card":
                assert luhn_valid("".join(ch for ch in value if ch.isdigit())), value
            else:
                assert (0, len(value), 1.0) in recognizer.analyze(value), (kind, value)


def test_the_demo_masks_a_card_that_is_no_published_test_card():
    """`make demo` protects examples/posts.jsonl: its card number is one the card recognizer masks."""
    posts = (Path(__file__).resolve().parents[1] / "examples" / "posts.jsonl").read_text(encoding="utf-8")
    texts = [json.loads(line)["text"] for line in posts.splitlines() if line.strip()]
    cards = [text[s.start : s.end] for text in texts for s in DETECTOR.detect(text) if s.type == "CREDIT_CARD"]
    assert cards and not any(sample_value("credit_card", card) for card in cards)


@pytest.mark.parametrize(
    ("host", "reserved"),
    [
        ("example.org", True),
        ("EVENTS.Example.COM", True),
        ("acme.example", True),
        ("localhost", True),
        ("example-shop.com", False),
        ("myexample.org", False),
        ("example.co.uk", False),
    ],
)
def test_a_host_is_reserved_when_it_is_or_lies_under_a_reserved_name(host, reserved):
    assert reserved_host(host) is reserved
