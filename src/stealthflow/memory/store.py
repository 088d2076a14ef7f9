"""The memory store: one SQLite file (WAL) holding redacted text and its float32 embedding.

Raw values never reach this file: they live only in the encrypted vault, under the vault session
`vault_session(user)` ("memory:<user>"; a mem0 or LangGraph owner's name its kind too), so one user's placeholders
never restore for another, and
each user's placeholders are numbered on their own. Metadata values are protected like the text; the
digests that let `memory append -i` resume are keyed with the vault key. The file (and its WAL) is
readable by its owner only, like the vault.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from stealthflow.data import DataError
from stealthflow.data.loader import json_line
from stealthflow.integrations import hydrate_strings, protect_strings, strings_in
from stealthflow.pipeline.protector import Protector
from stealthflow.placeholders.restore import PLACEHOLDER, RestoreResult, reference
from stealthflow.placeholders.scope import RestoreScope
from stealthflow.placeholders.vault import connect_private, scrub_log
from stealthflow.sessions import MEMORY_SESSIONS, memory_kind

if TYPE_CHECKING:
    from stealthflow.anonymize.methods import Method

Embed = Callable[[list[str]], np.ndarray]
CANDIDATES = 256  # memories considered for one pack: far more than any token budget holds
# The relevance floor of a pack: a memory whose cosine with the query is lower is not sent (every memory sent is
# personal text the upstream gets). Chosen by benchmarks/memory_utility.py (docs/memory.md, "Utility").
MIN_SCORE = 0.25
NO_PLACEHOLDERS = ""  # the request of a pack that sent no placeholder: a reply to it gets none restored

SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user TEXT NOT NULL,
    text TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL,
    vector BLOB NOT NULL,
    number INTEGER,
    placeholders TEXT
);
CREATE INDEX IF NOT EXISTS memories_user ON memories(user, id);
CREATE TABLE IF NOT EXISTS line_digests (
    line TEXT PRIMARY KEY,
    memory_id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS numbers (
    user TEXT PRIMARY KEY,
    last INTEGER NOT NULL
);
"""
# A memory's id, the one `append` answers and `forget` takes, is its `number`: counted per memory user (`numbers`
# holds each user's last), so an id tells nothing of other users' memories (rev22 F9: one counter over every user
# told each how many memories the others wrote, and when). `id` is the row's own, internal: line digests and the
# loaded matrices follow it. A store of an earlier version gets the column on open, each memory numbered with its old
# id (the ids its users were given still name the same memories) and each user counting on from their highest.
NUMBERED = "CREATE UNIQUE INDEX IF NOT EXISTS memories_number ON memories(user, number)"
# `line_digests`: which input line became which memory, written in the memory's own transaction, so
# `memory append -i` run again after a crash skips the lines already stored. A line is known by a
# digest of its input up to its end (`input_rows`): the same input, or one grown at its end, resumes.
# The table keeps that digest keyed (`Vault.digest`, a key per memory user): an unkeyed one let anyone
# with this file alone guess the line's values. `forget` removes a memory's row.
LEGACY_LINES = "imported"  # the table of unkeyed SHA-256 digests of earlier versions, re-keyed on open
# `placeholders`: the keys (`Protected.keys`) of the placeholders protect gave the memory's text at append, as JSON. A
# pack's request is built from them, and `forget` keeps the values the other memories' keys name, never by re-reading
# the stored text: a rewriter that dropped the backslash of an escaped placeholder-shaped word ("write to \EMAIL_3")
# must not make its pack hydrate another memory's value (rev28 F2). A store of an earlier version gets the column on
# open, each memory's keys read once from its text.


def vault_session(user: str, kind: str = "") -> str:
    """The vault session holding the memory values of `user`, an owner of `kind` (`MEMORY_KINDS`; "": a memory store's
    user, whose id may not start with a kind and ":")."""
    if not user or not user.strip():
        raise ValueError("a memory user id must be a non-empty string")
    if kind:
        return f"{MEMORY_SESSIONS}{kind}:{user}"
    if memory_kind(user):
        raise ValueError(f"a memory user id may not start with {memory_kind(user)!r} and ':' (another kind of owner)")
    return MEMORY_SESSIONS + user


def input_rows(text: str, where: str) -> list[tuple[str, str, str, dict | None]]:
    """The (key, user, text, metadata) rows of a JSONL input of `{user, text, metadata?}` lines (`memory append -i`),
    read from `where`. A row's key is a digest of the input up to the end of its line: the same input run again, or
    grown at its end, gives its rows the same keys. It stays in memory: the store keeps it keyed with the vault key
    (`MemoryStore.imported_lines`). A line that is no such object is a DataError naming `where` and the line."""
    rows, prefix = [], hashlib.sha256()
    for number, line in enumerate(text.split("\n"), 1):
        prefix.update(line.encode() + b"\n")
        if not line.strip():
            continue
        try:
            row = json_line(line)
            rows.append((prefix.hexdigest(), row["user"], row["text"], row.get("metadata")))
        except (json.JSONDecodeError, KeyError, TypeError):
            raise DataError(
                f'{where}:{number}: each line must be a JSON object with "user" and "text" (and optional "metadata")'
            ) from None
    return rows


def default_store_path(vault_path: Path | None = None) -> Path:
    """memory.sqlite beside the vault."""
    from stealthflow.pipeline.protector import default_vault_path

    return (vault_path or default_vault_path()).with_name("memory.sqlite")


def estimate_tokens(text: str) -> int:
    """A cheap token count (about 4 characters per token) for budgeting packs."""
    return max(1, (len(text) + 3) // 4)


@dataclass
class MemoryItem:
    id: int
    user: str
    text: str
    metadata: dict = field(default_factory=dict)
    created: float = 0.0
    warnings: list[str] = field(default_factory=list)  # at append: a secret was in it, a rewrite was rejected


@dataclass
class PackedItem:
    id: int
    text: str
    score: float


@dataclass
class Packed:
    text: str
    items: list[PackedItem]
    request: str = ""  # the id that hydrates a reply to this pack: only the placeholders `text` holds restore
    below_floor: int = 0  # the user's memories left out as less similar to the query than `min_score`

    def to_json(self) -> dict:
        return {"text": self.text, "items": [asdict(i) for i in self.items], "request": self.request}


def minilm_embedder() -> Embed:
    """The project's offline MiniLM, run in numpy (loaded on first use): a command that appends or packs a few
    memories starts in ~0.3 s instead of the ~4.5 s torch and transformers take to load."""
    from stealthflow.pii_tagger.minilm import embed

    return embed


class _UserMatrix:
    """A user's vectors as one float32 matrix, loaded once and kept in sync with the table; `ids`: their rows' internal
    ids (the last one's is `last_id`), `numbers`: the memories' ids as the user knows them."""

    def __init__(self, ids: np.ndarray, numbers: np.ndarray, vectors: np.ndarray, last_id: int):
        self.ids, self.numbers, self.vectors, self.last_id = ids, numbers, vectors, last_id


class MemoryStore:
    """`rewriter`: an anonymization method (e.g. `local`) run on the redacted text at append,
    against implicit-attribute inference; a rewrite that loses a placeholder is not stored."""

    def __init__(
        self, path: str | Path, protector: Protector, embed: Embed | None = None, rewriter: Method | None = None
    ):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.protector = protector
        self.embed = embed or minilm_embedder()
        self.rewriter = rewriter
        self._db = connect_private(self.path, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # an acknowledged append survives a crash
        self._db.execute("PRAGMA secure_delete=ON")  # what forget deletes is overwritten, not left in free pages
        self._db.executescript(SCHEMA)
        self._lock = threading.RLock()
        self._matrices: dict[str, _UserMatrix] = {}
        self._rekey_legacy_lines()
        self._number_legacy_memories()
        self._key_legacy_memories()
        self._db.execute(NUMBERED)

    def _line_digester(self, user: str) -> Callable[[str], str]:
        """The stored form of an input line's digest: keyed with the vault key, for this user's scope only."""
        return self.protector.vault.digester(
            f"memory input line\x00{self.protector.config.user}\x00{vault_session(user)}"
        )

    def _rekey_legacy_lines(self) -> None:
        """A store of an earlier version holds unkeyed digests (table `imported`): each whose memory is still stored is
        keyed as now (its resume keeps working), the others are dropped, and so is the table."""

        def legacy() -> bool:
            query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
            return self._db.execute(query, (LEGACY_LINES,)).fetchone() is not None

        if not legacy():
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            if not legacy():  # another process opening the store re-keyed it first
                self._db.execute("ROLLBACK")
                return
            try:
                rows = self._db.execute(
                    f"SELECT line, user, memory_id FROM {LEGACY_LINES} JOIN memories ON memories.id = memory_id"
                ).fetchall()
                digesters = {user: self._line_digester(user) for user in {user for _, user, _ in rows}}
                self._db.executemany(
                    "INSERT OR REPLACE INTO line_digests (line, memory_id) VALUES (?, ?)",
                    [(digesters[user](line), memory_id) for line, user, memory_id in rows],
                )
                self._db.execute(f"DROP TABLE {LEGACY_LINES}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            scrub_log(self._db, "the memory store")  # no page of the old table left in the WAL

    def _number_legacy_memories(self) -> None:
        """A store of an earlier version (no `number` column): each memory numbered with its id, each user counting on
        from their highest."""

        def number() -> None:
            self._db.execute("ALTER TABLE memories ADD COLUMN number INTEGER")
            self._db.execute("UPDATE memories SET number = id")
            self._db.execute("INSERT INTO numbers (user, last) SELECT user, MAX(id) FROM memories GROUP BY user")

        self._add_column_once("number", number)

    def _key_legacy_memories(self) -> None:
        """A store of an earlier version (no `placeholders` column): each memory's keys read from its text, once."""

        def key() -> None:
            self._db.execute("ALTER TABLE memories ADD COLUMN placeholders TEXT")
            rows = self._db.execute("SELECT id, text FROM memories").fetchall()
            self._db.executemany(
                "UPDATE memories SET placeholders = ? WHERE id = ?",
                [(_keys_json(placeholders_in(text)), row) for row, text in rows],
            )

        self._add_column_once("placeholders", key)

    def _add_column_once(self, column: str, add: Callable[[], None]) -> None:
        """`add` (which adds `column` to `memories` and fills it) run in one transaction, when the store lacks the
        column: asked again inside it, as another process opening the store may have added it first."""

        def missing() -> bool:
            return column not in {row[1] for row in self._db.execute("PRAGMA table_info(memories)")}

        if not missing():
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if missing():
                    add()
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # -- APPEND ---------------------------------------------------------------------------
    def append(self, user: str, text: str, metadata: dict | None = None, line: str | None = None) -> MemoryItem:
        """`line`: a digest of the input the memory comes from, up to its line's end, remembered (keyed) for
        `imported_lines`. `metadata`: its string values are protected in the user's session, as the text."""
        return self.append_many(user, [text], [metadata], [line] if line else None)[0]

    def append_many(
        self, user: str, texts: list[str], metadatas: list[dict | None] | None = None, lines: list[str] | None = None
    ) -> list[MemoryItem]:
        session = vault_session(user)
        if any(not isinstance(t, str) or not t.strip() for t in texts):
            raise ValueError("a memory must be a non-empty string")
        metadatas = metadatas or [None] * len(texts)
        protected = self.protector.protect_many(texts, session)
        stored_metadata = protect_strings(self.protector, [m or {} for m in metadatas], session)
        redacted = [p.text for p in protected]
        warnings = [list(p.warnings) for p in protected]
        if self.rewriter is not None:
            from stealthflow.pipeline.rewrite import rewrite_protected

            outcomes = rewrite_protected(
                self.rewriter,
                [(str(n), p.text, p.placeholders) for n, p in enumerate(protected)],
                values=[p.values for p in protected],
            )
            redacted = [o.text for o in outcomes]  # a rejected rewrite gives back the placeholder text
            for notes, outcome in zip(warnings, outcomes, strict=True):
                if not outcome.accepted:
                    notes.append(f"the rewrite was rejected ({outcome.reason}); the placeholder text was stored")
        vectors = np.asarray(self.embed(redacted), dtype=np.float32)
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                last = self._db.execute("SELECT last FROM numbers WHERE user = ?", (user,)).fetchone()
                numbers = range((last[0] if last else 0) + 1, (last[0] if last else 0) + 1 + len(texts))
                self._db.execute(
                    "INSERT INTO numbers (user, last) VALUES (?, ?) ON CONFLICT(user) DO UPDATE SET last = excluded.last",
                    (user, numbers[-1]),
                )
                rows = [
                    self._db.execute(
                        "INSERT INTO memories (user, text, metadata, created, vector, number, placeholders)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (user, r, json.dumps(m), now, v.tobytes(), n, _keys_json(p.keys)),
                    ).lastrowid
                    for r, m, v, n, p in zip(redacted, stored_metadata, vectors, numbers, protected, strict=True)
                ]
                if lines:
                    digest = self._line_digester(user)
                    self._db.executemany(
                        "INSERT OR REPLACE INTO line_digests (line, memory_id) VALUES (?, ?)",
                        [(digest(line), row) for line, row in zip(lines, rows, strict=True)],
                    )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return [
            MemoryItem(i, user, r, m or {}, now, w)
            for i, r, m, w in zip(numbers, redacted, metadatas, warnings, strict=True)
        ]

    def imported_lines(self, lines: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """Of the (user, line digest) input lines given, those whose memory is stored (a forgotten memory's line
        counts as not imported)."""
        with self._lock:
            stored = {
                line
                for (line,) in self._db.execute(
                    "SELECT line FROM line_digests JOIN memories ON memories.id = line_digests.memory_id"
                )
            }
        digesters = {user: self._line_digester(user) for user in {user for user, _ in lines}}
        return {(user, line) for user, line in lines if digesters[user](line) in stored}

    # -- PACK -----------------------------------------------------------------------------
    def _matrix(self, user: str) -> _UserMatrix:
        """The user's matrix, extended with rows other processes appended since it was loaded."""
        with self._lock:
            cached = self._matrices.get(user)
            since = cached.last_id if cached else 0
            rows = self._db.execute(
                "SELECT id, number, vector FROM memories WHERE user = ? AND id > ? ORDER BY id", (user, since)
            ).fetchall()
            if cached is None or rows:
                ids = np.array([r[0] for r in rows], dtype=np.int64)
                numbers = np.array([r[1] for r in rows], dtype=np.int64)
                vecs = (
                    np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(len(rows), -1)
                    if rows
                    else None
                )
                if cached is None:
                    cached = _UserMatrix(
                        ids,
                        numbers,
                        vecs if vecs is not None else np.zeros((0, 0), np.float32),
                        int(ids[-1]) if len(ids) else 0,
                    )
                else:
                    cached = _UserMatrix(
                        np.concatenate([cached.ids, ids]),
                        np.concatenate([cached.numbers, numbers]),
                        np.vstack([cached.vectors, vecs]) if cached.vectors.size else vecs,
                        int(ids[-1]),
                    )
                self._matrices[user] = cached
            return cached

    def pack(
        self,
        user: str,
        query: str,
        budget_tokens: int = 400,
        purpose: str | None = None,
        min_score: float = MIN_SCORE,
    ) -> Packed:
        """The user's memories most similar to the query, most similar first, within the budget, none whose
        similarity (cosine, -1 to 1) is below `min_score`. The query (after `purpose`, when given) is redacted with the
        user's session first, so a value finds its placeholder and the embedder gets none."""
        if budget_tokens <= 0:
            raise ValueError("budget_tokens must be positive")
        if not -1.0 <= min_score <= 1.0:
            raise ValueError("min_score must be between -1 and 1 (a cosine similarity)")
        matrix = self._matrix(user)
        if not len(matrix.ids):
            return self._packed(user, [])
        # redacted, not protected: the query's values get no vault row (nor index) of their own, so nothing of a
        # search outlives it, and a value named only in queries never shifts the user's numbering; the purpose with it,
        # since the embedder gets both (rev31: an `embed` off this device got the purpose's values)
        redacted_query = self.protector.redact(f"{purpose}: {query}" if purpose else query, vault_session(user))
        scores = matrix.vectors @ np.asarray(self.embed([redacted_query]), dtype=np.float32)[0]
        # The best CANDIDATES by similarity (partial sort: no full sort of 100k scores), then
        # similarity first with the newer memory (higher id) breaking ties.
        top = np.argpartition(-scores, CANDIDATES)[:CANDIDATES] if len(scores) > CANDIDATES else np.arange(len(scores))
        top = top[scores[top] >= min_score]
        below = int((scores < min_score).sum())
        order = top[np.lexsort((-matrix.ids[top], -np.round(scores[top], 6)))]
        chosen, sent, used = [], set(), 0
        texts = self._texts(user, [int(matrix.ids[i]) for i in order])
        for i in order:
            mid = int(matrix.ids[i])
            if mid not in texts:  # forgotten by another process since the matrix was loaded
                continue
            text, keys = texts[mid]
            cost = estimate_tokens(text)
            if used + cost > budget_tokens:
                continue
            chosen.append(PackedItem(int(matrix.numbers[i]), text, round(float(scores[i]), 4)))
            sent |= keys
            used += cost
        return replace(self._packed(user, chosen, sent), below_floor=below)

    def _packed(self, user: str, chosen: list[PackedItem], sent: set[tuple[str, int | str]] | None = None) -> Packed:
        """The pack of `chosen`, recorded as a request of the user's session: a reply to it hydrates only the
        placeholders `sent` (the keys protect gave the chosen memories at append)."""
        text = "\n".join(f"- {c.text}" for c in chosen)
        if not sent:
            return Packed(text, chosen, NO_PLACEHOLDERS)
        return Packed(
            text, chosen, self.protector.vault.record_request_of(self.protector.config.user, vault_session(user), sent)
        )

    def _texts(self, user: str, ids: list[int]) -> dict[int, tuple[str, set[tuple[str, int | str]]]]:
        """Each memory's text and the keys of the placeholders protect gave it."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        with self._lock:
            rows = self._db.execute(
                f"SELECT id, text, placeholders FROM memories WHERE user = ? AND id IN ({marks})", (user, *ids)
            ).fetchall()
        # none recorded (a row an earlier version's process wrote since the column came): it restores nothing
        return {row: (text, _keys_of(keys or "[]")) for row, text, keys in rows}

    # -- HYDRATE --------------------------------------------------------------------------
    def hydrate(self, user: str, text: str, request: str) -> str:
        """Restore, in a reply to the pack `request` (`Packed.request`), the placeholders that pack sent; any other
        placeholder (of this user's other memories, or another user's) stays as it is."""
        return self.restore(user, text, request).text

    def restore(
        self, user: str, text: str, request: str, secrets_in_urls: bool = False, values_in_links: bool = False
    ) -> RestoreResult:
        """`hydrate`, with what was restored, the placeholders that are not this user's (`unresolved`) and those left
        as they are (`withheld`): those the pack did not send (`not_in_request`), and those where a value would leave
        the device (as restore: `secrets_in_urls`, `values_in_links`). `KeyError` for a request the user's session
        has not recorded (unknown, expired or forgotten)."""
        session = vault_session(user)
        scope = (
            RestoreScope(frozenset(), self.protector.config.guarded_types())
            if request == NO_PLACEHOLDERS
            else self.protector.request_scope(session, request, secrets_in_urls, values_in_links)
        )
        if scope is None:
            raise KeyError(f"no pack {request!r} for user {user!r} (unknown, expired or forgotten)")
        return self.protector.restore(text, session, scope=scope)

    @staticmethod
    def unresolved_notice(user: str, unresolved: list[str]) -> str | None:
        """What to tell the caller of the placeholders a hydrate left because they are not `user`'s
        (`RestoreResult.unresolved`): how many and which (never a value); None when there is none."""
        if not unresolved:
            return None
        return (
            f"{len(unresolved)} placeholder(s) were not issued to this user's memories and stay as they are: "
            f"{', '.join(sorted(set(unresolved)))}"
        )

    # -- LIST / FORGET ---------------------------------------------------------------------
    def list(self, user: str) -> list[MemoryItem]:
        """The user's memories, oldest first: the text redacted, the metadata hydrated for the local caller."""
        with self._lock:
            rows = self._db.execute(
                "SELECT number, text, metadata, created FROM memories WHERE user = ? ORDER BY id", (user,)
            ).fetchall()
        session = vault_session(user)
        return [
            MemoryItem(i, user, t, hydrate_strings(self.protector, json.loads(m), session), c) for i, t, m, c in rows
        ]

    def forget(self, user: str, memory_id: int | None = None, *, all: bool = False) -> int:
        """Remove one memory (or all of the user's), its vector, and the user's vault values no
        remaining memory of the user still uses (other users' and sessions' values stay, the same
        values included: each holds its own). Returns memories removed."""
        if (memory_id is None) == (not all):
            raise ValueError("give a memory id or all=True")
        session = vault_session(user)
        with self._lock:
            if all:
                removed = self._db.execute("DELETE FROM memories WHERE user = ?", (user,)).rowcount
                self._db.execute("DELETE FROM numbers WHERE user = ?", (user,))  # nothing of the user is left
                self.protector.vault.forget_session(self.protector.config.user, session)
            else:
                row = self._db.execute(
                    f"SELECT {_NAMING} FROM memories WHERE user = ? AND number = ?", (user, memory_id)
                ).fetchone()
                if row is None:
                    raise KeyError(f"no memory {memory_id} for user {user!r}")
                self._db.execute("DELETE FROM memories WHERE user = ? AND number = ?", (user, memory_id))
                removed = 1
                others = self._db.execute(f"SELECT {_NAMING} FROM memories WHERE user = ?", (user,))
                kept = set().union(*(_named(*other) for other in others))
                if named := _named(*row):
                    self.protector.vault.forget_placeholders(self.protector.config.user, session, named, kept)
            self._db.execute("DELETE FROM line_digests WHERE memory_id NOT IN (SELECT id FROM memories)")
            scrub_log(self._db, "the memory store")  # not left in the file while another connection is open
            self._matrices.pop(user, None)
        return removed

    def close(self) -> None:
        self._db.close()


def _keys_json(keys) -> str:
    """Placeholder keys (type, index or token) as the `placeholders` column holds them."""
    return json.dumps(sorted(keys, key=lambda key: (key[0], str(key[1]))))


def _keys_of(stored: str) -> set[tuple[str, int | str]]:
    """The keys a `placeholders` column holds (`_keys_json`)."""
    return {(kind, which) for kind, which in json.loads(stored)}


_NAMING = "placeholders, text, metadata"  # what `_named` reads of a memory


def _named(keys: str | None, text: str, metadata: str) -> set[tuple[str, int | str]]:
    """The placeholders a memory holds, for `forget`: those protect gave its text at append (its stored text may be a
    rewrite, and a decision by its characters is what rev28 F2 broke: `pack` reads them too), those of a row written
    without them (an earlier version's process, since the column came) read from its text; and those of its metadata,
    which is stored as protect wrote it (never rewritten), read from its strings."""
    named = placeholders_in(text) if keys is None else _keys_of(keys)
    named.update(*(placeholders_in(string) for string in strings_in(json.loads(metadata))))
    return named


def placeholders_in(text: str) -> set[tuple[str, int | str]]:
    """The placeholders in a memory, by `Reference.key` (drifted spellings count as theirs)."""
    return {ref.key for match in PLACEHOLDER.finditer(text) if (ref := reference(match)) is not None}
