"""Protect's placeholders inside a post being rewritten: never a cue, never lost, never repeated."""

from __future__ import annotations

import re
from collections import Counter

# An exact placeholder of protect's (`<EMAIL_1>`, `[[EMAIL:3f81a2c9]]`): never a cue, since
# rewriting one would lose a value.
PROTECT_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]*_\d+>|\[\[[A-Z][A-Z_]*:[0-9a-fA-F]+\]\]")


def keeps_placeholders(text: str, rewrite: str) -> bool:
    """`rewrite` holds each of protect's placeholders exactly as often as `text`: protect rejects a rewrite that
    drops one, and one repeated would put its value where it never was."""
    return Counter(PROTECT_PLACEHOLDER.findall(rewrite)) == Counter(PROTECT_PLACEHOLDER.findall(text))
