"""ProtectedMemory over the real mem0, fully offline: its local Qdrant on disk, its SQLite history
DB, its OpenAI LLM and embedder pointed at the mock OpenAI server on loopback (a FAKE fact
extractor that returns each new user message as one fact, and hashed bag-of-words embeddings),
telemetry off. mem0's stored data and everything it sent upstream hold placeholders only."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
from placeholder_fixtures import (
    PERSONAL_TEXT,
    RAW_VALUES,
    make_protector,
    protect_config,
    vault_rows,
)

from stealthflow.testing.mock_openai import MockOpenAI, Reply, last_user_text

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mem0") is None, reason="mem0 is an optional extra: pip install 'stealthflow[mem0]'"
)


def echo_facts(body: dict) -> Reply:
    """FAKE mem0 fact extractor: each user line of the prompt's "## New Messages" is one fact."""
    section = re.search(r"## New Messages\n(.*?)\n\n## ", last_user_text(body), re.DOTALL)
    lines = section.group(1).splitlines() if section else []
    return Reply(
        content=json.dumps(
            {"memory": [{"text": line.removeprefix("user: ")} for line in lines if line.startswith("user: ")]}
        )
    )


@pytest.fixture
def mem0_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("MEM0_DIR", str(tmp_path / "mem0-home"))  # mem0 writes its config.json there on import
    monkeypatch.setenv("MEM0_TELEMETRY", "False")
    from mem0 import Memory
    from mem0.utils import spacy_models

    # No spaCy model here and none may be downloaded: mem0 then skips entity linking and
    # lemmatisation, as it does on any machine without en_core_web_sm.
    monkeypatch.setattr(spacy_models, "_load_failed_full", True)
    monkeypatch.setattr(spacy_models, "_load_failed_lemma", True)
    with MockOpenAI(respond=echo_facts) as upstream:
        openai = {"api_key": "unused", "openai_base_url": upstream.base_url}
        memory = Memory.from_config(
            {
                "vector_store": {
                    "provider": "qdrant",
                    "config": {
                        "collection_name": "mem",
                        "path": str(tmp_path / "qdrant"),
                        "on_disk": True,
                        "embedding_model_dims": 64,
                    },
                },
                "llm": {"provider": "openai", "config": {"model": "mock-model", **openai}},
                "embedder": {"provider": "openai", "config": {"model": "mock-embed", "embedding_dims": 64, **openai}},
                "history_db_path": str(tmp_path / "history.db"),
            }
        )
        yield memory, upstream
        memory.close()


def test_mem0_stores_and_sends_only_placeholders(mem0_offline, tmp_path, monkeypatch):
    from stealthflow.integrations.mem0 import ProtectedMemory

    inner, upstream = mem0_offline
    memory = ProtectedMemory(inner, make_protector(protect_config(tmp_path, monkeypatch)), hydrate=True)

    added = memory.add(PERSONAL_TEXT, user_id="ann", metadata={"source": "chat with anna.berg@mailbox.org"})
    assert [r["memory"] for r in added["results"]] == [PERSONAL_TEXT]  # the local caller sees values
    memory.add([{"role": "user", "content": "I moved; write to me at ann.new@mailbox.org"}], user_id="ann")
    memory.add("My email is bob.k@mailbox.org", user_id="bob")

    found = memory.search("what is anna.berg@mailbox.org", filters={"user_id": "ann"}, top_k=1)["results"]
    assert found[0]["memory"] == PERSONAL_TEXT and found[0]["metadata"] == {"source": "chat with anna.berg@mailbox.org"}
    listed = {r["memory"] for r in memory.get_all(filters={"user_id": "ann"})["results"]}
    assert listed == {PERSONAL_TEXT, "I moved; write to me at ann.new@mailbox.org"}
    assert memory.get(found[0]["id"])["memory"] == PERSONAL_TEXT
    # by default results hold placeholders: mem0's search results usually go into a prompt (rev20 finding 5)
    plain = ProtectedMemory(inner, memory.protector)
    for results in (
        plain.search("what is anna.berg@mailbox.org", filters={"user_id": "ann"}, top_k=1)["results"],
        plain.get_all(filters={"user_id": "ann"})["results"],
        [plain.get(found[0]["id"])],
    ):
        shown = json.dumps(results)
        assert "<EMAIL_1>" in shown and "anna.berg@mailbox.org" not in shown and "ann.new@" not in shown

    stored = inner.get(found[0]["id"])["memory"]  # what mem0 itself holds
    assert "<EMAIL_1>" in stored and "anna.berg@mailbox.org" not in stored
    bobs = inner.get_all(filters={"user_id": "bob"})["results"][0]["memory"]
    # Each user numbers their own values: bob's text restored in ann's scope gives ann's values, never bob's.
    assert "bob.k@mailbox.org" not in memory.protector.restore(bobs, "memory:mem0.user_id:ann").text

    memory.update(found[0]["id"], text="My email is anna.berg@mailbox.org, new phone (415) 555-0199")
    assert memory.get(found[0]["id"])["memory"] == "My email is anna.berg@mailbox.org, new phone (415) 555-0199"
    with pytest.raises(ValueError, match="user_id, agent_id or run_id"):
        memory.search("anything")
    inner.close()  # flush Qdrant's local storage before reading its files

    raw = [*RAW_VALUES, "ann.new@mailbox.org", "bob.k@mailbox.org", "555-0199"]
    sent = json.dumps(upstream.received) + json.dumps(upstream.embedded)
    assert upstream.received and upstream.embedded and "<EMAIL_1>" in sent
    files = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "vault.sqlite"]
    history = [p for p in files if p.name.startswith("history.db")]
    qdrant = [p for p in files if "qdrant" in p.parts and p.suffix == ".sqlite"]
    assert history and qdrant
    for blob in (b"".join(p.read_bytes() for p in history), b"".join(p.read_bytes() for p in qdrant)):
        assert b"<EMAIL_1>" in blob  # the data is there, redacted
    for value in raw:
        assert value not in sent, f"{value!r} was sent upstream"
        for path in files:
            assert value.encode() not in path.read_bytes(), f"{value!r} found in {path.relative_to(tmp_path)}"


class RecordingMem0:
    """FAKE mem0 (the wrapper's side only): records what `add` is handed and answers no result."""

    def __init__(self):
        self.added: list[dict] = []

    def add(self, messages, **kwargs):
        self.added.append({"messages": messages, **kwargs})
        return {"results": []}


def test_metadata_keys_and_numbers_are_protected_and_an_owner_id_holding_a_value_refused(tmp_path, monkeypatch):
    """rev22 F8: mem0's metadata kept dict keys and numbers as they were; a user_id that is an e-mail went to mem0."""
    from stealthflow.integrations.mem0 import ProtectedMemory

    inner = RecordingMem0()
    memory = ProtectedMemory(inner, make_protector(protect_config(tmp_path, monkeypatch)))
    memory.add(
        "I met a client.", user_id="ann", metadata={"clients": {"dana.kerr@mailbox.org": "vip"}, "phone": 447700900456}
    )
    assert inner.added[0]["metadata"] == {"clients": {"<EMAIL_1>": "vip"}, "phone": "<PHONE_1>"}
    with pytest.raises(ValueError, match="holds a personal value"):
        memory.add("likes tea", user_id="dana.kerr@mailbox.org")
    assert len(inner.added) == 1


def test_a_filter_by_a_value_reaches_mem0_masked_and_finds_the_memory(mem0_offline, tmp_path, monkeypatch):
    """rev23 M2: search's and get_all's filters went to mem0 raw (an e-mail, a phone) and matched nothing, the stored
    metadata being placeholders. Their values (not the owner's ids) are redacted in the owner's session: mem0 (real,
    offline) gets the placeholder and finds the memory; nothing it stored or was sent holds the values."""
    from stealthflow.integrations.mem0 import ProtectedMemory

    inner, upstream = mem0_offline
    memory = ProtectedMemory(inner, make_protector(protect_config(tmp_path, monkeypatch)))
    memory.add("I like green tea", user_id="u1", metadata={"email": "ann.lee@mailbox.org"})
    memory.add("I like black coffee", user_id="u1", metadata={"email": "bob.k@mailbox.org"})
    searched = memory.search("what do I like?", filters={"user_id": "u1", "email": "ann.lee@mailbox.org"})["results"]
    assert [r["memory"] for r in searched] == ["I like green tea"]
    listed = memory.get_all(filters={"user_id": "u1", "email": "bob.k@mailbox.org"})["results"]
    assert [r["memory"] for r in listed] == ["I like black coffee"]
    assert memory.get_all(filters={"user_id": "u1", "email": "eve.x@mailbox.org"})["results"] == []
    inner.close()
    sent = json.dumps(upstream.received) + json.dumps(upstream.embedded)
    for value in ("ann.lee@mailbox.org", "bob.k@mailbox.org", "eve.x@mailbox.org"):
        assert value not in sent
        for path in (p for p in tmp_path.rglob("*") if p.is_file() and p.name != "vault.sqlite"):
            assert value.encode() not in path.read_bytes(), f"{value!r} found in {path.relative_to(tmp_path)}"


class ListMem0:
    """FAKE mem0 (no LLM): each `add` stores its text as one memory with the call's ids; `get_all` and `search` filter by
    them."""

    def __init__(self):
        self.items: list[dict] = []

    def add(self, messages, user_id=None, agent_id=None, run_id=None, **kwargs):
        text = messages if isinstance(messages, str) else " ".join(m["content"] for m in messages)
        item = {"id": str(len(self.items) + 1), "memory": text, "user_id": user_id, "agent_id": agent_id}
        self.items.append({**item, "run_id": run_id})
        return {"results": [dict(self.items[-1])]}

    def get_all(self, filters=None, **kwargs):
        return {"results": [dict(i) for i in self.items if all(i.get(k) == v for k, v in (filters or {}).items())]}

    def search(self, query, filters=None, **kwargs):
        return self.get_all(filters=filters)

    def get(self, memory_id):
        return next((dict(i) for i in self.items if i["id"] == memory_id), None)


def test_a_user_and_an_agent_of_one_id_are_two_owners_and_memories_written_before_hydrate_once_adopted(
    tmp_path, monkeypatch
):
    """rev24 E6: mem0's user "alice" and agent "alice" shared the vault session `memory:alice` (deef3aa): a memory in
    the agent's scope holding `<EMAIL_2>` (mem0's LLM writes memories) hydrated to the user's address. Each kind of
    owner now has its own session; a memory written before hydrates once its user copies `memory:alice` into the
    user's session (`adopt`), and numbers go on after its placeholders. FAKE mem0; the wrapper and the vault (a real
    file) are real."""
    from stealthflow.integrations.mem0 import ProtectedMemory
    from stealthflow.integrations.wrapper import adopt

    inner = ListMem0()
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    inner.add(protector.protect("My old address is old.kerr@mailbox.org", "memory:alice").text, user_id="alice")
    memory = ProtectedMemory(inner, protector, hydrate=True)
    assert memory.get_all(filters={"user_id": "alice"})["results"][0]["memory"].endswith("<EMAIL_1>")
    assert adopt(protector, "memory:alice", "mem0.user_id", "alice") == ("memory:mem0.user_id:alice", 1)
    assert memory.add("My email is dana.kerr@mailbox.org", user_id="alice")["results"][0]["memory"].endswith("org")
    memory.add("Escalations go to ops@bigcorp-example.com", agent_id="alice")
    inner.add("Primary contact: <EMAIL_2>", agent_id="alice")  # as mem0's LLM writes it in the agent's scope
    assert [item["memory"] for item in inner.items[1:3]] == ["My email is <EMAIL_2>", "Escalations go to <EMAIL_1>"]
    users = [item["memory"] for item in memory.get_all(filters={"user_id": "alice"})["results"]]
    assert users == ["My old address is old.kerr@mailbox.org", "My email is dana.kerr@mailbox.org"]
    agents = [item["memory"] for item in memory.get_all(filters={"agent_id": "alice"})["results"]]
    assert agents == ["Escalations go to ops@bigcorp-example.com", "Primary contact: <EMAIL_2>"]
    sessions = {s["session"] for s in protector.vault.sessions(protector.config.user)}
    assert sessions == {"memory:alice", "memory:mem0.user_id:alice", "memory:mem0.agent_id:alice"}


def test_mem0_adopt_copies_only_the_values_the_owners_memories_name(tmp_path, monkeypatch):
    """`ProtectedMemory.adopt` copies, of a shared old session, only the values the owner's memories name: the memory
    store user alice's phone in `memory:alice` stays out of mem0's user alice's reach. FAKE mem0; the wrapper and the
    vault (a real file) are real."""
    from stealthflow.integrations.mem0 import ProtectedMemory

    inner = ListMem0()
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protector.protect("Ring me at (415) 555-2671", "memory:alice")
    inner.add(protector.protect("My old address is old.kerr@mailbox.org", "memory:alice").text, user_id="alice")
    memory = ProtectedMemory(inner, protector, hydrate=True)
    assert memory.adopt("memory:alice", {"user_id": "alice"}) == 1
    assert memory.get("1")["memory"] == "My old address is old.kerr@mailbox.org"
    assert protector.restore("<PHONE_1>", "memory:mem0.user_id:alice").text == "<PHONE_1>"
    with pytest.raises(ValueError, match="no value that the owner's memories name"):
        memory.adopt("memory:alice", {"agent_id": "alice"})  # the agent alice stored no memory
    protector.close()


def test_a_mem0_read_copies_nothing_of_a_memory_user_of_its_id_and_writes_nothing(tmp_path, monkeypatch):
    """docs-truth F1, F2: mem0's first call for an owner (a read too) copied what `memory:<id>`, the memory store's
    user <id>, held into the owner's session, and an owner id holding a tab or escape was not refused on reads. A read
    now writes nothing to the vault, hydrates no other owner's value, and such an id is refused before the vault. FAKE
    mem0; the wrapper and the vault (a real file) are real."""
    from stealthflow.integrations.mem0 import ProtectedMemory
    from stealthflow.sessions import SessionNameError

    inner = ListMem0()
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protector.protect("my mail is olga.prim@mailbox.org", "memory:olga")  # as MemoryStore.append writes user olga's
    inner.add("Write to <EMAIL_1>", user_id="olga")  # as mem0's LLM may write it
    inner.add("Write to <EMAIL_1>", agent_id="olga")
    before = vault_rows(protector.vault.path)
    memory = ProtectedMemory(inner, protector, hydrate=True)
    assert [m["memory"] for m in memory.get_all(filters={"user_id": "olga"})["results"]] == ["Write to <EMAIL_1>"]
    assert [m["memory"] for m in memory.search("olga.prim@mailbox.org", filters={"agent_id": "olga"})["results"]] == [
        "Write to <EMAIL_1>"
    ]
    assert memory.get("2")["memory"] == "Write to <EMAIL_1>"
    for owner in ({"user_id": "olga\tx"}, {"agent_id": "\x1b[2J"}, {"run_id": "r" * 201}):
        with pytest.raises(SessionNameError, match="printable"):
            memory.get_all(filters=owner)
    assert vault_rows(protector.vault.path) == before


def test_deleting_memories_forgets_the_values_only_they_held(mem0_offline, tmp_path, monkeypatch):
    """mem0's `delete` and `delete_all` through the wrapper forget the owner's values that no memory it keeps holds:
    their rows' ciphertexts are in no file of the real vault (SQLite), the memories kept still hydrate, and another
    owner's row of the same value stays."""
    from placeholder_fixtures import in_vault_files, session_ciphertexts

    from stealthflow.integrations.mem0 import ProtectedMemory

    inner, _ = mem0_offline
    memory = ProtectedMemory(inner, make_protector(protect_config(tmp_path, monkeypatch)), hydrate=True)
    vault, ann = tmp_path / "vault.sqlite", "memory:mem0.user_id:ann"
    both = memory.add("Call me on (415) 555-2671 or mail anna.berg@mailbox.org", user_id="ann")["results"][0]
    mail = memory.add("Write to anna.berg@mailbox.org", user_id="ann")["results"][0]
    bobs = memory.add("Bob calls (415) 555-2671", user_id="bob")["results"][0]
    before = session_ciphertexts(vault, ann)
    assert set(before) == {"PHONE", "EMAIL"}

    memory.delete(both["id"])
    assert set(session_ciphertexts(vault, ann)) == {"EMAIL"}  # the phone only the deleted memory held is gone
    assert not in_vault_files(vault, before["PHONE"])
    assert memory.get(mail["id"])["memory"] == "Write to anna.berg@mailbox.org"
    assert memory.get(bobs["id"])["memory"] == "Bob calls (415) 555-2671"  # bob's own row of the same phone

    memory.delete_all(user_id="ann")
    assert session_ciphertexts(vault, ann) == {} and not in_vault_files(vault, before["EMAIL"])
    assert memory.get(bobs["id"])["memory"] == "Bob calls (415) 555-2671"


def test_updating_a_memory_forgets_the_values_only_its_old_version_named(mem0_offline, tmp_path, monkeypatch):
    """rev25b L2: mem0's `update` through the wrapper kept the old version's values in the vault. With the real mem0
    (offline) and vault: the phone the old version named and no memory keeps is in no file of the vault; the e-mail
    another memory still names stays, and the updated memory hydrates."""
    from placeholder_fixtures import in_vault_files, session_ciphertexts

    from stealthflow.integrations.mem0 import ProtectedMemory

    inner, _ = mem0_offline
    memory = ProtectedMemory(inner, make_protector(protect_config(tmp_path, monkeypatch)), hydrate=True)
    vault, ann = tmp_path / "vault.sqlite", "memory:mem0.user_id:ann"
    both = memory.add("Call me on (415) 555-2671 or mail anna.berg@mailbox.org", user_id="ann")["results"][0]
    memory.add("Write to anna.berg@mailbox.org", user_id="ann")
    before = session_ciphertexts(vault, ann)
    assert set(before) == {"PHONE", "EMAIL"}

    memory.update(both["id"], text="No phone now; mail anna.berg@mailbox.org")
    assert set(session_ciphertexts(vault, ann)) == {"EMAIL"} and not in_vault_files(vault, before["PHONE"])
    assert memory.get(both["id"])["memory"] == "No phone now; mail anna.berg@mailbox.org"
    memory.update(both["id"], text="No phone now")  # another memory still names the e-mail
    assert set(session_ciphertexts(vault, ann)) == {"EMAIL"}
