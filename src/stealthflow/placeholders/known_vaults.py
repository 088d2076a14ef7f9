"""Which vault lives at which path and where its key is read, remembered beside the key (a 0600 JSON file of path ->
id, and under "key places" path -> where its key is read).

A vault file that was deleted, emptied or swapped would otherwise be silently recreated, its
indices starting again at 1, so that `<EMAIL_1>` in an old reply would hydrate to someone
else's address. Remembering the id each path held turns that into a clear error. Where each vault reads its key
lets `vault rotate-key` refuse to lock out another vault that reads the same key (`refuse_shared_key`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

if TYPE_CHECKING:
    from stealthflow.placeholders.vault import Vault


KEY_PLACES = "key places"  # path -> where its vault's key is read, beside the path -> id entries (not a path)


def registry_path() -> Path:
    return Path(platformdirs.user_config_dir("stealthflow")) / "vaults.json"


def _read() -> dict:
    try:
        known = json.loads(registry_path().read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def _places(known: dict) -> dict[str, list[str]]:
    places = known.get(KEY_PLACES)
    return places if isinstance(places, dict) else {}


def refuse_shared_key(vault: Vault, key_places: list[str]) -> None:
    """A ValueError naming the vaults remembered here that read their key where `vault` does (`key_places`; a vault
    whose places were never recorded counts as one) and are sealed with its key (`Vault.shares_key_with`): `vault
    rotate-key` would lock them out."""
    known, places = _read(), set(key_places)
    recorded = _places(known)
    readers = [
        Path(path)
        for path, vault_id in known.items()
        if isinstance(vault_id, str) and places & set(recorded.get(path, places))
    ]
    if shared := vault.shares_key_with(readers):
        raise ValueError(
            f"nothing was changed: {', '.join(map(str, shared))} reads its key where {vault.path} does and is sealed "
            "with it: a new key would lock it out. Give that vault a key of its own first (a copy of the key file, "
            "mode 600, as `key_file` in its config, and open it once), or move it away; then rotate"
        )


def recorded_id(vault_path: Path) -> str | None:
    recorded = _read().get(str(vault_path.resolve()))
    return recorded if isinstance(recorded, str) else None


def remember(vault_path: Path, vault_id: str, key_places: list[str] | None = None) -> None:
    """Record the vault at `vault_path` and, unless None, where its key is read (`keys.key_places`)."""
    known = _read()
    key = str(vault_path.resolve())
    places = _places(known)
    if known.get(key) == vault_id and key_places in (None, places.get(key)):
        return
    known[key] = vault_id
    if key_places is not None:
        known[KEY_PLACES] = {**places, key: key_places}
    path = registry_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(known, handle, indent=1)
    os.replace(temporary, path)
