"""The local HTTP service: protect, restore, streamed restore."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from placeholder_fixtures import PERSONAL_TEXT, RAW_VALUES

from stealthflow.service import create_app

TOKEN = "test-token"


@pytest.fixture
def client(protector):
    with TestClient(
        create_app(protector, TOKEN), base_url="http://127.0.0.1:8765", headers={"Authorization": f"Bearer {TOKEN}"}
    ) as test_client:
        yield test_client


def test_callers_need_the_token_a_loopback_host_and_a_bounded_body(protector):
    app = create_app(protector, TOKEN, max_body_bytes=200)
    with TestClient(app, base_url="http://127.0.0.1:8765") as anonymous:
        assert anonymous.get("/health").status_code == 200  # liveness needs no token
        assert anonymous.post("/restore", json={"text": "<EMAIL_1>", "session": "s"}).status_code == 401
        wrong = anonymous.post("/restore", json={"text": "x", "session": "s"}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and "token" in wrong.json()["error"]["message"]
        big = anonymous.post(
            "/protect", json={"text": "x" * 500, "session": "s"}, headers={"Authorization": f"Bearer {TOKEN}"}
        )
        assert big.status_code == 413
    with TestClient(
        app, base_url="http://evil.example:8765", headers={"Authorization": f"Bearer {TOKEN}"}
    ) as rebinding:
        assert rebinding.post("/restore", json={"text": "x", "session": "s"}).status_code == 403  # DNS rebinding
    with TestClient(app, base_url="http://[::1]:8765", headers={"Authorization": f"Bearer {TOKEN}"}) as ipv6:
        assert ipv6.post("/restore", json={"text": "x", "session": "s"}).status_code == 200


def test_the_token_is_created_once_in_a_private_file(tmp_path, monkeypatch):
    from stealthflow.service.security import TOKEN_ENV, service_token

    monkeypatch.delenv(TOKEN_ENV, raising=False)
    created = []
    first = service_token(tmp_path / "service.token", on_new=created.append)
    assert service_token(tmp_path / "service.token", on_new=created.append) == first and len(created) == 1
    assert oct((tmp_path / "service.token").stat().st_mode & 0o777) == "0o600"
    monkeypatch.setenv(TOKEN_ENV, "from-the-environment")
    assert service_token(tmp_path / "service.token") == "from-the-environment"


def test_protect_then_restore_over_http(client):
    assert client.get("/health").json()["status"] == "ok"
    assert client.get("/health").text.endswith("}\n")  # a shell prompt after curl starts on its own line
    protected = client.post("/protect", json={"text": PERSONAL_TEXT, "session": "web-1"}).json()
    assert not any(value in protected["text"] for value in RAW_VALUES)
    assert protected["warnings"] and {"start", "end", "type", "level", "placeholder"} <= set(protected["spans"][0])
    restored = client.post("/restore", json={"text": protected["text"], "session": "web-1"}).json()
    assert restored["text"] == PERSONAL_TEXT and restored["unresolved"] == []
    assert restored["notice"] is None
    other = client.post("/restore", json={"text": protected["text"], "session": "web-2"})  # ux28 finding 19
    assert other.status_code == 404 and "no session of that name in the vault" in other.json()["error"]["message"]
    same_vault = client.post(
        "/restore", json={"text": protected["text"], "session": "web-1", "vault": protected["vault"]}
    )
    assert same_vault.json()["text"] == PERSONAL_TEXT
    another = client.post("/restore", json={"text": protected["text"], "session": "web-1", "vault": "0123456789abcdef"})
    assert another.status_code == 409 and "protected by vault 0123456789abcdef" in another.json()["error"]["message"]


def test_bad_request_is_rejected(client):
    assert client.post("/protect", json={"text": "x"}).status_code == 422


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"text": "x", "session": "s", "levels": "PL9"}, "levels: Extra inputs are not permitted"),
        ({"text": "x", "session": "s", "vault": "0123456789abcdef"}, "vault: Extra inputs"),  # a restore field
        ({"text": "   ", "session": "s"}, "the text is empty"),
        ({"text": "x"}, "session: Field required"),
    ],
)
def test_protect_rejects_unknown_fields_and_empty_text_in_the_services_one_error_shape(client, body, named):
    response = client.post("/protect", json=body)
    assert response.status_code == 422
    assert set(response.json()) == {"error"} and response.json()["error"]["code"] == 422
    assert response.text.endswith("}\n")
    assert named in response.json()["error"]["message"]
    assert client.post("/analyze", json={"text": "", "session": "s"}).status_code == 422


def test_a_body_that_is_not_json_is_named_by_line_and_column_in_the_one_error_shape(client):
    """main answered "invalid request: 9: JSON decode error" (a character offset)."""
    body = '{"text": "mail ann.berg@mailbox.org",\n "session": s}'
    response = client.post("/protect", content=body.encode(), headers={"Content-Type": "application/json"})
    assert response.status_code == 422 and set(response.json()) == {"error"}
    assert response.json()["error"]["message"] == "the request body is not valid JSON (line 2, column 13)"


def test_streamed_restore_over_real_http(protector):
    """Chunked reply in, chunked restored reply out, under uvicorn (placeholders cut across chunks)."""
    import httpx

    from stealthflow.testing.loopback import serve

    protected = protector.protect(PERSONAL_TEXT, "web-1").text
    chunks = [protected[i : i + 3].encode() for i in range(0, len(protected), 3)]
    with serve(create_app(protector, TOKEN, max_body_bytes=len(protected) + 10)) as port:
        url, auth = f"http://127.0.0.1:{port}/restore/stream", {"Authorization": f"Bearer {TOKEN}"}
        with httpx.stream("POST", url, params={"session": "web-1"}, content=iter(chunks), headers=auth) as response:
            assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
            assert "".join(response.iter_text()) == PERSONAL_TEXT
        other = httpx.post(url, params={"session": "web-2"}, content=iter(chunks), headers=auth)
        assert other.text == protected  # not this session's placeholders: they stay
        assert httpx.post(url, content=b"<EMAIL_1>", headers=auth).status_code == 422
        assert httpx.post(url, params={"session": "web-1"}, content=iter(chunks)).status_code == 401
        with pytest.raises(
            (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)
        ):  # past the body limit the response under way is cut
            httpx.post(url, params={"session": "web-1"}, content=iter(chunks * 2), headers=auth)
        assert (
            httpx.post(url, params={"session": "web-1"}, content=protected.encode(), headers=auth).text == PERSONAL_TEXT
        )


@pytest.mark.parametrize("name", ["x\t0\t\t\nwork-archive", "\x1b]0;pwned\x07", "line\nbreak", "s" * 201])
def test_a_session_name_that_is_not_printable_is_a_422_and_stores_nothing(client, protector, name):
    """rev24 E4: the service took any session name (deef3aa: a tab and newline forged rows of `vault list`, an escape
    rewrote the terminal); now each write route answers 422 as the proxy's label check does, and nothing is stored."""
    for route, body in (
        ("/protect", {"text": "mail a.b@mailbox.org", "session": name}),
        ("/analyze", {"text": "mail a.b@mailbox.org", "session": name}),
    ):
        answer = client.post(route, json=body)
        assert answer.status_code == 422 and "must be printable" in answer.json()["error"]["message"], route
    assert protector.vault.sessions(protector.config.user) == []
