"""One person, one placeholder (pipeline/people.py, pipeline/protector.py `_linked`): a name's part met alone in a
session that holds the person's name ("Ngozi", "Frau Nowak" of "Ngozi Adeyemi", "Katarzyna Nowak") gets the person's
placeholder, which restores to the whole name; never another person's, never across sessions."""

from __future__ import annotations

import re

import httpx
from placeholder_fixtures import protect_config
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.pipeline.people import FAMILY, GIVEN, People
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.language import Guess
from stealthflow.placeholders.recognizers import Recognizer, build_recognizers
from stealthflow.placeholders.types import Span
from stealthflow.proxy.app import SESSION_HEADER, create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.testing.loopback import serve

runner = CliRunner()
TOKEN = "link-test-token"


class FakeNames(Recognizer):
    """FAKE model-backed recognizer: tags every occurrence of each of `names` as a person's name, in every text."""

    name, type, model_backed = "fake_names", "REAL_NAME", True

    def __init__(self, names: list[str], texts: int | None = None):
        self.pattern = re.compile("|".join(rf"\b{re.escape(name)}\b" for name in sorted(names, key=len, reverse=True)))
        self.texts = texts  # how many texts it reads before it finds nothing more (None: no end)

    def find_many(self, texts: list[str], settled=None, languages=None) -> list[list[Span]]:
        found = []
        for text in texts:
            silent = self.texts is not None and self.texts <= 0
            found.append([] if silent else [self.span(m.start(), m.end(), 0.9) for m in self.pattern.finditer(text)])
            self.texts = None if self.texts is None else self.texts - 1
        return found


class English:
    """FAKE language guesser: every text is English."""

    def guess(self, text: str) -> Guess:
        return Guess("en", frozenset({"en"}))


def _protector(tmp_path, monkeypatch, names: list[str]) -> Protector:
    config = protect_config(tmp_path, monkeypatch)
    return Protector(config, open_vault(config), Detector([*build_recognizers(), FakeNames(names)]))


def test_people_link_a_part_to_one_person_only():
    people = People(["Ngozi Adeyemi", "Anna Berg", "Anna Schmidt", "Chen"])  # a name of one word is no person's
    assert people.person("ngozi") == ("Ngozi Adeyemi", GIVEN)
    assert people.person("Adeyemi") == ("Ngozi Adeyemi", FAMILY)
    assert people.person("Anna") is None  # two persons: no link
    assert people.person("Berg") == ("Anna Berg", FAMILY)
    assert people.person("Berg", People(["Peter Berg"])) is None  # another person of the text
    assert People(["Lin Chen"]).person("Chen", people) == ("Lin Chen", FAMILY)
    assert people.person("Morel") is None


def test_a_part_of_a_held_name_gets_the_persons_placeholder_in_later_texts_and_the_same_one(tmp_path, monkeypatch):
    """The new user's finding, with a FAKE tagger that finds every name (the real one: the CLI and proxy tests)."""
    protector = _protector(tmp_path, monkeypatch, ["Ngozi Adeyemi", "Ngozi", "Adeyemi"])
    assert protector.protect("Ngozi Adeyemi will join the call.", "s").text == "<REAL_NAME_1> will join the call."
    later = protector.protect("Ngozi said she is late. Ask Ms Adeyemi.", "s")
    assert later.text == "<REAL_NAME_1> said she is late. Ask Ms <REAL_NAME_1>."
    assert protector.restore("Tell <REAL_NAME_1> hello.", "s").text == "Tell Ngozi Adeyemi hello."
    alone = protector.protect("Ngozi said she is late.", "t")  # another session: none of s's values
    assert alone.text == "<REAL_NAME_1> said she is late."
    assert protector.restore(alone.text, "t").text == "Ngozi said she is late."


def test_a_linked_part_is_found_again_in_a_later_text_where_detection_misses_it(tmp_path, monkeypatch):
    """A part met alone is a value of the session too: the FAKE tagger finds names in two texts only, then nothing;
    "Ngozi" of the third text is masked as a known value, with the person's placeholder."""
    config = protect_config(tmp_path, monkeypatch)
    detector = Detector([*build_recognizers(), FakeNames(["Ngozi Adeyemi", "Ngozi"], texts=2)])
    protector = Protector(config, open_vault(config), detector)
    assert protector.protect("Ngozi Adeyemi will join the call.", "s").text == "<REAL_NAME_1> will join the call."
    assert protector.protect("Ngozi said she is late.", "s").text == "<REAL_NAME_1> said she is late."
    later = protector.protect("Later, Ngozi called back.", "s")
    assert later.text == "Later, <REAL_NAME_1> called back." and later.spans[0].source == "known value"


def test_a_part_of_two_held_names_or_beside_another_name_gets_a_placeholder_of_its_own(tmp_path, monkeypatch):
    """Ambiguity is never a wrong link: "Anna" of two Annas, "Diop" of "Ousmane Diop" (detection found "Diop" alone)
    when "Mamadou Diop" is held, "Hollis" of "Hollis, Amara" when "Teddy Hollis" is."""
    names = ["Anna Berg", "Anna Schmidt", "Anna", "Mamadou Diop", "Diop", "Teddy Hollis", "Hollis", "Amara"]
    protector = _protector(tmp_path, monkeypatch, names)
    first = protector.protect("Anna Berg and Anna Schmidt came; Mamadou Diop and Teddy Hollis too.", "s")
    assert first.text == "<REAL_NAME_1> and <REAL_NAME_2> came; <REAL_NAME_3> and <REAL_NAME_4> too."
    later = protector.protect("Anna said hi. Ousmane Diop signed. Sure: Hollis, Amara. Frau Schmidt wrote.", "s")
    assert later.text == (
        "<REAL_NAME_5> said hi. Ousmane <REAL_NAME_6> signed. Sure: <REAL_NAME_7>, <REAL_NAME_8>. "
        "Frau <REAL_NAME_2> wrote."
    )


def test_a_title_or_an_initial_that_may_name_someone_else_keeps_a_placeholder_of_its_own(tmp_path, monkeypatch):
    """A surname after a title links only where the title says the given name's gender (data/pii-tagger/lexicons.yaml
    `title_genders`, data/languages/given-names-<gender>.txt), and in the text that names the person in full only where
    a title opens the full name too; after an initial, only the given name's. FAKE tagger, real recognizers."""
    protector = _protector(tmp_path, monkeypatch, ["Katarzyna Nowak", "Derek Whitfield", "Whitfield", "Nowak"])
    assert protector.protect("Katarzyna Nowak and Derek Whitfield signed.", "s").text == (
        "<REAL_NAME_1> and <REAL_NAME_2> signed."
    )
    later = protector.protect("Frau Nowak, Herr Nowak, Dr. Nowak; D. Whitfield and P. Whitfield.", "s")
    assert later.text == (
        "Frau <REAL_NAME_1>, Herr <REAL_NAME_3>, Dr. <REAL_NAME_3>; D. <REAL_NAME_2> and P. <REAL_NAME_4>."
    )
    one_text = "Katarzyna Nowak is my daughter. Dear Mrs Nowak, she is ill."  # untitled in full: maybe her mother
    assert protector.protect(one_text, "t").text == "<REAL_NAME_1> is my daughter. Dear Mrs <REAL_NAME_2>, she is ill."
    letter = "Frau Katarzyna Nowak\nHauptstraße 1\n\nSehr geehrte Frau Nowak, anbei die Unterlagen."
    assert protector.protect(letter, "u").text.count("<REAL_NAME_1>") == 2


def test_a_common_word_never_takes_a_persons_placeholder(tmp_path, monkeypatch):
    """Issue 48 item 4: "Will" of "Will Turner", tagged by a FAKE tagger as a name in a later text, is a common word:
    it keeps a placeholder of its own (a false alarm must not restore as a person), and "Turner" alone, a common word,
    written at a sentence's start, is not masked again."""
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(
        config, open_vault(config), Detector([FakeNames(["Will Turner", "Will"])], languages=English())
    )
    assert protector.protect("Will Turner called.", "s").text == "<REAL_NAME_1> called."
    assert (
        protector.protect("Will it rain? Turner lathes spin.", "s").text == "<REAL_NAME_2> it rain? Turner lathes spin."
    )


def test_the_cli_gives_a_part_the_persons_placeholder_and_restores_the_whole_name(tmp_path, monkeypatch):
    """The real thing: the CLI with the shipped detection (the PII tagger on), one session, then another."""
    from stealthflow.placeholders.keys import new_secret

    for name, sub in (("HOME", ""), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(name, str(tmp_path / sub))
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", new_secret())
    monkeypatch.setenv("STEALTHFLOW_TAGGER", "1")  # as users run it (the tests' default is off)
    monkeypatch.chdir(tmp_path)

    def protect(text: str, session: str) -> str:
        done = runner.invoke(app, ["protect", text, "-s", session, "--rewrite", "none"])
        assert done.exit_code == 0, done.output
        return done.stdout.strip()

    assert protect("Ngozi Adeyemi will join the call.", "s") == "<REAL_NAME_1> will join the call."
    assert protect("Ngozi said she is late.", "s") == "<REAL_NAME_1> said she is late."
    # "Ngozi" is a value of the session too (REAL_NAME_2, never shown), found again in later texts
    assert protect("Annegret Schwarzkopf-Öztürk ist meine Nachbarin.", "s") == "<REAL_NAME_3> ist meine Nachbarin."
    assert protect("Frau Schwarzkopf-Öztürk hat angerufen.", "s") == "Frau <REAL_NAME_3> hat angerufen."
    restored = runner.invoke(app, ["restore", "Sag <REAL_NAME_1>: <REAL_NAME_3> rief an.", "-s", "s"])
    assert restored.stdout.strip() == "Sag Ngozi Adeyemi: Annegret Schwarzkopf-Öztürk rief an.", restored.output
    assert protect("Ngozi said she is late.", "t") == "<REAL_NAME_1> said she is late."  # no link across sessions
    back = runner.invoke(app, ["restore", "<REAL_NAME_1> is late.", "-s", "t"])
    assert back.stdout.strip() == "Ngozi is late.", back.output


def test_the_proxy_gives_the_system_messages_person_and_the_users_title_and_surname_one_placeholder(
    tmp_path, monkeypatch, upstream
):
    """The real proxy (shipped tagger) and a real HTTP client, a FAKE upstream that echoes the last user message: the
    system message's "Katarzyna Nowak" and the user's "Frau Nowak" go out as one person; the reply restores the whole
    name; another session's label holds none of it."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer

    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([*build_recognizers(), PiiTaggerRecognizer()]))
    proxy_config = ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK")
    messages = [
        {"role": "system", "content": "Katarzyna Nowak (pregnant, 30 weeks) asks about flights."},
        {"role": "user", "content": "Kann Frau Nowak noch fliegen?"},
    ]
    with serve(create_proxy_app(protector, proxy_config, TOKEN)) as port:
        url, headers = f"http://127.0.0.1:{port}/v1/chat/completions", {"Authorization": f"Bearer {TOKEN}"}
        reply = httpx.post(url, json={"model": "m", "messages": messages}, headers=headers, timeout=60)
        assert reply.status_code == 200, reply.text
        sent = [m["content"] for m in upstream.received[-1]["messages"]]
        assert sent == [
            "<REAL_NAME_1> (pregnant, 30 weeks) asks about flights.",
            "Kann Frau <REAL_NAME_1> noch fliegen?",
        ]
        assert reply.json()["choices"][0]["message"]["content"] == "Kann Frau Katarzyna Nowak noch fliegen?"
        other = httpx.post(
            url,
            json={"model": "m", "messages": [messages[1]]},
            headers={**headers, SESSION_HEADER: "other-chat"},
            timeout=60,
        )
        assert upstream.received[-1]["messages"][0]["content"] == "Kann Frau <REAL_NAME_1> noch fliegen?"
        assert other.json()["choices"][0]["message"]["content"] == "Kann Frau Nowak noch fliegen?"
    protector.close()


def test_the_given_names_of_one_gender_are_fakers_as_shipped_and_say_a_persons_gender():
    from stealthflow.pii_tagger.names import one_gender_given_names
    from stealthflow.pipeline.people import gender
    from stealthflow.resources import data_words

    for kind in ("female", "male"):  # the shipped lists are the builder's, unedited
        assert one_gender_given_names(kind) == sorted(data_words(f"languages/given-names-{kind}.txt"))
    assert [gender(name) for name in ("Katarzyna Nowak", "Anne-Sophie Girard", "Dietmar Kolbe")] == [
        "female",
        "female",
        "male",
    ]
    assert gender("Andrea Rossi") is None and gender("Jean-Marie Le Pen") is None  # both genders, or one word of each
