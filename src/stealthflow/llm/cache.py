"""Opt-in on-disk response cache: a rerun repeats no finished call.

Keyed by model + messages + generation parameters (`ChatRequest.key`). Stored in SQLite so
concurrent threads and a killed process never leave a half-written entry. The cache holds
model answers in clear text (with `protect --cache`, the values the PII extractor found), so commands that handle a
user's private text keep it off unless the user asks for it, and the file (its WAL and shared memory too) is readable
by its owner only, like the vault; a folder it creates is its owner's only.
"""

from __future__ import annotations

import threading
from pathlib import Path

from stealthflow.llm.base import Completion
from stealthflow.placeholders.vault import connect_private


class ResponseCache:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock = threading.Lock()
        self._db = connect_private(self.path)
        self._db.execute("PRAGMA journal_mode=WAL")
        # No fsync per answer (each is written on the client's event loop): a killed process loses
        # nothing committed; only an OS crash can lose the last answers, which are then asked again.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS responses ("
            " key TEXT PRIMARY KEY, text TEXT NOT NULL,"
            " prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL)"
        )

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._db.execute(
                "SELECT text, prompt_tokens, completion_tokens FROM responses WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            return None
        return Completion(text=row[0], prompt_tokens=row[1], completion_tokens=row[2], cached=True)

    def put(self, key: str, completion: Completion) -> None:
        if completion.error is not None:
            return  # failures are retried on the next run, never cached
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                (key, completion.text, completion.prompt_tokens, completion.completion_tokens),
            )

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
