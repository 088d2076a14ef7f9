"""Values the recognizers used to leave partly or wholly in clear: emails at a company's own host
names, passwords in quotes and passphrases of several words, and emails split by a control character."""

from __future__ import annotations

import pytest
from placeholder_fixtures import make_protector, protect_config

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

PRIVATE_EMAILS = [
    "dana.kerr@billing.internal",
    "ops@build-01.corp",
    "jo@nas.local",
    "admin@router.lan",
    "a.b@mail.example.intranet",
]


@pytest.fixture(scope="module")
def detector():
    return Detector(build_recognizers())


def _found(detector: Detector, text: str) -> list[tuple[str, str]]:
    return [(span.type, text[span.start : span.end]) for span in detector.detect(text)]


@pytest.mark.parametrize("email", PRIVATE_EMAILS)
def test_an_email_at_a_private_host_name_is_masked_whole(detector, email):
    text = f"write to {email} about the invoice"
    assert _found(detector, text) == [("EMAIL", email)]


@pytest.mark.parametrize(
    "text", ["icon@2x.png and favicon@3x.ico", "npm i lodash@4.17.21", "see a@b.c", "root@localhost"]
)
def test_file_names_versions_and_bare_hosts_are_not_emails(detector, text):
    assert [kind for kind, _ in _found(detector, text) if kind == "EMAIL"] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("my password is 'hunter 22'", "hunter 22"),
        ('my password is "correct horse", keep it safe', "correct horse"),
        ("password: 'Secr3t x!'", "Secr3t x!"),
        ('pw="s3cr3t with spaces"', "s3cr3t with spaces"),
        ("DB_PASSWORD='two words'", "two words"),
        ("the wifi password for the cabin is “blue lake 7”", "blue lake 7"),
        ("Passwort: „mein geheimes Wort“", "mein geheimes Wort"),
        ("le mot de passe est « ma phrase »", "ma phrase"),
    ],
)
def test_a_quoted_password_is_masked_to_its_closing_quote(detector, text, value):
    assert ("PASSWORD", value) in _found(detector, text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("my passphrase is correct horse battery staple", "correct horse battery staple"),
        ("The passphrase: purple monkey dishwasher 42. Thanks", "purple monkey dishwasher 42"),
        (
            "my seed phrase is abandon ability able about above absent absorb abstract absurd abuse access accident",
            "abandon ability able about above absent absorb abstract absurd abuse access accident",
        ),
    ],
)
def test_a_passphrase_is_masked_to_the_end_of_its_clause(detector, text, value):
    assert _found(detector, text) == [("PASSWORD", value)]


@pytest.mark.parametrize(
    "text",
    [
        "the passphrase is stored in the vault",
        "the passphrase is stored in 1Password.",
        "The passphrase is too long to type, so I use a key file",
        "my passphrase is not set yet",
        "the password field says 'Enter your password'",
        "password: '********'",
    ],
)
def test_prose_about_passwords_and_passphrases_stays(detector, text):
    assert [kind for kind, _ in _found(detector, text) if kind == "PASSWORD"] == []


@pytest.mark.parametrize("hidden", ["\x00", "\x01", "\x7f", "\u200b", "\ufe0f", "\u3164"])
@pytest.mark.parametrize("where", [4, 9, 14])  # in the name, before the "@", in the domain
def test_a_control_or_invisible_character_inside_an_email_leaves_no_part_in_clear(tmp_path, monkeypatch, hidden, where):
    """End to end: protect (real vault file) masks the whole original run; nothing of it is left."""
    email = "dana.kerr@mailbox.org"
    disguised = email[:where] + hidden + email[where:]
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protected = protector.protect(f"mail {disguised} today", "s")
    assert protected.text == "mail <EMAIL_1> today"
    assert protector.restore(protected.text, "s").text == f"mail {disguised} today"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("email", PRIVATE_EMAILS)
def test_with_the_tagger_no_part_of_a_private_email_stays_in_clear(tagged_detector, email):
    text = f"Hi, it's Dana. Write to {email} about the invoice, thanks"
    found = _found(tagged_detector, text)
    assert ("EMAIL", email) in found
    masked = "".join(value for _, value in found)
    assert all(part in masked for part in email.replace("@", ".").split("."))


@pytest.fixture(scope="module")
def tagged_detector():
    return Detector(build_recognizers(models=True))
