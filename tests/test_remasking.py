"""A session's values masked again in its later texts: only the specific ones (an email, a key, a
name that is no common word), so a false alarm on a word never spreads through the session
(placeholders/common_words.py, pipeline/protector.py `SessionValues`)."""

from __future__ import annotations

import re

import pytest
from placeholder_fixtures import make_protector, protect_config

from stealthflow.pipeline.protector import KnownValues, Protector, open_vault
from stealthflow.placeholders.common_words import common_word, frequent_in, specific
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.language import Guess
from stealthflow.placeholders.recognizers import Recognizer, build_recognizers
from stealthflow.placeholders.types import Level, Span


class FakeTagger(Recognizer):
    """FAKE model-backed recognizer: tags the first "the" of the first text it sees as HEALTH, as the
    real tagger once did on a natural comment, and nothing after that."""

    name, type, model_backed = "fake_tagger", "HEALTH", True

    def __init__(self):
        self.fired = False

    def find_many(self, texts: list[str], settled=None, languages=None) -> list[list[Span]]:
        found = []
        for text in texts:
            at = text.find("the")
            found.append([] if self.fired or at < 0 else [self.span(at, at + 3, 0.9)])
            self.fired = self.fired or at >= 0
        return found


def test_a_false_alarm_on_a_word_is_not_masked_again_in_later_texts(tmp_path, monkeypatch):
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([*build_recognizers(), FakeTagger()]))
    first = protector.protect("throw the idea out", "s")
    assert first.text == "throw <HEALTH_1> idea out"  # the false alarm itself, in its own text
    later = "the cat sat on the mat by the door; the end. Write to dana@mailbox.org"
    again = protector.protect(later, "s")
    assert again.text == "the cat sat on the mat by the door; the end. Write to <EMAIL_1>"
    # nor in another process reading the session's values from the vault
    assert make_protector(config).protect(later, "s").text == again.text
    assert protector.restore(first.text, "s").text == "throw the idea out"  # its placeholder still restores


class FakeEmployerTagger(Recognizer):
    """FAKE model-backed recognizer: tags the first "uni" it sees as EMPLOYER, as the real tagger once did
    on a natural comment, and nothing after that."""

    name, type, model_backed = "fake_employer_tagger", "EMPLOYER", True

    def __init__(self):
        self.fired = False

    def find_many(self, texts: list[str], settled=None, languages=None) -> list[list[Span]]:
        found = []
        for text in texts:
            at = -1 if self.fired else text.find("uni")
            found.append([] if at < 0 else [self.span(at, at + 3, 0.9)])
            self.fired = self.fired or at >= 0
        return found


def test_a_false_alarm_on_a_frequent_word_is_not_masked_again_in_later_texts(tmp_path, monkeypatch):
    """The word "uni" is no WordNet word but a frequent one: one false alarm on it was masked in 65 later comments."""
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([*build_recognizers(), FakeEmployerTagger()]))
    assert protector.protect("back at uni next week", "s").text == "back at <EMPLOYER_1> next week"
    later = "uni was fine, the exams at uni less so"
    assert protector.protect(later, "s").text == later


def test_a_frequent_word_is_common_only_in_an_employer_or_a_lowercase_persons_name():
    assert not specific("uni", "EMPLOYER") and not specific("Facebook", "EMPLOYER") and not specific("uni", "REAL_NAME")
    assert specific("Kim", "REAL_NAME") and specific("Singh", "REAL_NAME") and specific("Uni", "REAL_NAME")
    assert specific("long covid", "HEALTH") and specific("uni")  # a condition; no type: as strict as can be
    assert specific("Zurich", "ADDRESS")  # WordNet writes it capitalised only: a place, not a word
    # a frequent word of any other type is still specific: a password, a place, a username
    assert specific("minecraft", "PASSWORD") and specific("Chelsea", "LOCATION") and specific("pokemon", "USERNAME")


def test_a_password_that_is_a_frequent_word_is_masked_again_in_a_later_text(protector):
    assert "<PASSWORD_1>" in protector.protect("my password is minecraft", "s").text
    assert "minecraft" not in protector.protect("I logged into minecraft with it", "s").text


def test_specific_values_are_still_masked_in_later_texts_without_their_context(tmp_path, monkeypatch):
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protector.protect("my password is hunter2!, mail dana@mailbox.org, card 4716 2830 5914 4476", "s")
    later = protector.protect("so hunter2! and 4716 2830 5914 4476 and dana@mailbox.org again", "s")
    assert later.text == "so <PASSWORD_1> and <CREDIT_CARD_1> and <EMAIL_1> again"


def test_a_card_expiry_is_not_masked_again_as_the_card_in_a_later_text(tmp_path, monkeypatch):
    """Issue 48: "09/28", masked as the card beside it, was masked again in a later text wherever the date stood; the
    card's number still is."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    first = protector.protect("My card is 4716 2830 5914 4476 exp 09/28.", "s")
    assert first.text == "My card is <CREDIT_CARD_1> exp <CREDIT_CARD_2>."
    later = protector.protect("The release is planned for 09/28; the card was 4716283059144476.", "s")
    assert later.text == "The release is planned for 09/28; the card was <CREDIT_CARD_1>."
    assert not specific("09/28", "CREDIT_CARD") and not specific("09/2028", "CREDIT_CARD")
    assert specific("4716 2830 5914 4476", "CREDIT_CARD") and specific("09/28")


@pytest.mark.parametrize(
    "value",
    [
        "Priya Raghunathan",
        "Okafor",
        "John Smith",
        "New York",
        "Ozempic",
        "long covid",
        "anna@mailbox.org",
        "hunter2",
        "4716 2830 5914 4476",
        "12 Elm Street",
        "sk-9fQxA7bLm2Zt4",
    ],
)
def test_names_and_structured_values_are_specific(value):
    assert specific(value)


@pytest.mark.parametrize(
    "value",
    [
        "the",
        "The",
        "art",
        "way",
        "haha",
        "Yup",
        "ain",
        "nostalgia",
        "pressure",
        "perks",
        "paychecks",
        "hustled",
        "children",
        "the way",
        "late-night",
        "peace & quiet",
        "video games",
        "HIGH SCHOOL",
        "Jo",
        "$100",
        "2.5",
    ],
)
def test_words_of_the_language_short_values_and_bare_amounts_are_not(value):
    assert not specific(value)


@pytest.mark.timeout(20)
def test_a_long_value_that_is_not_all_words_is_judged_in_linear_time():
    """Words of a value were matched by a pattern that tried every split of a run of letters before it
    failed at a digit: a 40-letter word and a digit took 2^40 steps (a megabyte of ordinary messages through
    protect spent most of its time here). 20 s is generous for what takes microseconds now."""
    assert specific("x" * 40 + "1") and specific("Anna Berg " * 2_000 + "12")
    assert not specific("the " * 2_000)


def test_common_words_come_from_wordnet_lowercase_lemmas_with_their_inflections():
    assert common_word("john") and common_word("went") and common_word("stories")  # the toilet; verb.exc; -ies
    assert not common_word("zurich") and not common_word("raghunathan")  # written capitalised only, or not in WordNet


def test_the_command_writes_the_common_words_and_a_wrong_directory_writes_nothing(tmp_path):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    licence = "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"
    wordnet, out = tmp_path / "wordnet", tmp_path / "common_words.txt"
    wordnet.mkdir()
    files = {
        "data.noun": licence
        + "00000001 06 n 02 john 0 Zurich 0 000 | a toilet\n00000002 18 n 01 child 0 000 | a young person\n",
        "data.verb": licence + "00000003 38 v 01 go 0 000 | move\n",
        "data.adj": licence + "00000004 00 a 01 wee 0 000 | small\n",
        "data.adv": licence,
        "noun.exc": "children child\n",
        "verb.exc": "went go\n",
        "adj.exc": "weer\n",  # a form without its lemma
        "adv.exc": "",
    }
    for name, text in files.items():
        (wordnet / name).write_text(text, encoding="latin-1")
    result = CliRunner().invoke(app, ["tagger", "common-words", str(wordnet), "--out", str(out)])
    assert result.exit_code == 2 and "not a line of a WordNet exception list" in result.output and not out.exists()
    (wordnet / "adj.exc").write_text("weer wee\n", encoding="latin-1")
    result = CliRunner().invoke(app, ["tagger", "common-words", str(wordnet), "--out", str(out)])
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").split() == [
        "child",
        "children",
        "go",
        "john",
        "wee",
        "weer",
        "went",
    ]


def test_the_real_tagger_masks_a_real_name_again_where_it_alone_would_not(tmp_path, monkeypatch):
    """End to end with the shipped tagger: a name it found once is masked in a later text where the
    tagger does not find it ("the Priya Raghunathan thing"), while the words of the texts are not."""
    config = protect_config(tmp_path, monkeypatch)
    detector = Detector(build_recognizers(models=True))
    protector = Protector(config, open_vault(config), detector)
    first = protector.protect("I met my colleague Priya Raghunathan for lunch.", "s")
    assert first.text == "I met my colleague <REAL_NAME_1> for lunch."
    later = "the Priya Raghunathan thing went fine, and the rest of the week was quiet."
    assert detector.detect(later) == []  # the tagger alone leaves it
    assert (
        protector.protect(later, "s").text == "the <REAL_NAME_1> thing went fine, and the rest of the week was quiet."
    )


def test_a_name_masked_before_is_masked_again_where_the_words_would_make_it_a_place(tmp_path, monkeypatch):
    """End to end with the shipped tagger: after "My son Austin turned five.", "Austin" is masked again in every later
    text, where the words before make it a place too ("We moved to Austin"): a hostile model writes "Take the train to
    <REAL_NAME_1>." and the history sends the restored name back (security review rev20, finding 1)."""
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector(build_recognizers(models=True)))
    assert protector.protect("My son Austin turned five.", "s").text == "My son <REAL_NAME_1> turned five."
    for text in ("We moved to Austin last year", "It rained all week in Austin.", "Take the train to Austin."):
        assert protector.protect(text, "s").text == text.replace("Austin", "<REAL_NAME_1>")
    for person in ("Austin got sick again.", "I picked Austin up from school.", "the Austin thing went fine"):
        assert protector.protect(person, "s").text == person.replace("Austin", "<REAL_NAME_1>")


def test_the_command_writes_the_frequent_words_that_wordnet_does_not_hold(tmp_path):
    import gzip

    import msgpack
    from typer.testing import CliRunner

    from stealthflow.cli import app

    licence = "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"
    wordnet, wordfreq, out = tmp_path / "wordnet", tmp_path / "large_en.msgpack.gz", tmp_path / "frequent.txt"
    wordnet.mkdir()
    files = {"data.noun": licence + "00000001 06 n 02 john 0 Zurich 0 000 | a toilet\n"}
    for name in ("data.verb", "data.adj", "data.adv"):
        files[name] = licence
    for name, text in {**files, **{f"{part}.exc": "" for part in ("noun", "verb", "adj", "adv")}}.items():
        (wordnet / name).write_text(text, encoding="latin-1")
    # bucket i: frequency 10^(-i/100), Zipf 9 - i/100; Zipf 3 is bucket 600
    buckets = [[] for _ in range(700)]
    buckets[100] = ["the", "john", "zurich", "co2"]  # Zipf 8
    buckets[600] = ["uni"]  # Zipf 3, once per million words
    buckets[601] = ["rarer"]
    with gzip.open(wordfreq, "wb") as handle:
        msgpack.pack([{"format": "cB", "version": 1}, *buckets], handle)
    result = CliRunner().invoke(app, ["tagger", "frequent-words", str(wordfreq), str(wordnet), "--out", str(out)])
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").split() == ["the", "uni"]


# --- in later texts of the six other languages ---------------------------------------------------


class FixedGuesser:
    """FAKE language detector: every text is in language `code` only."""

    def __init__(self, code: str):
        self.code = code

    def guess(self, text: str) -> Guess:
        return Guess(self.code, frozenset({self.code}))


class FakeWordTagger(Recognizer):
    """FAKE model-backed recognizer: tags each of `words` as a name in the first text it sees them in, as the
    multilingual student tags a German sign-off or a city, and never again."""

    name, type, model_backed = "fake_word_tagger", "REAL_NAME", True

    def __init__(self, words: list[str]):
        self.words, self.fired = words, False

    def find_many(self, texts: list[str], settled=None, languages=None) -> list[list[Span]]:
        found = []
        for text in texts:
            spans = (
                []
                if self.fired
                else [self.span(m.start(), m.end(), 0.9) for w in self.words for m in re.finditer(w, text)]
            )
            found.append(spans)
            self.fired = self.fired or bool(spans)
        return found


def test_a_false_alarm_on_a_german_word_does_not_spread_through_a_german_session_and_a_real_name_does(
    tmp_path, monkeypatch
):
    config = protect_config(tmp_path, monkeypatch)
    tagger = FakeWordTagger(["Grüße", "Köln", "Schneider"])
    protector = Protector(config, open_vault(config), Detector([tagger], languages=FixedGuesser("de")))
    first = protector.protect("Viele Grüße aus Köln an Frau Schneider", "s")
    assert first.text == "Viele <REAL_NAME_1> aus <REAL_NAME_2> an Frau <REAL_NAME_3>"
    later = protector.protect("Grüße zurück aus Köln, und sag Schneider Bescheid", "s")
    assert later.text == "Grüße zurück aus Köln, und sag <REAL_NAME_3> Bescheid"


@pytest.mark.parametrize(
    ("value", "language"),
    [("Köln", "de"), ("Grüße", "de"), ("Très", "fr"), ("Mañana", "es"), ("Groetjes", "nl")],
)
def test_a_frequent_word_of_the_later_texts_language_is_common_there_and_only_there(value, language):
    assert not specific(value, "REAL_NAME", language)
    assert specific(value, "REAL_NAME")  # in an English text, as before: no English word
    assert specific(value, "HEALTH", language)  # the other types count English's common words alone, as in English


@pytest.mark.parametrize(("value", "language"), [("Schneider", "de"), ("Jonas", "de"), ("Jürgen", "de")])
def test_a_frequent_word_that_is_a_name_of_the_language_stays_specific(value, language):
    """One word each, a frequent word of the language: only its being a name keeps it specific."""
    assert frequent_in(value, language) and specific(value, "REAL_NAME", language)


@pytest.mark.parametrize(
    ("value", "language"),
    [("Wang", "de"), ("Mohammed", "pt"), ("Fátima", "pt"), ("Sofia", "it"), ("Bia", "pt")],
)
def test_a_frequent_word_that_is_a_name_of_any_faker_locale_stays_specific(value, language):
    """Names that are frequent words of the language but no names of its own Faker locales ("Wang" in German): the
    tagger's name lexicon (every locale's) keeps them specific."""
    assert specific(value, "REAL_NAME", language)


@pytest.mark.parametrize(
    ("value", "language"), [("Sie", "de"), ("dann", "de"), ("Elle", "fr"), ("Mia", "it"), ("Beste", "nl")]
)
def test_a_word_of_the_language_at_the_zipf_ceiling_is_common_even_when_some_faker_locale_names_it(value, language):
    """Names of some Faker locale ("Sie", "Elle" in `en`'s lists; "Beste" in tr_TR's) that are among the language's
    most frequent words (`COMMON_ZIPF`); "Beste" is so in Dutch (Zipf 5.7: "Beste Jan"), not in German (5.3)."""
    assert not specific(value, "REAL_NAME", language)
    assert specific(value, "REAL_NAME", "de" if language != "de" else "fr")  # below the ceiling elsewhere: a name


@pytest.mark.parametrize(("value", "language"), [("Mia", "it"), ("Paulo", "pt"), ("Elle", "fr")])
def test_a_name_at_the_zipf_ceiling_written_as_a_name_stays_specific(value, language):
    """Written as a name (capitalised inside a sentence), a name of the lexicon at the ceiling is not the common word;
    a word of the language at the ceiling that is no name stays common however it is written."""
    assert not specific(value, "REAL_NAME", language)
    assert specific(value, "REAL_NAME", language, as_name=True)
    assert not specific("Questo", "REAL_NAME", "it", as_name=True)


@pytest.mark.parametrize(
    ("word", "texts", "language", "spreads"),
    [
        # a false alarm on a word at the Zipf ceiling of the later text's language does not spread through a session
        ("Sie", ["Können Sie mir helfen?", "Danke, dass Sie so schnell geantwortet haben."], "de", False),
        ("Beste", ["Beste Jan, bedankt voor je bericht.", "Beste Marloes, tot morgen."], "nl", False),
        # ... nor one that opens a sentence ("Mia madre": my mother), where a capital tells nothing
        ("Mia", ["Ieri ho visto Mia al bar.", "Mia madre arriva domani alle nove."], "it", False),
        # a name tagged once is masked again where detection misses it, whatever the later text's language
        ("Wang", ["Meine Kollegin Frau Wang ist krank.", "Bitte sag Wang Bescheid."], "de", True),
        # ... and so is one at the Zipf ceiling written as a name: capitalised inside a sentence, not in German
        ("Paulo", ["Ontem falei com o Paulo sobre o contrato.", "O Paulo mora em Curitiba."], "pt", True),
        ("Mia", ["Ieri ho visto Mia al bar.", "Domani Mia e Donna vengono a cena."], "it", True),
        ("Sofia", ["La mia collega Sofia è malata.", "Ho visto Sofia ieri sera."], "it", True),
        (
            "Sofia",
            ["My colleague Sofia is sick today.", "Sofia is back, great."],
            "it",
            True,
        ),  # English guessed Italian
    ],
)
def test_a_value_tagged_once_is_masked_again_in_a_later_text_only_when_specific(
    tmp_path, monkeypatch, word, texts, language, spreads
):
    config = protect_config(tmp_path, monkeypatch)
    detector = Detector([FakeWordTagger([word])], languages=FixedGuesser(language))
    protector = Protector(config, open_vault(config), detector)
    first, later = (protector.protect(text, "s") for text in texts)
    assert word not in first.text
    assert later.text == (texts[1].replace(word, "<REAL_NAME_1>") if spreads else texts[1])


@pytest.mark.parametrize("value", ["Kuehn", "Baecker"])
def test_a_name_spelled_in_ascii_is_not_read_as_the_german_word_its_umlauts_would_make(value):
    """A value is judged as written: "Kuehn" is no "kühn", "Baecker" no "bäcker"."""
    assert specific(value, "REAL_NAME", "de")


# --- the words of a person's name, and values repeated in their own text (ux21 H2, M1) --------------------------------


def test_the_surname_of_a_person_masked_before_is_masked_again_alone_in_later_texts_and_in_the_same_one(
    tmp_path, monkeypatch
):
    """ux21 H2: "le Dr Alain Morel" masked, then "Est-ce que Morel peut ..." went out in clear ("Morel" is a WordNet
    word, a mushroom, so not specific alone; a family name written as a name is). Real recognizers and language guess;
    the part gets the person's placeholder (one person, one placeholder), which restores to the whole name."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    _masked_again(
        protector,
        (
            "Mon médecin, le Dr Alain Morel, suit mon dossier depuis des années.",
            "Mon médecin, le Dr <REAL_NAME_1>, suit",
        ),
        (
            "Merci ! Est-ce que Morel peut aussi écrire à la caisse ? Alain Morel est très occupé.",
            "Merci ! Est-ce que <REAL_NAME_1> peut aussi écrire à la caisse ? <REAL_NAME_1> est très occupé.",
        ),
        restored="Merci ! Est-ce que Alain Morel peut aussi écrire à la caisse ? Alain Morel est très occupé.",
    )
    city = protector.protect("Hablé con la Sra. Renata Lima ayer. ¿Alguien va a Lima mañana?", "c").text
    assert city == "Hablé con la Sra. <REAL_NAME_1> ayer. ¿Alguien va a Lima mañana?"  # a city's name: not alone
    one_text = "Le Dr Claire Vautrin m'a écrit hier. Est-ce que Vautrin peut signer la lettre de mon frère ?"
    assert protector.protect(one_text, "t").text == (
        "Le Dr <REAL_NAME_1> m'a écrit hier. Est-ce que <REAL_NAME_1> peut signer la lettre de mon frère ?"
    )


def test_a_known_surname_after_a_title_is_masked_again_in_a_users_text_even_when_a_common_word(tmp_path, monkeypatch):
    """ux22 H2: "Dietmar Kolbe" masked, then "an Herrn Kolbe" went out in clear ("Kolbe" is a German noun, so not
    specific alone; after a title it is the person). Real recognizers and language guess. In a text the model wrote the
    title does not count: there it would answer which of an upstream's guesses are a session's surnames."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    _masked_again(
        protector,
        ("Bitte leite das an Dr. Dietmar Kolbe weiter, er kennt den Vertrag.", "Bitte leite das an Dr. <REAL_NAME_1> "),
        (
            "Schreib bitte an Herrn Kolbe, dass die Tochter krank ist. Der Kolbe im Garten ist reif.",
            "Schreib bitte an Herrn <REAL_NAME_1>, dass die Tochter krank ist. Der Kolbe im Garten ist reif.",
        ),
        restored="Schreib bitte an Herrn Dietmar Kolbe, dass die Tochter krank ist. Der Kolbe im Garten ist reif.",
    )
    known, asked = KnownValues([("REAL_NAME", "Dietmar Kolbe")]), "Soll ich Herrn Kolbe schreiben?"
    assert [asked[s.start : s.end] for s in known.add_occurrences(asked, [], "de")] == ["Kolbe"]
    assert known.add_occurrences(asked, [], "de", every_value=True) == []  # the model's text: no answer to a guess


def test_the_words_of_a_false_alarm_on_a_name_do_not_spread_through_the_session(tmp_path, monkeypatch):
    """Item 4 of issue 48: a salutation tagged as a name once (FAKE tagger) is masked there only; its words, common in
    the text's language or not written as a name, stay in the later text."""
    config = protect_config(tmp_path, monkeypatch)
    detector = Detector([FakeWordTagger(["Sehr Geehrte"])], languages=FixedGuesser("de"))
    protector = Protector(config, open_vault(config), detector)
    assert (
        protector.protect("Sehr Geehrte Damen und Herren, danke.", "s").text == "<REAL_NAME_1> Damen und Herren, danke."
    )
    later = "Das war sehr nett. Geehrte Kollegen, Sehr gut gemacht."
    assert protector.protect(later, "s").text == later


def test_a_common_word_of_the_texts_language_taken_for_a_name_is_not_masked_through_the_text(tmp_path, monkeypatch):
    """ux21 M1: German formal "Sie", tagged once as a name (FAKE tagger here), was masked at every "Sie" of the text;
    a name the text repeats still is masked at every occurrence, however common in English ("Berg")."""
    config = protect_config(tmp_path, monkeypatch)
    detector = Detector([FakeWordTagger([r"(?<=rufen )Sie", r"\bBerg\b(?= hat)"])], languages=FixedGuesser("de"))
    protector = Protector(config, open_vault(config), detector)
    text = "Bitte rufen Sie mich an, oder schreiben Sie mir. Berg hat angerufen; sagen Sie Berg Bescheid."
    assert protector.protect(text, "s").text == (
        "Bitte rufen <REAL_NAME_1> mich an, oder schreiben Sie mir. <REAL_NAME_2> hat angerufen; sagen Sie "
        "<REAL_NAME_2> Bescheid."
    )


def test_the_command_leaves_the_formal_sie_alone_after_one_false_alarm(tmp_path, monkeypatch):
    """ux21 M1 with the report's command: the real CLI, its shipped tagger and language guess."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {tmp_path / 'v.sqlite'}\n  key_source: env\n")
    protect_config(tmp_path, monkeypatch)  # the key in the environment
    text = "Hallo, ich bin Kunde Nummer 7. Bitte rufen Sie mich unter 0176 1234567 an, oder schreiben Sie an mich."
    command = ["protect", "-", "-s", "hy2", "--rewrite", "none", "--tagger", "--config", str(yaml)]
    result = CliRunner().invoke(app, command, input=text)
    assert result.exit_code == 0, result.output
    assert "schreiben Sie an mich" in result.stdout and "<PHONE_1>" in result.stdout, result.stdout


def test_a_known_surname_after_a_title_in_lower_case_or_abbreviated_is_masked_again(tmp_path, monkeypatch):
    """ux22b H2: "Anna Berg" masked, then "dr. berg", "frau berg" and "Fr. Berg" went out in clear: the titles
    (`person_titles` of data/pii-tagger/lexicons.yaml) are read in any case and with their abbreviation's dot, the
    surname after them in any case; a title that is a given name too ("Sra") only with its dot. Real recognizers and
    language guess."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    for session, text in enumerate(
        (
            "Please write to dr. berg today.",
            "Write a letter from frau berg to the bank.",
            "Bitte schreib an Fr. Berg.",
            "Bitte schreib an Hr. Berg.",
            "Escribe a la Sra. Berg.",
            "Écris à Mme Berg et à M. Berg.",
            "Schrijf aan Dhr. Berg en Mevr. Berg.",
            "Scrivi alla Sig.ra Berg.",
        )
    ):
        first = protector.protect("Hi, I am Anna Berg (anna.berg@mailbox.org).", str(session))
        assert first.text == "Hi, I am <REAL_NAME_1> (<EMAIL_1>)."
        later = protector.protect(text, str(session))  # a session each
        assert "berg" not in later.text.casefold(), later.text
        # after a title that says a woman, Anna's placeholder (restored as first written), else one of its own
        assert protector.restore(later.text, str(session)).text == _FEMALE_BERG.sub(r"\1 Anna Berg", text)
    known = KnownValues([("REAL_NAME", "Anna Berg")])
    for text in ("the berg broke off", "ask don berg", "ask sra berg"):  # no title before it, or a name with no dot
        assert known.add_occurrences(text, [], "en") == [], text
    assert known.add_occurrences("ask dr. berg", [], "en", every_value=True) == []  # the model's text: no answer


_FEMALE_BERG = re.compile(r"(?i)\b(frau|fr\.|sra\.|mme|mevr\.|sig\.ra) berg\b")


def _masked_again(
    protector, first: tuple[str, str], later: tuple[str, str], session: str = "s", restored: str | None = None
) -> None:
    """Protect `first[0]` (its masked text starts with `first[1]`), then `later[0]`, masked exactly as `later[1]` and
    restored as `restored` (exactly as written when None), in one session."""
    assert protector.protect(first[0], session).text.startswith(first[1])
    assert protector.protect(later[0], session).text == later[1]
    assert protector.restore(later[1], session).text == (later[0] if restored is None else restored)


# --- a session's values in another case, and their own type (ux23 finding 1) ---------------------------------------


def test_a_known_value_is_masked_again_in_another_case_keeping_its_type(tmp_path, monkeypatch):
    """ux23 finding 1: after "My name is Marcus Okafor", "marcus okafor" alone went out in clear, "14 CRANE LANE" in
    capitals too, and "14 crane lane" the tagger read as a name got a REAL_NAME placeholder. Real recognizers and
    tagger; a placeholder restores to the value as the vault holds it (its first spelling), an address's first line to
    itself as written. One word alone in lowercase stays a word."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    first = "My name is Marcus Okafor. I live at 14 Crane Lane, Bristol BS1 4DJ."
    assert protector.protect(first, "s").text == "My name is <REAL_NAME_1>. I live at <ADDRESS_1>."
    for later, masked in [
        ("marcus okafor", "<REAL_NAME_1>"),
        ("new chat: MARCUS OKAFOR, 14 CRANE LANE", "new chat: <REAL_NAME_1>, <ADDRESS_2>"),
        ("still at 14 crane lane, bristol bs1 4dj", "still at <ADDRESS_1>"),
        ("a crane by the lane, marcus", "a crane by the lane, marcus"),
    ]:
        assert protector.protect(later, "s").text == masked
    restored = protector.restore("<REAL_NAME_1>, <ADDRESS_2>; <ADDRESS_1>", "s").text
    assert restored == "Marcus Okafor, 14 CRANE LANE; 14 Crane Lane, Bristol BS1 4DJ"


def test_a_known_value_takes_in_a_span_of_another_type_detection_found_inside_it():
    """ux23 finding 1: the tagger's REAL_NAME on "14 crane lane" (a FAKE detected span) gives way to the session's
    address, which covers it; a span reaching out of the known value stays as detection found it."""
    known, text = KnownValues([("ADDRESS", "14 Crane Lane, Bristol BS1 4DJ")]), "at 14 crane lane, bristol bs1 4dj"
    tagged = Span(3, 16, "REAL_NAME", Level.PL2, "fake")
    assert [(s.start, s.end, s.type) for s in known.add_occurrences(text, [tagged])] == [(3, len(text), "ADDRESS")]
    wider = Span(0, len(text), "LOCATION", Level.PL2, "fake")
    assert known.add_occurrences(text, [wider]) == [wider]


@pytest.mark.parametrize(
    "look_alike", ["M\u0430rcus Okafor", "M\u0410RCUS OKAFOR", "\u039carcus \u039fkafor"], ids=ascii
)
def test_a_known_name_spelt_with_look_alike_letters_is_masked_whole(protector, look_alike):
    """rev23b F5: after the session learned Marcus Okafor, "Mаrcus Okafor" with a Cyrillic а (or Greek capitals) gave
    "Mаrcus <REAL_NAME_2>": the given name went upstream. Look-alike letters are folded (data/confusable_letters.txt)
    where known values are looked for."""
    protector.protect("My name is Marcus Okafor and I live in Bristol.", "look-alikes")
    sent = protector.protect(f"hi {look_alike} there", "look-alikes").text
    assert look_alike.split()[0] not in sent and look_alike.split()[1] not in sent, sent


@pytest.mark.parametrize("name", ["Will", "Mark", "Grace", "May"])
def test_a_name_that_is_a_common_word_is_masked_again_where_it_opens_a_sentence(tmp_path, monkeypatch, name):
    """rev24b M2: not masking a known common-word name where it opened a sentence (to keep "Will the meeting start?"
    whole) left the writer's name in clear in "Will is 34"; a name is masked wherever it stands in its text (the real
    detector: recognizers and the shipped PII tagger)."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    try:
        protected = protector.protect(f"My name is {name}. {name} is 34 and works nights.", "names-1")
    finally:
        protector.close()
    assert name not in protected.text, protected.text


@pytest.mark.parametrize(
    ("names", "text", "masked", "restored"),
    [
        (  # rev27b: "Later Gary said" went out in clear ("Gary" is a city's name too: the full name says it is his)
            ["Gary Pemberton"],
            "Yesterday I met Gary Pemberton at the station. Later Gary said that he would call.",
            "Yesterday I met <REAL_NAME_1> at the station. Later <REAL_NAME_1> said that he would call.",
            "Yesterday I met Gary Pemberton at the station. Later Gary Pemberton said that he would call.",
        ),
        (  # ux26 H3: meeting notes, the given name opening a line
            ["Jorge Alvarez", "Rebecca Stone"],
            "Attendees: Jorge Alvarez, Rebecca Stone.\n- [ ] Jorge is out next week (knee surgery), Rebecca covers.",
            "Attendees: <REAL_NAME_1>, <REAL_NAME_2>.\n- [ ] <REAL_NAME_1> is out next week (knee surgery), "
            "<REAL_NAME_2> covers.",
            "Attendees: Jorge Alvarez, Rebecca Stone.\n- [ ] Jorge Alvarez is out next week (knee surgery), "
            "Rebecca Stone covers.",
        ),
        (  # ux26 H3: Italian notes
            ["Stefano Ricci", "Giulia Conti"],
            "Presenti: Stefano Ricci, Giulia Conti.\nGiulia è in maternità da lunedì, la sostituisce Stefano.",
            "Presenti: <REAL_NAME_1>, <REAL_NAME_2>.\n<REAL_NAME_2> è in maternità da lunedì, la sostituisce "
            "<REAL_NAME_1>.",
            "Presenti: Stefano Ricci, Giulia Conti.\nGiulia Conti è in maternità da lunedì, la sostituisce "
            "Stefano Ricci.",
        ),
    ],
)
def test_the_given_name_of_a_masked_full_name_is_masked_alone_in_the_same_text(
    tmp_path, monkeypatch, names, text, masked, restored
):
    """Issue 48: a given name alone, after its full name was masked in the text. The full names are tagged by a FAKE
    tagger (the shipped tagger may or may not find them: this is about re-masking), with the real recognizers and
    language guess. The part gets the person's placeholder (`pipeline/people.py`), which restores to the whole name."""
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([*build_recognizers(), FakeWordTagger(names)]))
    protected = protector.protect(text, "s")
    assert protected.text == masked
    assert protector.restore(protected.text, "s").text == restored


def test_a_masked_given_name_is_masked_alone_with_the_shipped_tagger(tmp_path, monkeypatch):
    """The real thing (the shipped tagger, which left both given names in clear): rev27b's text; ux26 H3's notes, whose
    given name alone, in its own text and a later one, gets the person's placeholder, restored as the whole name."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer

    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([*build_recognizers(), PiiTaggerRecognizer()]))
    text = "Yesterday I met Gary Pemberton at the station. Later Gary said that Pemberton is a rare name."
    protected = protector.protect(text, "rev27b")
    assert protected.text == (
        "Yesterday I met <REAL_NAME_1> at the station. Later <REAL_NAME_1> said that <REAL_NAME_1> is a rare name."
    )
    assert protector.restore(protected.text, "rev27b").text == text.replace(
        "Later Gary said that Pemberton", ("Later Gary Pemberton said that Gary Pemberton")
    )
    _masked_again(
        protector,
        (
            "Attendees: Jorge Alvarez, Rebecca Stone.\n- [ ] Jorge is out next week (knee surgery), Rebecca covers.",
            "Attendees: <REAL_NAME_1>, <REAL_NAME_2>.\n- [ ] <REAL_NAME_1> is out next week",
        ),
        ("Jorge is out next week.", "<REAL_NAME_1> is out next week."),
        session="ux26",
        restored="Jorge Alvarez is out next week.",
    )


def test_the_parts_of_a_false_alarm_on_a_two_word_name_of_common_words_do_not_spread(tmp_path, monkeypatch):
    """Issue 48 item 4: "Grace Hill" (common words, "Grace" a given name) tagged once as a name by a FAKE tagger is
    masked there only: neither word is masked alone in the same text or a later one; the given name not even written
    as a name inside a sentence (a family name of the name lexicon is, there: `common_words.specific_part`)."""
    config = protect_config(tmp_path, monkeypatch)
    detector = Detector([FakeWordTagger(["Grace Hill"])], languages=FixedGuesser("en"))
    protector = Protector(config, open_vault(config), detector)
    text = "We walked up Grace Hill today. Grace is what it took. Hill walks are hard, said Grace."
    assert protector.protect(text, "s").text == (
        "We walked up <REAL_NAME_1> today. Grace is what it took. Hill walks are hard, said Grace."
    )
    later = "Grace under pressure. Hill walks again, then Grace."
    assert protector.protect(later, "s").text == later
