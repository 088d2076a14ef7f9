"""A new user's findings of detection mistakes (issue 48), each through the real detector (recognizers and the PII
tagger) or the real `protect` command: e-mail addresses with non-ASCII local parts, what `--explain` says decided a
HEALTH span, a PESEL after its name, a Sentry project's id and customer numbers (no secrets), a CSV's
cells."""

from __future__ import annotations

import pytest
from test_multilingual import protect_command, run_protect

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(build_recognizers(models=True))


def _found(detector: Detector, text: str) -> list[tuple[str, str]]:
    return [(span.type, text[span.start : span.end]) for span in detector.detect(text)]


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("Please write to ayşe.yılmaz@example.com.tr about the invoice.", "ayşe.yılmaz@example.com.tr"),
        ("Meine Adresse ist jürgen.weiß@web.de, schreib mir.", "jürgen.weiß@web.de"),
        ("Écrivez à françois.léger@orange.fr demain.", "françois.léger@orange.fr"),
        ("Escríbeme a josé.garcía@correo.es por favor.", "josé.garcía@correo.es"),
        ("Bana ayşe.yılmaz@example.com.tr adresinden yazabilirsiniz.", "ayşe.yılmaz@example.com.tr"),  # no covered one
        ("Пиши на иван.петров@почта.рф вечером.", "иван.петров@почта.рф"),
    ],
)
def test_an_address_with_a_non_ascii_local_part_is_one_email_in_every_language(detector, text, address):
    assert ("EMAIL", address) in _found(detector, text)


def test_non_ascii_addresses_are_masked_by_the_protect_command(tmp_path):
    row = protect_command(tmp_path, "Mail jürgen.weiß@web.de or ayşe.yılmaz@example.com.tr today.", tagger=True)
    assert row["text"] == "Mail <EMAIL_1> or <EMAIL_2> today."


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Mój PESEL to 44051401359, proszę sprawdzić.", "44051401359"),
        ("PESEL: 44051401359", "44051401359"),
        ("My PESEL is 44051401358.", "44051401358"),  # a typo of the check digit: the writer's number all the same
        ("Meu CPF é 123.456.789-09, pode conferir.", "123.456.789-09"),
    ],
)
def test_a_pesel_after_its_name_or_a_cpf_is_a_national_id_not_a_phone(detector, text, value):
    assert _found(detector, text) == [("NATIONAL_ID", value)]


def test_eleven_digits_without_a_name_stay_a_phone_number(detector):
    assert _found(detector, "Call me on 44051401359") == [("PHONE", "44051401359")]


@pytest.mark.parametrize(
    "text",
    [
        "Mijn klantnummer 448120 staat op de factuur.",
        "Kundennr. 448120",
        "Meine Kundennummer ist 448120.",
        "Mon numéro client est 448120.",
        "Mi número de cliente es 448120.",
        "My customer number is 448120.",
        "The project id 4507123456789012 is in the Sentry settings.",
    ],
)
def test_a_customer_number_or_a_project_id_is_no_secret(detector, text):
    assert _found(detector, text) == []


def test_a_sentry_dsn_masks_its_key_and_leaves_its_project_id(detector):
    key, project = "e3b0c44298fc1c149afbf4c8996fb924", "4507123456789012"
    text = f'dsn: "https://{key}@o4504.ingest.us.sentry.io/{project}"'
    assert _found(detector, text) == [("API_KEY", key)]


def test_a_password_of_digits_is_still_a_secret(detector):
    assert ("PASSWORD", "48213377") in _found(detector, "My password is 48213377, please keep it safe.")


def test_a_brand_is_no_health_condition_but_a_condition_named_like_a_brand_is(detector):
    assert _found(detector, "I posted it on Instagram last night and my anxiety went through the roof.") == []
    assert ("HEALTH", "insomnia") in _found(detector, "I have insomnia since my divorce.")  # "Insomnia" is a brand too


def test_explain_says_what_decided_a_health_span(tmp_path):
    """The reason names what decided, each check in turn: the health filter's medical word, the verifiers' and the
    health reader's scores. "Debt plan with StepChange" (a debt charity, once masked as HEALTH for the "with" before
    it) is read as no one's health."""
    text = "Living with ulcerative colitis since 2019, any tips?"
    row = protect_command(tmp_path, text, tagger=True)
    [reason] = [span["reason"] for span in row["spans"] if span["type"] == "HEALTH"]
    assert "a medical word in it ('colitis')" in reason and "health reader verifier" in reason, reason
    (tmp_path / "again").mkdir()
    explained = " ".join(run_protect(tmp_path / "again", text, True, "--explain").stderr.split())
    assert "health filter: a medical word in it ('colitis')" in explained
    (tmp_path / "charity").mkdir()
    charity = protect_command(tmp_path / "charity", "Debt plan with StepChange - has anyone done it?", tagger=True)
    assert not [span for span in charity["spans"] if span["type"] == "HEALTH"]


@pytest.mark.parametrize(
    "text",
    [
        "city,plan,seats\nLagos,Free,0\nYork,Paid,3\nAustin,Pro,12",
        "user_id,city,plan\n1,Lagos,Free\n2,York,Paid\n3,Leeds,Free",
    ],
)
def test_a_csv_of_cities_and_plans_holds_no_address(detector, text):
    """The tagger's span across cells is judged per cell: a city, a plan or a count alone is no address."""
    assert [kind for kind, _ in _found(detector, text)] == []


def test_a_csv_keeps_its_addresses_and_names(detector):
    text = "name,address,plan\nAda Obi,12 Allen Avenue Ikeja,Free\nTom Hill,4 Stonegate York,Paid"
    found = _found(detector, text)
    assert ("REAL_NAME", "Ada Obi") in found and ("ADDRESS", "4 Stonegate York") in found


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("name,city\nAda Obi,York\nTom Hill,Leeds", "Ada Obi"),
        ("Name;Stadt\nAnna Weber;York\nJonas Keller;Essen", "Anna Weber"),
    ],
)
def test_a_town_in_a_column_of_places_is_no_name(detector, text, name):
    found = _found(detector, text)
    assert not any(value in ("York", "Leeds", "Essen") for _, value in found), found
    assert ("REAL_NAME", name) in found  # the name column's cells still are names


def test_a_city_after_in_is_no_employer_in_talk_of_work(detector):
    assert _found(detector, "I started at Dell in Austin last month.") == [("EMPLOYER", "Dell")]
