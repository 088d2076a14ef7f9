"""ProtectedStore over LangGraph's real InMemoryStore and SqliteStore: the inner store holds placeholders only."""

from __future__ import annotations

import asyncio
import json

import pytest
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore
from placeholder_fixtures import (
    PERSONAL_TEXT,
    RAW_VALUES,
    make_protector,
    protect_config,
    vault_rows,
)

from stealthflow.integrations.langgraph import ProtectedStore
from stealthflow.sessions import SessionNameError


def test_inner_store_holds_redacted_text_and_callers_get_values(tmp_path, monkeypatch):
    inner = InMemoryStore()
    store = ProtectedStore(
        inner,
        make_protector(protect_config(tmp_path, monkeypatch)),
        session_from_namespace=lambda ns: ns[0],
        hydrate=True,
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
    assert "bob.k@mailbox.org" not in store.protector.restore(bobs, "memory:langgraph:ann").text
    got = asyncio.run(store.aget(("ann", "memories"), "m1"))
    assert got.value["text"] == "My email is ann.lee@mailbox.org"
    assert "ann.lee@mailbox.org" not in repr(inner._data)


def test_sqlite_store_file_holds_no_raw_value(tmp_path, monkeypatch):
    """The real SqliteStore on a real file: after puts and searches, grep the file."""
    with SqliteStore.from_conn_string(str(tmp_path / "store.sqlite")) as inner:
        inner.setup()
        store = ProtectedStore(inner, make_protector(protect_config(tmp_path, monkeypatch)), hydrate=True)
        store.put(("ann", "memories"), "m1", {"text": PERSONAL_TEXT})
        assert store.get(("ann", "memories"), "m1").value == {"text": PERSONAL_TEXT}
        found = store.search(("ann", "memories"), query="anna.berg@mailbox.org")
        assert [i.value["text"] for i in found] == [PERSONAL_TEXT]
    files = [p for p in tmp_path.iterdir() if p.name.startswith("store.sqlite")]
    data = b"".join(p.read_bytes() for p in files)
    assert b"<EMAIL_1>" in data
    for value in RAW_VALUES:
        assert value.encode() not in data, f"{value!r} found in the store file"


def test_langmem_namespaces_keep_users_apart_and_reads_hold_placeholders(tmp_path, monkeypatch):
    """LangMem's tools use the namespace ("memories", user) and send what `search` returns to the LLM (rev20 finding
    5): by default each whole namespace is its own vault session, and reads hand out placeholders."""
    inner = InMemoryStore()
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    store = ProtectedStore(inner, protector)
    store.put(("memories", "alice"), "m1", {"content": "Alice's e-mail is alice.k@mailbox.org, phone +1 415 555 0199"})
    store.put(("memories", "bob"), "m1", {"content": "Bob met someone who writes from alice.k@mailbox.org"})
    store.put(("memories", "bob"), "m2", {"content": "Bob's own e-mail is bob.k@mailbox.org"})
    assert store._session(("memories", "alice")) == "memory:langgraph:memories/alice"
    assert store._session(("memories/alice",)) == "memory:langgraph:memories%2Falice"  # no namespace passes for another
    assert inner.get(("memories", "alice"), "m1").value["content"] == "Alice's e-mail is <EMAIL_1>, phone <PHONE_1>"
    assert inner.get(("memories", "bob"), "m1").value["content"] == "Bob met someone who writes from <EMAIL_1>"
    assert inner.get(("memories", "bob"), "m2").value["content"] == "Bob's own e-mail is <EMAIL_2>"
    assert (
        protector.restore("<EMAIL_1> <PHONE_1>", "memory:langgraph:memories/bob").text
        == "alice.k@mailbox.org <PHONE_1>"
    )
    tool_output = repr([m.dict() for m in store.search(("memories", "alice"), query="alice.k@mailbox.org")])
    assert "<EMAIL_1>" in tool_output and "alice.k@mailbox.org" not in tool_output and "555 0199" not in tool_output
    assert store.get(("memories", "bob"), "m2").value["content"] == "Bob's own e-mail is <EMAIL_2>"
    assert "<EMAIL_" not in protector.redact(
        "is carl@mailbox.org here?", "memory:langgraph:memories/alice"
    )  # no new row
    held = protector.vault.session_values(protector.config.user, "memory:langgraph:memories/alice")
    assert sorted((e.type, e.index) for e, _ in held) == [("EMAIL", 1), ("PHONE", 1)]


def test_keys_and_numbers_of_a_value_are_protected_and_ids_holding_values_refused(tmp_path, monkeypatch):
    """rev22 F8: the inner store got dict keys and JSON numbers as they were, and namespaces and item keys too."""
    inner = InMemoryStore()
    store = ProtectedStore(inner, make_protector(protect_config(tmp_path, monkeypatch)), hydrate=True)
    value = {"content": "Ann's client list", "clients": {"dana.kerr@mailbox.org": "vip"}, "phone": 447700900456, "n": 7}
    store.put(("memories", "ann"), "m1", value)
    held = inner.get(("memories", "ann"), "m1").value
    assert held == {"content": "Ann's client list", "clients": {"<EMAIL_1>": "vip"}, "phone": "<PHONE_1>", "n": 7}
    assert store.get(("memories", "ann"), "m1").value == {**value, "phone": "447700900456"}
    for namespace, key in [(("memories", "+447700900456"), "m2"), (("memories", "ann"), "dana.kerr@mailbox.org:note")]:
        with pytest.raises(ValueError, match="holds a personal value") as refused:
            store.put(namespace, key, {"content": "likes tea"})
        assert "447700900456" not in str(refused.value) and "dana.kerr" not in str(refused.value)
        with pytest.raises(ValueError, match="holds a personal value"):
            store.get(namespace, key)
    assert [(item.namespace, item.key) for item in inner.search(("memories",))] == [(("memories", "ann"), "m1")]


def test_a_search_filter_reaches_the_inner_store_masked_and_finds_the_item(tmp_path, monkeypatch):
    """rev23 M2: a search's filter went to the inner store raw (`{'email': 'ann.lee@mailbox.org'}`) and matched
    nothing, the stored field being a placeholder. Its values are redacted in the namespace's session: the inner store
    gets the placeholder, and the filter finds the item (LangGraph's real InMemoryStore; a FAKE spy records its ops)."""
    seen = []

    class Spy(InMemoryStore):  # FAKE: records what the inner store is sent
        def batch(self, ops):
            ops = list(ops)
            seen.extend(ops)
            return super().batch(ops)

    store = ProtectedStore(Spy(), make_protector(protect_config(tmp_path, monkeypatch)))
    ns = ("memories", "u1")
    store.put(ns, "m1", {"content": "My email is ann.lee@mailbox.org", "email": "ann.lee@mailbox.org", "n": 1})
    store.put(ns, "m2", {"content": "Lunch at noon", "email": "none", "n": 2})
    found = store.search(ns, query="mail of ann.lee@mailbox.org", filter={"email": "ann.lee@mailbox.org"})
    assert [item.key for item in found] == ["m1"]
    assert [item.key for item in store.search(ns, filter={"email": "bob.k@mailbox.org"})] == []
    assert [item.key for item in store.search(ns, filter={"n": 2})] == ["m2"]
    assert "ann.lee" not in repr(seen) and "bob.k" not in repr(seen) and "<EMAIL_1>" in repr(seen[-3].filter)


def test_a_namespace_a_mem0_owner_and_a_memory_user_of_one_id_are_three_sessions(tmp_path, monkeypatch):
    """rev24 E6: the namespace ("alice",), mem0's user "alice" and the memory store's user "alice" all had the vault
    session `memory:alice` (deef3aa). Each kind of owner has its own now. The store's items written before (values
    under `memory:alice`) hydrate once their user runs `stealthflow memory adopt` (the real command), and a value put
    after gets a number after theirs; adopting again does nothing and says so (uxfixb), once the old session got a value
    after the copy it is refused, and so is adopting into an unknown kind or from a kind's session. A
    memory store's user id that would name another kind's session is refused. The LangGraph store is real."""
    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.integrations.mem0 import ProtectedMemory
    from stealthflow.memory.store import vault_session

    inner = InMemoryStore()
    config = protect_config(tmp_path, monkeypatch)
    protector = make_protector(config)
    inner.put(("alice",), "old", {"text": protector.protect("Old: old.kerr@mailbox.org", "memory:alice").text})
    store = ProtectedStore(inner, protector, hydrate=True)
    assert store.get(("alice",), "old").value == {"text": "Old: <EMAIL_1>"}  # nothing copied without its user
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")

    def adopt(*args: str):
        return CliRunner().invoke(app, ["memory", "adopt", *args, "--all-values", "--config", str(yaml)])

    adopted = adopt("--from-session", "memory:alice", "--kind", "langgraph", "--owner", "alice")
    assert adopted.exit_code == 0 and "copied 1 value(s) of memory:alice into memory:langgraph:alice" in adopted.stderr
    again = adopt("--from-session", "memory:alice", "--kind", "langgraph", "--owner", "alice")  # uxfixb: a rerun
    assert again.exit_code == 0 and "nothing to do: memory:langgraph:alice already holds every value" in again.stderr
    store.put(("alice",), "new", {"text": "New: dana.kerr@mailbox.org"})
    assert inner.get(("alice",), "new").value == {"text": "New: <EMAIL_2>"}
    assert [store.get(("alice",), key).value["text"] for key in ("old", "new")] == [
        "Old: old.kerr@mailbox.org",
        "New: dana.kerr@mailbox.org",
    ]
    for args, said in [
        (("memory:alice", "mem0.user", "alice"), "must be one of mem0.user_id"),
        (("memory:langgraph:alice", "mem0.user_id", "alice"), "must be a memory user's"),
        (("memory:bob", "mem0.user_id", "alice"), "holds no value"),
        (("memory:alice", "mem0.user_id", "al\tice"), "printable"),
    ]:
        refused = adopt("--from-session", args[0], "--kind", args[1], "--owner", args[2])
        assert refused.exit_code == 2 and said in refused.stderr, refused.stderr
    # a value memory:alice got after the copy: the owner numbered values of its own since, so not copied
    protector.protect("Later: late.kerr@mailbox.org", "memory:alice")
    refused = adopt("--from-session", "memory:alice", "--kind", "langgraph", "--owner", "alice")
    assert refused.exit_code == 2 and "already holds or held values" in refused.stderr, refused.stderr
    sessions = {
        store._session(("alice",)),
        ProtectedMemory(object(), protector)._session({"user_id": "alice"}),
        vault_session("alice"),
    }
    assert sessions == {"memory:langgraph:alice", "memory:mem0.user_id:alice", "memory:alice"}
    assert {s["session"] for s in protector.vault.sessions(protector.config.user)} == {
        "memory:alice",
        "memory:langgraph:alice",
    }
    with pytest.raises(ValueError, match="may not start with 'langgraph'"):
        vault_session("langgraph:alice")


def test_a_read_of_a_namespace_copies_nothing_of_a_memory_user_of_its_id_and_writes_nothing(tmp_path, monkeypatch):
    """docs-truth F1: a namespace's first call (a read too) copied what `memory:<id>` held into its session, and
    `memory:<id>` is the live session of the memory store's user <id>: a search of ("olga",) copied user olga's e-mail,
    with which an item's `<EMAIL_1>` then hydrated, and the copy outlived `memory forget --user olga --all`. A read of
    an owner with no session now writes nothing to the vault and hydrates no other owner's value. Real LangGraph
    store and vault."""
    inner = InMemoryStore()
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protector.protect("my mail is olga.prim@mailbox.org", "memory:olga")  # as MemoryStore.append writes user olga's
    inner.put(("olga",), "m1", {"text": "Write to <EMAIL_1>"})  # a placeholder the namespace was never issued
    before = vault_rows(protector.vault.path)
    store = ProtectedStore(inner, protector, hydrate=True)
    assert [item.value for item in store.search(("olga",), query="olga.prim@mailbox.org")] == [
        {"text": "Write to <EMAIL_1>"}
    ]
    assert store.get(("olga",), "m1").value == {"text": "Write to <EMAIL_1>"}
    assert store.get(("olga",), "none") is None
    assert vault_rows(protector.vault.path) == before
    protector.vault.forget_session(protector.config.user, "memory:olga")  # what `memory forget --user olga --all` runs
    assert vault_rows(protector.vault.path)["entries"] == []


@pytest.mark.parametrize("part", ["evil\tname", "\x1b[2Jx", "x" * 201])
def test_a_namespace_that_is_not_printable_or_too_long_is_refused_before_the_vault(part, tmp_path, monkeypatch):
    """docs-truth F2: `get` of a namespace holding a tab, an escape sequence or over 200 characters returned None and
    wrote a `sessions` row with that raw name (only writes were checked). Every call is refused now
    (`sessions.check_name`) and the vault is left as it was; 200 characters pass."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    store = ProtectedStore(InMemoryStore(), protector, hydrate=True)
    calls = [
        lambda: store.get((part,), "k"),
        lambda: store.search((part,), query="hello"),
        lambda: store.put((part,), "k", {"text": "mail dana.kerr@mailbox.org"}),
    ]
    for call in calls:
        with pytest.raises(SessionNameError, match="printable"):
            call()
    assert vault_rows(protector.vault.path) == {table: [] for table in vault_rows(protector.vault.path)}
    assert store.get(("x" * 200,), "k") is None


@pytest.mark.parametrize("namespace", [("a\tb",), ("x" * 201,)])
def test_a_search_without_query_or_hydration_refuses_a_bad_namespace_too(namespace, tmp_path, monkeypatch):
    """ux24b: `search(ns)` with no query and `hydrate=False` reached no session, so no check: it returned [] for a
    namespace every other call refuses (`sessions.check_name`)."""
    store = ProtectedStore(InMemoryStore(), make_protector(protect_config(tmp_path, monkeypatch)))
    with pytest.raises(SessionNameError, match="printable"):
        store.search(namespace)


@pytest.mark.parametrize("deleting", ["SqliteStore.delete", "InMemoryStore.adelete"])
def test_a_delete_forgets_the_values_only_the_deleted_items_held(tmp_path, monkeypatch, deleting):
    """A LangGraph delete through the wrapper (the real SqliteStore's, the real InMemoryStore's async one), with the
    real vault: the values no item left in the owner's session holds (under any of its namespaces) are in no file of
    the vault; the items kept still hydrate, and another owner's row of the same value stays."""
    from contextlib import nullcontext

    from placeholder_fixtures import in_vault_files, session_ciphertexts

    vault, ann = tmp_path / "vault.sqlite", "memory:langgraph:ann"
    sqlite = deleting.startswith("Sqlite")
    with (
        SqliteStore.from_conn_string(str(tmp_path / "store.sqlite"))
        if sqlite
        else nullcontext(InMemoryStore()) as inner
    ):
        if sqlite:
            inner.setup()
        protector = make_protector(protect_config(tmp_path, monkeypatch))
        store = ProtectedStore(inner, protector, session_from_namespace=lambda ns: ns[0], hydrate=True)

        def delete(namespace, key):
            return store.delete(namespace, key) if sqlite else asyncio.run(store.adelete(namespace, key))

        store.put(("ann", "work"), "m1", {"text": "Call (415) 555-2671 or mail anna.berg@mailbox.org"})
        store.put(("ann", "home"), "m2", {"text": "Mail anna.berg@mailbox.org"})  # ann's session too
        store.put(("bob",), "m1", {"text": "Bob calls (415) 555-2671"})
        before = session_ciphertexts(vault, ann)
        assert set(before) == {"PHONE", "EMAIL"}

        delete(("ann", "work"), "m1")
        assert set(session_ciphertexts(vault, ann)) == {"EMAIL"} and not in_vault_files(vault, before["PHONE"])
        assert store.get(("ann", "home"), "m2").value == {"text": "Mail anna.berg@mailbox.org"}

        delete(("ann", "home"), "m2")
        assert session_ciphertexts(vault, ann) == {} and not in_vault_files(vault, before["EMAIL"])
        assert store.get(("bob",), "m1").value == {"text": "Bob calls (415) 555-2671"}


def test_adopt_copies_only_the_values_the_owners_memories_name(tmp_path, monkeypatch):
    """The old session `memory:alice` was shared: the memory store's user alice wrote a phone there, the namespace
    ("alice",) an e-mail. Adopting it into the namespace's owner copied both, so the namespace's reader could restore
    the other owner's phone. Now `ProtectedStore.adopt` (and `memory adopt --texts`) copy only the values the owner's
    stored items name; `memory adopt` without `--texts` or `--all-values` is refused, nothing written. The LangGraph
    store and the vault file are real."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = protect_config(tmp_path, monkeypatch)
    protector = make_protector(config)
    protector.protect("Ring me at (415) 555-2671", "memory:alice")  # the memory store user's: <PHONE_1>
    old = protector.protect("Old: old.kerr@mailbox.org", "memory:alice").text
    inner = InMemoryStore()
    inner.put(("alice",), "old", {"text": old})
    inner.put(("bob",), "old", {"text": old})
    store = ProtectedStore(inner, protector, hydrate=True)
    assert store.adopt("memory:alice", ("alice",)) == 1
    alice = "memory:langgraph:alice"
    assert store.get(("alice",), "old").value == {"text": "Old: old.kerr@mailbox.org"}
    assert protector.restore("<PHONE_1>", alice).text == "<PHONE_1>"  # the other owner's value is not the namespace's

    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    texts = tmp_path / "bob.json"
    texts.write_text(json.dumps([item.value for item in inner.search(("bob",))]))
    protector.close()
    base = ["memory", "adopt", "--from-session", "memory:alice", "--kind", "langgraph", "--owner", "bob"]
    refused = CliRunner().invoke(app, [*base, "--config", str(yaml)])
    assert refused.exit_code == 2 and "--texts" in refused.stderr and "--all-values" in refused.stderr
    adopted = CliRunner().invoke(app, [*base, "--texts", str(texts), "--config", str(yaml)])
    assert adopted.exit_code == 0 and "copied 1 value(s)" in adopted.stderr, adopted.stderr
    # uxfixb: the same command again (it exited 2): nothing to do, said so, and nothing lost or added
    listed = CliRunner().invoke(app, ["vault", "list", "--config", str(yaml)])
    again = CliRunner().invoke(app, [*base, "--texts", str(texts), "--config", str(yaml)])
    assert again.exit_code == 0 and "nothing to do" in again.stderr and "value(s)" not in again.stderr, again.stderr
    assert CliRunner().invoke(app, ["vault", "list", "--config", str(yaml)]).stdout == listed.stdout
    protector = make_protector(config)
    try:
        assert protector.restore("<EMAIL_1> <PHONE_1>", "memory:langgraph:bob").text == "old.kerr@mailbox.org <PHONE_1>"
    finally:
        protector.close()


@pytest.mark.parametrize("putting", ["put", "aput"])
def test_a_put_over_an_item_forgets_the_values_only_its_old_version_named(tmp_path, monkeypatch, putting):
    """rev25b L2: a put over an item (LangMem's update) kept the old version's phone in the vault. With the real
    InMemoryStore and vault: the value the old version named and no item keeps is in no file of the vault; a value
    the new version or another item still names stays and hydrates."""
    from placeholder_fixtures import in_vault_files, session_ciphertexts

    vault, ann = tmp_path / "vault.sqlite", "memory:langgraph:ann"
    store = ProtectedStore(InMemoryStore(), make_protector(protect_config(tmp_path, monkeypatch)), hydrate=True)

    def put(key, text):
        value = {"text": text}
        return store.put(("ann",), key, value) if putting == "put" else asyncio.run(store.aput(("ann",), key, value))

    put("m1", "Call (415) 555-2671 or mail anna.berg@mailbox.org")
    put("m2", "Her card is 4716 2830 5914 4476")
    before = session_ciphertexts(vault, ann)
    assert set(before) == {"PHONE", "EMAIL", "CREDIT_CARD"}
    put("m1", "She moved; mail anna.berg@mailbox.org")
    assert set(session_ciphertexts(vault, ann)) == {"EMAIL", "CREDIT_CARD"}
    assert not in_vault_files(vault, before["PHONE"])
    assert store.get(("ann",), "m1").value == {"text": "She moved; mail anna.berg@mailbox.org"}
    put("m2", "Card 4716 2830 5914 4476, still")  # names every value it named: nothing is forgotten
    assert set(session_ciphertexts(vault, ann)) == {"EMAIL", "CREDIT_CARD"}
    assert store.get(("ann",), "m2").value == {"text": "Card 4716 2830 5914 4476, still"}


def test_a_put_racing_a_delete_keeps_its_value(tmp_path, monkeypatch):
    """rev25b L3: a second writer (a real thread) put an item naming bob's e-mail after a delete had read the items
    kept and before it forgot: the delete forgot the value and the new item never hydrated. Writes wait for the forget
    (the vault's memory lock) and protect the value anew: the item hydrates."""
    import threading

    inner = InMemoryStore()
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    store = ProtectedStore(inner, protector, hydrate=True)
    other = ProtectedStore(inner, protector, hydrate=True)
    store.put(("bob",), "k1", {"text": "mail bob.weir@mailbox.org"})
    writer = threading.Thread(target=other.put, args=(("bob",), "k2", {"text": "reply to bob.weir@mailbox.org"}))
    forget_session = protector.vault.forget_session

    def racing_forget(user, session):  # the kept items are read; the second writer comes now
        writer.start()
        writer.join(timeout=2)  # done at once unless it waits for the forget
        return forget_session(user, session)

    monkeypatch.setattr(protector.vault, "forget_session", racing_forget)
    store.delete(("bob",), "k1")
    writer.join(timeout=30)
    assert not writer.is_alive()
    assert store.get(("bob",), "k2").value == {"text": "reply to bob.weir@mailbox.org"}


def test_an_async_write_cancelled_while_it_waits_for_the_memory_lock_lets_it_go(tmp_path, monkeypatch):
    """An `aput` waits for the vault's memory lock off the event loop; cancelled while it waits (a forget holds the
    lock), it lets the lock go once taken: a later forget is not locked out. Real vault, real lock file."""
    import fcntl
    import os

    from stealthflow.integrations.wrapper import MEMORY_LOCK

    store = ProtectedStore(InMemoryStore(), make_protector(protect_config(tmp_path, monkeypatch)))
    vault = store.protector.vault
    taken = []  # the write's lock stays referenced here: no garbage collection lets it go
    writing = store._writing
    monkeypatch.setattr(store, "_writing", lambda ops: taken.append(writing(ops)) or taken[-1])

    async def cancelled_while_waiting():
        with vault.locked(MEMORY_LOCK):  # a forget holding the lock
            put = asyncio.ensure_future(store.aput(("ann",), "m1", {"text": "mail anna.berg@mailbox.org"}))
            await asyncio.sleep(0.3)
            put.cancel()
            with pytest.raises(asyncio.CancelledError):
                await put
        await asyncio.sleep(0.5)  # the waiting thread takes the lock now, and lets it go

    asyncio.run(cancelled_while_waiting())
    fd = os.open(tmp_path / f"vault.sqlite.{MEMORY_LOCK}.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises BlockingIOError if the cancelled write still held it
    finally:
        os.close(fd)
