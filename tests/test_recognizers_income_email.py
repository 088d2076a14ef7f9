"""Values a new user found left in clear beside their cue: the writer's own income after a first-person cue in each
language (data/cued_identifiers.yaml, recognizers/cued.py) and an e-mail address spelled out in words
(data/spelled_email.yaml, recognizers/spelled_email.py). Each with and without its cue; a price, someone else's pay and
an address that is none spelled back are left alone. Both through the real `protect` and `restore` commands on a real
vault."""

from __future__ import annotations

import json

import pytest
from test_front_door import home, run  # noqa: F401  (home: a pytest fixture)
from test_recognizers_identity import _growth

from stealthflow.placeholders.recognizers.cued import IncomeRecognizer
from stealthflow.placeholders.recognizers.spelled_email import SpelledEmailRecognizer


def _values(recognizer, text: str) -> list[str]:
    return [text[span.start : span.end] for span in recognizer.find(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My salary is 58,000 a year", "58,000"),
        ("I make $4,500 a month after tax", "$4,500"),
        ("Ich verdiene 4.200 Euro netto im Monat", "4.200 Euro"),
        ("je gagne 2500 € par mois", "2500 €"),
        ("mi sueldo es de 2.000 euros", "2.000 euros"),
        ("gano 1800 al mes", "1800"),
        ("guadagno 1.800 euro al mese", "1.800 euro"),
        ("ik verdien 3200 bruto per maand", "3200"),
        ("ganho 1500 euros por mês", "1500 euros"),
    ],
    ids=["en", "en-dollars", "de", "fr", "es", "es-bare", "it", "nl", "pt"],
)
def test_the_writers_income_after_its_cue_is_found(text, value):
    assert _values(IncomeRecognizer(), text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "The flat costs 58,000 a year",  # a price
        "His salary is 58,000 a year",  # someone else's pay, no currency
        "Mein Bruder verdient 4.200",
        "Die Miete in Basel: CHF 1.450",  # a price: rent is no word of pay
        "gano 1500 seguidores",  # no amount of money
        "I make 3, 4 times a week",
        "my salary is fine",
    ],
    ids=["price", "his", "de-brother", "de-rent", "followers", "count", "no-amount"],
)
def test_no_income_for_a_price_someone_elses_pay_or_a_count(text):
    assert _values(IncomeRecognizer(), text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Salary agreed at £52,000 plus 8% pension.", "£52,000"),
        ("I also received a one-off bonus of £2,000 in March.", "£2,000"),
        ("making $32/hour", "$32/hour"),
        ("take home 3100 euros", "3100 euros"),
        ("My sister Ann earns $60,000 a year.", "$60,000"),
        ("Mein Bruder verdient 4.200 Euro", "4.200 Euro"),
        ("Elle gagne 2500 € par mois", "2500 €"),
        ("Ho un debito di 18.000 € con Findomestic", "18.000 €"),
        ("o Guto tá devendo R$ 8 mil no cartão", "R$ 8 mil"),
        ("Servus, Gehalt 3.200 brutto.", "3.200"),
        ("Sem werkt bij ASML, salaris 4.800 bruto", "4.800"),
    ],
    ids=[
        "salary-at",
        "bonus-of",
        "per-hour",
        "take-home",
        "sister",
        "de-brother",
        "fr-she",
        "it-debt",
        "pt-owes",
        "de-gross",
        "nl-gross",
    ],
)
def test_an_amount_with_its_currency_a_few_words_after_a_word_of_pay_is_found(text, value):
    """The pay words of data/cued_identifiers.yaml (`pay_words`, per language): any person's, the amount with its
    currency or followed by gross or net (`net_gross`)."""
    assert _values(IncomeRecognizer(), text) == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Hab nach der Scheidung 23.700 € Schulden.", "23.700 €"),
        ("J'ai 8 000 € de crédit conso à rembourser.", "8 000 €"),
        ("Ik heb nog € 27.800 studieschuld bij DUO.", "€ 27.800"),
        ("tengo 4.200 € de deuda en la tarjeta", "4.200 €"),
    ],
    ids=["de", "fr", "nl", "es"],
)
def test_an_amount_with_its_currency_before_a_word_of_debt_or_pay_is_found(text, value):
    """`after_amount` of data/cued_identifiers.yaml, maybe one of `amount_joins` between."""
    assert _values(IncomeRecognizer(), text) == [value]


def test_an_amount_before_a_word_that_is_no_money_of_anyones_is_not_found():
    assert _values(IncomeRecognizer(), "Das Ticket kostet 45 € Eintritt, 12 € Garderobe.") == []


@pytest.mark.parametrize(
    "text",
    [
        "The average salary for nurses is about 38000 pounds.",  # a statistic
        "Bruce Willis earns $5 million a year.",  # a famous person's
        "Salary is 30,000 a year",  # no currency after a word of pay without a first person
    ],
    ids=["average", "famous", "no-currency"],
)
def test_no_income_for_money_talk_that_is_no_ones_pay(text):
    assert _values(IncomeRecognizer(), text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("write to jan dot novak at gmail dot com please", "jan dot novak at gmail dot com"),
        ("escríbeme a jan punto novak arroba gmail punto com", "jan punto novak arroba gmail punto com"),
        ("Mail: jan Punkt novak at web Punkt de", "jan Punkt novak at web Punkt de"),
        ("écrivez à jan point novak chez orange point fr", "jan point novak chez orange point fr"),
        ("scrivimi: jan.novak chiocciola libero punto it", "jan.novak chiocciola libero punto it"),
    ],
    ids=["en", "es", "de", "fr", "it"],
)
def test_a_spelled_out_email_address_is_found(text, value):
    assert _values(SpelledEmailRecognizer(), text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "jan.novak@gmail.com",  # no spelled word: the email recognizer's
        "we meet at the station dot then",  # no known suffix
        "see you at home",
        "jan dot novak at example dot com",  # reserved for documentation
        "jan at gmail.com",  # no spelled dot
        "part of my aesthetic at this point lol",  # English "at", French "point": a phrase, not "aesthetic@this.lol"
    ],
)
def test_no_spelled_email_when_the_address_read_back_is_none(text):
    assert _values(SpelledEmailRecognizer(), text) == []


@pytest.mark.parametrize(
    ("recognizer", "unit"),
    [(IncomeRecognizer(), "I make 58,000 a year. "), (SpelledEmailRecognizer(), "jan dot novak at gmail dot com, ")],
    ids=["income", "spelled_email"],
)
def test_many_values_take_work_in_proportion_to_the_text(recognizer, unit):
    """Eight times the text: about eight times the work."""
    recognizer.find(unit)  # patterns compiled
    assert len(recognizer.find(unit * 500)) == 500
    assert _growth(recognizer.find, unit, 500, 8) < 24


def test_both_through_the_protect_and_restore_commands(home, tmp_path):  # noqa: F811  (the fixture)
    """The real commands on a real vault (tagger on, as shipped): each value masked with its type, none in the output,
    all back after restore."""
    values = {"58,000": "FINANCE", "4.200 Euro": "FINANCE"}
    email = "jan dot novak at gmail dot com"
    post = f"My salary is 58,000 a year, ich verdiene 4.200 Euro im Monat. Write to {email} please."
    protected = run(["protect", post, "--json", "--session", "s", "--rewrite", "none"], home, tmp_path)
    assert protected.returncode == 0, protected.stderr
    body = json.loads(protected.stdout)
    found = {post[span["start"] : span["end"]]: span["type"] for span in body["spans"]}
    assert {value: found.get(value) for value in values} == values
    assert found.get(email) == "EMAIL"
    assert not any(value in body["text"] for value in [*values, "novak", "gmail"])
    restored = run(["restore", "--session", "s", body["text"]], home, tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.rstrip("\n") == post
