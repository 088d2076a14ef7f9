"""Placeholder styles. `indexed`: `<EMAIL_1>` (type + per-type index, MemPrivacy-style);
`hmac`: `[[EMAIL:3f81a2c9]]` (type + keyed HMAC of the canonical value, as in AMP). Both
come from the vault entry, so one value keeps its placeholder for its user.
"""

from __future__ import annotations

from collections.abc import Callable

from stealthflow.placeholders.vault import Entry

STYLES: dict[str, Callable[[str, int, str], str]] = {
    "indexed": lambda span_type, index, token: f"<{span_type}_{index}>",
    "hmac": lambda span_type, index, token: f"[[{span_type}:{token}]]",
}


def render(style: str, entry: Entry) -> str:
    if style not in STYLES:
        raise ValueError(f"unknown placeholder style {style!r}; choose from {', '.join(STYLES)}")
    return STYLES[style](entry.type, entry.index, entry.token)
