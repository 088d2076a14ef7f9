"""Shared set-up for the placeholder/pipeline/vault/service tests: a vault in tmp_path with
a key from the environment, and a Protector with the deterministic recognizers only."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.policy import ProtectConfig

PERSONAL_TEXT = (
    "Hi, my name is Anna Berg and my email is anna.berg@mailbox.org, call (415) 555-2671. "
    "My card is 4716 2830 5914 4476 and my password is hunter2! I was diagnosed with asthma."
)
# Hypothesis settings of the fuzz tests: reproducible examples, no deadline (2 shared cores), one
# Protector per module (a function-scoped fixture reused across examples is intended).
FUZZ = {"deadline": None, "derandomize": True, "suppress_health_check": [HealthCheck.function_scoped_fixture]}
RAW_VALUES = ["Anna Berg", "anna.berg@mailbox.org", "555-2671", "4716 2830 5914 4476", "hunter2", "asthma"]


def protect_config(tmp_path: Path, monkeypatch, **overrides) -> ProtectConfig:
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", overrides.pop("secret", None) or new_secret())
    return ProtectConfig(vault_path=tmp_path / "vault.sqlite", key_source="env", llm_extractor=False, **overrides)


def key_file_config(tmp_path: Path, monkeypatch, extra: str = "") -> Path:
    """A CLI config file whose vault (in tmp_path) takes its key from the 0600 key file tmp_path/vault.key,
    not the environment."""
    key_file = tmp_path / "vault.key"
    key_file.write_text(new_secret() + "\n")
    key_file.chmod(0o600)
    monkeypatch.delenv("STEALTHFLOW_VAULT_KEY", raising=False)
    config = tmp_path / "c.yaml"
    config.write_text(
        f"protect:\n  vault_path: {tmp_path / 'vault.sqlite'}\n  key_source: file\n  key_file: {key_file}\n{extra}"
    )
    return config


def make_protector(config: ProtectConfig) -> Protector:
    return Protector(config, open_vault(config), Detector())


SESSION_TABLES = ("entries", "counters", "issued", "sessions", "requests", "replies")  # what a session writes


def vault_rows(path: Path) -> dict[str, list]:
    """Every row of the vault tables a session writes, by table (read on a connection of its own)."""
    import sqlite3

    with sqlite3.connect(path) as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall()) for table in SESSION_TABLES}


def session_ciphertexts(path: Path, session: str) -> dict[str, list[bytes]]:
    """Type -> the ciphertexts of the vault rows of `session` (read on a connection of its own)."""
    import sqlite3

    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT type, ciphertext FROM entries WHERE session = ?", (session,)).fetchall()
    by_type: dict[str, list[bytes]] = {}
    for span_type, ciphertext in rows:
        by_type.setdefault(span_type, []).append(bytes(ciphertext))
    return by_type


def in_vault_files(path: Path, blobs: list[bytes]) -> bool:
    """Whether any of `blobs` is in a file of the vault (the database, its WAL and shared memory)."""
    data = b"".join(p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name))
    return any(blob in data for blob in blobs)
