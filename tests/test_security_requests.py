"""The security suite of the request side: no string of a request reaches the upstream raw.

A real proxy under uvicorn on 127.0.0.1, a real HTTP client, and `MockOpenAI` as the upstream,
made hostile by a FAKE responder (labelled below) that tries to learn a value back through the
keys of tool-call arguments. Detection is the deterministic recognizers only. And the LLM PII
extractor, which reads text before it is protected, is on by default only for a local model."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from test_security_scope import TOKEN, proxy_for

from stealthflow.config import Settings
from stealthflow.llm.config import ModelConfig
from stealthflow.pipeline.protector import Protector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.testing.mock_openai import MockOpenAI, Reply, ToolCall

EMAIL = "anna.berg@mailbox.org"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HI = {"role": "user", "content": "hi"}


def post(url: str, body: dict) -> httpx.Response:
    return httpx.post(url, json={"model": "m", **body}, headers=AUTH, timeout=120)


def with_call(function: dict, call_id: str = "c1") -> list[dict]:
    """A history holding one tool call and its result."""
    return [
        HI,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": function}],
        },
        {"role": "tool", "tool_call_id": call_id, "content": "ok"},
    ]


@pytest.mark.parametrize("shape", ["key", "duplicate key"])
def test_a_value_the_upstream_put_in_a_tool_call_key_leaves_as_a_placeholder_next_turn(protector, shape):
    def hostile(body: dict) -> Reply:  # FAKE model: asks for the email's placeholder as a key (or a first duplicate)
        placeholder = re.search(r"<EMAIL_\d+>", json.dumps(body))
        if body["messages"][-1]["role"] == "tool" or placeholder is None:
            return Reply(content="done")
        key = placeholder.group(0)
        arguments = json.dumps({key: "primary"}) if shape == "key" else '{"to": "%s", "to": "x"}' % key
        return Reply(tool_calls=[ToolCall("lookup", arguments)])

    with proxy_for(protector, hostile, restore_tool_arguments=["lookup"]) as (url, upstream):
        history = [{"role": "user", "content": f"Please check my account, email {EMAIL}"}]
        message = post(url, {"messages": history}).json()["choices"][0]["message"]
        arguments = message["tool_calls"][0]["function"]["arguments"]
        assert EMAIL in arguments  # the client's own value, restored for it
        history += [message, {"role": "tool", "tool_call_id": message["tool_calls"][0]["id"], "content": "ok"}]
        assert post(url, {"messages": history}).status_code == 200
        assert EMAIL not in json.dumps(upstream.received[1])
        sent = upstream.received[1]["messages"][1]["tool_calls"][0]["function"]["arguments"]
        expected = '{"<EMAIL_1>": "primary"}' if shape == "key" else '{"to": "<EMAIL_1>", "to": "x"}'
        assert sent == expected  # every duplicate kept, in order, still JSON


FIELDS = {
    "documents": {"messages": [HI], "documents": [{"title": "t", "text": f"mail {EMAIL}"}]},
    "chat_template_kwargs": {"messages": [HI], "chat_template_kwargs": {"note": EMAIL}},
    "web_search_options": {
        "messages": [HI],
        "web_search_options": {"user_location": {"type": "approximate", "approximate": {"city": EMAIL}}},
    },
    "prompt_cache_key": {"messages": [HI], "prompt_cache_key": EMAIL},
    "arguments key, a string": {"messages": with_call({"name": "f", "arguments": json.dumps({EMAIL: "primary"})})},
    "arguments key, an object": {"messages": with_call({"name": "f", "arguments": {EMAIL: "primary"}})},
    "arguments, escaped": {"messages": with_call({"name": "f", "arguments": '{"to": "anna.berg\\u0040mailbox.org"}'})},
    "metadata key": {"messages": [HI], "metadata": {EMAIL: "x"}},
    "schema property name": {
        "messages": [HI],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "f",
                    "parameters": {"type": "object", "properties": {EMAIL: {"type": "string"}}, "required": [EMAIL]},
                },
            }
        ],
    },
    "schema pattern": {
        "messages": [HI],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "string", "pattern": EMAIL}}}],
    },
    "message key": {"messages": [{"role": "user", "content": "hi", EMAIL: 1}]},
    "function_call a string": {"messages": [HI, {"role": "assistant", "content": "x", "function_call": EMAIL}]},
    "function extra field": {"messages": with_call({"name": "f", "arguments": "{}", "description": EMAIL})},
    "text part extra field": {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi", "note": EMAIL}]}]
    },
    "tool call id": {"messages": with_call({"name": "f", "arguments": "{}"}, call_id=EMAIL)},
    "type holding a value": {"messages": [HI], "response_format": {"type": EMAIL}},
    "a name": {"messages": [HI], "tool_choice": {"type": "function", "function": {"name": EMAIL}}},
}


def test_every_string_of_a_request_keys_included_leaves_protected(protector):
    with proxy_for(protector, lambda body: Reply(content="ok")) as (url, upstream):
        for name, body in FIELDS.items():
            response = post(url, body)
            assert response.status_code == 200, (name, response.text)
            sent = json.dumps(upstream.received[-1], ensure_ascii=False)
            # an assistant turn no reply restored to is masked as new text: a bare `<EMAIL>` (rev22 F1), in an id `EMAIL`
            assert EMAIL not in sent and ("EMAIL_1" in sent or "<EMAIL>" in sent or '"EMAIL"' in sent), (name, sent)
        sent = upstream.received
        schema = sent[8]["tools"][0]["function"]["parameters"]
        assert schema == {"type": "object", "properties": {"<EMAIL_1>": {"type": "string"}}, "required": ["<EMAIL_1>"]}
        calls = sent[14]["messages"]
        assert calls[1]["tool_calls"][0]["id"] == calls[2]["tool_call_id"] == "EMAIL"  # still paired, no brackets
        assert sent[16]["tool_choice"]["function"]["name"] == "EMAIL_1"  # a name holds no brackets
        # Structure stays as it was: roles, enum types, the model's switches.
        body = {
            "messages": [HI],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": ["string", "null"]}}}],
            "tool_choice": "auto",
            "reasoning_effort": "low",
            "logit_bias": {"50256": -100},
        }
        assert post(url, body).status_code == 200
        assert {k: v for k, v in upstream.received[-1].items() if k != "model"} == body
        # Two keys that protect to one placeholder (one value in two cases): a clear 400, nothing sent.
        sent = len(upstream.received)
        response = post(url, {"messages": [HI], "metadata": {EMAIL.title(): 1, EMAIL: 2}})
        assert response.status_code == 400 and "same text" in response.json()["error"]["message"]
        assert len(upstream.received) == sent


def test_a_number_of_a_request_is_protected_as_its_decimal_text(protector):
    """Security review rev20, finding 7: a card or a phone written as a JSON number (tool-call arguments in history,
    metadata, a schema's default) leaves as the placeholder (a string), as the same digits in a string do; a number
    holding no value (a count, a temperature, a logit bias) leaves as the same number."""
    card, phone = 4556737586899855, 14155550100
    arguments = json.dumps({"card_number": card, "phone": phone, "count": 3, "as_text": str(card)})
    schema = {"type": "object", "properties": {"card": {"type": "integer", "default": card}}}
    body = {
        "messages": with_call({"name": "pay", "arguments": arguments}),
        "metadata": {"customer_phone": 4155550100, "ratio": 0.25},
        "tools": [{"type": "function", "function": {"name": "pay", "parameters": schema}}],
        "temperature": 0.2,
        "logit_bias": {"50256": -100},
    }
    with proxy_for(protector, lambda body: Reply(content="ok")) as (url, upstream):
        assert post(url, body).status_code == 200
        sent = upstream.received[-1]
    assert not any(str(number) in json.dumps(sent) for number in (card, phone, 4155550100))
    # an assistant turn no reply restored to is masked as new text, under bare marks (rev22 F1)
    assert json.loads(sent["messages"][1]["tool_calls"][0]["function"]["arguments"]) == {
        "card_number": "<CREDIT_CARD>",
        "phone": "<PHONE>",
        "count": 3,
        "as_text": "<CREDIT_CARD>",
    }
    assert sent["metadata"] == {"customer_phone": "<PHONE_1>", "ratio": 0.25}
    assert sent["tools"][0]["function"]["parameters"]["properties"]["card"]["default"] == "<CREDIT_CARD_1>"
    assert (sent["temperature"], sent["logit_bias"]) == (0.2, {"50256": -100})


def test_no_number_too_short_to_read_holds_a_value_the_detector_finds(tmp_path, monkeypatch):
    """The proxy does not read a JSON number shorter than `SHORT_NUMBER` characters: the real detector (every
    recognizer, the PII tagger on, texts in no covered language refused) finds nothing in any of them and protect
    leaves each as it is, in a session that holds values."""
    from placeholder_fixtures import protect_config

    from stealthflow.proxy.messages import SHORT_NUMBER

    shorts = [json.dumps(n) for n in range(-9, 100)]  # every one: a float is written in 3 characters or more ("0.0")
    assert max(map(len, shorts)) < SHORT_NUMBER == min(len(json.dumps(n)) for n in (-10, 100, 0.0))
    config = protect_config(tmp_path, monkeypatch, tagger=True, refuse_uncovered=True)
    protector = Protector.from_settings(Settings(protect=config))
    try:
        assert protector.protect("card 4556 7375 8689 9855 cvv 12, pin 42, call 555-0142", "s").spans
        assert [(p.text, p.spans) for p in protector.protect_many(shorts, "s")] == [(text, []) for text in shorts]
    finally:
        protector.close()


# -- the LLM PII extractor reads raw text: only a model on this machine by default -------------------
def extractor_settings(tmp_path, model: str, api_base: str | None, llm_extractor: bool | None = None):
    return Settings(
        model=ModelConfig(model=model, api_base=api_base, api_key_env="MOCK_KEY", timeout=5, max_retries=0),
        protect=ProtectConfig(
            vault_path=tmp_path / "v.sqlite", key_source="env", tagger=False, llm_extractor=llm_extractor
        ),
    )


def test_a_cloud_model_for_rewriting_does_not_turn_the_extractor_on(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", new_secret())
    monkeypatch.setenv("MOCK_KEY", "x")
    for model, api_base in [("deepseek/deepseek-chat", None), ("openai/gpt-4o-mini", "http://192.0.2.1:9/v1")]:
        protector = Protector.from_settings(extractor_settings(tmp_path, model, api_base))
        assert protector.detector.extractor is None, model
        assert protector.protect(f"My email is {EMAIL}", "s").text == "My email is <EMAIL_1>"
        protector.close()
    # Turned on by the user for a model elsewhere: on, with one warning per model however often it is built.
    caplog.set_level("WARNING", logger="stealthflow.extractor")
    for _ in range(2):
        settings = extractor_settings(tmp_path, "deepseek/deepseek-chat", None, llm_extractor=True)
        protector = Protector.from_settings(settings)
        assert protector.detector.extractor is not None
        protector.close()
    warnings = [r for r in caplog.records if "not on this machine" in r.getMessage()]
    assert len(warnings) == 1 and "deepseek/deepseek-chat" in warnings[0].getMessage()


def test_an_ollama_model_is_local_only_where_litellm_sends_it_to_a_loopback_address(tmp_path, monkeypatch, caplog):
    """Security review rev20, finding 4: with no `api_base`, litellm sends an Ollama model's calls to
    `$OLLAMA_API_BASE` (any host) or Ollama's local server; a cloud tag runs at ollama.com through the local daemon.
    Only a loopback endpoint turns the extractor on by default; one elsewhere needs the user's opt-in and warns."""
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", new_secret())
    monkeypatch.delenv("OLLAMA_API_BASE", raising=False)
    assert ModelConfig(model="ollama/llama3").is_local()
    assert not ModelConfig(model="ollama/gpt-oss:120b-cloud").is_local()
    monkeypatch.setenv("OLLAMA_API_BASE", "http://127.0.0.1:11500")
    assert ModelConfig(model="ollama_chat/llama3").is_local()
    monkeypatch.setenv("OLLAMA_API_BASE", "http://192.0.2.1:9")  # a GPU box, a hosted Ollama
    assert not ModelConfig(model="ollama/llama3").is_local() and not ModelConfig(model="ollama_chat/x").is_local()
    assert ModelConfig(model="ollama/llama3", api_base="http://localhost:11434").is_local()  # api_base wins
    protector = Protector.from_settings(extractor_settings(tmp_path, "ollama/llama3", None))
    assert protector.detector.extractor is None  # nothing is sent there: protect runs without it
    assert protector.protect(f"My email is {EMAIL}", "s").text == "My email is <EMAIL_1>"
    protector.close()
    caplog.set_level("WARNING", logger="stealthflow.extractor")
    protector = Protector.from_settings(extractor_settings(tmp_path, "ollama/llama3", None, llm_extractor=True))
    assert protector.detector.extractor is not None
    protector.close()
    assert any("not on this machine" in r.getMessage() and "192.0.2.1" in r.getMessage() for r in caplog.records)


def test_a_model_on_a_loopback_address_runs_the_extractor(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", new_secret())
    monkeypatch.setenv("MOCK_KEY", "x")
    caplog.set_level("WARNING", logger="stealthflow.extractor")
    with MockOpenAI(respond=lambda body: Reply(content="[]")) as local:  # FAKE model: finds nothing
        protector = Protector.from_settings(extractor_settings(tmp_path, "openai/mock-model", local.base_url))
        assert protector.protect(f"My email is {EMAIL}", "s").text == "My email is <EMAIL_1>"
        protector.close()
    assert len(local.received) == 1  # the local model read it
    assert not [r for r in caplog.records if r.name == "stealthflow.extractor"]  # and no warning


def test_a_participants_name_leaves_as_one_placeholder_and_a_functions_name_as_it_is(protector):
    """ux22 H3: `{"role": "user", ..., "name": "rafael_ortiz"}` reached the upstream as it was (no recognizer finds a
    handle). A message's name on a participant's role is one value by its place: sent as `USERNAME_1` (a valid OpenAI
    name), the same in every turn, restored where the reply writes it in prose; a tool's message names its function."""

    def reply(body: dict) -> Reply:  # FAKE model: greets the participant by the name it was sent
        return Reply(content=f"Hello {body['messages'][0]['name']}, noted.")

    with proxy_for(protector, reply) as (url, upstream):
        first = {"role": "user", "content": "Book a table for two.", "name": "rafael_ortiz"}
        answer = post(url, {"messages": [first]}).json()["choices"][0]["message"]
        assert upstream.received[-1]["messages"][0]["name"] == "USERNAME_1"
        assert "rafael_ortiz" not in json.dumps(upstream.received[-1])
        assert answer["content"] == "Hello rafael_ortiz, noted."
        history = [first, answer, {"role": "user", "content": "Thanks!", "name": " rafael_ortiz "}]
        history += with_call({"name": "save_note", "arguments": "{}"})[1:]
        assert post(url, {"messages": history}).status_code == 200
        sent = upstream.received[-1]["messages"]
        assert [m.get("name") for m in sent] == ["USERNAME_1", None, " USERNAME_1 ", None, None]
        assert sent[3]["tool_calls"][0]["function"]["name"] == "save_note"
        assert re.fullmatch(r"[a-zA-Z0-9_-]+", sent[0]["name"])
