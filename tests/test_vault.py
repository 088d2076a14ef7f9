"""The vault: stable placeholders, key errors, tamper detection, concurrency, forgetting,
and no plaintext value in the vault files."""

from __future__ import annotations

import json
import os
import sqlite3
import threading

import pytest
from placeholder_fixtures import PERSONAL_TEXT, RAW_VALUES, key_file_config, make_protector, protect_config

from stealthflow.placeholders.keys import VaultKeyError, VaultKeys, load_keys, new_secret
from stealthflow.placeholders.vault import Vault, VaultTampered


@pytest.fixture
def vault(tmp_path, monkeypatch):
    config = protect_config(tmp_path, monkeypatch)
    with Vault(config.vault_path, load_keys("env")) as opened:
        yield opened


def test_same_value_same_placeholder_in_its_session_across_restarts_numbered_per_session(tmp_path, monkeypatch):
    secret = new_secret()
    config = protect_config(tmp_path, monkeypatch, secret=secret)
    first = make_protector(config)
    a = first.protect("mail anna@mailbox.org or ANNA@mailbox.org", "s1")
    b = first.protect("also bob@mailbox.org, then anna@mailbox.org", "s2")
    first.close()
    again = make_protector(protect_config(tmp_path, monkeypatch, secret=secret))
    c = again.protect("restart: anna@mailbox.org, then bob@mailbox.org", "s1")
    assert [s.placeholder for s in a.spans] == ["<EMAIL_1>", "<EMAIL_1>"]
    assert [s.placeholder for s in b.spans] == ["<EMAIL_1>", "<EMAIL_2>"]  # s2 numbers its own values
    assert [s.placeholder for s in c.spans] == ["<EMAIL_1>", "<EMAIL_2>"]
    assert again.restore("<EMAIL_1> <EMAIL_2>", "s1").text == "anna@mailbox.org bob@mailbox.org"
    assert again.restore("<EMAIL_1> <EMAIL_2>", "s2").text == "bob@mailbox.org anna@mailbox.org"


def test_hmac_style_is_stable_and_distinct(tmp_path, monkeypatch):
    protector = make_protector(protect_config(tmp_path, monkeypatch, style="hmac"))
    one = protector.protect("a@mailbox.org b@mailbox.org a@mailbox.org", "s")
    tokens = [s.placeholder for s in one.spans]
    assert tokens[0] == tokens[2] != tokens[1]
    assert all(t.startswith("[[EMAIL:") and len(t) == len("[[EMAIL:12345678]]") for t in tokens)
    assert protector.restore(one.text, "s").text == "a@mailbox.org b@mailbox.org a@mailbox.org"


@pytest.mark.parametrize("style", ["indexed", "hmac"])
def test_a_session_of_more_than_a_thousand_values_of_one_type_restores(tmp_path, monkeypatch, style):
    """`<EMAIL_1000>` and later are indexes, not all-digit HMAC tokens."""
    protector = make_protector(protect_config(tmp_path, monkeypatch, style=style))
    text = " ".join(f"u{i}@web.de" for i in range(1005))
    protected = protector.protect(text, "many")
    assert len(protected.spans) == 1005 and "u1004@web.de" not in protected.text
    if style == "indexed":
        assert "<EMAIL_1005>" in protected.text
    restored = protector.restore(protected.text, "many")
    assert restored.text == text and restored.unresolved == [] and restored.restored == 1005
    protector.close()


def test_a_digester_reads_the_key_once_and_digests_per_scope(vault, monkeypatch):
    """`Vault.digester` reads the vault's key once; the function it returns queries nothing, digests the same data
    alike, and another scope (or the same data under another vault's key) gives another digest."""
    import hashlib

    reads = []
    refresh = vault._refresh_keys
    monkeypatch.setattr(vault, "_refresh_keys", lambda: reads.append(1) or refresh())
    digest = vault.digester("memory input line\x00ann")
    assert [digest("call 0151 2345 6789") for _ in range(3)] == [digest("call 0151 2345 6789")] * 3
    assert len(reads) == 1
    assert digest("call 0151 2345 6789") != vault.digester("memory input line\x00bob")("call 0151 2345 6789")
    assert digest("call 0151 2345 6789") != hashlib.sha256(b"call 0151 2345 6789").hexdigest()
    assert vault.input_digester("ann", "s1")("call") == vault.digester("protect input\x00ann\x00s1")("call")[:32]


def test_truncated_hmac_collisions_are_lengthened(vault, monkeypatch):
    original = Vault._mac  # every value's full token is the same: truncations always collide
    monkeypatch.setattr(
        Vault, "_mac", lambda self, *parts, **kw: "ab" * 32 if parts[0] == "token" else original(self, *parts, **kw)
    )
    first = vault.entry_for("u", "s", "EMAIL", "a@mailbox.org")
    second = vault.entry_for("u", "s", "EMAIL", "b@mailbox.org")
    assert first.token != second.token and second.token.startswith(first.token)
    third, fourth = vault.entries_for(
        "u", "s", [("EMAIL", "c@mailbox.org"), ("EMAIL", "d@mailbox.org")]
    )  # new in one message
    assert len({first.token, second.token, third.token, fourth.token}) == 4
    assert [vault.lookup("u", "s", "EMAIL", token=e.token) for e in (third, fourth)] == [
        "c@mailbox.org",
        "d@mailbox.org",
    ]


def test_wrong_key_is_a_clear_error(tmp_path, monkeypatch):
    config = protect_config(tmp_path, monkeypatch)
    Vault(config.vault_path, load_keys("env")).close()
    with pytest.raises(VaultKeyError, match="wrong vault key"):
        Vault(config.vault_path, VaultKeys.from_secret(os.urandom(32)))


def test_key_sources_fail_clearly(tmp_path, monkeypatch):
    monkeypatch.delenv("STEALTHFLOW_VAULT_KEY", raising=False)
    with pytest.raises(VaultKeyError, match="no vault key"):
        load_keys("env")
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", "not base64 !!")
    with pytest.raises(VaultKeyError):
        load_keys("env")
    key_file = tmp_path / "vault.key"
    keys = load_keys("file", key_file)  # created on first use, owner-only
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    assert load_keys("file", key_file).hmac == keys.hmac
    key_file.chmod(0o644)
    with pytest.raises(VaultKeyError, match="chmod 600"):
        load_keys("file", key_file)


def test_tampered_rows_are_detected(vault):
    vault.entry_for("u", "s", "EMAIL", "a@mailbox.org")
    vault.entry_for("u", "s", "EMAIL", "b@mailbox.org")
    db = sqlite3.connect(vault.path)
    rows = db.execute("SELECT id, ciphertext FROM entries ORDER BY idx").fetchall()
    db.execute("UPDATE entries SET ciphertext = ? WHERE id = ?", (rows[1][1], rows[0][0]))  # move a ciphertext
    db.commit()
    with pytest.raises(VaultTampered):
        vault.lookup("u", "s", "EMAIL", index=1)
    db.execute("UPDATE entries SET idx = 7 WHERE id = ?", (rows[1][0],))  # renumber a row
    db.execute("INSERT INTO issued VALUES (?, 'other', 'forged')", (rows[1][0],))  # grant a session
    db.commit()
    with pytest.raises(VaultTampered):
        vault.lookup("u", "s", "EMAIL", index=7)
    assert vault.lookup("u", "other", "EMAIL", index=7) is None  # a grant alone does not move a row to another session
    db.execute("UPDATE entries SET session = 'other' WHERE id = ?", (rows[1][0],))  # nor does moving the row
    db.commit()
    with pytest.raises(VaultTampered):
        vault.lookup("u", "other", "EMAIL", index=7)
    db.close()


def test_restore_only_hydrates_this_user_and_session(vault):
    entry = vault.entry_for("alice", "s1", "REAL_NAME", "Alice Liddell")
    assert vault.lookup("alice", "s1", "REAL_NAME", index=entry.index) == "Alice Liddell"
    assert vault.lookup("alice", "s2", "REAL_NAME", index=entry.index) is None
    assert vault.lookup("bob", "s1", "REAL_NAME", index=entry.index) is None
    assert vault.lookup("alice", "s1", "REAL_NAME", token=entry.token) == "Alice Liddell"


def test_eight_threads_lose_nothing(tmp_path, monkeypatch):
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    errors, results = [], {}

    def work(worker: int) -> None:
        try:
            for i in range(15):
                text = f"mail user{i}@mailbox.org and w{worker}x{i}@mailbox.org"
                protected = protector.protect(text, f"s{worker}")
                results[(worker, i)] = (
                    protector.restore(protected.text, f"s{worker}").text == text,
                    protected.spans[0].placeholder,
                )
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(results) == 120 and all(ok for ok, _ in results.values())
    for i in range(15):  # each session numbers its own values: the same history, the same placeholders
        assert len({results[(w, i)][1] for w in range(8)}) == 1
    assert protector.vault.count() == 8 * 30


def test_forget_value_and_session(vault):
    vault.entry_for("u", "s1", "EMAIL", "a@mailbox.org")
    vault.entry_for("u", "s1", "PHONE", "+1 415 555 2671")
    vault.entry_for("u", "s2", "PHONE", "(415) 555-2671")  # same number, shared with s2
    vault.entry_for("u", "s1", "REAL_NAME", "Anna")
    vault.entry_for("u", "s2", "EMAIL", "a@mailbox.org")
    assert vault.forget_value("u", "A@MAILBOX.ORG") == 2  # from every session
    assert vault.lookup("u", "s1", "EMAIL", index=1) is None and vault.lookup("u", "s2", "EMAIL", index=1) is None
    assert vault.forget_session("u", "s1") == (
        2,
        2,
    )  # 2 grants gone, 2 values (its phone, its name): s2 holds its own phone
    assert vault.lookup("u", "s2", "PHONE", index=1) == "(415) 555-2671"
    assert vault.lookup("u", "s1", "PHONE", index=1) is None
    assert vault.entry_for("u", "s1", "EMAIL", "new@mailbox.org").index == 2  # indices are never reused


def test_session_row_is_written_once_a_second_and_again_after_a_deletion(vault, monkeypatch):
    """`issue` skips writing the session's row it wrote this second (it would hold the same), but not after the session
    was forgotten (the deletion generation changed), nor in the next second."""
    import stealthflow.placeholders.vault as vault_module

    statements: list[str] = []
    vault._db.set_trace_callback(statements.append)
    monkeypatch.setattr(vault_module, "_now", lambda: "2026-12-01T09:00:00+00:00")
    vault.entry_for("u", "s1", "EMAIL", "a@mailbox.org")
    vault.entry_for("u", "s1", "EMAIL", "b@mailbox.org")  # the same second: the row holds that already
    assert sum("INTO sessions" in statement for statement in statements) == 1
    vault.forget_session("u", "s1")
    assert not vault.session_listed("u", "s1")
    vault.entry_for("u", "s1", "EMAIL", "c@mailbox.org")  # the same second, after a deletion: written again
    assert vault.session_listed("u", "s1")
    monkeypatch.setattr(vault_module, "_now", lambda: "2026-12-01T09:00:01+00:00")
    vault.entry_for("u", "s1", "EMAIL", "d@mailbox.org")
    assert [row["last_used"] for row in vault.sessions("u")] == ["2026-12-01T09:00:01+00:00"]
    assert sum("INTO sessions" in statement for statement in statements) == 3


def test_no_plaintext_in_vault_files(tmp_path, monkeypatch, caplog):
    caplog.set_level("DEBUG")
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protected = protector.protect(PERSONAL_TEXT, "s1")
    assert len(protected.spans) >= 5
    protector.close()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("vault.sqlite"))
    for value in RAW_VALUES:
        assert value.encode() not in stored and value.lower().encode() not in stored
        assert value not in caplog.text


def test_vault_list_export_import_and_rotate_key_round_trip(tmp_path, monkeypatch):
    """The vault basics through the CLI: list (no values), encrypted export/import, key rotation
    (earlier placeholders still restore with the new key, never with the old)."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    runner = CliRunner()
    config = key_file_config(tmp_path, monkeypatch)
    key_file = tmp_path / "vault.key"
    args = ["--config", str(config)]
    protected = runner.invoke(
        app, ["protect", "mail dana@mailbox.org", "--rewrite", "none", "--session", "chat-alpha-42", *args]
    )
    assert protected.exit_code == 0 and "<EMAIL_1>" in protected.stdout

    listed = runner.invoke(app, ["vault", "list", "--json", *args])
    assert listed.exit_code == 0 and "dana" not in listed.stdout
    assert json.loads(listed.stdout)["sessions"][0] | {"created": "", "last_used": ""} == {
        "session": "chat-alpha-42",
        "values": 1,
        "created": "",
        "last_used": "",
    }

    backup = tmp_path / "backup.bin"
    assert runner.invoke(app, ["vault", "export", str(backup), *args]).exit_code == 0
    first = backup.read_bytes()
    again = runner.invoke(app, ["vault", "export", str(backup), *args])  # an earlier backup is never overwritten
    assert again.exit_code == 2 and "--force" in again.stderr and backup.read_bytes() == first
    assert runner.invoke(app, ["vault", "export", str(backup), "--force", *args]).exit_code == 0
    assert (
        b"dana" not in backup.read_bytes() and b"chat-alpha-42" not in backup.read_bytes()
    )  # the whole file is encrypted

    old_key = key_file.read_text()
    rotated = runner.invoke(app, ["vault", "rotate-key", *args])
    assert rotated.exit_code == 0, rotated.output
    assert key_file.read_text() != old_key
    restored = runner.invoke(app, ["restore", "--session", "chat-alpha-42", "write to <EMAIL_1>", *args])
    assert restored.stdout.strip() == "write to dana@mailbox.org"

    forgot = runner.invoke(app, ["vault", "forget", "--session", "chat-alpha-42", *args])
    assert forgot.exit_code == 0 and "1 value(s)" in forgot.output
    assert (
        runner.invoke(app, ["vault", "forget", "--session", "typo", *args]).exit_code == 2
    )  # a mistyped session is an error
    # The backup was made with the old key: it no longer opens.
    assert runner.invoke(app, ["vault", "import", str(backup), *args]).exit_code == 2
    key_file.write_text(old_key)
    (tmp_path / "vault.sqlite").unlink()
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"vault.sqlite{suffix}").unlink(missing_ok=True)
    imported = runner.invoke(app, ["vault", "import", str(backup), *args])
    assert imported.exit_code == 0, imported.output
    assert (
        runner.invoke(app, ["restore", "--session", "chat-alpha-42", "<EMAIL_1>", *args]).stdout.strip()
        == "dana@mailbox.org"
    )


def test_a_vault_whose_key_went_missing_is_an_error_not_a_new_key(tmp_path, monkeypatch):
    from stealthflow.pipeline.protector import open_vault
    from stealthflow.placeholders.keys import VaultKeyError
    from stealthflow.placeholders.policy import ProtectConfig

    monkeypatch.delenv("STEALTHFLOW_VAULT_KEY", raising=False)
    config = ProtectConfig(vault_path=tmp_path / "vault.sqlite", key_source="file", key_file=tmp_path / "vault.key")
    notices = []
    open_vault(config, on_new_key=notices.append).close()
    assert notices == [str(tmp_path / "vault.key")]  # a new vault: a new key, announced once
    (tmp_path / "vault.key").unlink()
    with pytest.raises(VaultKeyError, match="exists but its key was not found"):
        open_vault(config)
    assert not (tmp_path / "vault.key").exists()
    for garbage in ("garbage!!", "abcd"):  # not base64; base64 of 3 bytes: invalid, not missing (main: "not found")
        (tmp_path / "vault.key").write_text(garbage)
        (tmp_path / "vault.key").chmod(0o600)
        with pytest.raises(VaultKeyError, match="the vault key is invalid") as raised:
            open_vault(config)
        assert "not found" not in str(raised.value) and garbage not in str(raised.value)


def test_deleting_the_key_check_row_does_not_let_a_wrong_key_in(tmp_path):
    path = tmp_path / "vault.sqlite"
    with Vault(path, VaultKeys.from_secret(os.urandom(32))) as vault:
        vault.entry_for("u", "s", "EMAIL", "a@mailbox.org")
    db = sqlite3.connect(path)
    db.execute("DELETE FROM meta")
    db.commit()
    db.close()
    with pytest.raises(VaultTampered, match="no key check"):
        Vault(path, VaultKeys.from_secret(os.urandom(32)))


def _remove_vault(path) -> None:
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def test_a_deleted_or_emptied_vault_is_never_silently_recreated(tmp_path, monkeypatch):
    """Old replies must not hydrate to a new vault's values: a vault that is gone, emptied or
    swapped is an error until the user restores a backup or starts a new vault on purpose."""
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.vault import VaultMismatch

    config = protect_config(tmp_path, monkeypatch)
    protector = make_protector(config)
    issued = protector.protect("mail anna@mailbox.org", "s")
    assert issued.vault == protector.vault.id and len(issued.vault) == 16
    protector.close()

    _remove_vault(config.vault_path)
    with pytest.raises(VaultMismatch, match="is gone.*vault import.*vault new"):
        open_vault(config)
    assert not config.vault_path.exists()  # nothing was recreated behind the user's back

    config.vault_path.write_bytes(b"")  # emptied in place
    with pytest.raises(VaultMismatch, match="not the vault that was here"):
        open_vault(config)

    fresh = Protector(config, open_vault(config, new_vault=True), Detector())
    assert fresh.vault.id != issued.vault
    assert fresh.protect("mail bob@mailbox.org", "s").spans[0].placeholder == "<EMAIL_1>"  # indices restarted
    with pytest.raises(VaultMismatch, match=f"protected by vault {issued.vault}"):
        fresh.restore(issued.text, "s", vault=issued.vault)
    assert fresh.restore("<EMAIL_1>", "s", vault=fresh.vault.id).text == "bob@mailbox.org"
    fresh.close()
    open_vault(config).close()  # the new vault is now the one of record


def test_restore_cli_fails_closed_on_rows_from_another_vault(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = protect_config(tmp_path, monkeypatch)
    settings = tmp_path / "c.yaml"
    settings.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    args = ["--config", str(settings)]
    runner = CliRunner()
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "1", "text": "mail anna@mailbox.org"}\n')
    out = tmp_path / "protected.jsonl"
    assert (
        runner.invoke(
            app, ["protect", "-i", str(posts), "-o", str(out), "--rewrite", "none", "--session", "s", *args]
        ).exit_code
        == 0
    )
    row = json.loads(out.read_text())
    assert row["text"] == "mail <EMAIL_1>" and row["vault"]

    _remove_vault(config.vault_path)
    gone = runner.invoke(app, ["restore", "--session", "s", "-i", str(out), *args])
    assert gone.exit_code == 2 and "is gone" in gone.output
    assert runner.invoke(app, ["vault", "new", *args]).exit_code == 0
    assert (
        runner.invoke(
            app, ["protect", "mail bob@mailbox.org", "--rewrite", "none", "--session", "s", *args]
        ).stdout.strip()
        == "mail <EMAIL_1>"
    )
    restored = tmp_path / "restored.jsonl"
    refused = runner.invoke(app, ["restore", "--session", "s", "-i", str(out), "-o", str(restored), *args])
    assert refused.exit_code == 2 and f"protected by vault {row['vault']}" in refused.output
    assert not restored.exists() and "bob" not in refused.output


def test_a_vault_from_before_identities_gets_one_and_keeps_its_key_check(tmp_path):
    path = tmp_path / "vault.sqlite"
    keys = VaultKeys.from_secret(os.urandom(32))
    with Vault(path, keys) as vault:
        vault.entry_for("u", "s", "EMAIL", "a@mailbox.org")
        legacy_check = vault._mac("stealthflow vault key check")
    db = sqlite3.connect(path)
    db.execute("DELETE FROM meta WHERE key = 'vault_id'")
    db.execute("UPDATE meta SET value = ? WHERE key = 'key_check'", (legacy_check,))
    db.commit()
    db.close()
    with Vault(path, keys) as migrated:
        assert len(migrated.id) == 16 and migrated.lookup("u", "s", "EMAIL", index=1) == "a@mailbox.org"
        vault_id = migrated.id
    with Vault(path, keys) as again:
        assert again.id == vault_id
    with pytest.raises(VaultKeyError):
        Vault(path, VaultKeys.from_secret(os.urandom(32)))


def test_a_cached_placeholder_is_never_reissued_after_another_process_forgot_it(tmp_path):
    """Entries issued to a session are cached per process (a chat re-sends its history every turn);
    a deletion by any process (forget, import) invalidates every process's cache."""
    path, keys = tmp_path / "vault.sqlite", VaultKeys.from_secret(os.urandom(32))
    with Vault(path, keys) as first, Vault(path, keys) as second:
        issued = first.entry_for("u", "s", "EMAIL", "a@mailbox.org")
        assert first.entry_for("u", "s", "EMAIL", "a@mailbox.org") == issued  # from the cache
        assert second.forget_session("u", "s") == (1, 1)
        again = first.entry_for("u", "s", "EMAIL", "a@mailbox.org")
        assert again.id != issued.id and again.index == issued.index + 1  # a new row: indices never reused
        assert first.lookup("u", "s", "EMAIL", index=again.index) == "a@mailbox.org"
        assert second.forget_value("u", "a@mailbox.org") == 1
        assert first.entry_for("u", "s", "EMAIL", "a@mailbox.org").id != again.id


def test_a_rolled_back_message_leaves_no_entry_in_the_cache(vault, monkeypatch):
    """A message whose transaction fails half-way caches none of its new entries: a later
    message must not get a placeholder whose row was rolled back."""
    original = Vault._insert_many
    calls = []

    def failing_second_insert(self, *args):  # values are written a type at a time: the second type fails
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return original(self, *args)

    monkeypatch.setattr(Vault, "_insert_many", failing_second_insert)
    with pytest.raises(RuntimeError):
        vault.entries_for("u", "s", [("EMAIL", "a@mailbox.org"), ("REAL_NAME", "Ann Lee")])
    assert len(calls) == 2
    monkeypatch.setattr(Vault, "_insert_many", original)
    entry = vault.entry_for("u", "s", "EMAIL", "a@mailbox.org")
    assert vault.lookup("u", "s", "EMAIL", index=entry.index) == "a@mailbox.org"


def test_record_request_of_keeps_the_sessions_placeholders_named_by_index_or_token(vault):
    """The placeholders a text names, by index or by HMAC token in any case, become one request; keys the session does
    not hold (an unknown index, another session's token) are left out."""
    held = vault.entries_for(
        "u", "s", [("EMAIL", "a@mailbox.org"), ("EMAIL", "b@mailbox.org"), ("PHONE", "+1 555 0100")]
    )
    other = vault.entries_for("u", "t", [("EMAIL", "c@mailbox.org"), ("EMAIL", "d@mailbox.org"), ("PHONE", "+1 555 9")])
    keys = {("EMAIL", held[0].index), ("PHONE", held[2].token.upper()), ("EMAIL", 99), ("EMAIL", other[1].token)}
    request = vault.record_request_of("u", "s", keys)
    assert vault.request_placeholders("u", "s", request) == frozenset(held[0].names() + held[2].names())
    assert vault.request_placeholders("u", "s", vault.record_request_of("u", "s", set())) == frozenset()


@pytest.mark.parametrize("build_default", ["ON", "OFF"])
def test_forgotten_and_rotated_out_ciphertexts_are_in_no_file_of_the_vault(tmp_path, monkeypatch, build_default):
    """rev24 E3, on a real SQLite file left open as a running proxy leaves it: on deef3aa a forgotten value's nonce and
    ciphertext stayed in the write-ahead log (and in the file itself where SQLite is built with secure_delete off,
    emulated by a connection that starts with it off), and so did every value's ciphertext under the key `rotate`
    replaced, all of them opening with the old key."""
    import stealthflow.placeholders.vault as vault_module

    connect = vault_module.connect_private

    def built_with(path, **kwargs):
        db = connect(path, **kwargs)
        db.execute(f"PRAGMA secure_delete={build_default}")
        return db

    monkeypatch.setattr(vault_module, "connect_private", built_with)
    config = protect_config(tmp_path, monkeypatch)
    with Vault(config.vault_path, load_keys("env")) as vault:

        def sealed() -> set[bytes]:
            return {
                bytes(nonce) + bytes(text) for nonce, text in vault._db.execute("SELECT nonce, ciphertext FROM entries")
            }

        def on_disk() -> bytes:
            return b"".join(path.read_bytes() for path in config.vault_path.parent.iterdir() if path.is_file())

        for i in range(30):
            vault.entry_for("u", "s1", "EMAIL", f"user{i}@mailbox.org")
            vault.entry_for("u", "s2", "PHONE", f"+1 415 555 {2600 + i}")
        before = sealed()
        assert vault.forget_value("u", "user7@mailbox.org") == 1
        assert vault.forget_session("u", "s2") == (30, 30)
        forgotten = before - sealed()
        assert len(forgotten) == 31 and not any(blob in on_disk() for blob in forgotten)
        live = sealed()
        assert all(blob in on_disk() for blob in live)  # what is there, the scan finds
        vault.rotate(VaultKeys.from_secret(os.urandom(32)))
        assert not any(blob in on_disk() for blob in live | forgotten)
        assert vault.lookup("u", "s1", "EMAIL", index=1) == "user0@mailbox.org"


def test_a_session_adopts_an_older_ones_values_only_if_it_never_numbered_any(vault):
    """`adopt` (rev24 E6) copies the older session's values with their indices, and its numbering, into a session that
    never numbered a value; a session that did, or an older one that holds none, is a ValueError and nothing is
    written. A value the older one gets later stays its own."""
    vault.entry_for("u", "memory:alice", "EMAIL", "old@mailbox.org")
    assert vault.adopt("u", "memory:alice", "memory:langgraph:alice") == 1
    assert vault.adopt("u", "memory:alice", "memory:langgraph:alice") == 0  # a rerun: already there, nothing to do
    assert vault.lookup("u", "memory:langgraph:alice", "EMAIL", index=1) == "old@mailbox.org"
    assert vault.entry_for("u", "memory:langgraph:alice", "EMAIL", "new@mailbox.org").index == 2
    assert vault.entry_for("u", "memory:langgraph:alice", "EMAIL", "old@mailbox.org").index == 1
    vault.entry_for("u", "memory:alice", "PHONE", "+1 415 555 2671")
    with pytest.raises(ValueError, match="already holds or held values"):
        vault.adopt("u", "memory:alice", "memory:langgraph:alice")
    assert vault.lookup("u", "memory:langgraph:alice", "PHONE", index=1) is None
    vault.entry_for("u", "memory:mem0.user_id:gone", "EMAIL", "gone@mailbox.org")
    vault.forget_session("u", "memory:mem0.user_id:gone")  # its indices are never given again
    with pytest.raises(ValueError, match="already holds or held values"):
        vault.adopt("u", "memory:alice", "memory:mem0.user_id:gone")
    with pytest.raises(ValueError, match="holds no value"):
        vault.adopt("u", "memory:nobody", "memory:mem0.user_id:x")
    assert vault.adopt("u", "memory:alice", "memory:mem0.user_id:x") == 2  # the failed one wrote nothing
    assert vault.lookup("u", "memory:mem0.user_id:x", "PHONE", index=1) == "+1 415 555 2671"


def test_rotate_key_with_the_key_in_the_environment_survives_a_failed_scrub(tmp_path, monkeypatch):
    """rev24b H1: with the key in $STEALTHFLOW_VAULT_KEY and the disk too full for VACUUM, `vault rotate-key` died after
    its commit with a traceback and never printed the new key: every value was lost. Now the key is printed as soon as
    it is committed and a failed scrub is a warning (FAKE full disk: `_scrub` with `vacuum` raises as SQLite does)."""
    import sqlite3

    from typer.testing import CliRunner

    import stealthflow.placeholders.vault as vault_module
    from stealthflow.cli import app

    scrub = vault_module.Vault._scrub

    def full_disk(self, vacuum: bool = False) -> None:
        if vacuum:
            raise sqlite3.OperationalError("database or disk is full")
        scrub(self, vacuum)

    runner = CliRunner()
    protect_config(tmp_path, monkeypatch)
    config = tmp_path / "c.yaml"
    config.write_text(f"protect:\n  vault_path: {tmp_path / 'vault.sqlite'}\n  key_source: env\n")
    args = ["--config", str(config)]
    protected = runner.invoke(app, ["protect", "mail dana@mailbox.org", "--rewrite", "none", "-s", "chat-9", *args])
    assert protected.exit_code == 0 and "<EMAIL_1>" in protected.stdout
    monkeypatch.setattr(vault_module.Vault, "_scrub", full_disk)
    rotated = runner.invoke(app, ["vault", "rotate-key", *args])
    assert rotated.exit_code == 0, rotated.output
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", rotated.stdout.strip())
    restored = runner.invoke(app, ["restore", "--session", "chat-9", "write to <EMAIL_1>", *args])
    assert restored.stdout.strip() == "write to dana@mailbox.org"


# -- key rotation stopped at any step ---------------------------------------------------------------------------------
ROTATED = ["mail dana@mailbox.org", "call +1 415 555 2671", "mail eve@mailbox.org"]


def _file_key_vault(tmp_path, monkeypatch):
    """A vault whose key is the 0600 key file tmp_path/vault.key, three values protected in it; (config, texts)."""
    from stealthflow.placeholders.policy import ProtectConfig

    monkeypatch.delenv("STEALTHFLOW_VAULT_KEY", raising=False)
    key_file = tmp_path / "vault.key"
    load_keys("file", key_file)  # created 0600
    config = ProtectConfig(
        vault_path=tmp_path / "vault.sqlite", key_source="file", key_file=key_file, llm_extractor=False
    )
    protector = make_protector(config)
    texts = [protector.protect(text, "s").text for text in ROTATED]
    protector.close()
    return config, texts


def _restores(config, texts) -> bool:
    """Whether a process starting now (the key read where stealthflow reads it) restores every value."""
    protector = make_protector(config)
    try:
        return [protector.restore(text, "s").text for text in texts] == ROTATED
    finally:
        protector.close()


class _FailingKey:
    """FAKE key store: a `NewKey` whose step `failing` raises as a full disk or a locked keyring would."""

    def __init__(self, failing: str, key_file):
        from stealthflow.placeholders.keys import NewKey

        self.key, self.failing = NewKey(new_secret(), "file", key_file), failing
        self.kept_in = self.key.kept_in

    def __getattr__(self, step):
        def run(*args):
            if step == self.failing:
                raise OSError(28, "No space left on device")
            result = getattr(self.key, step)(*args)
            self.kept_in = self.key.kept_in
            return result

        return run


@pytest.mark.parametrize("failing", ["keep", "store"])
def test_a_rotation_whose_key_cannot_be_kept_or_stored_leaves_a_vault_that_opens(tmp_path, monkeypatch, failing):
    """`vault rotate-key` committed the re-encryption and then stored the key: a key file that could not be written
    left the vault sealed under a key nobody had. Now the new key is kept at a pending place first (a failure there
    changes nothing), and one that cannot be stored after the commit is an error naming where it is kept, where the
    next open finds it (and stores it)."""
    config, texts = _file_key_vault(tmp_path, monkeypatch)
    old_key, pending = config.key_file.read_text(), tmp_path / "vault.key.pending"
    new_key = _FailingKey(failing, config.key_file)
    with Vault(config.vault_path, load_keys("file", config.key_file)) as vault:
        if failing == "keep":
            with pytest.raises(OSError):
                vault.rotate(new_key.key.keys, new_key)
            # still the old key, in this process too
            assert vault.lookup(config.user, "s", "EMAIL", index=1) == "dana@mailbox.org"
        else:
            with pytest.raises(VaultKeyError, match=f"kept in {pending}"):
                vault.rotate(new_key.key.keys, new_key)
    assert config.key_file.read_text() == old_key
    assert pending.exists() == (failing == "store")
    assert _restores(config, texts)
    if failing == "store":  # the open stored the pending key as the key and dropped the copy
        assert config.key_file.read_text().strip() == new_key.key.encoded and not pending.exists()
        assert _restores(config, texts)


def test_a_rotation_whose_commit_fails_keeps_the_old_key_and_drops_the_pending_one(tmp_path, monkeypatch):
    """FAKE disk error inside the re-encryption's transaction: it rolls back, the old key opens the vault (in this
    process and the next) and no pending key is left."""
    import stealthflow.placeholders.vault as vault_module
    from stealthflow.placeholders.keys import NewKey

    config, texts = _file_key_vault(tmp_path, monkeypatch)
    reencrypt = vault_module.Vault._reencrypt_rows

    def disk_error(self, db, new_keys):
        reencrypt(self, db, new_keys)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(vault_module.Vault, "_reencrypt_rows", disk_error)
    new_key = NewKey(new_secret(), "file", config.key_file)
    with Vault(config.vault_path, load_keys("file", config.key_file)) as vault:
        with pytest.raises(sqlite3.OperationalError):
            vault.rotate(new_key.keys, new_key)
        assert vault.lookup(config.user, "s", "EMAIL", index=2) == "eve@mailbox.org"
    monkeypatch.undo()
    assert not (tmp_path / "vault.key.pending").exists()
    assert _restores(config, texts)


_CRASH = """
import os, sys
from pathlib import Path
import stealthflow.placeholders.vault as vault_module
from stealthflow.placeholders.keys import NewKey, load_keys, new_secret
where, vault_path, key_file = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
reencrypt = vault_module.Vault._reencrypt_rows
def crash(*args):
    os._exit(9)
def crash_after(method):
    def run(*args):
        method(*args)
        os._exit(9)
    return run
if where == "re-encrypting":
    vault_module.Vault._reencrypt_rows = crash_after(reencrypt)
elif where == "committed":
    NewKey.store = crash
elif where == "stored":
    NewKey.drop = crash
vault = vault_module.Vault(vault_path, load_keys("file", key_file))
new_key = NewKey(new_secret(), "file", key_file)
vault.rotate(new_key.keys, new_key)
"""


@pytest.mark.parametrize("where", ["re-encrypting", "committed", "stored"])
def test_a_rotation_killed_at_any_step_leaves_a_vault_that_opens(tmp_path, monkeypatch, where):
    """A real second process runs `Vault.rotate` and dies (`os._exit`, as kill -9) inside the re-encryption's
    transaction, after its commit before the key is stored, or after the key is stored before the pending copy goes:
    the next process opens the vault with a key stealthflow reads, and every value restores."""
    import subprocess
    import sys

    config, texts = _file_key_vault(tmp_path, monkeypatch)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("STEALTHFLOW_VAULT_KEY", None)
    crashed = subprocess.run(
        [sys.executable, "-c", _CRASH, where, str(config.vault_path), str(config.key_file)], env=env, timeout=120
    )
    assert crashed.returncode == 9
    assert (tmp_path / "vault.key.pending").exists()  # the new key was kept before anything was re-encrypted
    assert _restores(config, texts)
    assert _restores(config, texts)  # and again, after the open that found the pending key stored it


def test_rotate_key_cli_whose_key_file_cannot_be_written_loses_no_value(tmp_path, monkeypatch, caplog):
    """The CLI end to end with a FAKE full disk when the key file is written: `vault rotate-key` fails saying where the
    new key is kept, and `restore` in a new process still restores (it finds that key, then stores it)."""
    from typer.testing import CliRunner

    import stealthflow.placeholders.keys as keys_module
    from stealthflow.cli import app

    config = key_file_config(tmp_path, monkeypatch)
    args, runner = ["--config", str(config)], CliRunner()
    protected = runner.invoke(app, ["protect", "mail dana@mailbox.org", "--rewrite", "none", "-s", "chat-9", *args])
    assert protected.exit_code == 0 and "<EMAIL_1>" in protected.stdout
    key_file = tmp_path / "vault.key"
    write_key_file = keys_module._write_key_file

    def full_disk(path, encoded, replace_existing=False):
        if path == key_file:
            raise OSError(28, "No space left on device")
        write_key_file(path, encoded, replace_existing)

    monkeypatch.setattr(keys_module, "_write_key_file", full_disk)
    rotated = runner.invoke(app, ["vault", "rotate-key", *args])
    monkeypatch.setattr(keys_module, "_write_key_file", write_key_file)
    restored = runner.invoke(app, ["restore", "--session", "chat-9", "write to <EMAIL_1>", *args])
    assert restored.exit_code == 0 and restored.stdout.strip() == "write to dana@mailbox.org", restored.output
    assert rotated.exit_code == 2 and "vault.key.pending" in rotated.output, rotated.output
    assert f"kept in {tmp_path / 'vault.key.pending'}, is now in {key_file}" in caplog.text  # the user is told
    assert not (tmp_path / "vault.key.pending").exists()


class _Keyring:
    """FAKE OS keyring (the `keyring` module's calls stealthflow makes), whose entry `broken` cannot be written."""

    def __init__(self, broken: str = ""):
        self.entries: dict[tuple[str, str], str] = {}
        self.broken = broken

    def get_password(self, service, user):
        return self.entries.get((service, user))

    def set_password(self, service, user, secret):
        if user == self.broken:
            raise RuntimeError("the keyring is locked")
        self.entries[(service, user)] = secret

    def delete_password(self, service, user):
        del self.entries[(service, user)]


def test_a_rotation_whose_keyring_cannot_store_the_key_leaves_a_vault_that_opens(tmp_path, monkeypatch):
    """The key in the keyring (`key_source: auto`), a keyring that takes the pending entry but then refuses the key's:
    the rotation says the new key is kept in the keyring, and the vault opens with it there."""
    import sys

    from stealthflow.placeholders.keys import KEYRING_PENDING, KEYRING_SERVICE, KEYRING_USER, NewKey
    from stealthflow.placeholders.policy import ProtectConfig

    keyring = _Keyring()
    monkeypatch.setitem(sys.modules, "keyring", keyring)
    monkeypatch.delenv("STEALTHFLOW_VAULT_KEY", raising=False)
    config = ProtectConfig(
        vault_path=tmp_path / "vault.sqlite", key_file=tmp_path / "vault.key", key_source="auto", llm_extractor=False
    )
    protector = make_protector(config)  # a new vault: its key is created in the keyring
    texts = [protector.protect(text, "s").text for text in ROTATED]
    protector.close()
    old_key = keyring.entries[(KEYRING_SERVICE, KEYRING_USER)]
    keyring.broken = KEYRING_USER
    new_key = NewKey(new_secret(), "auto", config.key_file)
    with Vault(config.vault_path, load_keys("auto", config.key_file)) as vault:
        with pytest.raises(VaultKeyError, match="kept in the OS keyring"):
            vault.rotate(new_key.keys, new_key)
    assert keyring.entries[(KEYRING_SERVICE, KEYRING_USER)] == old_key
    assert keyring.entries[(KEYRING_SERVICE, KEYRING_PENDING)] == new_key.encoded
    assert _restores(config, texts)
    keyring.broken = ""
    assert _restores(config, texts)  # the open stored the pending key as the key
    assert keyring.entries == {(KEYRING_SERVICE, KEYRING_USER): new_key.encoded}


def test_rotate_key_with_the_key_in_the_environment_whose_commit_fails_says_the_printed_key_is_useless(
    tmp_path, monkeypatch
):
    """With the key in $STEALTHFLOW_VAULT_KEY the new key is printed before the vault is sealed with it; a FAKE disk
    error inside the re-encryption rolls it back, and the command says the key printed does not open the vault."""
    from typer.testing import CliRunner

    import stealthflow.placeholders.vault as vault_module
    from stealthflow.cli import app

    runner = CliRunner()
    protect_config(tmp_path, monkeypatch)
    config = tmp_path / "c.yaml"
    config.write_text(f"protect:\n  vault_path: {tmp_path / 'vault.sqlite'}\n  key_source: env\n")
    args = ["--config", str(config)]
    assert (
        runner.invoke(app, ["protect", "mail dana@mailbox.org", "--rewrite", "none", "-s", "c", *args]).exit_code == 0
    )

    def disk_error(self, db, new_keys):
        raise sqlite3.OperationalError("disk I/O error")

    reencrypt = vault_module.Vault._reencrypt_rows
    monkeypatch.setattr(vault_module.Vault, "_reencrypt_rows", disk_error)
    rotated = runner.invoke(app, ["vault", "rotate-key", *args])
    assert rotated.exit_code != 0 and "the key printed does not open it" in rotated.stderr, rotated.output
    monkeypatch.setattr(vault_module.Vault, "_reencrypt_rows", reencrypt)
    restored = runner.invoke(app, ["restore", "--session", "c", "write to <EMAIL_1>", *args])
    assert restored.stdout.strip() == "write to dana@mailbox.org"


_RACING = """
import os, sys, time
from pathlib import Path
import stealthflow.placeholders.vault as vault_module
from stealthflow.placeholders.keys import NewKey, key_candidates, load_keys, new_secret
role, vault_path, key_file, signals = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
vault = vault_module.Vault(vault_path, load_keys("file", key_file), reload_keys=lambda: key_candidates("file", key_file))
if role == "first":  # keeps its key, lets the second one start, then dies after its commit (before storing its key)
    keep = NewKey.keep
    def kept_then_wait(self, *args):
        where = keep(self, *args)
        (signals / "first-kept").touch()
        while not (signals / "second-started").exists():
            time.sleep(0.02)
        time.sleep(1.0)  # time enough for the second one to keep its own key, unless it waits for the lock
        return where
    NewKey.keep = kept_then_wait
    NewKey.store = lambda self: os._exit(9)
else:
    while not (signals / "first-kept").exists():
        time.sleep(0.02)
    (signals / "second-started").touch()
new_key = NewKey(new_secret(), "file", key_file)
vault.rotate(new_key.keys, new_key)
"""


def test_two_rotations_at_once_the_first_killed_after_its_commit_leave_a_vault_that_opens(tmp_path, monkeypatch):
    """rev25b M2: two `Vault.rotate` in two real processes shared one pending place; the first kept its key, the second
    kept its own over it, the first committed and died before storing its key: the vault was sealed with a key on no
    disk. The rotate lock makes the second wait; it then finds the first's key pending, stores it as the key, and
    rotates from it: every value restores with the key stealthflow reads, and nothing is left pending."""
    import subprocess
    import sys

    config, texts = _file_key_vault(tmp_path, monkeypatch)
    signals = tmp_path / "signals"
    signals.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("STEALTHFLOW_VAULT_KEY", None)
    args = [str(config.vault_path), str(config.key_file), str(signals)]
    first = subprocess.Popen([sys.executable, "-c", _RACING, "first", *args], env=env)
    second = subprocess.Popen([sys.executable, "-c", _RACING, "second", *args], env=env, stderr=subprocess.PIPE)
    assert first.wait(timeout=120) == 9
    assert second.wait(timeout=120) == 0, second.stderr.read().decode()
    assert _restores(config, texts)
    assert not (tmp_path / "vault.key.pending").exists()


def test_a_rotation_drops_only_the_pending_key_it_kept(tmp_path):
    """rev25b M2: `NewKey.drop` removed whatever was pending, another rotation's key too."""
    from stealthflow.placeholders.keys import NewKey

    key_file = tmp_path / "vault.key"
    mine, theirs = NewKey(new_secret(), "file", key_file), NewKey(new_secret(), "file", key_file)
    mine.keep()
    theirs.keep()
    mine.drop()
    assert NewKey.left_pending("file", key_file).encoded.strip() == theirs.encoded
    theirs.drop()
    assert NewKey.left_pending("file", key_file) is None


def test_rotate_key_refuses_when_another_known_vault_has_the_same_key(tmp_path, monkeypatch):
    """rev25b L1: two vaults read one key file; `vault rotate-key` on one stored a new key there and the other no longer
    opened. The CLI refuses, naming the other vault and what to do, and changes nothing; once the other vault reads a
    key file of its own (a copy), the rotation runs and both still restore."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    runner = CliRunner()
    config_a = key_file_config(tmp_path, monkeypatch)
    key_file = tmp_path / "vault.key"
    config_b = tmp_path / "b.yaml"
    config_b.write_text(
        f"protect:\n  vault_path: {tmp_path / 'b.sqlite'}\n  key_source: file\n  key_file: {key_file}\n"
    )
    for config, mail in ((config_a, "dana@mailbox.org"), (config_b, "bob.weir@mailbox.org")):
        protected = runner.invoke(app, ["protect", f"mail {mail}", "--rewrite", "none", "-s", "s1", "--config", config])
        assert protected.exit_code == 0 and "<EMAIL_1>" in protected.stdout

    def restored(config):
        return runner.invoke(app, ["restore", "-s", "s1", "<EMAIL_1>", "--config", str(config)]).stdout.strip()

    old_key = key_file.read_text()
    refused = runner.invoke(app, ["vault", "rotate-key", "--config", str(config_a)])
    assert refused.exit_code == 2 and str(tmp_path / "b.sqlite") in refused.stderr, refused.output
    assert "key of its own" in refused.stderr and key_file.read_text() == old_key
    assert (restored(config_a), restored(config_b)) == ("dana@mailbox.org", "bob.weir@mailbox.org")

    own_key = tmp_path / "b.key"
    own_key.write_text(old_key)
    own_key.chmod(0o600)
    config_b.write_text(config_b.read_text().replace(str(key_file), str(own_key)))
    assert restored(config_b) == "bob.weir@mailbox.org"  # opened once: where it reads its key is known now
    rotated = runner.invoke(app, ["vault", "rotate-key", "--config", str(config_a)])
    assert rotated.exit_code == 0 and key_file.read_text() != old_key, rotated.output
    assert (restored(config_a), restored(config_b)) == ("dana@mailbox.org", "bob.weir@mailbox.org")


def test_forgetting_a_full_name_forgets_the_parts_its_session_masked(vault):
    """The names "Gary" and "Pemberton", masked on their own after "Gary Pemberton", still restored once the full name was
    forgotten (ux27's M13); a part of a session that never held the full name stays."""
    vault.entry_for("u", "s1", "REAL_NAME", "Gary Pemberton")
    vault.entry_for("u", "s1", "REAL_NAME", "Gary")
    vault.entry_for("u", "s1", "REAL_NAME", "Pemberton")
    vault.entry_for("u", "s2", "REAL_NAME", "Gary")
    assert vault.forget_value("u", "gary pemberton") == 3
    assert [vault.lookup("u", "s1", "REAL_NAME", index=i) for i in (1, 2, 3)] == [None, None, None]
    assert vault.lookup("u", "s2", "REAL_NAME", index=1) == "Gary"


def test_a_vault_opened_twice_in_one_process_stays_whole_when_other_processes_read_and_write_it(tmp_path):
    """The real thing (SQLite files, a second process): a vault opened again in one process (a server's second
    request, a command's second look) must keep the first connection's locks. Opening and closing the file outside
    SQLite dropped them: another process reading and closing it then took itself for the last one, checkpointed and
    deleted the write-ahead log the first connection still used; after a third process's write the first's next write
    found the file "malformed" (seen in a batch job resumed after a kill)."""
    import subprocess
    import sys

    path, keys = tmp_path / "vault.sqlite", VaultKeys.from_secret(os.urandom(32))

    def other_process(statement: str) -> str:
        """Run one SQL statement on the vault file in another process; its first row's first value."""
        code = (
            "import sqlite3, sys\n"
            "row = sqlite3.connect(sys.argv[1], isolation_level=None).execute(sys.argv[2]).fetchone()\n"
            "print(row and row[0])"
        )
        run = subprocess.run([sys.executable, "-c", code, str(path), statement], check=True, capture_output=True)
        return run.stdout.decode().strip()

    with Vault(path, keys) as first:
        first.issue("me", "s", [("EMAIL", "ana@example.org")])
        Vault(path, keys).close()  # opened again in this process, and closed
        assert other_process("SELECT count(*) FROM entries") == "1"  # another process reads it and closes it,
        other_process("CREATE TABLE probe(x)")  # another one writes
        first.issue("me", "s", [("EMAIL", "ben@example.org")])
    assert other_process("SELECT count(*) FROM entries") == "2"
    assert other_process("PRAGMA integrity_check") == "ok"
