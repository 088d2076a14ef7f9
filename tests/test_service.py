"""The local HTTP service: protect, restore, streamed restore."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from placeholder_fixtures import PERSONAL_TEXT, RAW_VALUES, make_protector, protect_config

from stealthflow.service import create_app


@pytest.fixture
def client(tmp_path, monkeypatch):
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    with TestClient(create_app(protector)) as test_client:
        yield test_client
    protector.close()


def test_protect_then_restore_over_http(client):
    assert client.get("/health").json()["status"] == "ok"
    protected = client.post("/protect", json={"text": PERSONAL_TEXT, "session": "web-1"}).json()
    assert not any(value in protected["text"] for value in RAW_VALUES)
    assert protected["warnings"] and {"start", "end", "type", "level", "placeholder"} <= set(protected["spans"][0])
    restored = client.post("/restore", json={"text": protected["text"], "session": "web-1"}).json()
    assert restored["text"] == PERSONAL_TEXT and restored["unresolved"] == []
    other = client.post("/restore", json={"text": protected["text"], "session": "web-2"}).json()
    assert other["text"] == protected["text"] and other["unresolved"]


def test_bad_request_is_rejected(client):
    assert client.post("/protect", json={"text": "x"}).status_code == 422
