"""Placeholder styles. `indexed`: `<EMAIL_1>` (type + per-type index, MemPrivacy-style);
`hmac`: `[[EMAIL:3f81a2c9]]` (type + keyed HMAC of the canonical value, as in AMP). Both
come from the vault entry, so one value keeps its placeholder for its user.

A reply may drift either style into the other's brackets (`[EMAIL:1000]`, `EMAIL_3f81a2c9`), so
restore tells them apart by the body alone: a token has at least `TOKEN_CHARS` hex digits, an index
at most `INDEX_DIGITS` decimal digits, fewer than any token. An all-digit body is an index up to
`INDEX_DIGITS` digits and a token from `TOKEN_CHARS` on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stealthflow.placeholders.vault import Entry

TOKEN_CHARS = 8  # the shortest HMAC token the vault issues (`protect.hmac_chars`; a collision lengthens one)
INDEX_DIGITS = TOKEN_CHARS - 1  # 9,999,999 values of one type per session

STYLES: dict[str, Callable[[str, int, str], str]] = {
    "indexed": lambda span_type, index, token: f"<{span_type}_{index}>",
    "hmac": lambda span_type, index, token: f"[[{span_type}:{token}]]",
}


def render(style: str, entry: Entry) -> str:
    if style not in STYLES:
        raise ValueError(f"unknown placeholder style {style!r}; choose from {', '.join(STYLES)}")
    return STYLES[style](entry.type, entry.index, entry.token)
