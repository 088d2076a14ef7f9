"""The values a process keeps decrypted in memory per session (`Protector._known`, what re-masks a session's values in
later messages) go when they are forgotten, and there are at most `KNOWN_SESSIONS` of them. rev26 L2: the proxy kept
every session it ever served (RSS 418 -> 853 MB over 7 500 sessions), and a session's values stayed in memory after
`vault forget`, the service's DELETE /sessions/ID or `memory forget`, until the session was used again. Real vaults
(SQLite, a key in tmp_path), deterministic recognizers."""

from __future__ import annotations

from fastapi.testclient import TestClient
from placeholder_fixtures import make_protector, protect_config

import stealthflow.pipeline.protector as protector_module
from stealthflow.memory import MemoryStore
from stealthflow.memory.store import vault_session
from stealthflow.pipeline.protector import open_vault
from stealthflow.service import create_app
from stealthflow.testing.vectors import hash_vectors as fake_embed  # FAKE embedder

EMAILS = {"a": "ann.lee@mailbox.org", "b": "bo.kim@mailbox.org"}


def _in_memory(protector) -> set[str]:
    """The values the protector holds decrypted in memory, of every session."""
    return {value for known in protector._known.values() for value in known._by_placeholder.values()}


def _protect_both(protector) -> None:
    for session, email in EMAILS.items():
        protector.protect(f"Write to {email}", session)
        protector.protect("and again", session)  # the session's values are read into memory
    assert _in_memory(protector) >= set(EMAILS.values())


def test_forgetting_a_session_drops_the_values_in_memory(protector):
    _protect_both(protector)
    protector.vault.forget_session(protector.config.user, "a")
    assert EMAILS["a"] not in _in_memory(protector)
    assert protector.protect(f"{EMAILS['b']} again", "b").text == "<EMAIL_1> again"  # read again from the vault


def test_forgetting_a_value_or_a_placeholder_drops_the_values_in_memory(protector):
    _protect_both(protector)
    protector.vault.forget_value(protector.config.user, EMAILS["a"])
    assert EMAILS["a"] not in _in_memory(protector)
    _protect_both(protector)
    protector.vault.forget_placeholders(protector.config.user, "b", {("EMAIL", 1)})
    assert EMAILS["b"] not in _in_memory(protector)


def test_a_deletion_in_another_process_drops_every_session_on_the_next_use(tmp_path, monkeypatch):
    """Another process (here another vault object on the same file) forgets "a": the first session used next, "c",
    finds the vault's deletion mark changed and drops every session's values, "a"'s too."""
    config = protect_config(tmp_path, monkeypatch)
    protector = make_protector(config)
    _protect_both(protector)
    other = open_vault(config)
    other.forget_session(config.user, "a")
    other.close()
    assert EMAILS["a"] in _in_memory(protector)  # nothing told this process yet
    protector.protect("Hello", "c")
    assert EMAILS["a"] not in _in_memory(protector)
    protector.close()


def test_at_most_known_sessions_are_kept_the_least_recently_used_dropped(protector, monkeypatch):
    monkeypatch.setattr(protector_module, "KNOWN_SESSIONS", 3)
    for n in range(5):
        protector.protect(f"Write to user{n}@mailbox.org", f"s{n}")
    protector.protect("user1@mailbox.org again", "s1")  # s1 read again, the most recent now
    assert list(protector._known) == ["s3", "s4", "s1"]
    assert protector.protect("user0@mailbox.org again", "s0").text == "<EMAIL_1> again"  # still masked: vault


def test_the_services_delete_drops_the_sessions_values_in_memory(protector):
    app = create_app(protector, "known-values-test-token")
    headers = {"Authorization": "Bearer known-values-test-token"}
    with TestClient(app, base_url="http://127.0.0.1:8765", headers=headers) as client:
        for _ in range(2):
            client.post("/analyze", json={"text": f"Mail {EMAILS['a']}", "session": "a"})
        assert EMAILS["a"] in _in_memory(protector)
        assert client.delete("/sessions/a").json()["values_deleted"] == 1
    assert EMAILS["a"] not in _in_memory(protector)


def test_memory_forget_drops_the_users_values_in_memory(tmp_path, monkeypatch):
    store = MemoryStore(
        tmp_path / "memory.sqlite", make_protector(protect_config(tmp_path, monkeypatch)), embed=fake_embed
    )
    store.append("ann", f"My email is {EMAILS['a']}")
    store.protector.protect(f"{EMAILS['a']} again", vault_session("ann"))
    assert EMAILS["a"] in _in_memory(store.protector)
    store.forget("ann", all=True)
    assert EMAILS["a"] not in _in_memory(store.protector)
    store.close()
