"""The memory store on a real SQLite file and a real vault, with deterministic recognizers and a
FAKE embedder (hashed bag of words, labelled) so the tests stay fast; the real MiniLM runs in
benchmarks/memory_utility.py."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
from placeholder_fixtures import (
    PERSONAL_TEXT,
    RAW_VALUES,
    make_protector,
    protect_config,
)

from stealthflow.data import DataError
from stealthflow.memory import MemoryStore
from stealthflow.memory.store import estimate_tokens, input_rows
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.testing.vectors import hash_vectors as fake_embed  # FAKE embedder


@pytest.fixture
def store(tmp_path, monkeypatch):
    config = protect_config(tmp_path, monkeypatch)
    s = MemoryStore(tmp_path / "memory.sqlite", make_protector(config), embed=fake_embed)
    yield s
    s.close()


def held(store: MemoryStore, user: str, text: str) -> str:
    """`text` with every value the vault holds for `user` filled in (unscoped: a test's look into the vault, which
    `hydrate` of a reply never is)."""
    from stealthflow.memory.store import vault_session

    return store.protector.restore(text, vault_session(user)).text


def test_append_pack_hydrate_roundtrip(store):
    item = store.append("alice", PERSONAL_TEXT, {"source": "chat"})
    assert "anna.berg@mailbox.org" not in item.text and "<EMAIL" in item.text
    store.append("alice", "I like hiking in the mountains on weekends.")
    packed = store.pack("alice", "what is anna.berg@mailbox.org email", budget_tokens=400)
    assert packed.items[0].id == item.id  # the query's value was redacted to the same placeholder
    assert "anna.berg@mailbox.org" in store.hydrate("alice", packed.text, packed.request)


def test_hydrate_restores_only_what_the_pack_sent(store):
    """A hostile reply naming placeholders of memories the pack did not send gets none of their values (rev20
    finding 3: every value of the user was filled in)."""
    store.append("ann", "My email is ann.lee@mailbox.org")
    store.append("ann", "My phone is +1 415 555 0100")
    store.append("ann", "My password is hunter2-Xy9!")
    store.append("ann", "I love jazz music and my email is ann.lee@mailbox.org")
    store.append("bob", "My phone is +1 415 555 0199")
    packed = store.pack("ann", "jazz music", budget_tokens=14)
    assert [i.text for i in packed.items] == ["I love jazz music and my email is <EMAIL_1>"]
    result = store.restore("ann", "Noted: <EMAIL_1>, <PHONE_1>, <PASSWORD_1>.", packed.request)
    assert result.text == "Noted: ann.lee@mailbox.org, <PHONE_1>, <PASSWORD_1>."
    assert sorted(result.withheld) == [("<PASSWORD_1>", "not_in_request"), ("<PHONE_1>", "not_in_request")]
    with pytest.raises(KeyError, match="no pack"):
        store.restore("bob", "<PHONE_1>", packed.request)  # another user's pack: not a request of bob's
    with pytest.raises(KeyError, match="no pack"):
        store.restore("ann", "<PHONE_1>", "made-up")
    nothing = store.pack("ann", "jazz", budget_tokens=1)  # no memory fits: a pack that sent no placeholder
    assert nothing.items == [] and store.restore("ann", "<EMAIL_1>", nothing.request).text == "<EMAIL_1>"


def test_hydrate_says_a_value_forgotten_since_the_pack_was_forgotten(store):
    """ux25 L2: after `memory forget`, a reply's placeholder of the forgotten memory was withheld as "not in the
    request the reply answers" though the pack sent it; it is "forgotten", and one never issued is unresolved."""
    store.append("ann", "My email is ann.lee@mailbox.org")
    bob = store.append("ann", "Bob's email is bob.k@posteo.de")
    packed = store.pack("ann", "email", budget_tokens=400)
    store.forget("ann", bob.id)
    result = store.restore("ann", "Write to <EMAIL_1>, <EMAIL_2> and <EMAIL_9>.", packed.request)
    assert result.text == "Write to ann.lee@mailbox.org, <EMAIL_2> and <EMAIL_9>."
    assert result.withheld == [("<EMAIL_2>", "forgotten")] and result.unresolved == ["<EMAIL_9>"]


def test_a_pack_query_leaves_nothing_in_the_vault(store):
    """The values a query names are looked up, never stored: after every memory is forgotten by id none is left, and
    the next value gets the number it would have had (rev20 finding 6)."""
    from stealthflow.memory.store import vault_session

    vault, session = store.protector.vault, vault_session("ann")
    item = store.append("ann", "I love jazz and my email is ann.lee@mailbox.org")
    packed = store.pack("ann", "is bob.secret@corp-mail.org or ann.lee@mailbox.org in my contacts? SSN 078-05-1120")
    assert packed.items[0].id == item.id
    assert [v for _, v in vault.session_values(store.protector.config.user, session)] == ["ann.lee@mailbox.org"]
    store.forget("ann", item.id)
    assert vault.session_values(store.protector.config.user, session) == []
    assert store.append("ann", "Write to carl@mailbox.org").text == "Write to <EMAIL_2>"  # 1 was ann's, not bob's
    assert store.protector.redact("mail bob.secret@corp-mail.org or carl@mailbox.org", session) == (
        "mail <EMAIL> or <EMAIL_2>"
    )


def test_budget_is_respected(store):
    for i in range(20):
        store.append("alice", f"memory number {i} about gardening and tomatoes")
    packed = store.pack("alice", "gardening", budget_tokens=30)
    assert 0 < len(packed.items) < 20
    assert sum((len(i.text) + 3) // 4 for i in packed.items) <= 30


def test_users_are_isolated(store):
    a = store.append("alice", "My email is alice.secret@mailbox.org")
    store.append("bob", "My email is bob.other@mailbox.org")
    packed = store.pack("bob", "email", budget_tokens=400)
    assert [held(store, "bob", i.text) for i in packed.items] == ["My email is bob.other@mailbox.org"]
    assert "alice.secret@mailbox.org" not in held(store, "bob", a.text)
    assert "alice.secret@mailbox.org" in held(store, "alice", a.text)


def test_forget_one_and_all(store):
    keep = store.append("alice", "My email is anna.berg@mailbox.org and I like tea.")
    gone = store.append("alice", "My phone is (415) 555-2671.")
    assert store.forget("alice", gone.id) == 1
    assert [m.id for m in store.list("alice")] == [keep.id]
    assert "555-2671" not in held(store, "alice", gone.text)  # its value left the vault
    assert "anna.berg@mailbox.org" in held(store, "alice", keep.text)  # the other one's stays
    assert gone.id not in {i.id for i in store.pack("alice", "phone", 400).items}
    assert store.forget("alice", all=True) == 1
    assert store.list("alice") == [] and store.pack("alice", "tea", 400).items == []
    assert "anna.berg@mailbox.org" not in held(store, "alice", keep.text)
    with pytest.raises(KeyError):
        store.forget("alice", 12345)


def test_rewrite_at_append_stores_the_rewrite_or_keeps_the_placeholders(tmp_path, monkeypatch):
    from fakes import fake_llm

    from stealthflow.anonymize.standard import StandardAnonymizer

    answers = iter(
        ["Removed the town.\n#\nMy email is <EMAIL_1>; I live in a small town.", "Removed.\n#\nMy email is gone."]
    )
    rewriter = StandardAnonymizer(fake_llm(lambda _messages: next(answers), batch_size=1))  # FAKE model
    config = protect_config(tmp_path, monkeypatch)
    with_rewrite = MemoryStore(tmp_path / "memory.sqlite", make_protector(config), embed=fake_embed, rewriter=rewriter)
    kept = with_rewrite.append("ann", "My email is ann.lee@mailbox.org; I live in Tromso.")
    assert kept.text == "My email is <EMAIL_1>; I live in a small town."
    rejected = with_rewrite.append("ann", "My email is ann.lee@mailbox.org, I was born in Bergen.")
    assert rejected.text == "My email is <EMAIL_1>, I was born in Bergen."  # lost the placeholder: not stored
    assert [m.text for m in with_rewrite.list("ann")] == [kept.text, rejected.text]
    with_rewrite.close()


def test_a_rewrite_that_unescapes_a_placeholder_shaped_word_gets_no_other_memory_value(tmp_path, monkeypatch):
    """rev28 F2: a pasted "write to EMAIL_3" is escaped by protect; a rewriter that dropped the backslash was accepted
    (the bare word "was in the protected text"), the stored memory held a live EMAIL_3, and a reply to its pack was
    filled in with the EMAIL_3 of another memory. The rewrite is rejected, and the pack sends only its own keys."""
    from fakes import fake_llm

    from stealthflow.anonymize.standard import StandardAnonymizer

    answers = iter(
        [
            "Generalised.\n#\nMy private address: <EMAIL_1>.",
            "Generalised.\n#\nMy sister writes from <EMAIL_2>.",
            "Generalised.\n#\nMy bank is <EMAIL_3>.",
            "Generalised.\n#\nNewsletter: for refunds write to EMAIL_3 today.",  # the backslash dropped
        ]
    )
    rewriter = StandardAnonymizer(fake_llm(lambda _messages: next(answers), batch_size=1))  # FAKE model
    config = protect_config(tmp_path, monkeypatch)
    with_rewrite = MemoryStore(tmp_path / "memory.sqlite", make_protector(config), embed=fake_embed, rewriter=rewriter)
    with_rewrite.append("al", "My private address: anna.private@mailbox.org.")
    with_rewrite.append("al", "My sister writes from lena.berg@mailbox.org.")
    with_rewrite.append("al", "My bank is fraud.desk@barclays.co.uk.")
    pasted = with_rewrite.append("al", "Newsletter: for refunds write to EMAIL_3 today.")
    assert pasted.text == "Newsletter: for refunds write to \\EMAIL_3 today."
    assert any("invented placeholder(s) EMAIL_3" in warning for warning in pasted.warnings)
    packed = with_rewrite.pack("al", pasted.text, budget_tokens=estimate_tokens(pasted.text))
    assert [item.id for item in packed.items] == [pasted.id]
    out = with_rewrite.restore("al", "I will write to <EMAIL_3> and EMAIL_3.", packed.request)
    assert "fraud.desk" not in out.text and ("<EMAIL_3>", "not_in_request") in out.withheld
    with_rewrite.close()


def test_a_pack_sends_the_keys_of_append_not_of_the_stored_text(store, tmp_path):
    """rev28 F2: what a reply may restore is decided from what protect gave the memory, not by re-reading its stored
    text: a memory whose text came to hold another memory's placeholder (here: edited in the real SQLite file)
    hydrates only its own."""
    import sqlite3

    store.append("al", "My bank is fraud.desk@barclays.co.uk.")
    pasted = store.append("al", "Call me on +1 415 555 0100 about the refund.")
    assert pasted.text == "Call me on <PHONE_1> about the refund."
    with sqlite3.connect(tmp_path / "memory.sqlite") as db:
        db.execute("UPDATE memories SET text = ? WHERE number = ?", ("Call me on <PHONE_1> or <EMAIL_1>.", pasted.id))
    packed = store.pack("al", "refund phone", budget_tokens=9)
    assert [item.text for item in packed.items] == ["Call me on <PHONE_1> or <EMAIL_1>."]
    out = store.restore("al", "Calling <PHONE_1>, mailing <EMAIL_1>.", packed.request)
    assert out.text == "Calling +1 415 555 0100, mailing <EMAIL_1>." and out.withheld == [
        ("<EMAIL_1>", "not_in_request")
    ]


def test_forget_keeps_the_values_other_memories_were_given_not_those_their_text_shows(tmp_path, monkeypatch):
    """`memory forget` (the real command) decides by the keys protect gave each memory at append, as a pack does: a
    memory whose stored text came to show another memory's placeholder (edited in the real SQLite file) no longer keeps
    that memory's value in the vault once it is forgotten (main kept it: forget read the stored texts)."""
    import sqlite3

    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    common = ["--store", str(tmp_path / "m.sqlite"), "--config", str(yaml)]
    run = CliRunner().invoke
    bank = run(app, ["memory", "append", "--user", "al", "--text", "My bank is fraud.desk@barclays.co.uk.", *common])
    phone = run(app, ["memory", "append", "--user", "al", "--text", "Call me on +1 415 555 0100.", *common])
    assert (bank.stdout, phone.stdout) == ("1\tMy bank is <EMAIL_1>.\n", "2\tCall me on <PHONE_1>.\n")
    with sqlite3.connect(tmp_path / "m.sqlite") as db:
        db.execute("UPDATE memories SET text = ? WHERE number = 2", ("Call me on <PHONE_1> or <EMAIL_1>.",))
    assert run(app, ["memory", "forget", "--user", "al", "--id", "1", *common]).exit_code == 0
    protector = make_protector(config)
    try:
        assert protector.restore("<EMAIL_1> <PHONE_1>", "memory:al").text == "<EMAIL_1> +1 415 555 0100"
    finally:
        protector.close()


def test_forget_keeps_a_value_another_memory_names_by_index_or_in_its_metadata(store):
    """Keys recorded at append name a placeholder by index and by token, those read from metadata (or from the text of
    an earlier version's row) by index alone: either keeps the value."""
    bank = store.append("al", "My bank is fraud.desk@barclays.co.uk.")
    note = store.append("al", "A note.", {"who": "fraud.desk@barclays.co.uk"})
    store.forget("al", bank.id)
    assert held(store, "al", bank.text) == "My bank is fraud.desk@barclays.co.uk."
    store.forget("al", note.id)
    assert held(store, "al", bank.text) == bank.text


def test_a_store_of_an_earlier_version_keys_its_memories_on_open(store, tmp_path):
    """A store written before the `placeholders` column: each memory's keys are read from its text once, on open."""
    import sqlite3

    memory = store.append("al", "My email is ann.lee@mailbox.org")
    store.close()
    with sqlite3.connect(tmp_path / "memory.sqlite") as db:
        db.execute("ALTER TABLE memories DROP COLUMN placeholders")
    reopened = MemoryStore(tmp_path / "memory.sqlite", store.protector, embed=fake_embed)
    packed = reopened.pack("al", "email", budget_tokens=20)
    assert [item.id for item in packed.items] == [memory.id]
    assert reopened.restore("al", "<EMAIL_1>", packed.request).text == "ann.lee@mailbox.org"
    reopened.close()


def test_bad_input_is_refused(store):
    with pytest.raises(ValueError):
        store.append("", "text")
    with pytest.raises(ValueError):
        store.append("alice", "   ")
    with pytest.raises(ValueError):
        store.pack("alice", "q", budget_tokens=0)


def test_input_rows_are_keyed_by_the_input_up_to_their_line_and_a_bad_line_is_named():
    first = '{"user": "ann", "text": "I live in Leeds"}\n'
    second = '{"user": "bo", "text": "hi", "metadata": {"tag": "x"}}\n'
    rows = input_rows(first + "\n" + second, "in.jsonl")
    assert [row[1:] for row in rows] == [("ann", "I live in Leeds", None), ("bo", "hi", {"tag": "x"})]
    grown = input_rows(first + "\n" + second + '{"user": "cy", "text": "more"}\n', "in.jsonl")
    assert [row[0] for row in grown[:2]] == [row[0] for row in rows] and len(set(row[0] for row in grown)) == 3
    assert input_rows(second, "in.jsonl")[0][0] != rows[1][0]  # the key is of the input up to the line, not the line
    for bad in ('{"user": "ann"}', "[1, 2]", "{oops"):
        with pytest.raises(DataError, match=r"^in\.jsonl:2: each line must be a JSON object"):
            input_rows(first + bad + "\n", "in.jsonl")


def test_nothing_raw_in_any_file_of_the_store(store, tmp_path):
    store.append("alice", PERSONAL_TEXT)
    store.pack("alice", "card 4716 2830 5914 4476", 400)
    files = [p for p in tmp_path.iterdir() if p.is_file()]
    assert any(p.name.startswith("memory.sqlite") for p in files)
    for path in files:
        data = path.read_bytes()
        for value in RAW_VALUES:
            assert value.encode() not in data, f"{value!r} found in {path.name}"


def _append_worker(tmp_path: Path, name: str, count: int, acks) -> None:
    """One writer process: its own store and vault connections; each id sent on the `acks` pipe once
    append returned (one message under PIPE_BUF bytes: written whole or not at all)."""
    config = ProtectConfig(vault_path=tmp_path / "vault.sqlite", key_source="env", llm_extractor=False)
    store = MemoryStore(tmp_path / "memory.sqlite", Protector(config, open_vault(config), Detector()), embed=fake_embed)
    for i in range(count):
        item = store.append("u", f"worker {name} memory {i} mail w{name}.n{i}@mailbox.org")
        acks.send(item.id)


def _workers(tmp_path: Path, names: list[str], count: int) -> tuple[list, Connection]:
    """Writer processes started fresh ("spawn": a fork of this test process, whose other threads may hold a
    lock such as SQLite's memory mutex at that moment, can hang for ever) and the read end of their
    acknowledgement pipe."""
    spawn = multiprocessing.get_context("spawn")
    read, write = spawn.Pipe(duplex=False)
    procs = [spawn.Process(target=_append_worker, args=(tmp_path, name, count, write)) for name in names]
    for proc in procs:
        proc.start()
    write.close()
    return procs, read


def _acknowledged(acks: Connection, count: int, timeout: float = 180) -> list[int]:
    """The first `count` ids the workers acknowledged; a worker that never answers fails the test, not hangs it."""
    ids = []
    for _ in range(count):
        assert acks.poll(timeout), f"{len(ids)} of {count} acknowledgements within {timeout} s"
        ids.append(acks.recv())
    return ids


def test_killed_append_loses_nothing_acknowledged(store, tmp_path):
    (proc,), acks = _workers(tmp_path, ["k"], 100000)
    acknowledged = _acknowledged(acks, 30)
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    rows = store.list("u")
    ids = {m.id for m in rows}
    assert set(acknowledged) <= ids
    for m in rows:  # no half row: every row has its text and its vector
        assert m.text.startswith("worker k memory") and "<EMAIL" in m.text
    assert len(store._matrix("u").ids) == len(rows)
    assert "@mailbox.org" in held(store, "u", rows[-1].text)


def test_concurrent_appends_from_four_processes(store, tmp_path):
    procs, acks = _workers(tmp_path, [str(n) for n in range(4)], 10)  # twice the cores: writers contend for the file
    acknowledged = set(_acknowledged(acks, 40))
    for proc in procs:
        proc.join(timeout=60)
    assert all(p.exitcode == 0 for p in procs)
    rows = store.list("u")
    assert len(acknowledged) == 40 and {m.id for m in rows} == acknowledged
    for m in rows:  # every placeholder restores to its own worker's value
        worker, i = m.text.split()[1], m.text.split()[3]
        assert held(store, "u", m.text).endswith(f"w{worker}.n{i}@mailbox.org")


def test_cli_shapes(tmp_path, monkeypatch):
    """The real command with the real MiniLM embedder (loaded from the offline package)."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    common = ["--store", str(tmp_path / "m.sqlite"), "--config", str(yaml)]
    run = CliRunner().invoke
    assert (
        run(app, ["memory", "append", "--user", "ann", "--text", "My email is ann.lee@mailbox.org", *common]).stdout
        == "1\tMy email is <EMAIL_1>\n"
    )
    rows = tmp_path / "in.jsonl"
    rows.write_text('{"user": "ann", "text": "I like jazz", "metadata": {"k": 1}}\n')
    assert run(app, ["memory", "append", "-i", str(rows), *common]).exit_code == 0
    packed = json.loads(
        run(app, ["memory", "pack", "--user", "ann", "--query", "ann.lee@mailbox.org", "--json", *common]).stdout
    )
    assert (
        set(packed) == {"text", "items", "request"}
        and set(packed["items"][0]) == {"id", "text", "score"}
        and packed["items"][0]["id"] == 1
    )
    request = ["--request", packed["request"]]
    assert (
        run(app, ["memory", "hydrate", "--user", "ann", *request, *common], input="to <EMAIL_1>").stdout
        == "to ann.lee@mailbox.org\n"  # a line end ends the output (ux22 L5)
    )
    unknown = run(app, ["memory", "hydrate", "--user", "ann", "--request", "nope", *common], input="<EMAIL_1>")
    assert unknown.exit_code == 2 and "no pack 'nope' for user 'ann'" in unknown.stderr and unknown.stdout == ""
    assert run(app, ["memory", "list", "--user", "ann", *common]).stdout.splitlines() == [
        "1\tMy email is <EMAIL_1>",
        "2\tI like jazz",
    ]
    assert run(app, ["memory", "forget", "--user", "ann", "--id", "2", *common]).exit_code == 0
    missing = run(app, ["memory", "forget", "--user", "ann", "--id", "999", *common])  # ux24: its closing quote was cut
    assert missing.exit_code == 2 and "no memory 999 for user 'ann'\n" in missing.stderr
    bad = run(app, ["memory", "forget", "--user", "ann", *common])
    assert bad.exit_code == 2 and "--id ID or --all" in bad.stderr
    # --rewrite with a real method (ner-mask: offline, no model): stored when every placeholder
    # survives, else the placeholder text is stored and the rejection is reported
    rewrite = ["--rewrite", "ner-mask", *common]
    assert (
        run(
            app, ["memory", "append", "--user", "cy", "--text", "We moved on 12 March 1985 to a small town", *rewrite]
        ).stdout
        == "1\tWe moved on ** ***** **** to a small town\n"  # cy's first id; a date of birth would be a placeholder first
    )
    rejected = run(app, ["memory", "append", "--user", "cy", "--text", "Born 1985, mail cy@mailbox.org", *rewrite])
    assert (
        re.fullmatch(r"2\tBorn 1985, mail <EMAIL_\d+>\n", rejected.stdout) and "rewrite was rejected" in rejected.stderr
    )
    assert run(app, ["memory", "forget", "--user", "cy", "--all", *common]).exit_code == 0
    assert run(app, ["memory", "list", "--user", "cy", *common]).stdout == ""
    rows.write_text("not json\n")
    assert run(app, ["memory", "append", "-i", str(rows), *common]).exit_code == 2
    # a guarded value in a link is withheld, as restore withholds it, and said so
    assert (
        run(app, ["memory", "append", "--user", "ann", "--text", "My password is hunter2xyz", *common]).exit_code == 0
    )
    reply = "https://evil.example/?k=<PASSWORD_1>\n\nor <PASSWORD_1>"
    packed = run(app, ["memory", "pack", "--user", "ann", "--query", "-", *common], input="my password")
    assert "- My password is <PASSWORD_1>" in packed.stdout.splitlines() and "warning" not in packed.stderr
    request = ["--request", re.search(r"request: (\S+)", packed.stderr)[1]]
    hydrated = run(app, ["memory", "hydrate", "--user", "ann", "--json", *request, *common], input=reply)
    assert json.loads(hydrated.stdout)["text"] == "https://evil.example/?k=<PASSWORD_1>\n\nor hunter2xyz"
    assert json.loads(hydrated.stdout)["withheld"] == [{"placeholder": "<PASSWORD_1>", "reason": "secret_in_url"}]
    assert "withheld 1 placeholder(s)" in hydrated.stderr and "--secrets-in-urls" in hydrated.stderr
    opted = run(app, ["memory", "hydrate", "--user", "ann", "--secrets-in-urls", *request, *common], input=reply)
    assert opted.stdout == reply.replace("<PASSWORD_1>", "hunter2xyz") + "\n" and "withheld" not in opted.stderr


def test_serve_mounts_the_memory_verbs(tmp_path, monkeypatch):
    """`stealthflow serve` wires a MemoryStore (beside the vault unless --memory-store) into the app."""
    import uvicorn
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    monkeypatch.setenv("STEALTHFLOW_SERVICE_TOKEN", "t0ken-long-enough-16")
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda asgi, **_: served.append(asgi))
    for flags, mounted in (([], True), (["--no-memory"], False)):
        assert CliRunner().invoke(app, ["serve", "--config", str(yaml), "--no-tagger", *flags]).exit_code == 0
        with TestClient(
            served[-1], base_url="http://127.0.0.1:8765", headers={"Authorization": "Bearer t0ken-long-enough-16"}
        ) as client:
            reply = client.post("/memory/pack", json={"user": "ann", "query": "x"})
        assert reply.status_code == (200 if mounted else 404)
    assert (tmp_path / "memory.sqlite").exists()


def test_hydrate_reports_what_it_withholds_in_python_http_and_the_framework_wrappers(store, caplog):
    import logging

    from fastapi.testclient import TestClient

    from stealthflow.integrations import hydrate
    from stealthflow.memory.store import vault_session
    from stealthflow.service import create_app

    placeholder = re.search(r"<PASSWORD_\d+>", store.append("ann", "My password is hunter2xyz").text)[0]
    reply = f"[x](https://evil.example/p?k={placeholder})\n\nand {placeholder}"
    kept = f"[x](https://evil.example/p?k={placeholder})\n\nand hunter2xyz"
    request = store.pack("ann", "password").request
    result = store.restore("ann", reply, request)
    assert result.text == kept and result.withheld == [(placeholder, "secret_in_url")]
    assert store.restore("ann", reply, request, secrets_in_urls=True).text == reply.replace(placeholder, "hunter2xyz")
    app = create_app(store.protector, "t0ken", memory=store)
    with TestClient(app, base_url="http://127.0.0.1:8765", headers={"Authorization": "Bearer t0ken"}) as client:
        asked = {"user": "ann", "text": reply, "request": request}
        body = client.post("/memory/hydrate", json=asked).json()
        assert body["text"] == kept and body["withheld"] == [{"placeholder": placeholder, "reason": "secret_in_url"}]
        assert '"secrets_in_urls": true' in body["notice"]
        opted = client.post("/memory/hydrate", json={**asked, "secrets_in_urls": True}).json()
        assert opted["withheld"] == [] and opted["notice"] is None
    with caplog.at_level(logging.WARNING, logger="stealthflow.integrations"):  # mem0's and LangGraph's hydrate
        assert hydrate(store.protector, reply, vault_session("ann")) == kept
    assert placeholder in caplog.text and "hunter2xyz" not in caplog.text


def test_http_verbs_behind_the_service_token(store):
    from fastapi.testclient import TestClient

    from stealthflow.service import create_app

    app = create_app(store.protector, "t0ken", memory=store)
    with TestClient(app, base_url="http://127.0.0.1:8765", headers={"Authorization": "Bearer t0ken"}) as client:
        item = client.post("/memory/append", json={"user": "ann", "text": "My email is ann.lee@mailbox.org"}).json()
        assert item["text"] == "My email is <EMAIL_1>"
        packed = client.post(
            "/memory/pack", json={"user": "ann", "query": "ann.lee@mailbox.org", "budget_tokens": 100}
        ).json()
        assert packed["items"][0]["id"] == item["id"]
        empty = client.post("/memory/pack", json={"user": "bob", "query": "email"}).json()
        assert empty == {"text": "", "items": [], "request": ""}
        assert (
            client.post(
                "/memory/hydrate", json={"user": "ann", "text": packed["text"], "request": packed["request"]}
            ).json()["text"]
            == "- My email is ann.lee@mailbox.org"
        )
        bobs = client.post("/memory/hydrate", json={"user": "bob", "text": "<EMAIL_1>", "request": empty["request"]})
        assert bobs.json()["text"] == "<EMAIL_1>"
        # uxfixb: the placeholders it could not resolve, as /restore and `memory hydrate --json` list them
        assert bobs.json()["unresolved"] == ["<EMAIL_1>"] and bobs.json()["restored"] == 0
        assert (
            bobs.json()["notice"]
            == "1 placeholder(s) were not issued to this user's memories and stay as they are: <EMAIL_1>"
        )
        ann_pack_for_bob = {"user": "bob", "text": "<EMAIL_1>", "request": packed["request"]}
        assert client.post("/memory/hydrate", json=ann_pack_for_bob).status_code == 404
        assert client.post("/memory/hydrate", json={"user": "ann", "text": "<EMAIL_1>"}).status_code == 422
        assert client.post("/memory/forget", json={"user": "ann", "id": 999}).status_code == 404
        assert client.post("/memory/forget", json={"user": "ann", "id": item["id"]}).json() == {"forgotten": 1}
    with TestClient(app, base_url="http://127.0.0.1:8765") as anonymous:
        for verb in ("append", "pack", "hydrate", "forget"):
            assert anonymous.post(f"/memory/{verb}", json={"user": "ann", "text": "x", "query": "x"}).status_code == 401
    with TestClient(app, base_url="http://evil.example:8765", headers={"Authorization": "Bearer t0ken"}) as rebinding:
        assert rebinding.post("/memory/pack", json={"user": "ann", "query": "x"}).status_code in (400, 403, 421)


def test_a_memory_users_values_restore_only_through_hydrate_with_its_request(store):
    """rev21 finding 7: the page's credential (or the service token) named a memory user's vault session on the
    service's session routes and read its values around pack -> hydrate. Those routes refuse a memory: session and
    read nothing; /memory/hydrate with the pack's request still restores (the fake embedder of this file)."""
    from fastapi.testclient import TestClient

    from stealthflow.service import create_app
    from stealthflow.service.page import PageLogins

    logins = PageLogins()
    app = create_app(store.protector, "t0ken", memory=store, page=logins)
    owner = {"Authorization": "Bearer t0ken"}
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        client.post("/memory/append", headers=owner, json={"user": "ann", "text": "My email is ann.lee@mailbox.org"})
        credential = client.post("/ui/signin", json={"token": logins.new_link()}).json()["credential"]
        for headers in (owner, {"X-Stealthflow-Page": credential}):
            answers = [
                client.get("/sessions/memory:ann", headers=headers),
                client.post("/restore", headers=headers, json={"session": "memory:ann", "text": "<EMAIL_1>"}),
                client.post("/restore/stream?session=memory:ann", headers=headers, content=b"<EMAIL_1>"),
                client.post("/analyze", headers=headers, json={"session": "memory:ann", "text": "hi <EMAIL_1>"}),
                client.post("/protect", headers=headers, json={"session": "memory:ann", "text": "bob@mailbox.org"}),
                client.delete("/sessions/memory:ann", headers=headers),
            ]
            assert [answer.status_code for answer in answers] == [403, 422, 403, 422, 422, 403]
            assert not any("ann.lee" in answer.text for answer in answers)
            assert all("/memory/hydrate" in answer.text for answer in answers)
        packed = client.post("/memory/pack", headers=owner, json={"user": "ann", "query": "email"}).json()
        hydrated = client.post(
            "/memory/hydrate", headers=owner, json={"user": "ann", "text": "<EMAIL_1>", "request": packed["request"]}
        )
        assert hydrated.json()["text"] == "ann.lee@mailbox.org"


def test_cli_says_on_stderr_when_a_user_has_no_memories_and_keeps_stdout_empty(tmp_path, monkeypatch):
    """`pack` and `list` for a user without memories (never had any, or forgot them all) and `pack` when none fits
    the budget: a line on stderr, nothing on stdout but the empty JSON `pack --json` promises, exit 0.
    FAKE embedder (hashed bag of words) in place of MiniLM."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    monkeypatch.setattr("stealthflow.memory.store.minilm_embedder", lambda: fake_embed)
    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    common = ["--store", str(tmp_path / "m.sqlite"), "--config", str(yaml)]
    run = CliRunner().invoke
    for verb in (["pack", "--query", "-"], ["list"]):
        said = run(app, ["memory", *verb, "--user", "nobody", *common], input="x")
        assert (said.exit_code, said.stdout, said.stderr) == (0, "", "no memories for user nobody\n")
    packed = run(app, ["memory", "pack", "--user", "nobody", "--query", "-", "--json", *common], input="x")
    assert json.loads(packed.stdout) == {"text": "", "items": [], "request": ""}
    assert "no memories for user nobody" in packed.stderr
    assert run(app, ["memory", "list", "--user", "nobody", "--json", *common]).stdout == ""
    assert run(app, ["memory", "append", "--user", "ann", "--text", "I like jazz a lot", *common]).exit_code == 0
    small = run(app, ["memory", "pack", "--user", "ann", "--query", "-", "--budget", "1", *common], input="jazz")
    assert (small.exit_code, small.stdout, small.stderr) == (
        0,
        "",
        "no memory of user ann fits in 1 tokens (1 stored)\n",
    )
    assert run(app, ["memory", "forget", "--user", "ann", "--all", *common]).exit_code == 0
    emptied = run(app, ["memory", "list", "--user", "ann", *common])
    assert (emptied.exit_code, emptied.stdout, emptied.stderr) == (0, "", "no memories for user ann\n")


def test_cli_stores_a_text_from_stdin_without_the_line_end_a_shell_adds(tmp_path, monkeypatch):
    """`echo TEXT | memory append --text -` stores TEXT, not TEXT and a newline (`list` printed a blank line after
    each memory); every other character is kept, a blank line inside or a second line end included.
    FAKE embedder (hashed bag of words) in place of MiniLM."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    monkeypatch.setattr("stealthflow.memory.store.minilm_embedder", lambda: fake_embed)
    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    common = ["--user", "ann", "--store", str(tmp_path / "m.sqlite"), "--config", str(yaml)]
    run = CliRunner().invoke
    for typed in ("I like jazz\n", "Two lines\n\nof it\n\n", "From Windows\r\n"):
        assert run(app, ["memory", "append", "--text", "-", "--no-tagger", *common], input=typed).exit_code == 0
    listed = run(app, ["memory", "list", *common])
    assert listed.stdout == "1\tI like jazz\n2\tTwo lines\n\nof it\n\n3\tFrom Windows\n"
    stored = run(app, ["memory", "list", "--json", *common]).stdout.splitlines()
    assert [json.loads(line)["text"] for line in stored] == ["I like jazz", "Two lines\n\nof it\n", "From Windows"]


# rev22 F8: metadata keys and numbers that hold values
VALUED_METADATA = {"contacts": {"dana.kerr@mailbox.org": "client"}, "phone": 447700900456, "n": 3, "ok": True}


def test_metadata_keys_and_numbers_that_hold_values_are_protected_at_rest(store, tmp_path):
    item = store.append("alice", "Met the new client today.", VALUED_METADATA)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    stored = json.loads(store._db.execute("SELECT metadata FROM memories").fetchone()[0])
    assert stored == {"contacts": {"<EMAIL_1>": "client"}, "phone": "<PHONE_1>", "n": 3, "ok": True}
    blob = b"".join(p.read_bytes() for p in tmp_path.glob("memory.sqlite*"))
    assert b"dana.kerr@mailbox.org" not in blob and b"447700900456" not in blob
    # the local caller gets the values back; a number that held one comes back as its text
    assert store.list("alice")[0].metadata == {**VALUED_METADATA, "phone": "447700900456"}
    assert item.metadata == VALUED_METADATA


# rev22 F9: memory ids
def test_memory_ids_are_counted_per_user(store):
    first = store.append("alice", "note one").id
    bobs = [store.append("bob", f"bob's note {n}").id for n in range(5)]
    assert (first, store.append("alice", "note two").id, bobs) == (1, 2, [1, 2, 3, 4, 5])
    assert store.forget("bob", 5) == 1 and store.append("bob", "again").id == 6  # a forgotten id is not given again
    assert [m.text for m in store.list("alice")] == ["note one", "note two"]


LEGACY_SCHEMA = """
CREATE TABLE memories (id INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL, text TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL, vector BLOB NOT NULL);
CREATE INDEX memories_user ON memories(user, id);
CREATE TABLE line_digests (line TEXT PRIMARY KEY, memory_id INTEGER NOT NULL);
"""  # what earlier versions wrote: one id counter over every user


def test_a_store_of_an_earlier_version_keeps_its_ids_and_counts_on_per_user(tmp_path, monkeypatch):
    import sqlite3

    path = tmp_path / "memory.sqlite"
    db = sqlite3.connect(path)
    db.executescript(LEGACY_SCHEMA)
    for user, text in [("alice", "tea"), ("bob", "coffee"), ("bob", "juice"), ("alice", "cake")]:
        vector = fake_embed([text])[0].astype("float32").tobytes()
        db.execute("INSERT INTO memories (user, text, created, vector) VALUES (?, ?, 0, ?)", (user, text, vector))
    db.commit()
    db.close()
    store = MemoryStore(path, make_protector(protect_config(tmp_path, monkeypatch)), embed=fake_embed)
    assert [(m.id, m.text) for m in store.list("alice")] == [(1, "tea"), (4, "cake")]
    assert store.pack("bob", "juice", 400).items[0].id == 3
    assert store.append("alice", "scones").id == 5 and store.append("bob", "water").id == 4
    assert store.append("carol", "first").id == 1
    assert store.forget("alice", 4) == 1 and [m.text for m in store.list("alice")] == ["tea", "scones"]
    store.close()
    reopened = MemoryStore(path, store.protector, embed=fake_embed)
    assert reopened.append("alice", "more").id == 6
    reopened.close()


def test_hydrate_over_http_lists_what_it_could_not_resolve_as_the_cli_does(store):
    """uxfixb: /memory/hydrate answered {text, withheld, notice} and said nothing of a placeholder that is not the
    user's; it answers as /restore and `memory hydrate --json` do (`result_json`), over a real loopback server."""
    import httpx

    from stealthflow.placeholders.scope import result_json
    from stealthflow.service import create_app
    from stealthflow.testing.loopback import serve

    mine = store.append("ann", "My email is ann.lee@mailbox.org").text.split()[-1]
    request = store.pack("ann", "email").request
    reply = f"I wrote to {mine} and <EMAIL_9>."
    with serve(create_app(store.protector, "t0ken-long-enough-16", memory=store)) as port:
        answer = httpx.post(
            f"http://127.0.0.1:{port}/memory/hydrate",
            headers={"Authorization": "Bearer t0ken-long-enough-16"},
            json={"user": "ann", "text": reply, "request": request},
        ).json()
    assert answer == {**result_json(store.restore("ann", reply, request)), "notice": answer["notice"]}
    assert answer["text"] == "I wrote to ann.lee@mailbox.org and <EMAIL_9>."
    assert answer["restored"] == 1 and answer["unresolved"] == ["<EMAIL_9>"] and answer["withheld"] == []
    assert "not issued to this user's memories" in answer["notice"] and "<EMAIL_9>" in answer["notice"]


def test_pack_leaves_out_memories_below_the_relevance_floor_cli_http_and_python(tmp_path, monkeypatch):
    """ux28 finding 20, with the real MiniLM: a pack filled its budget with unrelated memories (similarity 0.04 and
    0.008 to the query), personal text sent for nothing. By default only the related memory goes; `min_score=-1`
    packs them all, to the budget; the CLI (`--min-score`) and a real HTTP client (`min_score`) say the same, and a
    pack that leaves out every memory says why on stderr."""
    import httpx
    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.memory.store import MIN_SCORE
    from stealthflow.service import create_app
    from stealthflow.testing.loopback import serve

    config = protect_config(tmp_path, monkeypatch)
    store = MemoryStore(tmp_path / "m.sqlite", make_protector(config))  # the real MiniLM
    memories = [
        "My email is ann.lee@mailbox.org and I play the cello",
        "My GP is Dr. Cornelia Haberland in Freiburg; I take sertraline for my depression.",
        "My manager wants the Q3 numbers by Thursday; his mobile is +1 415 555 0100",
    ]
    ids = [store.append("ann", text).id for text in memories]
    query = "Which doctor do I see and what do I take for my depression?"
    packed = store.pack("ann", query)
    assert [item.id for item in packed.items] == [ids[1]] and packed.below_floor == 2
    assert all(item.score >= MIN_SCORE for item in packed.items)
    assert sorted(item.id for item in store.pack("ann", query, min_score=-1.0).items) == sorted(ids)
    with pytest.raises(ValueError, match="min_score"):
        store.pack("ann", query, min_score=1.5)
    with serve(create_app(store.protector, "t0ken-long-enough-16", memory=store)) as port:
        url, auth = f"http://127.0.0.1:{port}/memory/pack", {"Authorization": "Bearer t0ken-long-enough-16"}
        default = httpx.post(url, headers=auth, json={"user": "ann", "query": query}).json()
        every = httpx.post(url, headers=auth, json={"user": "ann", "query": query, "min_score": -1}).json()
        wrong = httpx.post(url, headers=auth, json={"user": "ann", "query": query, "min_score": 2})
    assert [item["id"] for item in default["items"]] == [ids[1]] and len(every["items"]) == 3
    assert wrong.status_code == 422
    store.close()

    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    common = ["memory", "pack", "--user", "ann", "--query", "-", "--store", str(tmp_path / "m.sqlite"), "--config"]
    run = CliRunner().invoke
    said = run(app, [*common, str(yaml), "--json"], input=query)
    assert said.exit_code == 0 and [i["id"] for i in json.loads(said.stdout)["items"]] == [ids[1]]
    every = run(app, [*common, str(yaml), "--json", "--min-score", "-1"], input=query)
    assert len(json.loads(every.stdout)["items"]) == 3
    none = run(app, [*common, str(yaml)], input="the rules of cricket")
    assert none.exit_code == 0 and none.stdout == ""
    assert "no memory of user ann is similar enough to the query" in " ".join(none.stderr.split())


def test_a_pack_purpose_reaches_the_embedder_redacted_python_and_http(tmp_path, monkeypatch):
    """rev31: `pack(purpose=...)` embedded the purpose as it was, beside the redacted query, so an `embed` off this
    device (a hosted embeddings endpoint) got its values. The recording embedder stands in for such an endpoint
    (FAKE: hashed bag of words, labelled); the store, its SQLite file, the vault and the HTTP service are real."""
    import httpx

    from stealthflow.service import create_app
    from stealthflow.testing.loopback import serve

    sent: list[str] = []

    def recording_embed(texts):  # FAKE embedder: records what a hosted one would be sent
        sent.extend(texts)
        return fake_embed(texts)

    config = protect_config(tmp_path, monkeypatch)
    store = MemoryStore(tmp_path / "m.sqlite", make_protector(config), embed=recording_embed)
    store.append("ann", "My billing e-mail is quillon.varrick@examplemail.org.")
    purpose = "refund to quillon.varrick@examplemail.org, card 4539 5787 6362 1486"
    packed = store.pack("ann", "what is my billing e-mail?", purpose=purpose, min_score=-1)
    with serve(create_app(store.protector, "t0ken-long-enough-16", memory=store)) as port:
        answer = httpx.post(
            f"http://127.0.0.1:{port}/memory/pack",
            headers={"Authorization": "Bearer t0ken-long-enough-16"},
            json={"user": "ann", "query": "what is my billing e-mail?", "purpose": purpose, "min_score": -1},
        )
    store.close()
    assert answer.status_code == 200 and len(answer.json()["items"]) == len(packed.items) == 1
    queries = [text for text in sent if "refund" in text]
    assert len(queries) == 2 and all(text.startswith("refund to <EMAIL_1>, card <CREDIT_CARD>") for text in queries)
    assert not [text for text in sent if "quillon" in text or "6362" in text]
