"""Who gets into the local servers (service, page, proxy), and what they leave behind: the token fails
closed (empty, short, unreadable, open to others, raced at first start), every answer is `no-store`,
the page's credential is not a cookie, and `stealthflow ui` keeps the sign-in link off command lines.
The page in a real browser (disk cache, another local port, the link file) is in test_page_browser.py."""

from __future__ import annotations

import os
import re
import stat
import threading
import time
import webbrowser
from pathlib import Path

import httpx
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from page_fixtures import FakeRewriter
from placeholder_fixtures import make_protector, protect_config
from starlette.routing import Route

from stealthflow.memory.store import MemoryStore
from stealthflow.proxy.app import SESSION_HEADER, create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.service import create_app, security
from stealthflow.service.page import HEADER, PageLogins
from stealthflow.service.security import MIN_TOKEN_CHARS, TOKEN_ENV, LocalCallersOnly, TokenError, service_token
from stealthflow.testing.loopback import serve

TOKEN = "local-access-test-token"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def no_env_token(monkeypatch):
    monkeypatch.delenv(TOKEN_ENV, raising=False)


# --- F2: the token fails closed ----------------------------------------------------------------


@pytest.mark.parametrize("content", ["", "\n", "   \n", "short-token\n"], ids=["empty", "newline", "spaces", "short"])
def test_an_empty_or_short_token_file_stops_the_start(tmp_path, no_env_token, content):
    path = tmp_path / "service.token"
    path.write_text(content)
    path.chmod(0o600)
    with pytest.raises(TokenError, match=f"fewer than {MIN_TOKEN_CHARS}.*rm {re.escape(str(path))}"):
        service_token(path)


def test_a_token_file_open_to_others_or_unreadable_stops_the_start(tmp_path, no_env_token):
    path = tmp_path / "service.token"
    path.write_text("a" * 43 + "\n")
    for mode in (0o644, 0o620, 0o601):  # read, or only write or execute, for group or others: all refused
        path.chmod(mode)
        with pytest.raises(
            TokenError, match=f"open to group or others \\(mode {mode:o}\\): run chmod 600 {re.escape(str(path))}"
        ):
            service_token(path)
    path.chmod(0o600)
    assert service_token(path) == "a" * 43  # fixed as the message says
    folder = tmp_path / "a-folder.token"
    folder.mkdir(mode=0o700)
    with pytest.raises(TokenError, match="cannot use the token file"):
        service_token(folder)


def test_a_short_token_in_the_environment_stops_the_start(tmp_path, monkeypatch):
    monkeypatch.setenv(TOKEN_ENV, "tiny")
    with pytest.raises(TokenError, match=f"\\${TOKEN_ENV} holds a token of 4 characters"):
        service_token(tmp_path / "service.token")
    monkeypatch.setenv(TOKEN_ENV, "")  # set but empty: as if unset, the file's token
    assert len(service_token(tmp_path / "service.token")) == 43


def test_processes_starting_together_agree_on_one_whole_token(tmp_path, no_env_token, monkeypatch):
    """Starters racing at first start: a slow write (a full disk, a busy machine) never lets another read ''."""
    real_fsync = os.fsync
    monkeypatch.setattr(security.os, "fsync", lambda fd: (time.sleep(0.2), real_fsync(fd)))
    path, tokens, created = tmp_path / "service.token", [], []
    starters = [
        threading.Thread(target=lambda: tokens.append(service_token(path, on_new=created.append))) for _ in range(6)
    ]
    for starter in starters:
        starter.start()
        time.sleep(0.03)  # the later ones find the first one's file still being written
    for starter in starters:
        starter.join()
    assert len(tokens) == 6 and len(set(tokens)) == 1 and len(tokens[0]) == 43
    assert created == [path]  # announced once
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and [p.name for p in tmp_path.iterdir()] == ["service.token"]


def test_an_empty_token_is_refused_and_never_compared(protector):
    with pytest.raises(ValueError, match="empty token"):
        LocalCallersOnly(create_app(protector, TOKEN), token="")
    with TestClient(create_app(protector, TOKEN), base_url="http://127.0.0.1:8765") as client:
        for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer"}):
            assert client.get("/sessions/s", headers=headers).status_code == 401


def test_the_commands_refuse_to_start_on_an_empty_token_file(tmp_path, monkeypatch):
    """`serve` and `proxy` as a user runs them (uvicorn.run replaced): exit 2 with the fix, nothing served."""
    import uvicorn
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    monkeypatch.delenv("STEALTHFLOW_PROXY_TOKEN", raising=False)
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda asgi, **_: served.append(asgi))
    for command, name in ((["serve"], "service.token"), (["proxy", "--upstream", "openai/x"], "proxy.token")):
        token_file = security.default_token_file(name)
        token_file.parent.mkdir(parents=True, exist_ok=True)
        token_file.write_text("")
        token_file.chmod(0o600)
        result = CliRunner().invoke(app, [*command, "--config", str(yaml), "--no-tagger"])
        assert result.exit_code == 2 and "holds a token of 0 characters" in result.output, result.output
        assert f"rm {token_file}" in result.output.replace("\n", "")
    assert not served


# --- F3: no answer is kept in a browser's cache ------------------------------------------------


def route_calls(routes) -> list[tuple[str, str]]:
    """(method, path) for every route, in included routers too (mounted without a prefix), path parameters filled in."""
    calls = []
    for route in routes:
        if isinstance(route, APIRoute | Route):
            path = re.sub(r"\{[^}]+\}", "x", route.path)
            calls += [(method, path) for method in sorted(route.methods or {"GET"}) if method != "HEAD"]
        elif included := getattr(route, "original_router", None):
            calls += route_calls(included.routes)
    return calls


def assert_no_store(client: TestClient, calls: list[tuple[str, str]], headers: dict) -> set[int]:
    statuses = set()
    for method, path in calls:
        answer = client.request(method, path, headers=headers, json={})
        assert answer.headers.get("cache-control") == "no-store", (method, path, answer.status_code)
        assert answer.headers.get("pragma") == "no-cache", (method, path)
        statuses.add(answer.status_code)
    return statuses


def test_every_answer_of_the_service_and_its_page_is_no_store(tmp_path, monkeypatch):
    config = protect_config(tmp_path, monkeypatch)
    memory = MemoryStore(tmp_path / "memory.sqlite", make_protector(config))
    logins = PageLogins()
    app = create_app(memory.protector, TOKEN, memory=memory, rewriter=FakeRewriter(), page=logins)
    calls = route_calls(app.routes)
    assert {("GET", "/sessions/x"), ("POST", "/restore"), ("GET", "/"), ("POST", "/ui/signin")} <= set(calls)
    assert {"/memory/append", "/restore/stream", "/analyze", "/protect", "/health"} <= {p for _, p in calls}
    try:
        with TestClient(app, base_url="http://127.0.0.1:8765") as client:
            assert 200 in assert_no_store(client, calls, BEARER)
            page = {HEADER: logins.exchange(logins.new_link())}
            assert 200 in assert_no_store(client, calls, page)
            assert 401 in assert_no_store(client, calls, {})  # refusals too
            assert_no_store(client, calls, {**BEARER, "Host": "evil.example"})  # 403
            assert client.get("/sessions/x", headers=BEARER).headers["cache-control"] == "no-store"
    finally:
        memory.close()


def test_every_answer_of_the_proxy_is_no_store(protector):
    config = ProxyConfig(upstream="openai/x", upstream_base="http://127.0.0.1:9/v1", upstream_key_env="NO_KEY")
    app = create_proxy_app(protector, config, TOKEN)
    calls = route_calls(app.routes)
    assert ("POST", "/v1/chat/completions") in calls and ("GET", "/v1/models") in calls
    with TestClient(app, base_url="http://127.0.0.1:8788") as client:
        assert 200 in assert_no_store(client, calls, BEARER)
        assert 401 in assert_no_store(client, calls, {})


# --- an unknown path answers the one error shape, over real HTTP ---------------------------------


def assert_error_shape(answer: httpx.Response, status: int, message: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert answer.json() == {"error": {"message": message, "type": error["type"], "param": None, "code": status}}
    assert answer.json()["error"]["type"] in ("not_found_error", "invalid_request_error")
    assert answer.headers["cache-control"] == "no-store"


def test_an_unknown_path_of_the_proxy_is_an_openai_shaped_error(protector):
    """A Responses or Embeddings client gets the error shape it reads, not FastAPI's {"detail": "Not Found"}."""
    config = ProxyConfig(upstream="openai/x", upstream_base="http://127.0.0.1:9/v1", upstream_key_env="NO_KEY")
    with serve(create_proxy_app(protector, config, TOKEN)) as port:
        base = f"http://127.0.0.1:{port}"
        for path in ("/v1/responses", "/v1/embeddings", "/v1/completions"):
            answer = httpx.post(base + path, headers=BEARER, json={"model": "x", "input": "hi"})
            assert_error_shape(
                answer,
                404,
                "this path is not served here (Not Found); this server answers GET /health, GET /v1/models, "
                "POST /chat/completions, POST /v1/chat/completions",
            )
        answer = httpx.get(base + "/v1/chat/completions", headers=BEARER)
        assert_error_shape(
            answer,
            405,
            "this method is not served on this path (Method Not Allowed): it takes POST only",
        )
        assert answer.headers["allow"] == "POST"
        assert httpx.post(base + "/v1/responses", json={}).status_code == 401  # the token is still asked first


def test_an_unknown_path_or_memory_refusal_of_the_service_is_the_error_shape(tmp_path, monkeypatch):
    config = protect_config(tmp_path, monkeypatch)
    memory = MemoryStore(tmp_path / "memory.sqlite", make_protector(config))
    try:
        with serve(create_app(memory.protector, TOKEN, memory=memory)) as port:
            base = f"http://127.0.0.1:{port}"
            nope = httpx.get(base + "/nope", headers=BEARER)
            assert nope.json()["error"]["message"].startswith(
                "this path is not served here (Not Found); this server answers "
            )
            assert "POST /memory/hydrate" in nope.json()["error"]["message"]
            # an HTTPException raised by a route keeps its own message
            answer = httpx.post(base + "/memory/forget", headers=BEARER, json={"user": "u", "id": 999})
            assert_error_shape(answer, 404, "no memory of that id for that user")
    finally:
        memory.close()


#: what a caller may name a session, a request, a pack or a vault after: a user's value, never quoted back
CALLER_VALUE = "quillon-varrick-7781"


def test_no_error_of_the_service_or_the_proxy_quotes_a_value_the_caller_sent(tmp_path, monkeypatch):
    """rev32: `serve`'s 404s quoted the session name and the request id the caller sent (`no session 'X' in the
    vault`), the memory service's the pack and the memory id, an unknown path or a method it does not take the path, a
    text of another vault the id the caller gave, a rewrite not offered its name, and the proxy's 404 the path. A
    session name may be a user's value, and clients log errors. Real servers under uvicorn, a real HTTP client; each
    error still says what was wrong."""
    config = protect_config(tmp_path, monkeypatch)
    memory = MemoryStore(tmp_path / "memory.sqlite", make_protector(config))
    value, number = CALLER_VALUE, 778_123_456
    try:
        with serve(create_app(memory.protector, TOKEN, memory=memory)) as port:
            base = f"http://127.0.0.1:{port}"
            protect = {"text": "mail ann.lee@mailbox.org", "session": "web-1"}
            text = httpx.post(base + "/protect", headers=BEARER, json=protect).json()["text"]
            asks = {
                "no such session": ("POST", "/restore", {"json": {"text": text, "session": value}}, 404),
                "no such request": (
                    "POST", "/restore", {"json": {"text": text, "session": "web-1", "request": value}}, 404,
                ),
                "no such request, streamed": (
                    "POST", f"/restore/stream?session=web-1&request={value}", {"content": text}, 404,
                ),
                "another vault": ("POST", "/restore", {"json": {"text": text, "session": "web-1", "vault": value}}, 409),
                "a rewrite not offered": ("POST", "/protect", {"json": {**protect, "rewrite": value}}, 422),
                "no such path": ("GET", f"/sessions/web-1/{value}", {}, 404),
                "a method not taken": ("PUT", f"/sessions/{value}", {}, 405),
                "no such pack": (
                    "POST", "/memory/hydrate", {"json": {"user": "ann", "text": text, "request": value}}, 404,
                ),
                "no such memory": ("POST", "/memory/forget", {"json": {"user": "ann", "id": number}}, 404),
            }  # fmt: skip
            for what, (method, path, body, status) in asks.items():
                answer = httpx.request(method, base + path, headers=BEARER, **body)
                assert answer.status_code == status, (what, answer.text)
                message = answer.json()["error"]["message"]
                assert value not in answer.text and str(number) not in answer.text, (what, message)
                assert re.search(
                    r"no session|no request|no pack|no memory|another vault|not offered|not served", message
                )
        proxy = ProxyConfig(upstream="openai/x", upstream_base="http://127.0.0.1:9/v1", upstream_key_env="NO_KEY")
        with serve(create_proxy_app(memory.protector, proxy, TOKEN)) as port:
            proxy_base = f"http://127.0.0.1:{port}"
            for what, path, headers, status in (
                ("no such path", f"/v1/{value}", BEARER, 404),
                ("a session label too long", "/v1/chat/completions", {**BEARER, SESSION_HEADER: value * 12}, 400),
            ):
                chat = {"model": "x", "messages": [{"role": "user", "content": "hi"}]}
                answer = httpx.post(proxy_base + path, headers=headers, json=chat)
                assert answer.status_code == status and value not in answer.text, (what, answer.text)
    finally:
        memory.close()


# --- F4: the page's credential is no cookie and no bearer token --------------------------------


def test_the_page_credential_is_a_header_of_its_own_never_a_cookie(protector):
    logins = PageLogins()
    link = logins.new_link()
    with serve(create_app(protector, TOKEN, rewriter=FakeRewriter(), page=logins)) as port:
        base = f"http://127.0.0.1:{port}"
        assert httpx.post(f"{base}/ui/signin", json={"token": "wrong"}).status_code == 401
        signed = httpx.post(f"{base}/ui/signin", json={"token": link})
        assert signed.status_code == 200 and "set-cookie" not in signed.headers and not signed.cookies
        credential = signed.json()["credential"]
        assert credential != TOKEN and credential != link
        assert httpx.post(f"{base}/ui/signin", json={"token": link}).status_code == 401  # used up
        protector.protect("Write to margaret.okafor@posteo.de", "page-1")
        mine = httpx.get(f"{base}/sessions/page-1", headers={HEADER: credential})
        assert mine.status_code == 200 and mine.json()["placeholders"][0]["value"] == "margaret.okafor@posteo.de"
        assert httpx.get(f"{base}/sessions/page-1").status_code == 401
        # what a cookie jar of 127.0.0.1 would carry to another port: nothing that opens this one
        assert httpx.get(f"{base}/sessions/page-1", cookies={"stealthflow_page": credential}).status_code == 401
        assert httpx.get(f"{base}/sessions/page-1", headers={HEADER: "1"}).status_code == 401
        assert (
            httpx.get(f"{base}/sessions/page-1", headers={"Authorization": f"Bearer {credential}"}).status_code == 401
        )
        # the page's own files hold no data and are open; a restart forgets every credential
        assert httpx.get(f"{base}/").status_code == 200 and httpx.get(f"{base}/ui/app.js").status_code == 200
        assert not PageLogins().signed_in(credential)


# --- F7: the sign-in link never on a command line ----------------------------------------------


def test_ui_hands_the_link_to_the_browser_in_a_private_file_not_on_its_command_line(protector, tmp_path, monkeypatch):
    """`_open_when_up` with a FAKE browser launcher (a script that keeps its argv and copies the file it was
    given); a watcher reads every /proc/*/cmdline while it runs."""
    from stealthflow.cli.ui import _open_when_up

    record = tmp_path / "record"
    launcher = tmp_path / "browser.sh"
    launcher.write_text(f'#!/bin/sh\necho "$@" > {record}.argv\ncp "${{1#file://}}" {record}.page\nsleep 1\n')
    launcher.chmod(0o700)
    monkeypatch.setenv("BROWSER", str(launcher))
    monkeypatch.setattr(webbrowser, "_tryorder", None)  # $BROWSER is read again at the next open
    logins = PageLogins()
    one_time = logins.new_link()
    seen, stop = [], threading.Event()

    def watch() -> None:
        while not stop.is_set():
            for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
                try:
                    seen.append(cmdline.read_bytes())
                except OSError:
                    pass

    watcher = threading.Thread(target=watch)
    watcher.start()
    with serve(create_app(protector, TOKEN, page=logins)) as port:
        link = f"http://127.0.0.1:{port}/#token={one_time}"
        opener = threading.Thread(target=_open_when_up, args=(port, link, lambda: logins.pending(one_time)))
        opener.start()
        deadline = time.monotonic() + 30
        while not Path(f"{record}.page").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the launcher is still running: the watcher reads its argv
        stop.set()
        watcher.join()
        given = Path(f"{record}.argv").read_text().strip()
        assert given.startswith("file:///") and one_time not in given
        assert seen and not any(one_time.encode() in argv for argv in seen)
        handed = Path(given.removeprefix("file://"))
        assert stat.S_IMODE(handed.stat().st_mode) == 0o600 and stat.S_IMODE(handed.parent.stat().st_mode) == 0o700
        assert f'content="0;url={link}"' in Path(f"{record}.page").read_text()
        assert logins.exchange(one_time)  # the browser signs in with it: the file goes
        opener.join(timeout=5)
        assert not opener.is_alive() and not handed.parent.exists()
