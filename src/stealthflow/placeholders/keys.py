"""Vault keys: one 32-byte master secret, from `$STEALTHFLOW_VAULT_KEY`, the OS keyring, or
a key file readable by its owner only (0600). HKDF derives the AES-GCM key and the HMAC key.

`auto` tries env, then keyring, then the file, and creates a new secret (keyring first,
else the file) only when none exists.
"""

from __future__ import annotations

import base64
import os
import secrets
import stat
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ENV_VAR = "STEALTHFLOW_VAULT_KEY"
KEYRING_SERVICE, KEYRING_USER = "stealthflow", "vault-key"


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


def _from_env() -> str | None:
    return os.environ.get(ENV_VAR) or None


def _from_keyring() -> str | None:
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, KEYRING_USER)
    except Exception:  # no backend, locked or misconfigured keyring: try the next source
        return None


def _store_in_keyring(encoded: str) -> bool:
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, KEYRING_USER, encoded)
        return keyring.get_password(KEYRING_SERVICE, KEYRING_USER) == encoded
    except Exception:
        return False


def _from_file(path: Path) -> str | None:
    if not path.exists():
        return None
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise VaultKeyError(f"key file {path} is readable by others (mode {mode:o}); run: chmod 600 {path}")
    return path.read_text(encoding="utf-8")


def _write_key_file(path: Path, encoded: str, replace_existing: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = path.with_suffix(".new") if replace_existing else path
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(encoded + "\n")
    if replace_existing:
        os.replace(target, path)
