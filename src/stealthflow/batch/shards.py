"""Vault shards: each batch worker issues placeholders into a vault file of its own (encrypted as
every vault, with the user's key), so no worker waits on another; the merge then puts every
shard's values into the user's vault, from which `restore` hydrates every output row.

Placeholders agree without a lock because a job issues keyed ones (`[[EMAIL:3f81a2c9]]`): the
token is an HMAC of the user, session, type and value under the vault key, the same in every
shard and in the user's vault. Indices differ between shards, which is why a job never uses them.
The merge checks that the user's vault issues each value the token its shard did (a truncated
HMAC that collides is lengthened by whichever vault meets the collision first): a value whose
token differs is an error that names the placeholder, and its shard is kept.
"""

from __future__ import annotations

import os
import secrets
import socket
from contextlib import suppress
from pathlib import Path

from stealthflow.placeholders.keys import VaultKeyError, load_keys
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.placeholders.vault import Vault

MERGE_CHUNK = 5000  # values per transaction of the user's vault


class ShardError(RuntimeError):
    """A shard that cannot be merged as it is (kept, for another try or a look)."""


def open_shard(config: ProtectConfig, shards: Path, vault_id: str, key_check: str) -> Vault:
    """A new shard in `shards` for this worker, under the key the process finds as any command
    would (`protect.key_source`), which must be the key of the user's vault `vault_id`."""
    keys = load_keys(config.key_source, config.key_file, create=False)
    shards.mkdir(parents=True, exist_ok=True)
    path = shards / f"shard-{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}.sqlite"
    shard = Vault(path, keys, config.hmac_chars)
    if not shard.same_key(vault_id, key_check):
        shard.close()
        _remove(path)
        raise VaultKeyError(
            f"the vault key this worker found ({socket.gethostname()}) is not the key of the vault {vault_id}: "
            "give every node of the cluster the same key ($STEALTHFLOW_VAULT_KEY or protect.key_file)"
        )
    return shard


def merge_shards(shards: str | Path, vault: Vault, config: ProtectConfig) -> int:
    """Every shard's values into `vault` (the same placeholders), each shard removed once merged;
    returns how many values the shards held. `ShardError` names what could not be merged."""
    shards = Path(shards)
    if not shards.is_dir():
        return 0
    keys = load_keys(config.key_source, config.key_file, create=False)
    merged = 0
    for path in sorted(shards.glob("shard-*.sqlite")):
        with Vault(path, keys, config.hmac_chars) as shard:
            merged += _merge(shard, vault, config.user)
        _remove(path)
    return merged


def _merge(shard: Vault, vault: Vault, user: str) -> int:
    merged = 0
    for session in shard.sessions(user):
        values = shard.session_values(user, session["session"])
        if len(values) != session["values"]:
            raise ShardError(
                f"{shard.path}: {session['values'] - len(values)} value(s) do not authenticate under the vault key "
                "(edited or damaged): the shard is kept and its placeholders will not restore"
            )
        for at in range(0, len(values), MERGE_CHUNK):
            chunk = values[at : at + MERGE_CHUNK]
            issued = vault.issue(user, session["session"], [(entry.type, value) for entry, value in chunk])
            differ = [
                f"[[{mine.type}:{mine.token}]] (the vault's: [[{theirs.type}:{theirs.token}]])"
                for (mine, _), theirs in zip(chunk, issued.entries, strict=True)
                if mine.token != theirs.token
            ]
            if differ:
                raise ShardError(
                    f"{shard.path}: {len(differ)} placeholder(s) of session {session['session']!r} collide with other "
                    f"values' in the vault and will not restore: {', '.join(differ[:5])}; "
                    "rerun the job into a new folder with a longer protect.hmac_chars"
                )
            merged += len(chunk)
    return merged


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
