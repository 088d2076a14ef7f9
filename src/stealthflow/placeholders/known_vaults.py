"""Which vault lives at which path, remembered beside the key (a 0600 JSON file of path -> id).

A vault file that was deleted, emptied or swapped would otherwise be silently recreated, its
indices starting again at 1, so that `<EMAIL_1>` in an old reply would hydrate to someone
else's address. Remembering the id each path held turns that into a clear error.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs


def registry_path() -> Path:
    return Path(platformdirs.user_config_dir("stealthflow")) / "vaults.json"


def _read() -> dict[str, str]:
    try:
        known = json.loads(registry_path().read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def recorded_id(vault_path: Path) -> str | None:
    return _read().get(str(vault_path.resolve()))


def remember(vault_path: Path, vault_id: str) -> None:
    known = _read()
    key = str(vault_path.resolve())
    if known.get(key) == vault_id:
        return
    known[key] = vault_id
    path = registry_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(known, handle, indent=1)
    os.replace(temporary, path)
