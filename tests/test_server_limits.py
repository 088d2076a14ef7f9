"""What the servers refuse before any text is protected, and what their refusals tell the caller to do.

A request of many short strings costs detection a fixed time per string (security finding F5): the proxy, and the
service's `/memory/append` for a memory's metadata, refuse one whose strings outnumber what its characters pay for
(`string_cost`) with an OpenAI-shaped 413, nothing protected or sent. The 403 (a Host that is not loopback) and 413 (a body too large) answers of `stealthflow serve` and `stealthflow
proxy` name the setting that command has, and none it lacks. The servers run as a user runs them (the real CLI in a
subprocess, deterministic recognizers only) or under uvicorn in this process, called by a real HTTP client, in front
of `MockOpenAI` (a FAKE upstream: canned replies, records what it received)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator

import httpx
import openai
import pytest
from test_security_scope import TOKEN, proxy_for

from stealthflow.proxy.messages import RequestError, RequestTexts
from stealthflow.string_cost import FREE_COST, TEXT_COST, TooManyStrings
from stealthflow.testing.loopback import cli_command, free_port, wait_until_healthy
from stealthflow.testing.mock_openai import Reply

EMAIL = "anna.berg@mailbox.org"
CLI_TOKEN = "cli-token-long-enough"


def with_notes(notes: list[str]) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": "Summarise the notes."}], "metadata": {"n": notes}}


def test_a_request_of_strings_its_characters_pay_for_is_walked_and_one_more_is_refused():
    most = FREE_COST // TEXT_COST - 1  # the user's message is one string of the request too
    assert len(RequestTexts(with_notes(["ab"] * most)).texts) == most + 1
    with pytest.raises(TooManyStrings, match=f"more than {most + 1:,} strings"):
        RequestTexts(with_notes(["ab"] * (most + 1)))
    # past FREE_COST, strings of more than TEXT_COST characters pay for themselves, and shorter ones do not
    assert len(RequestTexts(with_notes(["x" * (TEXT_COST + 1)] * 2 * most)).texts) == 2 * most + 1
    with pytest.raises(TooManyStrings):
        RequestTexts(with_notes(["x" * (TEXT_COST - 1)] * 2 * most))


def test_a_request_of_many_strings_is_refused_without_walking_it_all():
    body = with_notes([f"a{i}" for i in range(50_000)] + ["\ud800"])  # a lone surrogate last: refused if reached
    with pytest.raises(RequestError, match="lone surrogate"):
        RequestTexts(body)
    with pytest.raises(TooManyStrings):  # the walk stops where the body's size can no longer pay for its strings
        RequestTexts(body, size=len(json.dumps(body)))


def test_many_short_strings_are_refused_with_nothing_sent_and_the_same_words_in_long_strings_pass(protector):
    words = [f"ab{i}" for i in range(60_000)]
    with proxy_for(protector, lambda body: Reply(content="Noted.")) as (url, upstream):
        client = openai.OpenAI(base_url=url.removesuffix("/chat/completions"), api_key=TOKEN, max_retries=0)
        messages = [{"role": "user", "content": f"Summarise the notes, then write to {EMAIL}."}]
        with pytest.raises(openai.APIStatusError) as refused:
            client.chat.completions.create(model="m", messages=messages, extra_body={"metadata": {"notes": words}})
        assert refused.value.status_code == 413 and not upstream.received
        error = refused.value.response.json()["error"]
        assert error["type"] == "invalid_request_error" and error["code"] == 413
        assert "strings" in error["message"] and "nothing was sent" in error["message"]
        assert EMAIL not in error["message"] and "ab1" not in error["message"]
        # the same words, 1 000 to a string: detected and sent, the e-mail as its placeholder
        joined = [" ".join(words[i : i + 1000]) for i in range(0, len(words), 1000)]
        body = {"model": "m", "messages": messages, "metadata": {"notes": joined}}
        assert httpx.post(url, json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=300).status_code == 200
        sent = json.dumps(upstream.received[-1])
        assert EMAIL not in sent and "<EMAIL_1>" in sent


def test_the_service_refuses_a_memory_whose_metadata_holds_many_short_strings_and_stores_nothing(protector, tmp_path):
    from stealthflow.memory import MemoryStore
    from stealthflow.service import create_app
    from stealthflow.testing.loopback import serve
    from stealthflow.testing.vectors import hash_vectors as fake_embed  # FAKE embedder

    store = MemoryStore(tmp_path / "memory.sqlite", protector, embed=fake_embed)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    try:
        with serve(create_app(protector, TOKEN, memory=store)) as port:
            url = f"http://127.0.0.1:{port}/memory/append"
            body = {"user": "ann", "text": f"Write to {EMAIL}.", "metadata": {"tags": [f"t{i}" for i in range(5_000)]}}
            refused = httpx.post(url, json=body, headers=auth, timeout=60)
            assert refused.status_code == 413 and "strings" in refused.json()["error"]["message"]
            assert store.list("ann") == [] and protector.vault.count() == 0  # nothing protected, nothing stored
            body["metadata"] = {"tags": " ".join(f"t{i}" for i in range(5_000))}
            assert httpx.post(url, json=body, headers=auth, timeout=60).status_code == 200
    finally:
        store.close()


@contextlib.contextmanager
def cli_server(tmp_path, *args: str) -> Iterator[int]:
    """`stealthflow ARGS --port P --no-llm --no-tagger` as a user runs it, with a vault of its own; yields P."""
    port = free_port()
    env = {
        **os.environ,
        "STEALTHFLOW_PROXY_TOKEN": CLI_TOKEN,
        "STEALTHFLOW_SERVICE_TOKEN": CLI_TOKEN,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    command = cli_command(*args, "--port", str(port), "--no-llm", "--no-tagger")
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_healthy(server, port, 120, lambda: server.communicate()[1] if server.poll() is not None else "")
        yield port
    finally:
        server.terminate()
        server.communicate(timeout=30)


def refusals(port: int, path: str, limit: int) -> tuple[str, str]:
    """The messages of the 403 answered to a Host that is not loopback and of the 413 to a body over `limit` bytes."""
    auth = {"Authorization": f"Bearer {CLI_TOKEN}"}
    host = httpx.post(f"http://127.0.0.1:{port}{path}", json={}, headers={**auth, "Host": "rebound.example"})
    large = httpx.post(
        f"http://127.0.0.1:{port}{path}",
        content=b" " * (limit + 1),
        headers={**auth, "content-type": "application/json"},
        timeout=60,
    )
    assert (host.status_code, large.status_code) == (403, 413)
    return host.json()["error"]["message"], large.json()["error"]["message"]


def test_serve_names_no_setting_it_lacks_in_its_403_and_413(tmp_path):
    with cli_server(tmp_path, "serve", "--no-memory", "--rewrite", "none") as port:
        wrong_host, too_large = refusals(port, "/protect", 1_000_000)
    assert "allowed_hosts" not in wrong_host and "127.0.0.1, localhost, [::1]" in wrong_host
    assert "this server takes no other" in wrong_host
    assert "max_body_bytes" not in too_large and "1000000 bytes is this server's fixed limit" in too_large


def test_the_proxy_names_its_own_settings_in_its_403_and_413_and_refuses_many_short_strings(tmp_path, upstream):
    args = ("proxy", "--upstream", "openai/mock-model", "--upstream-base", upstream.base_url)
    with cli_server(tmp_path, *args) as port:
        wrong_host, too_large = refusals(port, "/v1/chat/completions", 4_000_000)
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key=CLI_TOKEN, max_retries=0)
        with pytest.raises(openai.APIStatusError, match="strings") as refused:
            client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "hi"}],
                extra_body={"metadata": {"x": [f"ab{i}" for i in range(20_000)]}},
            )
    assert "proxy.allowed_hosts in the config" in wrong_host
    assert "proxy.max_body_bytes in the config" in too_large
    assert refused.value.status_code == 413 and not upstream.received
