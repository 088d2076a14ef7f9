"""Vault keys: one 32-byte master secret, from `$STEALTHFLOW_VAULT_KEY`, the OS keyring, or
a key file readable by its owner only (0600). HKDF derives the AES-GCM key and the HMAC key.

`auto` tries env, then keyring, then the file, and creates a new secret (keyring first,
else the file) only when none exists.

A key on its way in (`vault rotate-key`, `NewKey`) is kept at a pending place first (the key file's `.pending` sibling,
or the keyring's `vault-key-pending` entry) and stored as the key once the vault is re-encrypted under it: a vault the
key does not open is tried with the pending key (`key_candidates`, `NewKey.left_pending`), so a rotation stopped at any
step leaves a key that opens the vault where stealthflow reads it.
"""

from __future__ import annotations

import base64
import os
import secrets
import stat
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ENV_VAR = "STEALTHFLOW_VAULT_KEY"
KEYRING_SERVICE, KEYRING_USER = "stealthflow", "vault-key"
KEYRING_PENDING = "vault-key-pending"  # the keyring entry of a rotated key not yet stored as the key (`NewKey`)


class VaultKeyError(RuntimeError):
    """The key is missing, malformed, unsafe, or not the one the vault was created with."""


class VaultKeyInvalid(VaultKeyError):
    """A key was found, but it is no vault key (not base64, not 32 bytes)."""


@dataclass(frozen=True, repr=False)
class VaultKeys:
    encryption: bytes
    hmac: bytes
    created_in: str = ""  # where a key was just created (empty: an existing key was loaded)

    @classmethod
    def from_secret(cls, secret: bytes) -> "VaultKeys":
        if len(secret) != 32:
            raise VaultKeyInvalid(f"a vault key must be 32 bytes (base64-encoded), got {len(secret)}")
        return cls(_derive(secret, b"stealthflow vault aes-gcm"), _derive(secret, b"stealthflow vault hmac"))

    def __repr__(self) -> str:  # never print key material
        return "VaultKeys(<hidden>)"


def _derive(secret: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret)


def new_secret() -> str:
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


def decode_secret(encoded: str, where: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(encoded.strip().encode())
    except (ValueError, TypeError):
        raise VaultKeyInvalid(f"the vault key in {where} is not valid base64") from None


def default_key_file() -> Path:
    return Path(platformdirs.user_config_dir("stealthflow")) / "vault.key"


def load_keys(source: str = "auto", key_file: Path | None = None, create: bool = True) -> VaultKeys:
    key_file = key_file or default_key_file()
    readers = {"env": _from_env, "keyring": _from_keyring, "file": lambda: _from_file(key_file)}
    order = list(readers) if source == "auto" else [source]
    for name in order:
        encoded = readers[name]()
        if encoded is not None:
            where = {"env": f"${ENV_VAR}", "keyring": "the OS keyring", "file": str(key_file)}[name]
            return VaultKeys.from_secret(decode_secret(encoded, where))
    if not create or source == "env":
        raise VaultKeyError(
            f"no vault key found (looked in: {', '.join(order)}); set ${ENV_VAR} or create one with the key file {key_file}"
        )
    encoded = new_secret()
    where = store_secret(encoded, source, key_file, new=True)
    return replace(VaultKeys.from_secret(decode_secret(encoded, where)), created_in=where)


def store_secret(encoded: str, source: str, key_file: Path | None = None, new: bool = False) -> str:
    """Save a secret where `source` says (auto: the keyring, else the key file); returns where."""
    key_file = key_file or default_key_file()
    if source == "env":
        raise VaultKeyError(f"the key comes from ${ENV_VAR}: set the new key there yourself")
    if (
        source in ("auto", "keyring")
        and (source == "keyring" or new or _from_keyring() is not None)
        and _store_in_keyring(encoded)
    ):
        return "the OS keyring"
    if source == "keyring":
        raise VaultKeyError("the OS keyring is not available; use key_source: file or env")
    _write_key_file(key_file, encoded, replace_existing=not new)
    return str(key_file)


def key_candidates(source: str = "auto", key_file: Path | None = None) -> list[VaultKeys]:
    """The keys a vault may be sealed with, the key first, then a rotated key left pending (`NewKey`): what a running
    process reads again after `vault rotate-key` in another one."""
    keys = [load_keys(source, key_file, create=False)]
    if (pending := NewKey.left_pending(source, key_file)) is not None:
        keys.append(pending.keys)
    return keys


def key_places(source: str = "auto", key_file: Path | None = None) -> list[str]:
    """Where keys of `source` are read (`load_keys`): two vaults sharing one of these places may share one key."""
    file = f"file:{(key_file or default_key_file()).resolve()}"
    return {"env": ["env"], "keyring": ["keyring"], "file": [file]}.get(source, ["env", "keyring", file])


def from_env(source: str) -> bool:
    """Whether keys of `source` come from `$STEALTHFLOW_VAULT_KEY`, which stealthflow cannot write."""
    return source == "env" or (source == "auto" and _from_env() is not None)


class NewKey:
    """A new vault key on its way in (`Vault.rotate` drives it): `keep` puts it at a pending place that the loaders read
    too (`key_candidates`, `left_pending`) before the vault is re-encrypted; `store` stores it as the key once that is
    committed, and drops the pending copy only when the key read back is the new one; `drop` removes the pending copy
    of a rotation that did not commit, if it is still this key (`Vault.rotate` holds a lock over all of it). A key
    from the environment cannot be stored: `keep` hands it to `hand_over` (the CLI prints it) before the commit, and
    the user sets it."""

    def __init__(
        self, encoded: str, source: str, key_file: Path | None = None, hand_over: Callable[[str], None] | None = None
    ):
        self.encoded, self.source, self.key_file = encoded, source, key_file or default_key_file()
        self.keys = VaultKeys.from_secret(decode_secret(encoded, "the new key"))
        self.hand_over = hand_over
        self.kept_in = self.stored_in = ""

    @classmethod
    def left_pending(cls, source: str, key_file: Path | None = None) -> "NewKey | None":
        """The key a rotation left pending (stopped after it kept the key, before it stored it), or None."""
        key_file = key_file or default_key_file()
        readers = {
            "keyring": lambda: _from_keyring(KEYRING_PENDING),
            "file": lambda: _from_file(_pending_file(key_file)),
        }
        for name in ("keyring", "file") if source == "auto" else [source] if source in readers else []:
            if (encoded := readers[name]()) is not None:
                pending = cls(encoded.strip(), source, key_file)
                pending.kept_in = "the OS keyring" if name == "keyring" else str(_pending_file(key_file))
                return pending
        return None

    def keep(self, vault_keys: VaultKeys | None = None) -> str:
        """Put the key where the loaders find it, before the vault is sealed with it; returns where. A key a stopped
        rotation left pending that is `vault_keys` (the key the vault is sealed with now) is stored as the key first:
        this one would take its place and the vault would open with neither."""
        left = NewKey.left_pending(self.source, self.key_file) if vault_keys is not None else None
        if left is not None and left.keys == replace(vault_keys, created_in=""):
            left.store()
        if from_env(self.source):
            if self.hand_over is None:
                raise VaultKeyError(f"the key comes from ${ENV_VAR}: the new key must be handed over before it is used")
            self.hand_over(self.encoded)
            self.kept_in = "standard output"
        elif self.source in ("auto", "keyring") and (self.source == "keyring" or _from_keyring() is not None):
            if _store_in_keyring(self.encoded, KEYRING_PENDING):
                self.kept_in = "the OS keyring"
            elif self.source == "keyring":
                raise VaultKeyError("the OS keyring is not available; use key_source: file or env")
        if not self.kept_in:
            _write_key_file(_pending_file(self.key_file), self.encoded, replace_existing=True)
            self.kept_in = str(_pending_file(self.key_file))
        return self.kept_in

    def store(self) -> str:
        """Store the key as the vault's key (after the vault was re-encrypted under it) and drop the pending copy once
        the key read back is this one; returns where it is."""
        if from_env(self.source):
            self.stored_in = f"${ENV_VAR} (set it to the new key)"
            return self.stored_in
        where = store_secret(self.encoded, self.source, self.key_file)
        if load_keys(self.source, self.key_file, create=False) != self.keys:
            raise VaultKeyError(f"the new key was written to {where}, but another key is read first from {self.source}")
        self.stored_in = where
        with suppress(OSError):  # a copy left behind is the key itself, as well kept
            self.drop()
        return where

    def drop(self) -> None:
        """Remove the pending copy (a rotation that did not commit, or one whose key is stored), if it is this key: a
        pending key another rotation kept is its own."""
        if _from_keyring(KEYRING_PENDING) == self.encoded:
            _delete_from_keyring(KEYRING_PENDING)
        pending = _pending_file(self.key_file)
        with suppress(FileNotFoundError):
            if pending.read_text(encoding="utf-8").strip() == self.encoded:
                pending.unlink()


def _pending_file(key_file: Path) -> Path:
    return key_file.with_name(key_file.name + ".pending")


def _from_env() -> str | None:
    return os.environ.get(ENV_VAR) or None


def _from_keyring(user: str = KEYRING_USER) -> str | None:
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, user)
    except Exception:  # no backend, locked or misconfigured keyring: try the next source
        return None


def _store_in_keyring(encoded: str, user: str = KEYRING_USER) -> bool:
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, user, encoded)
        return keyring.get_password(KEYRING_SERVICE, user) == encoded
    except Exception:
        return False


def _delete_from_keyring(user: str) -> None:
    try:
        import keyring

        if keyring.get_password(KEYRING_SERVICE, user) is not None:
            keyring.delete_password(KEYRING_SERVICE, user)
    except Exception:  # no backend or no such entry: nothing is kept there
        return


def _from_file(path: Path) -> str | None:
    if not path.exists():
        return None
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise VaultKeyError(f"key file {path} is readable by others (mode {mode:o}); run: chmod 600 {path}")
    return path.read_text(encoding="utf-8")


def _write_key_file(path: Path, encoded: str, replace_existing: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = path.with_name(path.name + ".new") if replace_existing else path
    if replace_existing:  # a copy left by a write that stopped halfway is written anew
        target.unlink(missing_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(encoded + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    if replace_existing:
        os.replace(target, path)
