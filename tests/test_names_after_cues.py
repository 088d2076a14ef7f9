"""A writer's name after the words that introduce it, whole and no wider: a common word that is a name after an explicit
introduction, a family name after the given name the tagger found, a name after a form's label in lowercase, and a
common word taken once for a name that spreads nowhere (ux24's new-user test)."""

from __future__ import annotations

import pytest
from placeholder_fixtures import protect_config

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.language import ENGLISH, Guess
from stealthflow.placeholders.recognizers import Recognizer, build_recognizers


@pytest.fixture(scope="module")
def detector() -> Detector:
    """The recognizers and the shipped PII tagger, as `stealthflow protect` builds them."""
    return Detector(build_recognizers(models=True))


def _names(detector: Detector, text: str) -> list[str]:
    return [text[s.start : s.end] for s in detector.detect(text) if s.type == "REAL_NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [  # each in clear before: a common word after an explicit introduction (`name_introductions`) or a given name the
        # name lexicon leaves out as a stop word (`stop_word_names` of data/languages/en.yaml)
        ("Hi, my name is Will and I need help", "Will"),
        ("Thanks for the help.\n\nRegards, Will", "Will"),
        ("I'm Will, the new tenant", "Will"),
        ("Ich heiße Will und wohne in Bonn.", "Will"),
        ("Hi, this is May from accounts.", "May"),
    ],
)
def test_a_common_word_is_a_name_after_an_explicit_introduction(detector, text, name):
    assert name in _names(detector, text)


@pytest.mark.parametrize(
    "text",
    [  # F4b: each in clear before, typed on its own: too short for trigrams, the text was read as English ("Will" is
        # an English function word), so the language's introduction was not read (`introducing_languages`)
        "Ich heiße Will.",
        "Hallo, ich heiße Will.",
        "Je m'appelle Will.",
        "Me llamo Will.",
        "Ik heet Will.",
        "Mi chiamo Will.",
        "Chamo-me Will.",
    ],
)
def test_a_common_word_is_a_name_after_an_introduction_typed_on_its_own(detector, text):
    assert _names(detector, text) == ["Will"]


@pytest.mark.parametrize(
    ("text", "medicine"),
    [  # a verb after a relative, typed in lowercase and a given name of another country ("Toma", Romanian), was masked
        # as the relative's name (Spanish and Portuguese); the others are checked alike
        ("Mi hijo toma Keppra.", "Keppra"),
        ("O meu filho toma Keppra.", "Keppra"),
        ("Mi hija bebe leche y toma Keppra.", "Keppra"),
        ("Mio figlio prende Keppra.", "Keppra"),
        ("Mon fils prend Keppra.", "Keppra"),
        ("Mijn zoon neemt Keppra.", "Keppra"),
        ("Mein Sohn nimmt Keppra.", "Keppra"),
    ],
)
def test_a_verb_after_a_relative_is_no_name(detector, text, medicine):
    found = [(text[s.start : s.end], s.type) for s in detector.detect(text)]
    assert [value for value, kind in found if kind == "REAL_NAME"] == []
    assert (medicine, "HEALTH") in found


def test_a_given_name_of_the_language_after_a_relative_is_still_a_name_in_lowercase(detector):
    assert _names(detector, "Mi hijo juan tiene fiebre.") == ["juan"]


@pytest.mark.parametrize(
    "text",
    [
        "Sorry, I am little late today.",  # a common word in lowercase after "I am": a state, not a name
        "Ich heiße Sie herzlich willkommen.",  # a pronoun after "ich heiße"
    ],
)
def test_no_name_after_an_introduction_that_is_none(detector, text):
    assert _names(detector, text) == []


class FakeLittleRecognizer(Recognizer):
    """A fake, mistaken recognizer: the first "little" of a text is a name."""

    name, type = "fake_little", "REAL_NAME"

    def find(self, text: str) -> list:
        start = text.find("little")
        return [self.span(start, start + len("little"))] if start >= 0 else []


class EnglishGuesser:
    def guess(self, text: str) -> Guess:
        return Guess(ENGLISH, frozenset({ENGLISH}))


def test_a_common_word_taken_for_a_name_spreads_neither_in_its_text_nor_in_the_session(tmp_path, monkeypatch):
    """ux24 M7: "little" of "I am little late", read once as a name, was masked four times (a name found in a text is
    masked wherever the text repeats it); a common word in lowercase is masked where it was found only."""
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([FakeLittleRecognizer()], languages=EnglishGuesser()))
    text = "Sorry, I am little late today. I will be a little faster tomorrow, little by little."
    first = protector.protect(text, "s")
    assert [text[s.start : s.end] for s in first.spans] == ["little"]
    later = "A little more, please."
    assert [s for s in protector.protect(later, "s").spans if s.source != "fake_little"] == []
    protector.close()


@pytest.mark.parametrize(
    ("text", "name"),
    [  # each masked as its given name alone before: the family name after it, with the particles between
        ("Met Pieter de Vries.", "Pieter de Vries"),
        ("Allô, c'est Julien Moreau.", "Julien Moreau"),
    ],
)
def test_the_family_name_after_a_given_name_is_masked_with_it(detector, text, name):
    assert _names(detector, text) == [name]


@pytest.mark.parametrize(
    ("text", "name"),
    [  # each in clear before: "aqui é a", "aqui fala a" (`introductions` of data/languages/pt.yaml)
        ("Aqui é a Joana Silva.", "Joana Silva"),
        ("Oi, aqui é a Joana Silva", "Joana Silva"),
        ("Aqui fala a Joana Silva.", "Joana Silva"),
    ],
)
def test_a_portuguese_self_introduction_with_its_article(detector, text, name):
    assert _names(detector, text) == [name]


@pytest.mark.parametrize(
    ("text", "name"),
    [  # each in clear before: a form's label of data/languages/<code>.yaml (`name_labels`), in any text's language guess
        ("Nombre: lucía fernández", "lucía fernández"),
        ("Nom : julien moreau", "julien moreau"),  # read as English: too short to tell
        ("Naam: pieter de vries", "pieter de vries"),
        ("Nome: joana silva", "joana silva"),
    ],
)
def test_a_name_typed_in_lowercase_after_a_forms_label(detector, text, name):
    assert _names(detector, text) == [name]


@pytest.mark.parametrize(
    ("text", "address"),
    [  # the tagger's address ran on into the next line's first word ("...Madrid\nMañana")
        ("Dirección: Calle Mayor 23, 28013 Madrid\nMañana te llamo.", "Calle Mayor 23, 28013 Madrid"),
        ("Adresse : 14 rue de la Paix, 75002 Paris\nDemain je t'appelle.", "14 rue de la Paix, 75002 Paris"),
        ("Indirizzo: Via Roma 12, 10121 Torino\nDomani ti chiamo.", "Via Roma 12, 10121 Torino"),
        ("Morada: Rua Augusta 25, 1100-048 Lisboa\nAmanhã ligo-te.", "Rua Augusta 25, 1100-048 Lisboa"),
        # ux24b: a short next line, the street pattern's town too ("Springfield\nTomorrow")
        ("Meine Adresse ist Hauptstraße 5, 80331 München\nTschüss!", "Hauptstraße 5, 80331 München"),
        ("I live at 42 Elm Street, Springfield\nTomorrow I will start the new job.", "42 Elm Street, Springfield"),
        ("Mijn adres is Keizersgracht 12, 1015 CX Amsterdam\nGroetjes", "Keizersgracht 12, 1015 CX Amsterdam"),
        # an address block's next lines are address lines: a postcode, a town, a country
        ("I live at 42 Elm Street, Springfield\nIL 62704\nThanks", "42 Elm Street, Springfield\nIL 62704"),
        ("Adresse : 7 allée des Roses\n69003 Lyon\nFrance", "7 allée des Roses\n69003 Lyon\nFrance"),
    ],
)
def test_an_address_ends_at_its_line_before_the_next_sentence(detector, text, address):
    assert [text[s.start : s.end] for s in detector.detect(text) if s.type == "ADDRESS"] == [address]


def test_a_title_and_surname_typed_in_lowercase_are_a_name(detector):
    text = "my psychiatrist dr. patel put me on lithium"
    found = [(text[s.start : s.end], s.type) for s in detector.detect(text)]
    assert ("patel", "REAL_NAME") in found
    assert not any(kind == "HEALTH" and "patel" in value for value, kind in found)
    assert _names(detector, "i saw dr. house yesterday") == []  # a common word of English


@pytest.mark.parametrize(
    ("text", "name"),
    [  # ux24b: a Dutch phone greeting; the tagger cut a name at its particles and the verifier dropped the rest
        ("Met Jan van den Berg.", "Jan van den Berg"),
        ("Met Kees van der Linden, goedemorgen.", "Kees van der Linden"),
        ("Met Anna de Boer.", "Anna de Boer"),
        ("Hallo, met Anna de Boer.", "Anna de Boer"),
    ],
)
def test_a_name_after_a_phone_greeting_opening_a_line_is_masked_whole(detector, text, name):
    assert _names(detector, text) == [name]


def test_the_phone_greeting_word_is_no_cue_inside_a_sentence():
    """`call_openings` ("met") opens a line or follows a greeting: "ik ga met Jan" is no call answered."""
    from stealthflow.placeholders.recognizers import build_recognizers

    [introduced] = [r for r in build_recognizers() if r.name == "introduced_name_nl"]
    assert introduced.find("Ik ga morgen met Jan van den Berg naar Utrecht.") == []
    assert introduced.find("Met Google Maps vond ik het.") == []  # a brand (data/brands.txt)
    assert [(s.start, s.end) for s in introduced.find("Goedemorgen!\nMet Jan van den Berg.")] == [(17, 33)]


@pytest.mark.parametrize(
    ("text", "name"),
    [  # each in clear before (ux27's new-user test, H3): a name after a title of office (`office_titles`)
        ("Our CEO Jane Whitfield announced layoffs.", "Jane Whitfield"),
        ("Sent the invoice to their CFO Daniel Kruger yesterday.", "Daniel Kruger"),
        ("I spoke to the CTO Anna Weber about it.", "Anna Weber"),
        ("Unser Geschäftsführer Thomas Berger hat gekündigt.", "Thomas Berger"),
    ],
)
def test_a_name_after_a_title_of_office_is_masked(detector, text, name):
    assert name in _names(detector, text)


@pytest.mark.parametrize("text", ["The CEO Summit was fun.", "Ask the CFO about it.", "Our CEO said no."])
def test_a_title_of_office_without_a_name_after_it_masks_nothing(detector, text):
    assert _names(detector, text) == []


def test_a_name_spelled_by_the_address_beside_it_is_masked_in_any_letters(detector):
    """The address's "ı" took the text out of English, and the name went out in clear (ux27's H2)."""
    text = "Customer Aylin Yılmaz (aylin.yılmaz@example-mail.com) cannot log in."
    assert _names(detector, text) == ["Aylin Yılmaz"]


def test_every_speaker_of_a_chat_log_is_masked(detector):
    """The speaker "Lin Wei:" stayed in clear on every line while the other speakers were masked (ux27's H4)."""
    text = (
        "[09:02] Tomasz Nowak: morning all, standup in 5\n"
        "[09:06] Lin Wei: please don't paste passwords here!!\n"
        "[28.11.26, 19:07:33] Paola: Io porto la torta!\n"
    )
    assert {"Tomasz Nowak", "Lin Wei", "Paola"} <= set(_names(detector, text))


@pytest.mark.parametrize("text", ["I met Jean-Baptiste Nkurunziza yesterday.", "I met Jean-Baptiste Martin yesterday."])
def test_a_hyphenated_given_name_is_one_name(detector, text):
    """The name "Jean-Baptiste Nkurunziza" went out as "<REAL_NAME_9>-Baptiste Nkurunziza" (ux27's H8)."""
    names = _names(detector, text)
    assert names and all("Jean-Baptiste" in name for name in names)


def test_a_forum_authors_name_is_one_name_not_a_handle(detector):
    """The author of "Posted by Niamh Gallagher" went out as "Posted by <USERNAME_1> <REAL_NAME_1>" (ux27's M2)."""
    text = "*Posted by Niamh Gallagher · 28 November 2026*"
    spans = [(text[s.start : s.end], s.type) for s in detector.detect(text)]
    assert ("Niamh Gallagher", "REAL_NAME") in spans and all(kind != "USERNAME" for _, kind in spans)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a customer number is no personal value (in clear by the annotated sets' convention): no span, or all of it
        ("Ich habe den Vertrag (Kundennummer 7719-334-08) bereits gekündigt.", "7719-334-08"),
        (  # the tester's letter, as written (the model's HEALTH span depends on the letter around it)
            "Arztbrief\n\nPatient: Herr Klaus-Dieter Meißner, geb. 14.02.1961\nVersichertennummer: A123456780\n\n"
            "Sehr geehrte Kollegin Dr. Yilmaz,\n\nwir berichten über Ihren Patienten, der vom 02.10. bis 09.10.2024 in "
            "unserer Klinik stationär behandelt wurde.\n\nDiagnosen: Typ-2-Diabetes mellitus, insulinpflichtig; "
            "arterielle Hypertonie; beginnende diabetische Nephropathie.\n\nTherapie: Metformin 1000 mg 1-0-1, Insulin "
            "glargin 18 IE zur Nacht, Ramipril 5 mg 1-0-0.\n",
            "1-0-1",
        ),
    ],
)
def test_no_span_ends_inside_a_token(detector, text, value):
    """ux28 finding 10: "(Kundennummer 7719-334-08)" went out as "(<ADDRESS_1>-08)" and "Metformin 1000 mg 1-0-1" as
    "<HEALTH_5>-1": the tagged span stopped at a hyphen inside the token. Whatever covers the token covers all of it."""
    start = text.index(value)
    covering = [s for s in detector.detect(text) if s.start < start + len(value) and s.end > start]
    assert covering or "Kundennummer" in text
    assert all(s.start <= start and s.end >= start + len(value) for s in covering)


def test_a_name_does_not_swallow_the_bracket_of_an_aside_after_it(detector):
    """ux28 finding 11: "Dr. Leonie Brandt-Hoffmann (Praxis Brandt, ...)" reached the upstream as
    "Dr. <REAL_NAME_19><ADDRESS_4>)": the tagger ran the name on into "(Praxis", so the bracket was masked inside it."""
    text = (
        "You are the assistant of Dr. Leonie Brandt-Hoffmann (Praxis Brandt, Kaiserstraße 12, 60311 Frankfurt). "
        "Her patients: Jonas Weber (type 1 diabetes), Katarzyna Nowak (pregnant, week 20)."
    )
    spans = detector.detect(text)
    assert "Leonie Brandt-Hoffmann" in _names(detector, text)
    assert not any("(" in text[s.start : s.end] for s in spans)


def test_a_name_ends_before_an_aside_it_does_not_close():
    """`shaped` on name spans as a model leaves them (no model here): an open bracket ends the name, a closed aside
    inside it (a nickname) stays."""
    from stealthflow.pii_tagger.spans import shaped

    text = "Dr. Leonie Brandt-Hoffmann (Praxis Brandt) and Margaret (Peggy) Ellison [Praxis"
    at = text.index
    assert shaped(text, at("Leonie"), at("Brandt)"), "REAL_NAME") == (at("Leonie"), at(" (Praxis"))
    assert shaped(text, at("Margaret"), at(" ["), "REAL_NAME") == (at("Margaret"), at(" ["))
    assert shaped(text, at("Margaret"), len(text), "REAL_NAME") == (at("Margaret"), at(" ["))


def test_whole_tokens_grows_a_cut_token_and_leaves_possessives_and_lines():
    """`whole_tokens` on spans as a model leaves them (no model here): the token's tail or head joins the span; an
    apostrophe ends a token; a token's tail alone on the span's first line is left to the overlap with the name."""
    from stealthflow.pii_tagger.spans import whole_tokens

    text = "(Kundennummer 7719-334-08) 89,90 € Dr. Nakamura's email, Schwarzkopf-Öztürk\nAm Weidenhof 3a"
    at = text.index
    assert whole_tokens(text, at("Kunden"), at("-08")) == (at("Kunden"), at(")"))
    assert whole_tokens(text, at("334"), at(")")) == (at("7719"), at(")"))
    assert whole_tokens(text, at("90 €"), at(" €")) == (at("89,90"), at(" €"))
    assert whole_tokens(text, at("Nakamura"), at("'s")) == (at("Nakamura"), at("'s"))
    assert whole_tokens(text, at("Öztürk"), len(text)) == (at("Öztürk"), len(text))
    chinese = "我的客户号是七七一九请查收"
    assert whole_tokens(chinese, 2, 5) == (2, 5)  # no spaces between words: no token to grow to


@pytest.mark.parametrize(
    ("text", "word", "name"),
    [
        (
            "[10:04] Sabine: Okay, dann frag ich Frank.\n[10:05] Ich: Ja, mach das. Grüße an Emma und Paul!\n",
            "Ja",
            "Emma",
        ),
        ("[18:04] Ich: Ja, und sag Aleksandra, dass sie ihr Ladekabel bei mir vergessen hat.\n", "Ja", "Aleksandra"),
        (
            "Hallo zusammen, ich (42, Erzieherin aus Bielefeld) habe seit letztem Jahr die Diagnose Morbus Crohn.",
            "Erzieherin",
            None,
        ),
    ],
)
def test_a_chat_messages_first_word_or_a_trade_is_no_name(detector, text, word, name):
    """ux28 finding 9: German "Ja," opening a chat message and the trade "Erzieherin" were masked as names. The tagger
    tags them; `_word_of_language` read "Ja" after the chat line's stamp and speaker as written as a name (a name of the
    lexicon then stays) and knew no trades: the message's first word opens it, and a trade of the language's
    `work_words` (data/languages/de.yaml) that is no name of the lexicon is none. The names beside them stay masked."""
    names = _names(detector, text)
    assert word not in names and (name is None or name in names)


@pytest.mark.parametrize(
    ("text", "name"),
    [  # a relative's name after a kinship title, without "my" (`kin_titles`); each in clear before
        ("Nonna Pina ha fatto le lasagne per tutti.", "Pina"),
        ("Opa Kees is jarig, we gaan taart eten.", "Kees"),
        ("aunty bev made jollof again lol", "bev"),
        ("Onkel Zizou hat gestern angerufen, er kommt am Sonntag.", "Zizou"),  # a famous nickname, a relative's here
    ],
)
def test_a_relatives_name_after_a_kinship_title_is_masked(detector, text, name):
    assert name in _names(detector, text)


@pytest.mark.parametrize(
    "text",
    [
        "Uncle Sam wants you to pay your taxes.",  # one listed name with its title
        "Wir kaufen im Tante-Emma-Laden um die Ecke ein.",
        "Tía, qué calor hace hoy en Madrid.",
    ],
)
def test_a_kinship_title_without_a_relatives_name_after_it_masks_nothing(detector, text):
    assert _names(detector, text) == []


@pytest.mark.parametrize(
    "text",
    [  # a business introducing itself or signing off (`brand`: data/brands.txt, data/regional_brands.txt)
        "Hi, this is Canadian Tire Auto Service on Kingsway calling about your car.",
        "Kind regards,\nTesco Customer Care",
    ],
)
def test_a_brand_introducing_itself_is_no_ones_own_name(detector, text):
    assert _names(detector, text) == []


def test_a_persons_own_name_after_an_introduction_is_still_masked_beside_a_brand(detector):
    assert _names(detector, "Hi, this is Wendy from Tesco Customer Care, call me back.") == ["Wendy"]
