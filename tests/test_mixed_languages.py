"""A text in more than one language (issue 48 item 3, security review finding F1): each sentence is read in its own
language, so a few words of another script or language never turn detection off for the rest of the text; sentences in
no covered language get the structured recognizers only, are counted in a warning (never quoted) and, with
`protect.refuse_uncovered`, are refused by the proxy and the service (422, nothing sent)."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient
from placeholder_fixtures import protect_config

from stealthflow.config import Settings
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.language import Piece, UncoveredText, read, shared_guesser
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.proxy.app import create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.service import create_app
from stealthflow.testing.loopback import serve
from stealthflow.testing.mock_openai import MockOpenAI

TOKEN = "mixed-test-token"
# F1's message and its values; each tail below was added to it.
MINE = "I'm Margaret Okafor, I was diagnosed with schizophrenia; my GP is at 14 Elm Street, Leeds. I work at Siemens."
VALUES = ("Margaret Okafor", "schizophrenia", "14 Elm Street", "Siemens")
GERMAN = (
    "Der folgende Bericht beschreibt die Entwicklung der Mietpreise in der Stadt und die Massnahmen, "
    "die der Rat dafür beschlossen hat. "
) * 4
UNCOVERED_TAILS = {
    "chinese": " 谢谢",
    "russian": " Спасибо!",
    "micrograms": " My dose is 50 μg, then 75 μg.",
}
COVERED_TAILS = {"none": "", "german paragraph": "\n\n" + GERMAN}


def _protector(tmp_path, monkeypatch, detector: Detector | None = None, **config) -> Protector:
    settings = protect_config(tmp_path, monkeypatch, **config)
    return Protector(settings, open_vault(settings), detector or Detector())


@pytest.mark.parametrize("tail", UNCOVERED_TAILS.values(), ids=UNCOVERED_TAILS.keys())
def test_a_few_words_in_another_script_leave_the_rest_of_the_text_protected(tmp_path, monkeypatch, tail):
    protector = _protector(tmp_path, monkeypatch)
    protected = protector.protect(MINE + tail, "s")
    assert [value for value in VALUES if value in protected.text] == []
    assert protected.language == "en" and protected.unread == len(tail) - 1  # the tail's sentence, not its space
    assert protected.warnings == [
        f"1 sentence ({len(tail) - 1} characters) in a language that is none of en, de, fr, es, it, nl, pt: only "
        "structured identifiers (emails, phone numbers, IBANs, ID numbers, cards, URLs, secrets) were looked for "
        "there, not names, addresses, employers or health details"
    ]
    protector.close()


@pytest.mark.parametrize("tail", COVERED_TAILS.values(), ids=COVERED_TAILS.keys())
def test_english_sentences_before_a_german_paragraph_are_read_as_english(tmp_path, monkeypatch, tail):
    protector = _protector(tmp_path, monkeypatch)
    protected = protector.protect(MINE + tail, "s")
    assert [value for value in VALUES if value in protected.text] == []
    assert protected.unread == 0 and protected.warnings == []
    assert protected.text.endswith(tail)  # the German paragraph holds no personal data: untouched
    protector.close()


def test_the_tagger_reads_the_english_sentences_with_the_english_student_and_the_german_with_the_multilingual(
    tmp_path, monkeypatch
):
    """The real thing: the shipped students, routed per piece (no fake). "diabetes" is the English condition
    recognizer's too (condition_en), whose span wins the merge."""
    english = "My friend Tomasz lives in Leeds and has diabetes. He works at Tesco."
    german = "Mein Kollege Lukas Brandt hat seit Jahren Multiple Sklerose. Er arbeitet jetzt bei der Allianz in Köln."
    protector = _protector(tmp_path, monkeypatch, Detector(build_recognizers(models=True)))
    text = english + "\n\n" + GERMAN + german
    protected = protector.protect(text, "s")
    tagged = {text[span.start : span.end]: span.reason for span in protected.spans if span.source == "pii_tagger"}
    assert tagged["Tesco"].endswith("tagged by pii-tagger-student")
    # the German piece goes to the multilingual student ("Allianz" after "arbeitet ... bei der" is the employer
    # recognizer's too, whose span may win the merge)
    assert any(value in german and reason.endswith("multilingual") for value, reason in tagged.items()), tagged
    assert [
        value
        for value in ("diabetes", "Tesco", "Lukas Brandt", "Multiple Sklerose", "Allianz")
        if value in protected.text
    ] == []
    protector.close()


def test_a_text_in_one_language_is_read_as_a_whole_as_before():
    """One piece, with the languages the whole text was guessed in at once: the recognizers and the tagger read it as
    they did before sentences were told apart, short sentences without a function word included."""
    guesser = shared_guesser()
    texts = [
        MINE + " Thanks! Dr. Huber.\nMargaret Okafor\n07700 900123",
        "Hallo, ich bin Jürgen Weißmann und wohne in der Schillerstraße 12, 80336 München. Danke! Jürgen Weißmann",
        "Bonjour, je m'appelle Sébastien Durand. J'habite 14 rue de la Paix à Lyon. Merci.\nSébastien Durand",
        "Hola, soy María José Fernández. Trabajo en Telefónica y vivo en Calle Mayor 5, Madrid. Tengo diabetes.",
        "Ciao, sono Giulia Rossi e abito in Via Roma 12 a Milano. Lavoro presso Fiat. Grazie mille!",
        "Hoi, ik ben Sanne de Vries en ik woon aan de Prinsengracht 263 in Amsterdam. Ik werk bij Philips.",
        "Olá, sou o João Silva e moro na Rua Augusta 100, em Lisboa. Trabalho na Galp. Obrigado!",
        "谢谢你的帮助。我住在北京。",
    ]
    for text in texts:
        reading = read(text, guesser)
        whole = guesser.guess(text)
        assert reading.guess == whole and reading.pieces == (Piece(0, len(text), whole, reading.pieces[0].sentences),)


def test_the_warning_counts_what_was_not_read_and_never_quotes_it():
    reading = read(MINE + " Спасибо! 谢谢你! Danke.", shared_guesser())
    assert [(piece.guess.language, piece.sentences) for piece in reading.pieces] == [("en", 2), (None, 2), ("en", 1)]
    assert reading.unread == (2, len("Спасибо! 谢谢你! "))


def test_refused_when_asked_nothing_is_masked_and_the_error_quotes_nothing(tmp_path, monkeypatch):
    protector = _protector(tmp_path, monkeypatch, refuse_uncovered=True)
    assert protector.protect(MINE + "\n\n" + GERMAN, "s").unread == 0  # covered languages only: protected
    with pytest.raises(UncoveredText) as refused:
        protector.protect_many([MINE, MINE + " 谢谢"], "s")
    assert str(refused.value).startswith("1 text holds 2 characters in a language the recognizers do not cover")
    assert "谢" not in str(refused.value) and "Okafor" not in str(refused.value)
    protector.close()


def _chat(url: str, text: str) -> httpx.Response:
    return httpx.post(
        f"{url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {TOKEN}"},
        json={"model": "x", "messages": [{"role": "user", "content": text}]},
        timeout=60,
    )


@pytest.mark.parametrize("refuse", [False, True], ids=["forwarded", "refused"])
def test_the_proxy_forwards_protected_with_a_warning_or_refuses(tmp_path, monkeypatch, refuse):
    protector = _protector(tmp_path, monkeypatch, refuse_uncovered=refuse)
    with MockOpenAI() as upstream:
        config = ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY")
        with serve(create_proxy_app(protector, config, TOKEN)) as port:
            answer = _chat(f"http://127.0.0.1:{port}", MINE + " 谢谢")
    if refuse:
        assert answer.status_code == 422 and upstream.received == []
        assert "do not cover" in answer.json()["error"]["message"] and "谢" not in answer.text
    else:
        assert answer.status_code == 200 and "1 sentence (2 characters)" in answer.headers["x-stealthflow-warnings"]
        sent = upstream.received[-1]["messages"][0]["content"]
        assert [value for value in VALUES if value in sent] == [] and sent.endswith(" 谢谢")
    protector.close()


# rev21 finding 3: an English sentence holding a name in letters of an uncovered language, and its values
FOREIGN_NAMES = ("Łukasz Wiśniewski", "Şebnem Yıldırım", "Nguyễn Thị Hương", "Jiří Dvořák")
NAMED = "Hi, I'm {}, I was diagnosed with type 1 diabetes last month and I live at 14 Elm Street, Leeds LS6 2QT."
# Sentences written for these tests in languages none of the recognizers covers: their own words hold the letters
GENUINELY_FOREIGN = (
    "Dzień dobry, nazywam się Anna Nowak i mieszkam w Krakowie od pięciu lat.",
    "Děkuji, že jste mi pomohli s přihláškou, těším se na další týden.",
    "Yarın doktora gideceğim, başım ağrıyor ve ateşim yükseldi.",
    "Xin chào, tôi tên là Hương và tôi sống ở Hà Nội.",
    "Меня зовут Алексей, я живу в Москве.",
    "我叫王小明，我住在北京。",
    "Dziękuję bardzo, że pan się odezwał!",
)


@pytest.mark.parametrize("name", FOREIGN_NAMES)
def test_a_name_in_letters_of_another_language_leaves_its_sentence_read_and_masked(tmp_path, monkeypatch, name):
    """The proxy as rev21's reproducer drove it (the shipped tagger, the echoing upstream): the name, the diagnosis and the address leave
    as placeholders, with no warning; on letters alone the sentence was "no covered language" and went raw."""
    protector = Protector.from_settings(Settings(protect=protect_config(tmp_path, monkeypatch, tagger=True)))
    with MockOpenAI() as upstream:
        config = ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY")
        with serve(create_proxy_app(protector, config, TOKEN)) as port:
            answer = _chat(f"http://127.0.0.1:{port}", NAMED.format(name))
    sent = upstream.received[-1]["messages"][0]["content"]
    assert answer.status_code == 200 and "x-stealthflow-warnings" not in answer.headers
    assert [value for value in (name, "type 1 diabetes", "14 Elm Street") if value in sent] == []
    protector.close()


@pytest.mark.parametrize(
    "text",
    [
        "My name is Łukasz Wiśniewski.",
        "Meine Frau Kateřina Nováková arbeitet bei Siemens.",
        "Bonjour, je m'appelle Şebnem Yıldırım et j'habite à Lyon.",
        "My wife 王小明 says my order is late.",
        "My name is Алексей Смирнов, I need help with my order.",
        "Hi, I'm Łukasz Wiśniewski. I was diagnosed with asthma last year.",  # no covered function word: as its text
        MINE + " Cc: Ayşe Yılmaz",
    ],
)
def test_names_in_other_letters_leave_a_sentence_in_the_language_of_its_words(text):
    assert read(text, shared_guesser()).unread == (0, 0)


@pytest.mark.parametrize("sentence", GENUINELY_FOREIGN)
def test_a_sentence_in_its_own_uncovered_language_is_still_read_by_the_structured_recognizers_only(sentence):
    reading = read(MINE + " " + sentence, shared_guesser())
    assert reading.unread == (1, len(sentence)) and reading.guess.language == "en"


def test_the_service_refuses_with_422_when_asked(tmp_path, monkeypatch):
    protector = _protector(tmp_path, monkeypatch, refuse_uncovered=True)
    with TestClient(
        create_app(protector, TOKEN), base_url="http://127.0.0.1:8765", headers={"Authorization": f"Bearer {TOKEN}"}
    ) as client:
        answer = client.post("/protect", json={"text": MINE + " Спасибо!", "session": "s"})
        assert answer.status_code == 422 and "do not cover" in answer.text and "Okafor" not in answer.text
        assert client.post("/protect", json={"text": MINE, "session": "s"}).status_code == 200
    protector.close()


def test_the_command_line_refuses_when_the_config_asks_and_prints_nothing_of_the_text(tmp_path, monkeypatch):
    from placeholder_fixtures import key_file_config
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = key_file_config(tmp_path, monkeypatch, "  tagger: false\n  refuse_uncovered: true\n")
    args = ["protect", MINE + " 谢谢", "--rewrite", "none", "--session", "s", "--config", str(config)]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 2 and "do not cover" in " ".join(refused.stderr.split())
    assert "Okafor" not in refused.stdout + refused.stderr
    protected = CliRunner().invoke(app, args[:1] + [MINE] + args[2:])
    assert protected.exit_code == 0 and "Okafor" not in protected.stdout


# rev22 F3: one lowercase word of another script (a homoglyph "(ок)", a thank-you) after a sentence in English
ASIDES = {
    "cyrillic ok": " (ок)",
    "greek": " ευχαριστώ",
    "japanese": " ありがとう",
    "chinese": " 谢谢你们大家",
    "russian": " спс",
}
NEIGHBOUR = "Please forward this to my neighbour Valerie Dent, who lives at 14 Harcourt Road and works at Allianz"


@pytest.mark.parametrize("aside", ASIDES.values(), ids=ASIDES.keys())
def test_a_word_of_another_script_in_an_english_sentence_leaves_it_read_in_english(aside):
    reading = read(NEIGHBOUR + aside, shared_guesser())
    assert reading.unread == (0, 0) and reading.guess.language == "en"


def test_a_sentence_mostly_in_another_script_or_in_latin_letters_of_another_language_stays_unread():
    for sentence in (
        "Я отправил письмо to the manager Valerie Dent вчера",
        "Dziękuję, że pan mi pomógł z tym, a ja się odezwę do pana na pewno.",
    ):
        assert read(sentence, shared_guesser()).unread == (1, len(sentence))


def test_the_proxy_masks_the_names_of_a_sentence_with_a_homoglyph_word(tmp_path, monkeypatch):
    """The real thing (the shipped tagger, the proxy in front of the mock upstream): rev22's reproducer sent this
    sentence upstream unchanged, with a warning header."""
    protector = Protector.from_settings(Settings(protect=protect_config(tmp_path, monkeypatch, tagger=True)))
    with MockOpenAI() as upstream:
        config = ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY")
        with serve(create_proxy_app(protector, config, TOKEN)) as port:
            answer = _chat(f"http://127.0.0.1:{port}", NEIGHBOUR + ASIDES["cyrillic ok"])
    sent = upstream.received[-1]["messages"][0]["content"]
    assert answer.status_code == 200 and "x-stealthflow-warnings" not in answer.headers
    assert [value for value in ("Valerie Dent", "14 Harcourt Road") if value in sent] == []
    protector.close()
