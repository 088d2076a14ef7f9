"""Explicit PII in German, French, Spanish, Italian, Dutch and Portuguese: language detection,
the per-language recognizers, the checksum-validated IDs, and the issue's three sentences end to
end through the `stealthflow protect` command."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import Result
from placeholder_fixtures import protect_config
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.language import (
    ENGLISH,
    UNCOVERED,
    Guess,
    LinguaGuesser,
    combine,
    function_word_counts,
    introducing_languages,
    short,
    unsettled,
)
from stealthflow.placeholders.recognizers import Recognizer, build_recognizers
from stealthflow.placeholders.recognizers.national_ids import (
    AustrianSvRecognizer,
    BelgianNationalNumberRecognizer,
    BsnRecognizer,
    CodiceFiscaleRecognizer,
    CpfRecognizer,
    CurpRecognizer,
    DniRecognizer,
    NationalInsuranceRecognizer,
    NhsNumberRecognizer,
    NieRecognizer,
    NifRecognizer,
    NirRecognizer,
    RutRecognizer,
    SteuerIdRecognizer,
    SwissAhvRecognizer,
)

GERMAN = (
    "Hallo, ich bin Jürgen Weißmann und wohne in der Schillerstraße 12, 80336 München. "
    "Meine Frau Katrin arbeitet bei Siemens, ruf mich an: 0171 2345678."
)
FRENCH = "Bonjour, je m'appelle Sébastien Durand, j'habite 14 rue de la Paix à Lyon, mon IBAN est FR31 3000 6000 0112 3459 7890 189."
SPANISH = (
    "Hola, soy María José Fernández, trabajo en Telefónica y vivo en Calle Mayor 5, Madrid. Tengo diabetes tipo 2."
)


class FakeGuesser:
    """A fake language detector: every text is in the language it was built with."""

    def __init__(self, guess: Guess):
        self.result = guess

    def guess(self, text: str) -> Guess:
        return self.result


class FakeEnglishTagger(Recognizer):
    """A fake English-only recognizer that marks every text whole, as a mistaken tagger would."""

    name, type, languages = "fake_english_tagger", "ADDRESS", frozenset({ENGLISH})

    def find(self, text: str) -> list:
        return [self.span(0, len(text))]


def _found(detector: Detector, text: str) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.type) for s in detector.detect(text)]


# -- which recognizers read a text ------------------------------------------------------------------


def test_an_english_only_recognizer_does_not_read_a_german_text():
    """The English tagger on German text swallowed whole clauses; a German text is not its to read."""
    recognizers = [FakeEnglishTagger(), *build_recognizers(["email", "introduced_name_de"])]
    german = Detector(recognizers, languages=FakeGuesser(Guess("de", frozenset({"de"}))))
    english = Detector(recognizers, languages=FakeGuesser(Guess(ENGLISH, frozenset({ENGLISH}))))
    text = "Hallo, ich bin Jürgen Weißmann, schreib an j.w@example.de"
    assert _found(german, text) == [("Jürgen Weißmann", "REAL_NAME"), ("j.w@example.de", "EMAIL")]
    assert _found(english, text) == [(text, "ADDRESS")]  # the fake reads English: its span wins as the longest


def test_a_text_in_no_covered_language_gets_the_structured_recognizers_only_and_says_so(tmp_path, monkeypatch):
    recognizers = [FakeEnglishTagger(), *build_recognizers(["email", "phone", "own_name", "password"])]
    detector = Detector(recognizers, languages=FakeGuesser(UNCOVERED))
    text = "Cześć, nazywam się Łukasz, my name is Łukasz, password: Hunter2!x, mail lukasz@example.pl"
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), detector)
    protected = protector.protect(text, "s")
    assert sorted(span.type for span in protected.spans) == [
        "EMAIL",
        "PASSWORD",
    ]  # a secret's pattern reads every language
    assert protected.language is None
    assert any("none of en, de, fr, es, it, nl, pt" in warning for warning in protected.warnings)
    protector.close()


# -- how the two signals combine --------------------------------------------------------------------


def test_trigrams_and_function_words_combine():
    german = combine({"de": 0.9, "en": 0.05, "nl": 0.05}, Counter({"de": 6, "en": 1}))
    assert german == Guess("de", frozenset({"de"}))
    # trigrams take a short English question for French; its function words keep English a candidate
    lisbon = combine({"fr": 0.97, "en": 0.03}, Counter({"en": 3, "fr": 1}))
    assert ENGLISH in lisbon.candidates and lisbon.language == ENGLISH
    # trigrams split between Spanish and Portuguese: both are read
    iberian = combine({"pt": 0.6, "es": 0.4}, Counter({"es": 3, "pt": 2}))
    assert iberian == Guess("es", frozenset({"es", "pt"}))


def test_a_sure_trigram_guess_is_not_outvoted_by_one_shared_function_word():
    # "ER" of "an ER nurse" is the Dutch "er", "as" the Portuguese article: one word each, and no English one counted
    assert combine({"en": 1.0}, Counter({"nl": 1, "pt": 1})).language == ENGLISH
    # two function words more still decide (a short English question trigrams take for French: the case above)
    assert combine({"fr": 0.97, "en": 0.03}, Counter({"en": 3, "fr": 1})).language == ENGLISH
    assert LinguaGuesser().guess("Twelve years as an ER nurse in Leeds.").language == ENGLISH


def test_a_domain_or_path_holds_no_function_word():
    """Issue 48: "hello anna@x.de" was labelled Dutch ("de" of its domain read as the Dutch article)."""
    assert LinguaGuesser().guess("hello anna@x.de").language == ENGLISH
    assert function_word_counts("write to anna@x.de or see https://x.example/de/van") == Counter({"en": 2})
    assert function_word_counts("j'habite à Lyon et de Paris") == Counter({"fr": 2, "nl": 1})


def test_a_short_text_stays_english_unless_another_language_has_more_function_words():
    assert short(Counter()) == Guess(ENGLISH, frozenset({ENGLISH}))
    assert short(Counter({"pt": 3, "en": 0})) == Guess("pt", frozenset({ENGLISH, "pt"}))
    assert short(Counter({"pt": 1, "en": 1})).candidates == frozenset({ENGLISH})


def test_a_short_text_with_a_self_introduction_is_read_in_its_language():
    """F4b: "Ich heiße Will." (13 letters) was read as English: one function word each ("ich", "will")."""
    assert introducing_languages("Ich heiße Will.") == {"de"}
    assert introducing_languages("Chamo-me Will. Me llamo Will.") == {"pt", "es"}
    assert introducing_languages("Dich heiße ich willkommen.") == frozenset()  # not "ich heiße" inside "dich heiße"
    assert short(Counter({"de": 1, "en": 1}), frozenset({"de"})) == Guess("de", frozenset({ENGLISH, "de"}))
    # one function word each and no French letter: unsure, so each student reads it (route28)
    assert LinguaGuesser().guess("Je m’appelle Will.") == Guess("fr", frozenset({ENGLISH, "fr"}), unsure=True)


def test_a_short_text_whose_words_and_letters_do_not_tell_its_language_is_read_in_english_too():
    """route28: "I met Tuğba Karakaya yesterday." (21 letters, Dutch "met" alone) is read as Dutch or Spanish by its
    name's trigrams. Unsure, its recognizers are English ones too; its candidates, which the English-only rewrite goes
    by, stay. A German sentence with one function word and a German letter ("ü") is not unsure (route27 read it as
    English and lost its card's security code), nor one with two function words of a language."""
    guesser = LinguaGuesser()
    tugba = guesser.guess("I met Tuğba Karakaya yesterday.")
    assert tugba.unsure and ENGLISH not in tugba.candidates and tugba.readers == tugba.candidates | {ENGLISH}
    card = guesser.guess("Meine Karte 4929 1234 5678 9015, gültig bis 09/28, Prüfziffer 331.")
    assert not card.unsure and card.readers == card.candidates == frozenset({"de"})
    assert not guesser.guess("Ich heiße Jörg Bäumer, Tel. 0176 98765432.").unsure
    assert unsettled(Counter({"nl": 1}), Counter("I met  Karakaya yesterday."))
    assert not unsettled(Counter({"de": 1}), Counter("gültig bis"))
    assert not unsettled(Counter({"de": 1, "en": 1}), Counter("Ich heiße Will."))  # "ß": German
    assert not unsettled(Counter({"nl": 2}), Counter("Ik ben Anneke"))


class FakeStudents(Recognizer):
    """A fake model-backed recognizer (no model): records the languages of each pass, and tags the text's first word a
    name in a pass that may be English, its last word a secret in any other, as two students would differ."""

    name, type, model_backed = "fake_students", "REAL_NAME", True

    def __init__(self):
        self.passes: list[frozenset[str]] = []

    def find_many(self, texts, settled=None, languages=None):
        self.passes += languages
        return [
            [self.span(0, text.index(" "))]
            if ENGLISH in codes
            else [self.span(text.rindex(" ") + 1, len(text), 1.0, "CREDENTIAL")]
            for text, codes in zip(texts, languages, strict=True)
        ]


def test_an_unsure_text_is_read_by_a_model_once_in_english_and_once_in_its_other_languages_and_both_kept():
    text = "Tuğba Karakaya 331"
    for guess, passes, found in [
        (
            Guess("nl", frozenset({"nl", "es"}), unsure=True),
            [frozenset({ENGLISH, "nl", "es"}), frozenset({"nl", "es"})],
            [("Tuğba", "REAL_NAME"), ("331", "CREDENTIAL")],
        ),
        (Guess("nl", frozenset({"nl", "es"})), [frozenset({"nl", "es"})], [("331", "CREDENTIAL")]),
        (Guess(ENGLISH, frozenset({ENGLISH}), unsure=True), [frozenset({ENGLISH})], [("Tuğba", "REAL_NAME")]),
    ]:
        students = FakeStudents()
        assert _found(Detector([students], languages=FakeGuesser(guess)), text) == found
        assert students.passes == passes


def test_the_real_detector_tells_the_languages_apart():
    guesser = LinguaGuesser()
    assert guesser.guess(GERMAN).language == "de" and ENGLISH not in guesser.guess(GERMAN).candidates
    assert guesser.guess(FRENCH).language == "fr"
    assert guesser.guess(SPANISH).language == "es"
    assert guesser.guess("Ciao, mi chiamo Giulia Rossi e vorrei prenotare un tavolo per sabato.").language == "it"
    assert guesser.guess("Hoi, ik ben Sanne de Vries en ik zoek een kamer in Utrecht.").language == "nl"
    assert guesser.guess("Olá, chamo-me João Pereira e queria marcar uma consulta amanhã.").language == "pt"
    assert guesser.guess("Will it rain in Lisbon this weekend?").language == ENGLISH
    assert guesser.guess("Привет, меня зовут Иван, я живу в Москве").language is None
    assert guesser.guess("Dzień dobry, nazywam się Łukasz Żółkiewski i mieszkam w Łodzi.").language is None


# -- checksums ---------------------------------------------------------------------------------------

VALID_AND_INVALID = [  # (recognizer, sentence, a valid number, the same with a wrong check digit)
    (SteuerIdRecognizer, "Meine Steuer-ID ist {}.", "36 574 261 809", "36 574 261 808"),
    (NirRecognizer, "Mon numéro de sécurité sociale : {}.", "2 95 10 99 126 111 93", "2 95 10 99 126 111 94"),
    (DniRecognizer, "Mi DNI es {}.", "54362315K", "54362315L"),
    (NieRecognizer, "Mi NIE es {}.", "X2482300W", "X2482300X"),
    (CodiceFiscaleRecognizer, "Il mio codice fiscale è {}.", "RCCMNL83S18D969H", "RCCMNL83S18D969A"),
    (BsnRecognizer, "Mijn BSN is {}.", "111222345", "111222346"),
    (NifRecognizer, "O meu NIF é {}.", "501964843", "501964844"),
    (AustrianSvRecognizer, "Meine SV-Nummer: {}.", "1003 120379", "1004 120379"),
    (BelgianNationalNumberRecognizer, "Mon numéro national est {}.", "79.02.14-182.04", "79.02.14-182.05"),
    (SwissAhvRecognizer, "Meine AHV-Nummer ist {}.", "756.3012.4987.13", "756.3012.4987.14"),
    (CpfRecognizer, "Meu CPF é {}.", "274.813.905-41", "274.813.905-42"),
    (RutRecognizer, "Mi RUT es {}.", "17.394.625-2", "17.394.625-3"),
    (CurpRecognizer, "Mi CURP es {}.", "BOXW310820HNERXN09", "BOXW310820HNERXN08"),
    (NhsNumberRecognizer, "My NHS number is {}.", "401 023 2137", "401 023 2138"),
]


@pytest.mark.parametrize(
    ("recognizer", "sentence", "valid", "invalid"), VALID_AND_INVALID, ids=[row[0].name for row in VALID_AND_INVALID]
)
def test_a_national_number_is_found_only_with_its_checksum(recognizer, sentence, valid, invalid):
    text = sentence.format(valid)
    assert [text[s.start : s.end] for s in recognizer().find(text)] == [valid]
    # away from its name (another sentence), a number with a wrong check digit is none
    assert recognizer().find(f"{sentence.format('1')} Ticket {invalid} ist zu.") == []


# the numbers whose names their language's `id_names` list (data/languages/<code>.yaml)
NAMED = [
    row
    for row in VALID_AND_INVALID
    if row[0] in (SteuerIdRecognizer, NirRecognizer, BsnRecognizer, NifRecognizer, NhsNumberRecognizer)
]


@pytest.mark.parametrize(("recognizer", "sentence", "valid", "invalid"), NAMED, ids=[row[0].name for row in NAMED])
def test_a_number_right_after_its_name_is_that_number_even_with_a_wrong_check_digit(
    recognizer, sentence, valid, invalid
):
    """ux19's report M5: a made-up "Meine Steuer-ID ist 12 345 678 903" was masked as a PHONE."""
    text = sentence.format(invalid)
    assert [text[s.start : s.end] for s in recognizer().find(text)] == [invalid]


def test_a_made_up_steuer_id_is_a_national_id_not_a_phone_number(detector):
    text = "Meine Steuer-ID ist 12 345 678 903 und meine Handynummer 0171 2345678."
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [
        ("12 345 678 903", "NATIONAL_ID"),
        ("0171 2345678", "PHONE"),
    ]


def test_a_nine_digit_number_is_a_bsn_only_after_its_name():
    assert BsnRecognizer().find("Bestelling 111222345 is verzonden.") == []


def test_a_ten_digit_number_is_an_nhs_number_only_after_its_name():
    assert NhsNumberRecognizer().find("Call me on 401 023 2137 after six.") == []


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("My NI number is JT 48 27 63 C for the form.", "JT 48 27 63 C"),
        ("Hi Nigel, my NI number is PW193807B and my P45 is attached.", "PW193807B"),
        ("Mr Dennis Whitfield, NI NR 66 01 45 A, transfer value £87,300.", "NR 66 01 45 A"),
        ("It was on the letter they sent to the wrong flat (JT 48 27 91 B).", "JT 48 27 91 B"),
        ("NI number AB 12 34 56 on the payslip", "AB 12 34 56"),
    ],
)
def test_a_national_insurance_number_is_found_as_people_write_it(text, number):
    assert [text[s.start : s.end] for s in NationalInsuranceRecognizer().find(text)] == [number]


@pytest.mark.parametrize(
    "text",
    [
        "The HMRC specimen is QQ 12 34 56 C.",  # Q opens no number
        "Temporary numbers look like TN 12 34 56 A.",  # a prefix HMRC excludes
        "NI number JD 48 27 63 C",  # D is no second letter
        "NI number JT 48 27 63 E",  # E is no suffix
        "Canadian passport HK381920, name Marc",  # no suffix and no NI name: a passport's shape too
        "IBAN ES63 2100 0418 4702 0007 1332",  # a pair of digits, then four: no NI number's grouping
    ],
)
def test_what_hmrcs_rules_exclude_is_no_national_insurance_number(text):
    assert NationalInsuranceRecognizer().find(text) == []


@pytest.mark.parametrize(  # a reviewer's texts: part codes were masked as NI numbers
    "text",
    [
        "Replacement filter cartridge part CR 214365 A fits models from 2019 onwards.",
        "Order spare part HP 123456 B for the printer.",
    ],
)
def test_a_part_code_spelt_as_no_ni_number_is_written_is_no_national_insurance_number(text):
    assert NationalInsuranceRecognizer().find(text) == []


def test_an_ni_number_in_another_spelling_is_one_after_its_name():
    text = "NI number: CR 214365 A"
    assert [text[s.start : s.end] for s in NationalInsuranceRecognizer().find(text)] == ["CR 214365 A"]


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Mon numéro de registre national est le 79.02.14-182.04, merci.", "79.02.14-182.04"),
        ("Segue meu CPF 274.813.905-41 para o cadastro.", "274.813.905-41"),
        ("Meine AHV-Nummer ist 756.3012.4987.13, danke.", "756.3012.4987.13"),
        ("Versicherungsnummer: 1003 120379, Name: Leitner", "1003 120379"),
        ("My NHS number is 401 023 2137 if the pharmacy asks.", "401 023 2137"),
        ("my father, Harold Finch (NHS no. 401 023 2137), was discharged", "401 023 2137"),
    ],
)
def test_a_checksum_valid_national_number_wins_over_a_phone_reading(detector, text, number):
    spans = [(text[s.start : s.end], s.type) for s in detector.detect(text)]
    assert (number, "NATIONAL_ID") in spans
    assert not [value for value, kind in spans if kind == "PHONE"]


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Meine Steuer-ID ist 36 574 261 809", "36 574 261 809"),
        ("My Steuer-ID is 36 574 261 809", "36 574 261 809"),  # an English text: its name brings the number in
        ("numéro de sécu 2 95 10 99 126 111 93", "2 95 10 99 126 111 93"),
        ("my French social security number (NIR) is 2 95 10 99 126 111 93", "2 95 10 99 126 111 93"),
    ],
)
def test_a_checksum_valid_number_after_its_name_is_a_national_id_in_any_language(detector, text, number):
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [(number, "NATIONAL_ID")]


# issue 48: one checksum-valid NIR (key 91) in the spacings it is written in
NIR_SPACINGS = [
    "1 85 05 78 006 084 91",
    "1 85 05 78 006 08491",
    "185057800608491",
    "1.85.05.78.006.084.91",
    "1850578006084 91",
]


@pytest.mark.parametrize("number", NIR_SPACINGS)
@pytest.mark.parametrize(
    "sentence", ["Mon numéro de sécurité sociale est {}.", "My social security number is {} if the clinic asks."]
)
def test_a_checksum_valid_nir_is_a_national_id_in_every_spacing_not_a_phone(detector, sentence, number):
    text = sentence.format(number)
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [(number, "NATIONAL_ID")]


def test_a_checksum_valid_number_without_its_name_stays_a_phone_outside_its_language(detector):
    text = "call me at 36 574 261 809 tonight"
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [("36 574 261 809", "PHONE")]


# -- the recognizers of each language ----------------------------------------------------------------


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(build_recognizers())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            GERMAN,
            [
                ("Jürgen Weißmann", "REAL_NAME"),
                ("Schillerstraße 12, 80336 München", "ADDRESS"),
                ("Katrin", "REAL_NAME"),
                ("Siemens", "EMPLOYER"),
                ("0171 2345678", "PHONE"),
            ],
        ),
        (
            FRENCH,
            [
                ("Sébastien Durand", "REAL_NAME"),
                ("14 rue de la Paix", "ADDRESS"),
                ("FR31 3000 6000 0112 3459 7890 189", "IBAN"),
            ],
        ),
        (
            SPANISH,
            [
                ("María José Fernández", "REAL_NAME"),
                ("Telefónica", "EMPLOYER"),
                ("Calle Mayor 5, Madrid", "ADDRESS"),
                ("diabetes tipo 2", "HEALTH"),
            ],
        ),
        (
            "Abito in Via Garibaldi 23, 10122 Torino, chiamami al 333 123 4567.",
            [("Via Garibaldi 23, 10122 Torino", "ADDRESS"), ("333 123 4567", "PHONE")],
        ),
        (
            "Mijn vrouw Annelies werkt bij Philips en woont op de Kerkstraat 12, 1017 GB Amsterdam.",
            [("Annelies", "REAL_NAME"), ("Philips", "EMPLOYER"), ("Kerkstraat 12, 1017 GB Amsterdam", "ADDRESS")],
        ),
        (
            "A minha mãe Rosa Ferreira tem asma e mora na Rua Augusta 25, 1100-048 Lisboa.",
            [("Rosa Ferreira", "REAL_NAME"), ("asma", "HEALTH"), ("Rua Augusta 25, 1100-048 Lisboa", "ADDRESS")],
        ),
    ],
    ids=["de", "fr", "es", "it", "nl", "pt"],
)
def test_each_value_is_found_and_no_span_runs_across_a_clause(detector, text, expected):
    assert _found(detector, text) == expected


@pytest.mark.parametrize(
    ("recognizer", "text", "expected"),
    [
        ("introduced_name_de", "Ich heiße Thomas Müller und wohne in Köln.", ["Thomas Müller"]),
        ("introduced_name_es", "Soy David Silva, vivo en Sevilla.", ["David Silva"]),
        ("introduced_name_fr", "Bonjour, je suis Paul Martin, joignable au 06 12 34 56 78", ["Paul Martin"]),
        ("relative_name_fr", "Mon fils, Paul Martin, a trois ans.", ["Paul Martin"]),
        ("introduced_name_de", "Das ist New York, sagt sie.", []),  # a famous place, no given name
    ],
)
def test_a_name_introduced_as_the_writers_or_kins_is_masked_though_a_famous_person_shares_it(
    recognizer, text, expected
):
    """Thomas Müller, David Silva, Paul Martin and New York are in data/public_names.txt: a name opening with a given
    name is a person's whatever the gazetteer lists; a place after the cue stays."""
    (found,) = build_recognizers([recognizer])
    assert [text[span.start : span.end] for span in found.find(text)] == expected


@pytest.mark.parametrize(
    ("name", "neutral", "tied"),
    [
        (
            "Michael Jordan",
            "Michael Jordan won six titles with the Chicago Bulls.",
            "My friend Michael Jordan is coming over tonight.",
        ),
        (
            "Thomas Müller",
            "Hast du gesehen, dass Thomas Müller seine Karriere beendet?",
            "Mein Schwager Thomas Müller hilft uns am Samstag beim Umzug.",
        ),
        (
            "Victor Hugo",
            "Tu as lu le dernier roman de Victor Hugo ?",
            "Mon ami Victor Hugo m'a prêté sa perceuse hier soir.",
        ),
        ("David Silva", "¿Viste el gol de David Silva anoche?", "Mi amigo David Silva viene a cenar esta noche."),
        (
            "Paolo Rossi",
            "Paolo Rossi è stato il capocannoniere del Mondiale 1982.",
            "Il mio amico Paolo Rossi mi ha chiesto di coprire il suo turno.",
        ),
        (
            "Anne Frank",
            "Het Achterhuis van Anne Frank trekt elk jaar veel bezoekers.",
            "Mijn schoonzus Anne Frank past zaterdag op de kinderen.",
        ),
        (
            "Cristiano Ronaldo",
            "Cristiano Ronaldo marcou mais um golo ontem à noite.",
            "O meu cunhado Cristiano Ronaldo vem jantar cá a casa no domingo.",
        ),
    ],
    ids=["en", "de", "fr", "es", "it", "nl", "pt"],
)
def test_a_famous_full_name_stays_in_a_neutral_sentence_and_a_namesake_the_writer_ties_to_themselves_is_masked(
    detector, name, neutral, tied
):
    """Each name is a line of data/public_names.txt whose every word is an ordinary name: famous, and a private
    person's too. Kept where nothing ties it to the writer; masked after a friend or in-law of the language file's
    `relatives` (before those words, "Mi amigo David Silva" went out in clear)."""
    assert _found(detector, neutral) == []
    assert (name, "REAL_NAME") in _found(detector, tied)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi, I am Sam and this is my first post.", ["Sam"]),  # an introduction of en.yaml, a given name
        ("My name is Paul Martin.", ["Paul Martin"]),  # a famous namesake (data/public_names.txt)
        ("Thanks for the quick reply. Kind regards, Payroll", []),  # a sign-off by no given name
    ],
)
def test_the_writers_own_english_name_follows_the_introductions_of_the_language_file(text, expected):
    """own_name reads English's introductions from data/languages/en.yaml, and its value as the other languages'
    introduced names are read (`reads_as_name`)."""
    (own_name,) = build_recognizers(["own_name"])
    assert [text[span.start : span.end] for span in own_name.find(text)] == expected


@pytest.mark.parametrize(
    ("text", "pregnancy"),
    [  # ux19's report H3: "enceinte" went out in clear, a 16-year-old's too (data/languages/<code>.yaml conditions)
        ("Je m'appelle Léa, j'ai 16 ans et je suis enceinte, je vis chez mes parents.", "enceinte"),
        ("Ich bin schwanger und habe Angst vor der Geburt.", "schwanger"),
        ("Mi médica me ha dicho que estoy embarazada.", "embarazada"),
        ("Sono incinta e ho la nausea tutto il giorno.", "incinta"),
        ("Ik ben zwanger van ons tweede kind.", "zwanger"),
        ("A minha médica disse-me que estou grávida.", "grávida"),
    ],
)
def test_a_writers_pregnancy_is_health_data_in_the_six_languages(detector, text, pregnancy):
    assert (pregnancy, "HEALTH") in [(text[s.start : s.end], s.type) for s in detector.detect(text)]


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [  # each in clear before the six languages' conditions held treatments and medicines, personal_words third-person
        # words and first-person verbs, employer_cues more ways of saying where one works (data/languages/<code>.yaml)
        ("Mein Vater bekommt seit März Chemotherapie.", "Chemotherapie", "HEALTH"),
        ("Il a eu un pontage l'an dernier.", "pontage", "HEALTH"),  # a third-person word
        ("Mi abuela usa un audífono desde hace años.", "audífono", "HEALTH"),
        ("Mia madre ha la cataratta e la operano a maggio.", "cataratta", "HEALTH"),
        ("Hij gebruikt oxazepam om te slapen.", "oxazepam", "HEALTH"),
        ("Ela faz hemodiálise três vezes por semana.", "hemodiálise", "HEALTH"),
        ("Meine Schwester macht eine Ausbildung bei Bosch.", "Bosch", "EMPLOYER"),
        ("Lavoro in Ducati da tre anni.", "Ducati", "EMPLOYER"),
        ("Llevo nueve años de cajera en Mercadona.", "Mercadona", "EMPLOYER"),
        ("Hij is ontslagen bij Tata Steel.", "Tata Steel", "EMPLOYER"),
        ("Meu irmão entrou no Nubank em março.", "Nubank", "EMPLOYER"),
    ],
)
def test_treatments_and_employers_of_the_six_languages_are_masked(detector, text, value, kind):
    assert (value, kind) in [(text[s.start : s.end], s.type) for s in detector.detect(text)]


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [  # each in clear (recognizers only) before: conditions and kinship nouns (`conditions`, `personal_words`), words of
        # work, a few words, a preposition (`work_words`, `work_prepositions`, `workplaces`) of data/languages/<code>.yaml
        ("Oma Hilde hat Scharlach.", "Scharlach", "HEALTH"),
        ("Ich arbeite seit 12 Jahren bei der Migros und bin zufrieden.", "Migros", "EMPLOYER"),
        ("Papi Lucien a une fracture du col du fémur.", "fracture du col du fémur", "HEALTH"),
        ("Premier jour comme infirmière à l'hôpital Necker !", "hôpital Necker", "EMPLOYER"),
        ("La abuela Nélida tiene neumonía.", "neumonía", "HEALTH"),
        ("Empiezo el lunes en Mercadona.", "Mercadona", "EMPLOYER"),
        ("Il nonno ha la scarlattina.", "scarlattina", "HEALTH"),
        ("Roberta fa l'infermiera al San Raffaele da anni.", "San Raffaele", "EMPLOYER"),
        ("Opa Henk heeft een gebroken heup.", "gebroken heup", "HEALTH"),
        ("Ik werk al 9 jaar bij PostNL als sorteerder.", "PostNL", "EMPLOYER"),
        ("A avó tem hérnia de disco.", "hérnia de disco", "HEALTH"),
        ("Sou caixa no Continente há dois anos.", "Continente", "EMPLOYER"),
    ],
)
def test_conditions_of_kin_and_employers_after_a_word_of_work_are_masked(detector, text, value, kind):
    assert (value, kind) in _found(detector, text)


@pytest.mark.parametrize(
    ("text", "value"),
    [  # each in clear before (ux24): HIV status, an antiepileptic's brand, an adjective of depression in `conditions`,
        # the first-person "sono", "soy", "sou" in `personal_words`, and "soy", "sou" as function words of a short text
        ("Je suis séropositif depuis 2019.", "séropositif"),
        ("Elle est séropositive.", "séropositive"),
        ("Soy seropositivo.", "seropositivo"),
        ("Sono sieropositivo da due anni.", "sieropositivo"),
        ("Sou soropositivo.", "soropositivo"),
        ("Mia figlia prende Keppra.", "Keppra"),
        ("Ich bin seit Monaten depressiv.", "depressiv"),
    ],
)
def test_hiv_status_medicines_and_depression_are_health_data_in_the_six_languages(detector, text, value):
    assert (value, "HEALTH") in _found(detector, text)


@pytest.mark.parametrize(
    "text",
    [
        "Mein Kollege sagt, dass sie bei der Post mehr zahlen.",  # a colleague is no word of work
        "Der Arzt hat heute Dienst.",  # a word of work without a preposition and a name
        "Scharlach ist eine Kinderkrankheit.",  # a condition about no one
        "Il mio collega dice che alla Barilla pagano meglio.",
    ],
)
def test_no_employer_or_condition_without_its_cue(detector, text):
    assert [kind for _, kind in _found(detector, text) if kind in ("EMPLOYER", "HEALTH")] == []


@pytest.mark.parametrize(
    "text",
    [
        "Ich bin total müde heute, die Woche war einfach zu lang.",  # a cue with no name after it
        "Diabetes ist eine der häufigsten Volkskrankheiten in Deutschland.",  # a condition about no one
        "La rue de Rivoli est fermée à la circulation tous les dimanches.",  # a street without a house number
        "On se retrouve à 20h place de la République ?",  # a time is no house number
        "Trabajo en Buenos Aires desde hace dos años y me encanta.",  # a famous place is no employer
        "La chemioterapia è un tema delicato.",  # a treatment about no one
        "Die Dialyse ist eine Belastung für viele Patienten.",
    ],
)
def test_what_is_no_ones_data_is_left(detector, text):
    assert _found(detector, text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Ihre Bestellung Nr. 302-1182-44 wurde versandt.",
        "Bonjour, ma commande n° 447-3390 indique « livrée » mais je n'ai rien reçu.",
        "Estimado cliente: su pedido n.º 2026-88417 ha sido enviado.",  # "n.º" is "n.o" in the text recognizers read
        "Gentile cliente, il suo ordine n. 2026-44718 è stato spedito.",
    ],
)
def test_an_order_number_is_no_phone_number(detector, text):
    assert _found(detector, text) == []


def test_a_phone_number_after_a_number_sign_is_still_one(detector):
    assert _found(detector, "Ruf mich an, meine Handy-Nr. 0171 2345678.") == [("0171 2345678", "PHONE")]


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("Meu celular é (11) 98765-4321.", "(11) 98765-4321"),  # Brazil
        ("Meu celular é 11 98765-4321.", "11 98765-4321"),
    ],
)
def test_a_national_phone_number_of_any_country_of_the_language_is_found(text, phone):
    """Each language reads national numbers of all its countries (data/languages/*.yaml `regions`): a Brazilian
    number is valid in none of the English phone regions nor in Portugal."""
    found = [text[s.start : s.end] for s in Detector(build_recognizers(models=False)).detect(text) if s.type == "PHONE"]
    assert found == [phone]


# -- end to end ---------------------------------------------------------------------------------------


def protect_command(tmp_path, text: str, tagger: bool) -> dict:
    """`stealthflow protect --rewrite none --json TEXT` as a user runs it, on a fresh vault in `tmp_path`."""
    return json.loads(run_protect(tmp_path, text, tagger, "--json").stdout)


def run_protect(tmp_path, text: str, tagger: bool, *flags: str) -> Result:
    """`stealthflow protect --rewrite none FLAGS TEXT` on a fresh vault in `tmp_path`: the real command, run in this
    process (the shipped models load once per worker, not once per text; the installed command in a subprocess is
    test_front_door.py's)."""
    env = {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "STEALTHFLOW_VAULT_KEY": new_secret(),
        "STEALTHFLOW_TAGGER": "1" if tagger else "0",
    }
    result = CliRunner().invoke(app, ["protect", "--rewrite", "none", *flags, text], env=env)
    assert result.exit_code == 0, (result.stderr, result.exception)
    return result


@pytest.mark.parametrize(
    ("text", "protected", "language"),
    [
        (
            GERMAN,
            "Hallo, ich bin <REAL_NAME_1> und wohne in der <ADDRESS_1>. Meine Frau <REAL_NAME_2> arbeitet bei <EMPLOYER_1>, ruf mich an: <PHONE_1>.",
            "de",
        ),
        (FRENCH, "Bonjour, je m'appelle <REAL_NAME_1>, j'habite <ADDRESS_1>, mon IBAN est <IBAN_1>.", "fr"),
        (SPANISH, "Hola, soy <REAL_NAME_1>, trabajo en <EMPLOYER_1> y vivo en <ADDRESS_1>. Tengo <HEALTH_1>.", "es"),
        # issue 48: the tagger's span ran into the next word's elided pronoun ("mon <HEALTH_1>'aggrave")
        ("Mon médecin dit que mon asthme s'aggrave.", "Mon médecin dit que mon <HEALTH_1> s'aggrave.", "fr"),
        # a word of work, a condition of kin, debt after its amount (data/languages/<code>.yaml, cued_identifiers.yaml);
        # an article the tagger takes into a HEALTH span is dropped from it when it is a function word alone ("een")
        (
            "Ich arbeite seit 12 Jahren bei der Migros. Oma hat Scharlach. Ich habe 23.700 € Schulden.",
            "Ich arbeite seit 12 Jahren bei der <EMPLOYER_1>. Oma hat <HEALTH_1>. Ich habe <FINANCE_1> Schulden.",
            "de",
        ),
        (
            "Je suis infirmière à l'hôpital Necker. Papi a une fracture du poignet. J'ai 8 000 € de dettes.",
            "Je suis infirmière à l'<EMPLOYER_1>. Papi a <HEALTH_1>. J'ai <FINANCE_1> de dettes.",
            "fr",
        ),
        (
            "Empiezo el lunes en Mercadona. La abuela tiene neumonía. Tengo 4.200 € de deuda.",
            "Empiezo el lunes en <EMPLOYER_1>. La abuela tiene <HEALTH_1>. Tengo <FINANCE_1> de deuda.",
            "es",
        ),
        (
            "Lavoro da sei anni alla Barilla. Il nonno ha la scarlattina. Ho 9.000 € di debito.",
            "Lavoro da sei anni alla <EMPLOYER_1>. Il nonno ha la <HEALTH_1>. Ho <FINANCE_1> di debito.",
            "it",
        ),
        (  # the article the student tags with the condition is a piece of function words: left outside the span
            "Ik werk al 9 jaar bij PostNL. Opa heeft een longontsteking. Ik heb € 27.800 studieschuld.",
            "Ik werk al 9 jaar bij <EMPLOYER_1>. Opa heeft een <HEALTH_1>. Ik heb <FINANCE_1> studieschuld.",
            "nl",
        ),
        (
            "Sou caixa no Continente. A avó tem hérnia de disco. Tenho 7.500 € de dívida.",
            "Sou caixa no <EMPLOYER_1>. A avó tem <HEALTH_1>. Tenho <FINANCE_1> de dívida.",
            "pt",
        ),
    ],
    ids=["de", "fr", "es", "fr-elision", "de-work", "fr-work", "es-work", "it-work", "nl-work", "pt-work"],
)
def test_the_issues_sentences_through_the_protect_command(tmp_path, text, protected, language):
    """The real command, with the tagger on as users have it: every value masked, every clause kept."""
    row = protect_command(tmp_path, text, tagger=True)
    assert row["text"] == protected
    assert row["language"] == language


def test_a_log_and_an_order_mail_through_the_protect_command_keep_all_but_the_phone_number(tmp_path):
    """The real command on a real vault: a log line's date and hour, a loopback address, a password read
    from a variable and an order number stay; the phone number does not."""
    kept = (
        "2024-11-03 02:00:01 INFO backup started host=127.0.0.1\n"
        "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n"
        "Your order n° 447-3390 has shipped; if it is late, "
    )
    protected = protect_command(tmp_path, kept + "call me on (415) 555-2671.", tagger=False)["text"]
    assert protected.startswith(kept) and "555-2671" not in protected and "PHONE" in protected


@pytest.mark.parametrize(
    ("text", "protected"),
    [
        (
            "Bitte an Klaus Obermeier, Lindenstraße 14, 80331 München schicken.",
            "Bitte an <REAL_NAME_1>, <ADDRESS_1> schicken.",
        ),
        ("Spedire a Marco Bellini, Via Garibaldi 12, 20121 Milano.", "Spedire a <REAL_NAME_1>, <ADDRESS_1>."),
        ("Enviar a Lucía Morales, Calle Mayor 5, 28013 Madrid.", "Enviar a <REAL_NAME_1>, <ADDRESS_1>."),
    ],
    ids=["de", "it", "es"],
)
def test_a_name_after_a_preposition_and_before_an_address_through_the_protect_command(tmp_path, text, protected):
    """A reviewer's texts, the real command with the tagger on: the name was left in clear ("an", "a" read as English
    articles before a thing)."""
    assert protect_command(tmp_path, text, tagger=True)["text"] == protected


@pytest.mark.parametrize(
    ("text", "protected"),
    [
        ("Pedido 1234 5678 9012 enviado, llegará en 24 h.", "Pedido 1234 5678 9012 enviado, llegará en 24 h."),
        ("Appelez le 01 23 45 67 89 24 h sur 24.", "Appelez le <PHONE_1> 24 h sur 24."),
        ("Our helpline 020 7946 0958 365 days a year.", "Our helpline <PHONE_1> 365 days a year."),
        ("Book via 020 7946 0958 100% free.", "Book via <PHONE_1> 100% free."),
    ],
    ids=["order", "count", "days", "percent"],
)
def test_a_phone_number_beside_other_digits_through_the_protect_command(tmp_path, text, protected):
    """Reviewers' texts, the real command: no phone number is cut out of an order number, nor grown by a count, nor
    left in clear before a count of three digits."""
    assert protect_command(tmp_path, text, tagger=False)["text"] == protected


@pytest.mark.parametrize(
    ("text", "protected"),
    [
        (
            "Meine Handynummer: 0 1 7 6 2 3 4 5 6 7 8 9, ruf einfach an.",
            "Meine Handynummer: <PHONE_1>, ruf einfach an.",
        ),
        ("Mi móvil es 6 1 2 3 4 5 6 7 8, llámame.", "Mi móvil es <PHONE_1>, llámame."),
        ("My number is 0 7 7 0 0 9 0 0 1 2 3, call me.", "My number is <PHONE_1>, call me."),
        ("Meine IBAN: DE50 5260 1815 9083 0166 1 3 bitte", "Meine IBAN: <IBAN_1> bitte"),
        ("ruf an: +49 (0) 176 / 234 567 89 oder schreib", "ruf an: <PHONE_1> oder schreib"),
        ("Handy 0176/23456789, abends", "Handy <PHONE_1>, abends"),
        (
            "The final scores were 2 1 0 and 3 3 1, on 12/05/2024 10:30.",
            "The final scores were 2 1 0 and 3 3 1, on 12/05/2024 10:30.",
        ),
    ],
    ids=["digits-de", "digits-es", "digits-en", "iban-odd-group", "slash-trunk", "slash", "scores"],
)
def test_a_number_however_it_is_spaced_is_masked_whole_through_the_protect_command(tmp_path, text, protected):
    """ux21's report H3 and M8, the real command: numbers spelled digit by digit and an IBAN with an odd last group went
    out in clear ("nothing to mask"); "+49 (0) 176 / " went out beside the placeholder."""
    assert protect_command(tmp_path, text, tagger=False)["text"] == protected


@pytest.mark.parametrize(
    "text",
    [
        "Anyone else juggling marathon training with two toddlers and a 9-to-5 at an accounting firm?",
        "Release notes: the commit is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b, built on macOS 14.2.",
    ],
)
def test_an_everyday_phrase_and_a_commits_hash_raise_no_secret_alarm_through_the_protect_command(tmp_path, text):
    """ux21's report M3, the real command with the tagger on: "9-to-5" and a git commit's hash were masked as
    CREDENTIAL, with the warning to rotate every credential."""
    result = run_protect(tmp_path, text, True, "--json")
    assert json.loads(result.stdout)["text"] == text
    assert "rotate" not in result.stderr


@pytest.mark.parametrize(
    ("text", "protected"),
    [
        pytest.param(
            "merci beaucoup, à bientôt -- camille lefèvre",
            "merci beaucoup, à bientôt -- <REAL_NAME_1>",
            # the t23 multilingual student misses this lower-case signature (the one before it found it); on u+v+w
            # lower-cased its name recall rose (docs/pii-tagger.md); its card lists the miss
            marks=pytest.mark.xfail(strict=True, reason="t23 student: lower-case signature name missed"),
        ),
        (  # ux21's report H1: the name went out in clear beside the masked date of birth
            "Ich bin geb. am 03.04.1991 in Graz. Grüße, jürgen müller.",
            "Ich bin geb. am <PERSONAL_1> in Graz. Grüße, <REAL_NAME_1>.",
        ),
        (
            "Lo ingresaron en el Hospital Puerta del Mar y allí le pusieron dos stents.",
            "Lo ingresaron en el <EMPLOYER_1> y allí le pusieron dos stents.",
        ),
    ],
    ids=["fr-lowercase-name", "de-lowercase-signature", "es-hospital"],
)
def test_a_name_is_one_placeholder_with_nothing_of_it_beside_through_the_protect_command(tmp_path, text, protected):
    """ux21's report M8, the real command with the tagger on: "<REAL_NAME_1> <REAL_NAME_2>" for one person, and
    "<EMPLOYER_1> del Mar"."""
    assert protect_command(tmp_path, text, tagger=True)["text"] == protected


def test_uk_identifiers_through_the_protect_command(tmp_path):
    """The issue's sentences, the real command: the NI number and the bank details are masked, a date is not."""
    text = "My NI number is JT 48 27 63 C for the form. Pay me on 20-11-24: sort code 20-32-53, account 74061952."
    protected = "My NI number is <NATIONAL_ID_1> for the form. Pay me on 20-11-24: sort code <FINANCE_1>."
    assert protect_command(tmp_path, text, tagger=False)["text"] == protected


def test_every_word_list_of_the_language_files_holds_words_only():
    """YAML 1.1 reads a bare `no` as False: Spanish and Portuguese lost their function word "no"."""
    from stealthflow.placeholders.language import language_file
    from stealthflow.resources import resource_dir

    for path in sorted((resource_dir("data") / "languages").glob("*.yaml")):
        for key, value in language_file(path.stem).items():
            if isinstance(value, list):
                assert all(isinstance(word, str) for word in value), (path.name, key)
    assert "no" in language_file("es")["function_words"] and "no" in language_file("pt")["function_words"]
