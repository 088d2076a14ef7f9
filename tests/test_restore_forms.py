"""Which written forms of a placeholder restore (ux20 M1, M7): a secret, card, IBAN, passport or ID number only from
its bracketed placeholder standing apart in prose, quotation marks of any of the seven languages around it included;
never from a bare word (`API_KEY_1`, the form a code variable takes) nor in code (`key = "<API_KEY_1>"`); any other
value from a bare word only in prose. The notice says the real reason. A real SQLite vault, the deterministic
recognizers; the CLI through typer's runner, the proxy under uvicorn with a real HTTP client in front of a FAKE model.
"""

from __future__ import annotations

import pytest
from test_security_scope import chat, proxy_for
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.placeholders.scope import cli_switch, withheld_notice
from stealthflow.testing.mock_openai import Reply

IBAN, KEY, NAME = "DE44 3704 0044 0532 9130 00", "sk-proj-4f9Xq2LmN8vR7tY3uW1zA6bC5dE0gH", "Anna Berg"
TEXT = f"Hi, my name is {NAME}. IBAN {IBAN}, key {KEY}"
QUOTED = [
    "Ihre IBAN lautet \u201e<IBAN_1>\u201c.",
    'Su IBAN es "<IBAN_1>".',
    "IBAN '<IBAN_1>' ok",
    'Your key "<API_KEY_1>" was leaked.',
    "B: \u00ab<IBAN_1>\u00bb. C: \u00bb<IBAN_1>\u00ab, \u2039<IBAN_1>\u203a",
    "Votre IBAN est \u00ab <IBAN_1> \u00bb.",
    "(\u201c<API_KEY_1>\u201d)",
]
# Glued to other text or in code: stays, "in code or glued to other text", never "a link or markup".
GLUED = ["A: <IBAN_1>s Konto.", 'api_key = "<API_KEY_1>"', "KEY = <API_KEY_1>", "Ping <IBAN_1>.evil.example"]
# a blank line apart: `["` makes code of the rest of its paragraph (rev23b F1)
BARE = (
    'In Python: API_KEY_1 = os.environ["API_KEY_1"]\n\nThe user REAL_NAME_1 logged in; user = os.environ["REAL_NAME_1"]'
)


def filled(text: str) -> str:
    return text.replace("<IBAN_1>", IBAN).replace("<API_KEY_1>", KEY)


def issue(protector) -> None:
    protected = protector.protect(TEXT, "s").text
    assert protected == "Hi, my name is <REAL_NAME_1>. IBAN <IBAN_1>, key <API_KEY_1>", protected


def test_a_guarded_value_in_quotation_marks_in_prose_restores(protector):
    issue(protector)
    for reply in QUOTED:
        result = protector.restore(reply, "s")
        assert (result.text, result.withheld) == (filled(reply), []), reply


@pytest.mark.parametrize("reply", GLUED)
def test_a_guarded_value_in_code_or_glued_stays_and_the_notice_says_so(protector, reply):
    issue(protector)
    result = protector.restore(reply, "s")
    assert result.text == reply and [why for _, why in result.withheld] == ["secret_glued"]
    notice = withheld_notice(result.withheld, cli_switch)
    assert "in code or glued to other text: 1" in notice and "link or markup" not in notice, notice
    assert protector.restore(reply, "s", secrets_in_urls=True).text == filled(reply)  # the switch fills it in


def test_a_bare_placeholder_never_restores_a_secret_and_another_value_only_in_prose(protector):
    issue(protector)
    for secrets_in_urls in (False, True):
        result = protector.restore(BARE, "s", secrets_in_urls=secrets_in_urls)
        assert result.text == BARE.replace("The user REAL_NAME_1", f"The user {NAME}")
        assert result.withheld == [("<API_KEY_1>", "secret_bare")] * 2 + [("<REAL_NAME_1>", "bare_in_code")]
    notice = withheld_notice(result.withheld, cli_switch)
    assert "a secret written without brackets: 2" in notice and "written without brackets in code" in notice
    assert "never filled in from it" in notice and "link or markup" not in notice
    assert protector.restore("Key: <API_KEY_1>, name: [REAL_NAME_1]", "s").text == f"Key: {KEY}, name: {NAME}"


def test_the_cli_restores_quoted_values_and_says_why_it_left_a_bare_key(vault_settings):
    settings = vault_settings(issue)
    reply = 'Your key "<API_KEY_1>" was leaked.\nIn Python: API_KEY_1 = os.environ["API_KEY_1"]'
    result = CliRunner().invoke(app, ["restore", "--session", "s", "-", "--config", str(settings)], reply)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n") == filled(reply)  # the quoted key restored, the bare ones left
    said = " ".join(result.stderr.split())
    assert "a secret written without brackets: 2" in said and "link or markup" not in said


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_the_proxy_restores_quoted_values_and_withholds_bare_and_code_forms(protector, stream):
    def model(body: dict) -> Reply:  # FAKE model: quotes the values, then writes them as code would
        return Reply(content='Your IBAN is \u201e<IBAN_1>\u201c.\n\nCode: API_KEY_1 = "<API_KEY_1>"')

    with proxy_for(protector, model) as (url, _):
        reply, counts = chat(url, TEXT, stream=stream)
    assert reply["content"] == f'Your IBAN is \u201e{IBAN}\u201c.\n\nCode: API_KEY_1 = "<API_KEY_1>"'
    assert counts == {"withheld": 2, "named": "<API_KEY_1>", "unresolved": 0}


@pytest.mark.parametrize(
    ("reply", "restored"),
    [
        ("H: \\<REAL_NAME_1\\>.", f"H: {NAME}."),  # escaped for Markdown at both ends: the escapes go with it
        ("H: \\[REAL_NAME_1\\].", f"H: {NAME}."),
        ("H: \\<REAL_NAME_1>.", f"H: \\{NAME}."),  # one backslash is the text's own
    ],
)
def test_a_placeholder_escaped_for_markdown_restores_whole(protector, reply, restored):
    """ux26 M6: `\\<REAL_NAME_1\\>` came back as `\\Priya\\>`."""
    issue(protector)
    assert protector.restore(reply, "s").text == restored


def test_a_streamed_placeholder_escaped_for_markdown_restores_as_the_whole_text_does():
    from stealthflow.placeholders.restore import StreamRestorer, restore_text

    def resolve(ref):  # a FAKE vault's answer
        return {("REAL_NAME", 1): NAME}.get(ref.key)

    for reply in ("H: \\<REAL_NAME_1\\>.", "C:\\Users\\<REAL_NAME_1>\\x", "end \\<REAL_NAME_1\\"):
        for size in (1, 2, 3):
            stream = StreamRestorer(resolve)
            pieces = [stream.feed(reply[i : i + size]) for i in range(0, len(reply), size)]
            assert "".join(pieces) + stream.finish() == restore_text(reply, resolve).text, (reply, size)
    assert restore_text("H: \\<REAL_NAME_1\\>.", resolve).text == f"H: {NAME}."


def test_a_placeholder_between_html_escaped_brackets_stays_and_the_notice_says_why(protector):
    """ux26 M6: `&lt;REAL_NAME_1&gt;` was withheld as "written without brackets in code or glued to other text", which
    the reply had not done. It stays (glued to the entities, as in code or markup), for a secret too, whatever the
    options, and the notice names the HTML escapes."""
    issue(protector)
    reply = "Hi &lt;REAL_NAME_1&gt;, your key is &lt;API_KEY_1&gt;; <REAL_NAME_1> in prose."
    for options in ({}, {"values_in_links": True, "secrets_in_urls": True}):
        result = protector.restore(reply, "s", **options)
        assert result.text == reply.replace("<REAL_NAME_1> in prose", f"{NAME} in prose"), result.text
        assert result.withheld == [("<REAL_NAME_1>", "html_escaped"), ("<API_KEY_1>", "html_escaped")]
    notice = withheld_notice(result.withheld, cli_switch)
    assert "between HTML-escaped brackets (&lt; &gt;): 2" in notice and "without brackets in code" not in notice
    assert "left as it is" in notice
