"""ProtectedStore over LangGraph's real InMemoryStore and SqliteStore: the inner store holds placeholders only."""

from __future__ import annotations

import asyncio

from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore
from placeholder_fixtures import (
    PERSONAL_TEXT,
    RAW_VALUES,
    make_protector,
    protect_config,
)

from stealthflow.integrations.langgraph import ProtectedStore


def test_inner_store_holds_redacted_text_and_callers_get_values(tmp_path, monkeypatch):
    inner = InMemoryStore()
    store = ProtectedStore(
        inner, make_protector(protect_config(tmp_path, monkeypatch)), session_from_namespace=lambda ns: ns[0]
    )
    store.put(
        ("ann", "memories"),
        "m1",
        {"text": "My email is ann.lee@mailbox.org", "tags": ["contact ann.lee@mailbox.org"], "n": 3},
    )
    store.put(("bob", "memories"), "m1", {"text": "My email is bob.k@mailbox.org"})
    raw = inner.get(("ann", "memories"), "m1").value
    assert "ann.lee@mailbox.org" not in repr(raw) and "<EMAIL_1>" in raw["text"] and raw["n"] == 3
    assert store.get(("ann", "memories"), "m1").value["tags"] == ["contact ann.lee@mailbox.org"]
    assert [i.value["text"] for i in store.search(("bob",))] == ["My email is bob.k@mailbox.org"]
    bobs = inner.get(("bob", "memories"), "m1").value["text"]
    assert "bob.k@mailbox.org" not in bobs
    # Each user numbers their own values: bob's text restored in ann's scope gives ann's values, never bob's.
    assert "bob.k@mailbox.org" not in store.protector.restore(bobs, "memory:ann").text
    got = asyncio.run(store.aget(("ann", "memories"), "m1"))
    assert got.value["text"] == "My email is ann.lee@mailbox.org"
    assert "ann.lee@mailbox.org" not in repr(inner._data)


def test_sqlite_store_file_holds_no_raw_value(tmp_path, monkeypatch):
    """The real SqliteStore on a real file: after puts and searches, grep the file."""
    with SqliteStore.from_conn_string(str(tmp_path / "store.sqlite")) as inner:
        inner.setup()
        store = ProtectedStore(inner, make_protector(protect_config(tmp_path, monkeypatch)))
        store.put(("ann", "memories"), "m1", {"text": PERSONAL_TEXT})
        assert store.get(("ann", "memories"), "m1").value == {"text": PERSONAL_TEXT}
        assert [i.value["text"] for i in store.search(("ann",), query="anna.berg@mailbox.org")] == [PERSONAL_TEXT]
    files = [p for p in tmp_path.iterdir() if p.name.startswith("store.sqlite")]
    data = b"".join(p.read_bytes() for p in files)
    assert b"<EMAIL_1>" in data
    for value in RAW_VALUES:
        assert value.encode() not in data, f"{value!r} found in the store file"
