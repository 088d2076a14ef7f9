"""A value the upstream model can read only because a restore put it into its own turn does not go back in clear when
the history comes back (security review rev20, finding 1): an assistant turn a reply restored goes back as the upstream
wrote it (tests/test_security_history.py); in a tool's result every value of the session is masked again, however
common its words and wherever it stands; in a user's text only the specific ones (tests/test_remasking.py), and a name
also where the words before it would make it a place."""

from __future__ import annotations

import json
import sqlite3
import uuid

import httpx
import numpy as np
import pytest
from placeholder_fixtures import protect_config
from test_remasking import FakeTagger

from stealthflow.memory.store import MemoryStore
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.proxy.app import create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.proxy.messages import RequestTexts
from stealthflow.testing.loopback import serve
from stealthflow.testing.mock_openai import MockOpenAI, Reply

TOKEN = "model-turns-test-token"
INTRO = "My name is Dana Kerr. I've been struggling with depression since March. My password is sunshine"
# A hostile model's answer: each placeholder where detection reads no personal value
HOSTILE = "Sure! Take the train to <REAL_NAME_1>. Books about <HEALTH_1>: see below. Tip: <PASSWORD_1> is a nice word."
VALUES = ("Dana Kerr", "depression", "sunshine")


@pytest.fixture(scope="module")
def tagged(tmp_path_factory):
    """A Protector with the shipped PII tagger (the default detection) over a fresh vault."""
    monkeypatch = pytest.MonkeyPatch()
    config = protect_config(tmp_path_factory.mktemp("vault"), monkeypatch)
    protector = Protector(config, open_vault(config), Detector(build_recognizers(models=True)))
    yield protector
    protector.close()
    monkeypatch.undo()


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_values_a_hostile_reply_got_restored_are_masked_again_in_the_resent_history(tagged, stream, monkeypatch):
    """The reviewer's reproducer as a test, real tagger, proxy plain and streamed: the restored name (where a place
    would stand), diagnosis and password (common words) go back upstream as placeholders, not in clear."""
    monkeypatch.setenv("MOCK_KEY", "k")
    with MockOpenAI(respond=lambda body: Reply(content=HOSTILE)) as upstream:
        config = ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY")
        with serve(create_proxy_app(tagged, config, TOKEN)) as port:
            session = f"victim-{uuid.uuid4().hex[:6]}"

            def chat(messages: list[dict]) -> str:
                answer = httpx.post(
                    f"http://127.0.0.1:{port}/v1/chat/completions",
                    headers={"Authorization": f"Bearer {TOKEN}", "x-stealthflow-session": session},
                    json={"model": "m", "messages": messages, "stream": stream},
                    timeout=120,
                )
                assert answer.status_code == 200
                if not stream:
                    return answer.json()["choices"][0]["message"]["content"]
                chunks = [json.loads(line[6:]) for line in answer.text.splitlines() if line.startswith("data: {")]
                return "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])

            history = [{"role": "user", "content": INTRO}]
            answer = chat(history)
            assert all(value in answer for value in VALUES)  # restored for the user, by the proxy's own rules
            assert not any(value in json.dumps(upstream.received[-1]) for value in VALUES)
            chat([*history, {"role": "assistant", "content": answer}, {"role": "user", "content": "Thanks!"}])
            resent = upstream.received[-1]["messages"][1]["content"]
            assert resent == HOSTILE, resent


def test_a_false_alarm_is_masked_again_in_a_tools_result_only(tmp_path, monkeypatch):
    """FAKE tagger (a false alarm on "the" as HEALTH): the user's later texts keep their "the"; a tool's result gets it
    masked, as a whole word; an assistant turn no reply restored to (its content, its tool call's arguments) is read as
    new text, the session's values not looked for (rev22 F1), so it keeps it too."""
    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([*build_recognizers(), FakeTagger()]))
    assert protector.protect("throw the idea out", "s").text == "throw <HEALTH_1> idea out"
    body = {
        "messages": [
            {"role": "user", "content": "throw the idea out"},
            {
                "role": "assistant",
                "content": "Why the idea?",
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "note", "arguments": '{"t": "the end"}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "saved: the end, other"},
            {"role": "user", "content": "the other one"},
        ]
    }
    texts = RequestTexts(body)
    texts.put([p.text for p in protector.protect_many(texts.texts, "s", texts.from_model, texts.unknown)])
    _, assistant, tool, later = body["messages"]
    assert later["content"] == "the other one"
    assert assistant["content"] == "Why the idea?"
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"t": "the end"}
    assert tool["content"] == "saved: <HEALTH_1> end, other"


def test_a_memory_naming_the_user_where_a_place_would_stand_is_stored_masked(tagged, tmp_path):
    """The reviewer's second reproducer: memory.sqlite holds no name in clear after an agent stores what the
    assistant said ("take the train to Dana Kerr")."""
    store = MemoryStore(tmp_path / "memory.sqlite", tagged, embed=lambda t: np.ones((len(t), 2), np.float32))
    user = f"u-{uuid.uuid4().hex[:6]}"
    assert store.append(user, "My name is Dana Kerr.").text == "My name is <REAL_NAME_1>."
    stored = store.append(user, "The assistant suggested: take the train to Dana Kerr.")
    assert stored.text == "The assistant suggested: take the train to <REAL_NAME_1>."
    store.close()
    rows = sqlite3.connect(tmp_path / "memory.sqlite").execute("select text from memories").fetchall()
    assert rows and not any("Dana Kerr" in text for (text,) in rows)


def test_the_service_masks_every_value_in_a_text_it_is_told_a_model_wrote(protector):
    """`POST /protect` with `"from_model": true` (a chat's assistant turn): a password that is a common word, restored
    into a reply, is masked again; the same text as the user's keeps the word (a false alarm never spreads)."""
    from fastapi.testclient import TestClient

    from stealthflow.service import create_app

    token = "service-model-turns-token"
    with TestClient(
        create_app(protector, token), base_url="http://127.0.0.1:8765", headers={"Authorization": f"Bearer {token}"}
    ) as client:
        first = client.post("/protect", json={"text": "My password is sunshine", "session": "s"}).json()
        assert first["text"] == "My password is <PASSWORD_1>"
        reply = "Tip: sunshine is a nice word."
        as_model = client.post("/protect", json={"text": reply, "session": "s", "from_model": True}).json()
        assert as_model["text"] == "Tip: <PASSWORD_1> is a nice word."
        assert client.post("/protect", json={"text": reply, "session": "s"}).json()["text"] == reply
