"""The local vault: which placeholder stands for which value, for which user and session.

SQLite in WAL mode. Values are encrypted per row with AES-GCM; the associated data binds
each ciphertext to its row id, user, session, type and value digest, so a ciphertext moved to
another row or an edited row fails to decrypt (`VaultTampered`). Digests and placeholder tokens
are keyed HMACs of the session and the canonical value: without the key they reveal nothing.

Every session (a proxy caller's token and label, a memory user, a `protect --session`) is a scope
of its own: a value gets its own row, index and HMAC token in each session that protects it, and
keeps them in that session forever, across restarts. Numbering and look-up never cross sessions,
so nothing a session is shown depends on what another session protected. Restoration only
hydrates a session's own placeholders (each grant is MAC'd too).

A row that does not authenticate costs only its value: restore reports its placeholder, and
protect replaces the row with a fresh one (a new index) when it meets the value again. Writers
check in every transaction that the key is still the vault's (`vault rotate-key` in another
process): a writer with an old key reloads it (`reload_keys`) or stops with `VaultKeyError`, so
no row is ever written under a key the vault no longer has.

The proxy's restored replies (`proxy.history`) are kept per session too (`keep_replies`, `recall_reply`): a keyed digest
of each text the client got -> the upstream's own text and the placeholders the reply restored, encrypted and bound to
the row like a value, so a re-sent history is recalled across restarts. A rotated key cannot recompute the digests:
`rotate` drops them (those turns are then protected as new text).

A request (one `POST /protect` of the service) can be recorded with the placeholders it issued or
used (`record_request`), so that a reply to it restores only those (`request_placeholders`).

Vaults written before sessions were scopes (schema 1: one row per value and user, shared by the
sessions it was issued to) are migrated on open: each session gets its own copy of each row it
was issued, with the same index and token, so every earlier reply still restores.

Each vault has a random identity (`Vault.id`, bound into its key check): protect's output rows
carry it, and restoring a row issued by another vault (one deleted and recreated, say, whose
indices started again at 1) fails closed instead of hydrating other people's values.

Forgetting leaves nothing behind to decrypt: the connection overwrites deleted content with zeros (`secure_delete`,
whatever the SQLite build's default), and `forget_*` and `rotate` then copy the write-ahead log into the file and
truncate it (`_scrub`), so a value forgotten or a ciphertext under a rotated-out key is in no file of the vault's
directory; `rotate` also rebuilds the file (`VACUUM`: rotating 10 000 values took 0.23 s with it, 0.18 s without).

One connection guarded by a lock serves all threads; writes run in `BEGIN IMMEDIATE`
transactions so several processes sharing the file allocate indices safely too.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import shutil
import sqlite3
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, closing, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from stealthflow.placeholders.keys import ENV_VAR, NewKey, VaultKeyError, VaultKeys
from stealthflow.placeholders.styles import TOKEN_CHARS
from stealthflow.placeholders.types import TYPE_LEVELS, canonical_value

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    session TEXT NOT NULL,
    type TEXT NOT NULL,
    digest TEXT NOT NULL,
    idx INTEGER NOT NULL,
    token TEXT NOT NULL,
    nonce BLOB NOT NULL,
    ciphertext BLOB NOT NULL,
    UNIQUE (user, session, type, digest), UNIQUE (user, session, type, idx), UNIQUE (user, session, type, token)
);
CREATE TABLE IF NOT EXISTS counters (
    user TEXT NOT NULL, session TEXT NOT NULL, type TEXT NOT NULL, last INTEGER NOT NULL, PRIMARY KEY (user, session, type)
);
CREATE TABLE IF NOT EXISTS issued (
    entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
    session TEXT NOT NULL,
    mac TEXT NOT NULL,
    PRIMARY KEY (entry_id, session)
);
CREATE INDEX IF NOT EXISTS issued_session ON issued(session);
CREATE TABLE IF NOT EXISTS sessions (user TEXT NOT NULL, session TEXT NOT NULL, created TEXT NOT NULL, last_used TEXT NOT NULL, PRIMARY KEY (user, session));
CREATE TABLE IF NOT EXISTS requests (
    id TEXT PRIMARY KEY, user TEXT NOT NULL, session TEXT NOT NULL, created TEXT NOT NULL, entries TEXT NOT NULL, mac TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS requests_created ON requests(created);
CREATE TABLE IF NOT EXISTS replies (
    user TEXT NOT NULL, session TEXT NOT NULL, digest TEXT NOT NULL, chars INTEGER NOT NULL, nonce BLOB NOT NULL,
    ciphertext BLOB NOT NULL, PRIMARY KEY (user, session, digest)
);
CREATE TABLE IF NOT EXISTS reply_totals (
    user TEXT NOT NULL, session TEXT NOT NULL, texts INTEGER NOT NULL, chars INTEGER NOT NULL, PRIMARY KEY (user, session)
);
"""
EXPORT_MAGIC = b"stealthflow vault export 1\n"
_KEY_CHECK = "key_check"
_VAULT_ID = "vault_id"
_GENERATION = "generation"  # bumped by every deletion, so each process knows when its cache is stale
_SCHEMA_VERSION = "schema"  # meta key: 2 since sessions are scopes (absent: 1)
_LAST_GRANT = "SELECT MAX(rowid) FROM issued WHERE session = ?"  # a session's grants only ever get higher row ids
_CACHE_LIMIT = 100_000
_RELOAD_TRIES = 10  # reading the key again after a rotation, 0.1 s apart
VAULT_ID_BYTES = 8
VAULT_ID = re.compile(rf"[0-9a-f]{{{2 * VAULT_ID_BYTES}}}")  # what every vault gives itself
REQUEST_DAYS = 30  # how long a recorded request's placeholders are kept (`record_request`)
log = logging.getLogger("stealthflow.vault")


class VaultTampered(RuntimeError):
    """A row does not authenticate under the vault key: it was edited or moved."""


class VaultDamaged(VaultTampered):
    """The vault file cannot be read as a database (truncated, overwritten)."""


class VaultMismatch(RuntimeError):
    """Text was protected by another vault: restoring it here would hydrate the wrong values."""


@dataclass(frozen=True)
class Entry:
    id: str
    type: str
    index: int
    token: str

    def names(self) -> tuple[tuple[str, int], tuple[str, str]]:
        """How a reply can name this placeholder: by index or by HMAC token (`Reference.key`)."""
        return (self.type, self.index), (self.type, self.token)


@dataclass(frozen=True)
class Issued:
    entries: list[Entry]  # one per item
    before: tuple[str, int]  # the session's `issued_mark` before this message
    after: tuple[str, int]
    granted: list[tuple[Entry, str]]  # (entry, value as stored) of the values looked up for this message


def _copied(entry: Entry) -> tuple[str, int, str]:
    """What a copy of `entry` keeps (`Vault.adopt`): its type, index and token."""
    return entry.type, entry.index, entry.token


class Vault:
    """`reload_keys`: where a process finds the vault key again after `vault rotate-key` in another
    process, the keys the vault may be sealed with (`keys.key_candidates`; None: it stops with `VaultKeyError` and must
    be restarted with the new key)."""

    def __init__(
        self,
        path: str | Path,
        keys: VaultKeys,
        token_chars: int = TOKEN_CHARS,
        reload_keys: Callable[[], Sequence[VaultKeys]] | None = None,
    ):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._keys = keys
        self._aead = AESGCM(keys.encryption)
        self._reload_keys = reload_keys
        self._token_chars = token_chars
        # (user, session, type, canonical value) -> its entry, for values already issued to the
        # session: a chat re-sends its history every turn, and those values need no lookup again.
        self._issued_cache: dict[tuple[str, str, str, str], Entry] = {}
        self._cache_generation: str | None = None
        self._bad: set[str] = set()  # ids of rows seen not to authenticate: protect replaces them
        # (user, session, second, deletion generation) of the last `sessions` row `issue` wrote and committed
        self._used_row: tuple[str, str, str, str | None] | None = None
        self._forget_listeners: list[weakref.WeakMethod] = []  # `on_forget`
        self._deleting = False  # the open transaction deleted something (`_deleted`)
        self._lock = threading.RLock()
        self._checkpoints = _Checkpoints(self.path)
        self._db = connect_private(self.path, timeout=30)
        try:
            with self._lock:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                # Checkpoints (copying the log into the file, with an fsync) run on a thread of their
                # own, not inside whichever request's commit crosses the log's size limit (10-30 ms).
                self._db.execute("PRAGMA wal_autocheckpoint=0")
                self._db.execute(f"PRAGMA journal_size_limit={_Checkpoints.wal_limit}")
                self._db.execute("PRAGMA foreign_keys=ON")
                self._db.execute("PRAGMA secure_delete=ON")
                self._open_schema()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise VaultDamaged(
                f"{self.path} is not a readable vault ({exc}): restore it from your backup (`stealthflow vault import FILE`)"
            ) from None
        except BaseException:  # a wrong key (`open_vault` then tries a pending one), a tampered key check
            self._db.close()
            raise

    # -- keys -------------------------------------------------------------------------
    def _mac(self, *parts: str, keys: VaultKeys | None = None) -> str:
        return hmac.new((keys or self._keys).hmac, "\x00".join(parts).encode(), hashlib.sha256).hexdigest()

    def digester(self, scope: str) -> Callable[[str], str]:
        """The digest of data for `scope` that only this vault's key makes (HMAC under a key derived from the vault key
        for `scope`): another store keeps it to know the data again, and the digest alone neither confirms nor gives
        away a guess of the data. The key is read once, here; the function returned reads nothing."""
        self._refresh_keys()
        key = hmac.new(self._keys.hmac, f"stealthflow derived key\x00{scope}".encode(), hashlib.sha256).digest()
        return lambda data: hmac.new(key, data.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def _key_check(self, vault_id: str | None, keys: VaultKeys | None = None) -> str:
        # Vaults from before identities were added checked the key alone; they get an id on open.
        return self._mac("stealthflow vault key check", *([vault_id] if vault_id else []), keys=keys)

    def _open_schema(self) -> None:
        """Check the key, create the tables of a new vault, migrate an old one (schema 1)."""
        with self._transaction(check_key=False) as db:
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            legacy = "entries" in tables and "session" not in {
                row[1] for row in db.execute("PRAGMA table_info(entries)")
            }
            if legacy:
                for table in ("entries", "counters", "issued"):
                    db.execute(f"ALTER TABLE {table} RENAME TO {table}_v1")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            self._check_key(db, "entries_v1" if legacy else "entries")
            if legacy:
                self._migrate(db)
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, '2')", (_SCHEMA_VERSION,))

    def _check_key(self, db: sqlite3.Connection, entries: str = "entries") -> None:
        meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN (?, ?)", (_KEY_CHECK, _VAULT_ID)).fetchall())
        check, vault_id = meta.get(_KEY_CHECK), meta.get(_VAULT_ID)
        if check is None and db.execute(f"SELECT 1 FROM {entries} LIMIT 1").fetchone():
            # Deleting this row must not let any key in: a vault with values always has one.
            raise VaultTampered(
                f"{self.path} holds values but no key check record: it was tampered with; restore your backup"
            )
        if check is not None and not hmac.compare_digest(check, self._key_check(vault_id)):
            raise VaultKeyError(
                f"wrong vault key for {self.path}: it was created with a different key (check ${ENV_VAR}, the keyring or the key file), "
                "or its identity record was edited"
            )
        if vault_id is None:
            vault_id = secrets.token_hex(VAULT_ID_BYTES)
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (_VAULT_ID, vault_id))
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (_KEY_CHECK, self._key_check(vault_id)))
        self.id = vault_id

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Schema 1 -> 2: a copy of each row for each session it was issued to (same index and
        token, so earlier replies restore), sealed with the session; each session's numbering goes on
        from the old counter; then the old tables go.
        A row or grant that does not authenticate is copied as it is: it stays a bad row."""
        grants = db.execute(
            "SELECT e.id, e.user, e.type, e.digest, e.idx, e.token, e.nonce, e.ciphertext, i.session, i.mac "
            "FROM entries_v1 e JOIN issued_v1 i ON i.entry_id = e.id"
        ).fetchall()
        for old_id, user, span_type, digest, index, token, nonce, ciphertext, session, mac in grants:
            try:
                if not hmac.compare_digest(mac, self._mac("issued", old_id, user, session)):
                    raise InvalidTag
                value = self._aead.decrypt(
                    nonce, ciphertext, "\x00".join((old_id, user, span_type, digest, str(index), token)).encode()
                ).decode()
            except InvalidTag:
                # matches no value: the value gets a fresh row when seen again
                row = (
                    secrets.token_hex(16),
                    user,
                    session,
                    span_type,
                    secrets.token_hex(32),
                    index,
                    token,
                    nonce,
                    ciphertext,
                )
            else:
                row = self._sealed(user, session, span_type, value, index, token)
            self._insert_granted(db, row)
        # A migrated session numbers on from the old user-wide counter: an index of a value forgotten
        # before is never given to another value in a session whose old replies may hold it.
        db.execute(
            "INSERT INTO counters SELECT s.user, s.session, c.type, c.last FROM "
            "(SELECT DISTINCT user, session FROM entries UNION SELECT user, session FROM sessions) s JOIN counters_v1 c ON c.user = s.user"
        )
        for table in ("issued_v1", "counters_v1", "entries_v1"):
            db.execute(f"DROP TABLE {table}")
        self._deleted(db)

    def _current_keys(self, db: sqlite3.Connection) -> bool:
        """Make sure this process holds the vault's key (another process may have rotated it):
        reload it when it changed; True when it did. `VaultKeyError` when the new key cannot be had."""
        row = db.execute("SELECT value FROM meta WHERE key = ?", (_KEY_CHECK,)).fetchone()
        if row is None or hmac.compare_digest(row[0], self._key_check(self.id)):
            return False
        keys = None
        for attempt in range(_RELOAD_TRIES if self._reload_keys is not None else 0):
            # `vault rotate-key` keeps the new key pending before its commit and stores it just after: give it a moment.
            keys = next(
                (k for k in self._reload_keys() if hmac.compare_digest(row[0], self._key_check(self.id, k))), None
            )
            if keys is not None:
                break
            time.sleep(0.1)
        if keys is None:
            raise VaultKeyError(
                f"the key of {self.path} was changed (`vault rotate-key`) while this process ran; restart it with the new key"
            )
        self._keys, self._aead = keys, AESGCM(keys.encryption)
        self._bad.clear()
        return True

    def _refresh_keys(self) -> bool:
        with self._lock:
            return self._current_keys(self._db)

    def key_check(self) -> str:
        """Proof of this vault's key that holds no key material (`same_key` checks it elsewhere)."""
        return self._key_check(self.id)

    def input_digester(self, user: str, session: str) -> Callable[[str], str]:
        """The keyed digest of a text protected for `session`, written beside its protected row so a resumed run knows
        the row's input is unchanged: without the vault's key it cannot be checked against a guess of the text."""
        digest = self.digester(f"protect input\x00{user}\x00{session}")
        return lambda text: digest(text)[:32]

    def same_key(self, vault_id: str, check: str) -> bool:
        """Whether this vault's key is the one of the vault `vault_id` whose `key_check` is `check`."""
        return hmac.compare_digest(check, self._key_check(vault_id))

    def check_issued_here(self, vault_id: str | None, where: str) -> None:
        """Refuse text whose recorded vault is not this one (None: the text carries no identity). The other vault is
        named only by an id of a vault's shape: a service's caller sends `vault_id`, and an error quotes no value it
        sent."""
        if vault_id is not None and vault_id != self.id:
            other = f"vault {vault_id}" if VAULT_ID.fullmatch(vault_id) else "another vault"
            raise VaultMismatch(
                f"{where}: protected by {other}, but this vault is {self.id} ({self.path}); restoring here would put in "
                "other values. Restore with the vault that protected it (a backup: `stealthflow vault import FILE`)"
            )

    @contextmanager
    def _transaction(self, check_key: bool = True):
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if check_key:  # in the transaction: a rotation cannot come between the check and the writes
                    self._current_keys(self._db)
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                self._deleting = False
                raise
            self._db.execute("COMMIT")
            self._checkpoints.wrote()
            if self._deleting:
                self._deleting = False
                for listener in [listener() for listener in self._forget_listeners]:
                    if listener is not None:
                        listener()

    def on_forget(self, listener: Callable[[], None]) -> None:
        """Call `listener` (a bound method, held weakly) once anything deleted through this vault is committed: a cache
        of decrypted values in this process drops them then (`Protector`), not when it next uses them. It runs under
        the vault's lock: it takes no other."""
        self._forget_listeners.append(weakref.WeakMethod(listener))

    def _aad(
        self, entry_id: str, user: str, session: str, span_type: str, digest: str, index: int, token: str
    ) -> bytes:
        return "\x00".join((entry_id, user, session, span_type, digest, str(index), token)).encode()

    # -- protect ----------------------------------------------------------------------
    def entry_for(self, user: str, session: str, span_type: str, value: str) -> Entry:
        """The value's entry in `session` (created on first sight there)."""
        return self.entries_for(user, session, [(span_type, value)])[0]

    def entries_for(self, user: str, session: str, items: list[tuple[str, str]]) -> list[Entry]:
        """`entry_for` for every (type, value) of a message, in one transaction (the rows of the
        values not cached are read in one query per type, new ones written a type at a time,
        their grants in one go)."""
        return self.issue(user, session, items).entries

    def issue(self, user: str, session: str, items: list[tuple[str, str]]) -> Issued:
        """`entries_for`, and what it granted: the `issued_mark` of the session just before and
        just after, and (entry, stored value) of each value not found in the cache — so a caller
        that holds the session's values as of `before` holds them as of `after` by adding these."""
        canonical = {
            item: canonical_value(*item) for item in dict.fromkeys(items)
        }  # once per spelling (a phone's is a parse)
        keys = [(user, session, item[0], canonical[item]) for item in items]
        values: dict[tuple[str, str, str, str], str] = {}  # the first spelling of each value is the one stored
        for key, (_, value) in zip(keys, items, strict=True):
            values.setdefault(key, value)
        issued_now: dict[tuple[str, str, str, str], Entry] = {}  # cached only once the transaction commits
        with self._transaction() as db:
            self._check_cache(db)
            generation = self._cache_generation
            todo = [key for key in values if key not in self._issued_cache or self._issued_cache[key].id in self._bad]
            digests = {key: self._mac("digest", user, session, key[2], key[3]) for key in todo}
            rows = self._rows_by_digest(db, user, session, [(key[2], digest) for key, digest in digests.items()])
            new_by_type: dict[str, list[tuple[str, str, str]]] = {}
            stored: dict[tuple[str, str, str, str], str] = {}  # the value as the vault holds it (its first spelling)
            for key in todo:
                span_type, digest = key[2], digests[key]
                if (row := rows.get((span_type, digest))) is not None:
                    try:  # never issue a placeholder whose row would not restore
                        stored[key] = self._open(row[0], user, session, span_type, digest, *row[1:])
                        continue
                    except VaultTampered:  # that row costs only its placeholder: the value gets a fresh one
                        log.warning("vault row %s does not authenticate: replaced by a new row", row[0])
                        db.execute("DELETE FROM entries WHERE id = ?", (row[0],))
                        self._deleted(db)
                new_by_type.setdefault(span_type, []).append((digest, key[3], values[key]))
            for span_type, new in new_by_type.items():
                rows.update(
                    ((span_type, digest), row)
                    for (digest, _, _), row in zip(
                        new, self._insert_many(db, user, session, span_type, new), strict=True
                    )
                )
            granted = []
            for key in todo:
                row = rows[(key[2], digests[key])]
                issued_now[key] = Entry(row[0], key[2], row[1], row[2])
                granted.append((issued_now[key], stored.get(key) or values[key]))
            before = self._last_grant(db, session)
            db.executemany(
                "INSERT OR IGNORE INTO issued VALUES (?, ?, ?)",
                [(entry.id, session, self._mac("issued", entry.id, user, session)) for entry in issued_now.values()],
            )
            # the session's row, unless this vault wrote it this second with nothing deleted since: it would hold the
            # same (a statement and a page of the log less for a session's next requests within the second)
            used = (user, session, _now(), generation)
            if items and used != self._used_row:
                self._used(db, user, session, used[2])
            entries = [issued_now.get(key) or self._issued_cache[key] for key in keys]
            after = self._last_grant(db, session)
        # A rolled-back transaction never gets here, so the cache only holds rows that exist; nor
        # does it take entries from before a deletion another thread has seen meanwhile.
        with self._lock:
            if self._cache_generation == generation:
                if len(self._issued_cache) + len(issued_now) > _CACHE_LIMIT:
                    self._issued_cache.clear()
                self._issued_cache.update(issued_now)
            if items:
                self._used_row = used
        return Issued(entries, (generation, before), (generation, after), granted)

    def held_entries(self, user: str, session: str, items: list[tuple[str, str]]) -> list[Entry | None]:
        """The entry each (type, value) already has in `session`, None for a value the session does not hold.
        Nothing is written: no row, no index taken (a search query's values leave no trace)."""
        digests = [self._mac("digest", user, session, t, canonical_value(t, v)) for t, v in items]
        wanted = [(t, digest) for (t, _), digest in zip(items, digests, strict=True)]
        with self._lock:
            rows = self._rows_by_digest(self._db, user, session, wanted)
        return [Entry(row[0], t, row[1], row[2]) if (row := rows.get((t, d))) else None for t, d in wanted]

    def _last_grant(self, db: sqlite3.Connection, session: str) -> int:
        return db.execute(_LAST_GRANT, (session,)).fetchone()[0] or 0

    def _rows_by_digest(
        self, db: sqlite3.Connection, user: str, session: str, wanted: list[tuple[str, str]]
    ) -> dict[tuple[str, str], tuple]:
        """(type, digest) -> (id, idx, token, nonce, ciphertext) of the session's rows that exist."""
        by_type: dict[str, list[str]] = {}
        for span_type, digest in wanted:
            by_type.setdefault(span_type, []).append(digest)
        query = "SELECT digest, id, idx, token, nonce, ciphertext FROM entries WHERE user = ? AND session = ? AND type = ? AND digest IN ({})"
        return {
            (span_type, digest): tuple(row)
            for span_type, digests in by_type.items()
            for digest, *row in _select_in(db, query, (user, session, span_type), digests)
        }

    def _check_cache(self, db: sqlite3.Connection) -> None:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (_GENERATION,)).fetchone()
        generation = row[0] if row else "0"
        if generation != self._cache_generation:
            self._issued_cache.clear()
            self._cache_generation = generation

    def _deleted(self, db: sqlite3.Connection) -> None:
        """Record that entries or grants went (in this transaction): every process drops its cache, and this one's
        `on_forget` listeners hear of it when the transaction commits."""
        self._deleting = True
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (_GENERATION, secrets.token_hex(8)))

    def _insert_many(
        self, db: sqlite3.Connection, user: str, session: str, span_type: str, new: list[tuple[str, str, str]]
    ) -> list[tuple[str, int, str]]:
        """Rows for values of one type seen for the first time in the session, (digest, canonical,
        value) each: (id, index, token) each, in a few statements however many values there are."""
        # Indices are never reused, even after `forget`: an old reply must not hydrate to a new value.
        (last,) = db.execute(
            "INSERT INTO counters VALUES (?, ?, ?, ?) ON CONFLICT (user, session, type) DO UPDATE SET last = last + excluded.last RETURNING last",
            (user, session, span_type, len(new)),
        ).fetchone()
        full_tokens = [self._mac("token", user, session, span_type, canonical) for _, canonical, _ in new]
        taken = self._tokens_taken(db, user, session, span_type, [full[: self._token_chars] for full in full_tokens])
        out, rows = [], []
        for (digest, _, value), index, full_token in zip(
            new, range(last - len(new) + 1, last + 1), full_tokens, strict=True
        ):
            length = self._token_chars
            # A truncated HMAC can collide; lengthen this value's token until it is unique.
            while full_token[:length] in taken or (
                length > self._token_chars and self._tokens_taken(db, user, session, span_type, [full_token[:length]])
            ):
                length += 4
            token = full_token[:length]
            taken.add(token)
            row = self._sealed(user, session, span_type, value, index, token, digest)
            rows.append(row)
            out.append((row[0], index, token))
        db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        return out

    def _sealed(
        self, user: str, session: str, span_type: str, value: str, index: int, token: str, digest: str | None = None
    ) -> tuple:
        """A new `entries` row holding `value` sealed to its user, session, type, digest, index and token (`digest`:
        the value's, when the caller has it)."""
        if digest is None:
            digest = self._mac("digest", user, session, span_type, canonical_value(span_type, value))
        entry_id, nonce = secrets.token_hex(16), secrets.token_bytes(12)
        ciphertext = self._aead.encrypt(
            nonce, value.encode(), self._aad(entry_id, user, session, span_type, digest, index, token)
        )
        return (entry_id, user, session, span_type, digest, index, token, nonce, ciphertext)

    @staticmethod
    def _used(db: sqlite3.Connection, user: str, session: str, now: str | None = None) -> None:
        """Record that `session` was issued values now (`_now`): its `sessions` row (created, last used)."""
        now = now or _now()
        db.execute(
            "INSERT INTO sessions VALUES (?, ?, ?, ?) ON CONFLICT (user, session) DO UPDATE SET last_used = excluded.last_used",
            (user, session, now, now),
        )

    def _insert_granted(self, db: sqlite3.Connection, row: tuple) -> None:
        """Insert an `entries` row and its grant to the row's own session."""
        entry_id, user, session = row[:3]
        db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        db.execute(
            "INSERT INTO issued VALUES (?, ?, ?)", (entry_id, session, self._mac("issued", entry_id, user, session))
        )

    def _tokens_taken(
        self, db: sqlite3.Connection, user: str, session: str, span_type: str, tokens: list[str]
    ) -> set[str]:
        query = "SELECT token FROM entries WHERE user = ? AND session = ? AND type = ? AND token IN ({})"
        return {token for (token,) in _select_in(db, query, (user, session, span_type), tokens)}

    # -- requests ---------------------------------------------------------------------
    def record_request(self, user: str, session: str, entries: list[Entry]) -> str:
        """A new request id standing for the placeholders of `entries` (what one protect issued or
        used), kept `REQUEST_DAYS` days: `request_placeholders` gives them back."""
        return self._record_request(user, session, {entry.id for entry in entries})

    def _record_request(self, user: str, session: str, entry_ids: set[str]) -> str:
        request_id, ids = secrets.token_urlsafe(16), sorted(entry_ids)
        now = datetime.now(UTC)
        with self._transaction() as db:
            db.execute(
                "DELETE FROM requests WHERE created < ?",
                ((now - timedelta(days=REQUEST_DAYS)).isoformat(timespec="seconds"),),
            )
            db.execute(
                "INSERT INTO requests VALUES (?, ?, ?, ?, ?, ?)",
                (
                    request_id,
                    user,
                    session,
                    now.isoformat(timespec="seconds"),
                    json.dumps(ids),
                    self._mac("request", request_id, user, session, *ids),
                ),
            )
        return request_id

    def record_request_of(self, user: str, session: str, keys: set[tuple[str, int | str]]) -> str:
        """`record_request` for the session's placeholders named by these keys (`Reference.key`, as found in a text
        the caller sends); a key the session does not hold is left out."""
        with self._lock:
            ids = _named_ids(self._db, user, session, keys)
        return self._record_request(user, session, ids)

    def request_placeholders(self, user: str, session: str, request_id: str) -> frozenset[tuple[str, int | str]] | None:
        """The keys (`Entry.names`) of the placeholders a recorded request of `session` issued or
        used; None when the session has no such request (unknown, expired or forgotten)."""
        for attempt in range(2):
            with self._lock:
                row = self._db.execute(
                    "SELECT entries, mac FROM requests WHERE id = ? AND user = ? AND session = ?",
                    (request_id, user, session),
                ).fetchone()
            if row is None:
                return None
            ids = json.loads(row[0])
            if hmac.compare_digest(row[1], self._mac("request", request_id, user, session, *ids)):
                break
            if attempt or not self._refresh_keys():
                raise VaultTampered(f"the record of request {request_id} does not authenticate")
        with self._lock:
            rows = list(
                _select_in(
                    self._db,
                    "SELECT type, idx, token FROM entries WHERE user = ? AND session = ? AND id IN ({})",
                    (user, session),
                    ids,
                )
            )
        return frozenset(key for span_type, index, token in rows for key in Entry("", span_type, index, token).names())

    # -- restore ----------------------------------------------------------------------
    def lookup(
        self, user: str, session: str, span_type: str, *, index: int | None = None, token: str | None = None
    ) -> str | None:
        """The value behind a placeholder, or None when it was not issued to this user/session."""
        column, key = ("idx", index) if index is not None else ("token", (token or "").lower())
        with self._lock:
            row = self._db.execute(
                f"SELECT e.id, e.digest, e.idx, e.token, e.nonce, e.ciphertext, i.mac FROM entries e JOIN issued i ON i.entry_id = e.id "
                f"WHERE e.user = ? AND e.session = ? AND e.type = ? AND e.{column} = ? AND i.session = ?",
                (user, session, span_type, key, session),
            ).fetchone()
        if row is None:
            return None
        entry_id, digest, row_index, row_token, nonce, ciphertext, mac = row
        self._check_grant(entry_id, user, session, mac)
        return self._open(entry_id, user, session, span_type, digest, row_index, row_token, nonce, ciphertext)

    def _check_grant(self, entry_id: str, user: str, session: str, mac: str) -> None:
        def authentic():
            return hmac.compare_digest(mac, self._mac("issued", entry_id, user, session))

        if not authentic() and not (self._refresh_keys() and authentic()):  # the key may have been rotated meanwhile
            self._bad.add(entry_id)
            raise VaultTampered(f"vault row {entry_id}: its session record does not authenticate")

    def _open(
        self,
        entry_id: str,
        user: str,
        session: str,
        span_type: str,
        digest: str,
        index: int,
        token: str,
        nonce: bytes,
        ciphertext: bytes,
    ) -> str:
        aad = self._aad(entry_id, user, session, span_type, digest, index, token)
        try:
            return self._aead.decrypt(nonce, ciphertext, aad).decode()
        except InvalidTag:
            if self._refresh_keys():  # another process rotated the key: this row may be sealed with the new one
                with suppress(InvalidTag):
                    return self._aead.decrypt(nonce, ciphertext, aad).decode()
            self._bad.add(entry_id)
            raise VaultTampered(
                f"vault row {entry_id}: the value does not authenticate (edited or moved); forget it or restore your backup"
            ) from None

    def issued_mark(self, session: str) -> tuple[str, int]:
        """(deletion generation, row id of the session's last grant): it changes whenever a value
        is issued to `session` (in any process) or anything is deleted. With the generation
        unchanged, the values issued since a mark are exactly `session_values(..., after=mark[1])`
        (grants are added in serialised transactions, their row ids only grow)."""
        with self._lock:
            generation, last = self._db.execute(
                f"SELECT (SELECT value FROM meta WHERE key = ?), ({_LAST_GRANT})", (_GENERATION, session)
            ).fetchone()
        return generation or "0", last or 0

    def session_values(self, user: str, session: str, after: int = 0) -> list[tuple[Entry, str]]:
        """(entry, value) of every value issued to `session` (decrypted, authenticated); `after`:
        only those granted after that row id (an `issued_mark`). A row that does not authenticate
        is left out (its placeholder is reported unresolved on restore)."""
        with self._lock:
            return self._opened_values(self._db, user, session, after)

    def _opened_values(
        self, db: sqlite3.Connection, user: str, session: str, after: int = 0
    ) -> list[tuple[Entry, str]]:
        """`session_values` read through `db` (a transaction's connection, or the vault's under its lock)."""
        rows = db.execute(
            "SELECT e.id, e.type, e.digest, e.idx, e.token, e.nonce, e.ciphertext, i.mac FROM entries e JOIN issued i ON i.entry_id = e.id "
            "WHERE e.user = ? AND e.session = ? AND i.session = ? AND i.rowid > ?",
            (user, session, session, after),
        ).fetchall()
        values = []
        for entry_id, span_type, digest, index, token, nonce, ciphertext, mac in rows:
            try:
                self._check_grant(entry_id, user, session, mac)
                value = self._open(entry_id, user, session, span_type, digest, index, token, nonce, ciphertext)
            except VaultTampered:
                log.warning("vault row %s does not authenticate: its placeholder will not restore", entry_id)
                continue
            values.append((Entry(entry_id, span_type, index, token), value))
        return values

    # -- restored replies (`proxy.history`) --------------------------------------------
    def keep_replies(
        self, user: str, session: str, texts: list[tuple[str, str, list]], max_texts: int, max_chars: int
    ) -> None:
        """Keep (text as the client got it, the upstream's text, the keys of the placeholders restored) of a reply:
        the first by keyed digest only, the others encrypted. At most `max_texts` texts of `max_chars` upstream
        characters in all are kept for the session, the ones kept longest ago going first."""
        with self._transaction() as db:
            count, chars = self._reply_totals(db, user, session)
            for text, upstream, keys in texts:
                digest = self._reply_digest(user, session, text)
                nonce = secrets.token_bytes(12)
                sealed = self._aead.encrypt(
                    nonce, json.dumps([upstream, keys]).encode(), self._reply_aad(user, session, digest)
                )
                where = (user, session, digest)
                kept = db.execute("SELECT chars FROM replies WHERE user = ? AND session = ? AND digest = ?", where)
                if (replaced := kept.fetchone()) is not None:
                    db.execute("DELETE FROM replies WHERE user = ? AND session = ? AND digest = ?", where)
                    count, chars = count - 1, chars - replaced[0]
                db.execute("INSERT INTO replies VALUES (?, ?, ?, ?, ?, ?)", (*where, len(upstream), nonce, sealed))
                count, chars = count + 1, chars + len(upstream)
            if count > max_texts or chars > max_chars:
                doomed = []
                for rowid, size in db.execute(
                    "SELECT rowid, chars FROM replies WHERE user = ? AND session = ? ORDER BY rowid", (user, session)
                ):
                    if count <= max_texts and chars <= max_chars:
                        break
                    doomed.append((rowid,))
                    count, chars = count - 1, chars - size
                db.executemany("DELETE FROM replies WHERE rowid = ?", doomed)
            db.execute("INSERT OR REPLACE INTO reply_totals VALUES (?, ?, ?, ?)", (user, session, count, chars))

    @staticmethod
    def _reply_totals(db: sqlite3.Connection, user: str, session: str) -> tuple[int, int]:
        """(texts, upstream characters) a session keeps (`keep_replies`): its row of `reply_totals`, kept in step with
        `replies` by every write, so a reply costs no count of the session's rows (COUNT and SUM over 10 000 kept texts
        took ~20 ms a reply); counted once where the row is missing (a vault written before the table)."""
        row = db.execute("SELECT texts, chars FROM reply_totals WHERE user = ? AND session = ?", (user, session))
        return (
            row.fetchone()
            or db.execute(
                "SELECT COUNT(*), COALESCE(SUM(chars), 0) FROM replies WHERE user = ? AND session = ?", (user, session)
            ).fetchone()
        )

    def recall_reply(self, user: str, session: str, text: str) -> tuple[str, list] | None:
        """(the upstream's text, the restored keys) kept for `text` in `session` (`keep_replies`), or None; a row that
        does not authenticate is None too (the text is then protected as new text)."""
        digest = self._reply_digest(user, session, text)
        with self._lock:
            row = self._db.execute(
                "SELECT nonce, ciphertext FROM replies WHERE user = ? AND session = ? AND digest = ?",
                (user, session, digest),
            ).fetchone()
        if row is None:
            return None
        try:
            upstream, keys = json.loads(self._aead.decrypt(row[0], row[1], self._reply_aad(user, session, digest)))
        except InvalidTag:
            log.warning("a kept reply of a session does not authenticate: its text is protected as new text")
            return None
        return upstream, keys

    def _reply_digest(self, user: str, session: str, text: str) -> str:
        message = "\x00".join(("reply", user, session, text)).encode("utf-8", "surrogatepass")
        return hmac.new(self._keys.hmac, message, hashlib.sha256).hexdigest()

    def _reply_aad(self, user: str, session: str, digest: str) -> bytes:
        return "\x00".join(("reply", user, session, digest)).encode()

    # -- forget -----------------------------------------------------------------------
    def forget_value(self, user: str, value: str) -> int:
        """Delete the value from every session of the user (under every type it was stored as), and in each session
        where it was a REAL_NAME the names of its words too: the parts the session masked on their own after it
        ("Gary", "Pemberton" of "Gary Pemberton" still restored after the full name was forgotten, ux27's report M13).
        Returns rows deleted."""
        with self._transaction() as db:
            self._deleted(db)
            sessions = [
                session for (session,) in db.execute("SELECT DISTINCT session FROM entries WHERE user = ?", (user,))
            ]
            deleted = 0
            for session in sessions:
                named = self._delete_value(db, user, session, TYPE_LEVELS, value)
                deleted += sum(named.values())
                if named.get("REAL_NAME"):
                    for part in set(value.split()) if len(value.split()) > 1 else ():
                        deleted += self._delete_value(db, user, session, ("REAL_NAME",), part)["REAL_NAME"]
        self._scrub()
        return deleted

    def _delete_value(self, db, user: str, session: str, types, value: str) -> dict[str, int]:
        """Delete the session's rows of `value` under each of `types`; the rows deleted per type."""
        return {
            span_type: db.execute(
                "DELETE FROM entries WHERE user = ? AND session = ? AND type = ? AND digest = ?",
                (
                    user,
                    session,
                    span_type,
                    self._mac("digest", user, session, span_type, canonical_value(span_type, value)),
                ),
            ).rowcount
            for span_type in types
        }

    def forget_placeholders(
        self,
        user: str,
        session: str,
        keys: set[tuple[str, int | str]],
        kept: set[tuple[str, int | str]] = frozenset(),
    ) -> int:
        """Delete the session's rows behind these placeholders (`Reference.key`) but those `kept` names too (a row is
        one placeholder whether a set names it by index or by token); other sessions' rows for the same values stay.
        Returns rows deleted."""
        with self._transaction() as db:
            self._deleted(db)
            doomed = sorted(_named_ids(db, user, session, keys) - _named_ids(db, user, session, kept))
            deleted = sum(1 for _ in _select_in(db, "DELETE FROM entries WHERE id IN ({}) RETURNING id", (), doomed))
        self._scrub()
        return deleted

    def forget_session(self, user: str, session: str) -> tuple[int, int]:
        """Delete the session, its values, its recorded requests and its kept replies; returns (placeholder grants
        removed, values deleted)."""
        with self._transaction() as db:
            self._deleted(db)
            grants = db.execute(
                "DELETE FROM issued WHERE session = ? AND entry_id IN (SELECT id FROM entries WHERE user = ?)",
                (session, user),
            ).rowcount
            db.execute("DELETE FROM sessions WHERE user = ? AND session = ?", (user, session))
            db.execute("DELETE FROM requests WHERE user = ? AND session = ?", (user, session))
            db.execute("DELETE FROM replies WHERE user = ? AND session = ?", (user, session))
            db.execute("DELETE FROM reply_totals WHERE user = ? AND session = ?", (user, session))
            # The counters stay: a session of the same name later never gets an index an old reply holds.
            deleted = db.execute("DELETE FROM entries WHERE user = ? AND session = ?", (user, session)).rowcount
        self._scrub()
        return grants, deleted

    def adopt(self, user: str, older: str, session: str, keys: set[tuple[str, int | str]] | None = None) -> int:
        """Copy the values `older` holds into `session`, with their indices and tokens, and its numbering: a memory
        owner's session takes over, when its user asks, the one its values had before owners' kinds were in session
        names (`integrations.wrapper.adopt`), so memories written then hydrate and later values number after theirs.
        `keys` (`Reference.key`: the placeholders the owner's memories hold): only the values behind them are copied,
        so values other owners of `older` wrote stay out of the owner's reach (None: every value). A row that does not
        authenticate is not copied (its placeholder stays as it is). A rerun is a no-op: when `session` already holds
        every value to copy, as that placeholder (an earlier adopt copied them), nothing is written and 0 returned. A
        ValueError, nothing written, when `session` otherwise ever numbered a value (its placeholders would clash with
        the copies') or there is no value to copy. Returns the values copied."""
        with self._transaction() as db:
            values = self._opened_values(db, user, older)
            if keys is not None:
                values = [(entry, value) for entry, value in values if keys.intersection(entry.names())]
            if not values:
                named = " that the owner's memories name" if keys is not None else ""
                raise ValueError(f"session {older!r} holds no value{named} to copy (see `stealthflow vault list`)")
            if db.execute("SELECT 1 FROM counters WHERE user = ? AND session = ?", (user, session)).fetchone():
                held = {_copied(entry) for entry, _ in self._opened_values(db, user, session)}
                if held.issuperset(_copied(entry) for entry, _ in values):
                    return 0
                raise ValueError(
                    f"session {session!r} already holds or held values, numbered apart from those of {older!r}: "
                    f"nothing was copied (an old memory restores on this device with `stealthflow restore --session "
                    f"{older}`)"
                )
            self._used(db, user, session)
            db.execute(
                "INSERT INTO counters SELECT user, ?, type, last FROM counters WHERE user = ? AND session = ?",
                (session, user, older),
            )
            for entry, value in values:
                self._insert_granted(db, self._sealed(user, session, entry.type, value, entry.index, entry.token))
            return len(values)

    def has_session(self, user: str, session: str) -> bool:
        """Whether any value of `user` was ever issued to `session` (and not forgotten)."""
        with self._lock:
            return (
                self._db.execute(
                    "SELECT 1 FROM issued i JOIN entries e ON e.id = i.entry_id WHERE i.session = ? AND e.user = ? LIMIT 1",
                    (session, user),
                ).fetchone()
                is not None
            )

    def numbered_before(self, user: str, session: str) -> bool:
        """Whether `session` ever numbered a placeholder of `user`: its counters outlive `forget_value` and
        `forget_session`, so a session without values that did is one whose values were forgotten."""
        with self._lock:
            return (
                self._db.execute(
                    "SELECT 1 FROM counters WHERE user = ? AND session = ? LIMIT 1", (user, session)
                ).fetchone()
                is not None
            )

    def numbered(self, user: str, session: str, span_type: str, index: int | None) -> bool:
        """Whether `session` numbered placeholder `index` of `span_type` for `user` (its counter, which outlives a
        forgotten value, reached it): such a placeholder with no value now was forgotten. False for a token (hmac)."""
        if index is None:
            return False
        with self._lock:
            row = self._db.execute(
                "SELECT last FROM counters WHERE user = ? AND session = ? AND type = ?", (user, session, span_type)
            ).fetchone()
        return row is not None and index <= row[0]

    def session_listed(self, user: str, session: str) -> bool:
        """Whether `session` of `user` is listed: a protect gave it values and `forget_session` did not delete it since
        (`forget_value` and `forget_placeholders` delete values only)."""
        with self._lock:
            return (
                self._db.execute("SELECT 1 FROM sessions WHERE user = ? AND session = ?", (user, session)).fetchone()
                is not None
            )

    def sessions(self, user: str) -> list[dict]:
        """Per session: its number of values and when it was created / last used — never values."""
        with self._lock:
            rows = self._db.execute(
                "SELECT i.session, COUNT(*), s.created, s.last_used FROM issued i JOIN entries e ON e.id = i.entry_id "
                "LEFT JOIN sessions s ON s.user = e.user AND s.session = i.session WHERE e.user = ? GROUP BY i.session ORDER BY i.session",
                (user,),
            ).fetchall()
        return [{"session": r[0], "values": r[1], "created": r[2] or "", "last_used": r[3] or ""} for r in rows]

    # -- backup and key rotation ------------------------------------------------------
    def _export_key(self) -> bytes:
        return hmac.new(self._keys.encryption, b"stealthflow vault export", hashlib.sha256).digest()

    def export(self, path: str | Path, overwrite: bool = False) -> None:
        """The whole vault, itself encrypted (AES-GCM under a key derived from the vault key). An existing
        file (an earlier backup) is a `FileExistsError` unless `overwrite`."""
        snapshot = Path(tempfile.mkdtemp()) / "vault.sqlite"
        try:
            with self._lock, sqlite3.connect(snapshot) as copy:
                self._db.backup(copy)
            nonce = secrets.token_bytes(12)
            blob = EXPORT_MAGIC + nonce + AESGCM(self._export_key()).encrypt(nonce, snapshot.read_bytes(), EXPORT_MAGIC)
        finally:
            shutil.rmtree(snapshot.parent, ignore_errors=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if overwrite else os.O_EXCL), 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(blob)

    def import_(self, path: str | Path, replace_existing: bool = False) -> int:
        """Restore an export made with the same key into this vault; returns its values."""
        blob = Path(path).read_bytes()
        if not blob.startswith(EXPORT_MAGIC):
            raise VaultKeyError(f"{path}: not a stealthflow vault export")
        nonce, ciphertext = blob[len(EXPORT_MAGIC) : len(EXPORT_MAGIC) + 12], blob[len(EXPORT_MAGIC) + 12 :]
        try:
            data = AESGCM(self._export_key()).decrypt(nonce, ciphertext, EXPORT_MAGIC)
        except InvalidTag:
            raise VaultKeyError(f"{path}: this export was made with another vault key (or was altered)") from None
        if self.count() and not replace_existing:
            raise ValueError(
                f"{self.path} already holds {self.count()} value(s): pass --replace to overwrite it with the export"
            )
        snapshot = Path(tempfile.mkdtemp()) / "vault.sqlite"
        try:
            snapshot.write_bytes(data)
            with self._lock, sqlite3.connect(snapshot) as source:
                source.backup(self._db)
        finally:
            shutil.rmtree(snapshot.parent, ignore_errors=True)
        self._open_schema()  # a backup from before sessions were scopes is migrated too
        with self._transaction() as db:
            self._deleted(db)  # the whole content changed: every process drops its cache
        return self.count()

    def rotate(self, new_keys: VaultKeys, new_key: NewKey | None = None) -> tuple[int, int]:
        """Re-encrypt every value and re-key every digest, session and request record under
        `new_keys` (placeholders keep their index and token, so earlier replies still restore).
        A row that does not authenticate is left as it is (it restores no more than before).
        `new_key` (the same key, on its way to where keys are read) is kept at its pending place before anything is
        re-encrypted (a failure there changes nothing), dropped from it when the re-encryption does not commit, and stored
        as the key once it is committed (synchronously: a power cut cannot take the commit back) and before the files are
        scrubbed: a process writing meanwhile finds it in one of the two places within its reload tries
        (`_current_keys`). A key that cannot be stored is a `VaultKeyError` naming where the new key is kept: the vault
        opens with it there (`open_vault`). All of it holds the vault's "rotate" lock (`locked`): a second rotation
        waits, then keeps its own key (the first one's, if it stopped before storing it, stored as the key first).
        Returns (values re-encrypted, rows left as they were)."""
        with self.locked("rotate"):
            if new_key is not None:
                self._refresh_keys()  # the key a rotation stopped after its commit left pending, if it is the vault's
                new_key.keep(self._keys)
            old_keys = self._keys
            try:
                done, total = self._reencrypt(new_keys)
            except BaseException:
                self._keys, self._aead = old_keys, AESGCM(old_keys.encryption)  # rolled back: the old key stays
                if new_key is not None:
                    with suppress(Exception):  # a pending key left behind is tried after the vault's key only
                        new_key.drop()
                raise
            self._bad.clear()
            try:
                if new_key is not None:
                    new_key.store()
            except Exception as exc:
                raise VaultKeyError(
                    f"the vault is re-encrypted under the new key, but it could not be stored as the vault key ({exc}): "
                    f"it is kept in {new_key.kept_in}, where stealthflow finds it too. Back it up now; the old key no "
                    "longer opens the vault"
                ) from exc
            finally:
                self._scrub_rotated()
        return done, total - done

    def locked(self, what: str, shared: bool = False) -> AbstractContextManager[None]:
        """The vault's lock named `what`, held for a block by every thread and process that takes it (`file_lock` on
        the file `<vault>.<what>.lock` beside the vault): `rotate` takes "rotate"; the memory wrappers "memory"
        (`integrations.wrapper`)."""
        return file_lock(self.path.with_name(f"{self.path.name}.{what}.lock"), shared)

    def shares_key_with(self, paths: Iterable[Path]) -> list[Path]:
        """The vaults among `paths` (other than this one) sealed with this vault's key, by their key check records:
        rotating this vault's key where they read it too would lock them out."""
        shared = []
        for path in {Path(p).resolve() for p in paths} - {self.path.resolve()}:
            try:
                with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
                    meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN (?, ?)", (_KEY_CHECK, _VAULT_ID)))
            except sqlite3.Error:  # gone, no vault, or busy: nothing to lock out that can be told
                continue
            if _KEY_CHECK in meta and self.same_key(meta.get(_VAULT_ID), meta[_KEY_CHECK]):
                shared.append(path)
        return sorted(shared)

    def _reencrypt(self, new_keys: VaultKeys) -> tuple[int, int]:
        """`rotate`'s one transaction, committed with a full sync: (values re-encrypted, rows). `self`'s keys are the new
        ones once it began, also when it raises (the caller puts the old ones back)."""
        with self._lock:
            self._db.execute("PRAGMA synchronous=FULL")
            try:
                with self._transaction() as db:
                    return self._reencrypt_rows(db, new_keys)
            finally:
                self._db.execute("PRAGMA synchronous=NORMAL")

    def _reencrypt_rows(self, db: sqlite3.Connection, new_keys: VaultKeys) -> tuple[int, int]:
        rows = db.execute(
            "SELECT id, user, session, type, digest, idx, token, nonce, ciphertext FROM entries"
        ).fetchall()
        grants = db.execute(
            "SELECT i.entry_id, i.session, e.user, i.mac FROM issued i JOIN entries e ON e.id = i.entry_id"
        ).fetchall()
        requests = db.execute("SELECT id, user, session, entries, mac FROM requests").fetchall()
        old_keys, old = self._keys, self._aead
        self._keys, self._aead = new_keys, AESGCM(new_keys.encryption)
        done = 0
        for entry_id, user, session, span_type, digest, index, token, nonce, ciphertext in rows:
            try:
                value = old.decrypt(
                    nonce, ciphertext, self._aad(entry_id, user, session, span_type, digest, index, token)
                ).decode()
            except InvalidTag:
                continue
            new_digest = self._mac("digest", user, session, span_type, canonical_value(span_type, value))
            new_nonce = secrets.token_bytes(12)
            sealed = self._aead.encrypt(
                new_nonce, value.encode(), self._aad(entry_id, user, session, span_type, new_digest, index, token)
            )
            db.execute(
                "UPDATE entries SET digest = ?, nonce = ?, ciphertext = ? WHERE id = ?",
                (new_digest, new_nonce, sealed, entry_id),
            )
            done += 1
        for entry_id, session, user, mac in grants:  # a forged grant stays forged
            if hmac.compare_digest(mac, self._mac("issued", entry_id, user, session, keys=old_keys)):
                db.execute(
                    "UPDATE issued SET mac = ? WHERE entry_id = ? AND session = ?",
                    (self._mac("issued", entry_id, user, session), entry_id, session),
                )
        for request_id, user, session, ids, mac in requests:
            if hmac.compare_digest(
                mac, self._mac("request", request_id, user, session, *json.loads(ids), keys=old_keys)
            ):
                db.execute(
                    "UPDATE requests SET mac = ? WHERE id = ?",
                    (self._mac("request", request_id, user, session, *json.loads(ids)), request_id),
                )
        db.execute("DELETE FROM replies")  # their digests are keyed by the old key, and the texts are gone
        db.execute("DELETE FROM reply_totals")
        db.execute("UPDATE meta SET value = ? WHERE key = ?", (self._key_check(self.id), _KEY_CHECK))
        self._deleted(db)  # every process drops what it cached under the old key
        return done, len(rows)

    def _scrub_rotated(self) -> None:
        """`_scrub` with a rebuild of the file; a full disk is a warning (the vault is rotated and whole)."""
        try:
            self._scrub(vacuum=True)
        except (
            sqlite3.OperationalError
        ) as exc:  # a full disk: the vault is rotated and whole, its old pages are not gone
            log.warning(
                "the vault is re-encrypted, but its files could not be rebuilt (%s): old ciphertexts stay in free pages "
                "until `vault forget` or another rotation scrubs them",
                exc,
            )

    def _scrub(self, vacuum: bool = False) -> None:
        """Leave no deleted or overwritten row in the vault's files (`scrub_log`: the write-ahead log's old frames hold
        rows as they were before), after rebuilding the file if `vacuum` (free pages and slack of a file whose every
        value was rewritten)."""
        with self._lock:
            if vacuum:
                self._db.execute("VACUUM")
            scrub_log(self._db, "the vault")

    def count(self, user: str | None = None) -> int:
        with self._lock:
            query, args = (
                ("SELECT COUNT(*) FROM entries WHERE user = ?", (user,))
                if user
                else ("SELECT COUNT(*) FROM entries", ())
            )
            return self._db.execute(query, args).fetchone()[0]

    def close(self) -> None:
        self._checkpoints.stop()
        with self._lock:
            self._db.close()  # the last connection to close checkpoints what is left

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _now() -> str:
    """The time a `sessions` row records, to the second (UTC)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@contextmanager
def file_lock(path: Path, shared: bool = False) -> Iterator[None]:
    """An exclusive (or `shared`) `flock` on `path` (created 0600, left empty) for the block: it excludes other threads
    and processes that take it, and is let go when the block ends or the process dies, killed or not."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def connect_private(path: Path, **kwargs) -> sqlite3.Connection:
    """A SQLite connection to `path`, the file (and so its WAL and shared-memory files, which
    SQLite creates with the file's mode) readable by its owner only. An existing file is not opened outside SQLite:
    closing any descriptor of it drops every lock this process's SQLite connections hold on it, and another process
    closing the file then takes itself for the last one and deletes the write-ahead log still in use here: the file
    comes out malformed (tests/test_vault.py)."""
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    for suffix in ("", "-wal", "-shm"):
        with suppress(FileNotFoundError):
            os.chmod(f"{path}{suffix}", 0o600)
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None, **kwargs)


def _named_ids(db: sqlite3.Connection, user: str, session: str, keys: Iterable[tuple[str, int | str]]) -> set[str]:
    """The ids of the session's rows these placeholder keys (`Reference.key`: by index or by token) name."""
    wanted: dict[tuple[str, str], list[int | str]] = {}  # (type, column) -> its keys
    for span_type, which in keys:
        column, which = ("idx", which) if isinstance(which, int) else ("token", which.lower())
        wanted.setdefault((span_type, column), []).append(which)
    query = "SELECT id FROM entries WHERE user = ? AND session = ? AND type = ? AND {column} IN ({{}})"
    return {
        entry_id
        for (span_type, column), values in wanted.items()
        for (entry_id,) in _select_in(db, query.format(column=column), (user, session, span_type), values)
    }


def _select_in(db: sqlite3.Connection, query: str, params: tuple, values: Sequence[int | str]) -> Iterator[tuple]:
    """The rows of `query` (ending in `IN ({})`) for every value, a chunk at a time (SQLite's bound-parameter limit)."""
    for at in range(0, len(values), 500):
        chunk = values[at : at + 500]
        yield from db.execute(query.format(",".join("?" * len(chunk))), (*params, *chunk))


_SCRUB_TRIES = 100  # of a checkpoint that truncates the log, 50 ms apart (`scrub_log`)


def scrub_log(db: sqlite3.Connection, what: str) -> None:
    """Copy a WAL-mode file's write-ahead log into the file and truncate it, so rows just deleted (overwritten with zeros
    under `secure_delete`) are gone from both. Closing the last connection does this too, but another connection open
    meanwhile (another process's, or one not yet collected) keeps the file's old pages there until then. A checkpoint
    running meanwhile is waited for, a few seconds at most; a reader in another process can keep the log from being
    truncated longer: that is logged, and forgetting again once it stops scrubs it."""
    for _ in range(_SCRUB_TRIES):
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if not busy:
            return
        time.sleep(0.05)
    log.warning("another process reads %s: its write-ahead log still holds deleted rows until it stops", what)


class _Checkpoints:
    """A thread that checkpoints the vault's write-ahead log at most every `every` seconds while
    there are writes (a passive checkpoint: writers and readers go on meanwhile). A log grown past
    `wal_limit` bytes (a burst of writes while readers held it) is then checkpointed and truncated,
    waiting a moment at most for readers; writers' connections also cut it back to that size
    whenever they start it over (`journal_size_limit`)."""

    wal_limit = 16 * 1024 * 1024

    def __init__(self, path: Path, every: float = 1.0):
        self.path, self.every = path, every
        self._written, self._stopped = threading.Event(), threading.Event()
        self._thread: threading.Thread | None = None

    def wrote(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="vault-checkpoints", daemon=True)
            self._thread.start()
        self._written.set()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False, timeout=0.2)
        wal = Path(f"{self.path}-wal")
        try:
            while self._written.wait() and not self._stopped.is_set():
                self._written.clear()
                with suppress(sqlite3.Error, OSError):  # busy or gone: the next write tries again
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    if wal.stat().st_size > self.wal_limit:
                        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                if self._stopped.wait(self.every):
                    break
        finally:
            db.close()

    def stop(self) -> None:
        self._stopped.set()
        self._written.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
