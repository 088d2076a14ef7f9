"""A long text cut into pieces that are protected one after another: progress can be shown,
each piece's values go to the vault in one bounded write, and memory stays bounded.

Pieces end where a line, else a sentence, else a word ends, so a value is never cut in two
(a name across the cut would be seen as two halves); joined, they give the text exactly.
"""

from __future__ import annotations

import re

PIECE_CHARS = 32_768  # ~8 ms of detection per piece; a short post is one piece
_SPACE = re.compile(r"\s")
_ENDS = (re.compile(r"\n"), re.compile(r"[.!?…]\s"), _SPACE)


def split_text(text: str, max_chars: int = PIECE_CHARS) -> list[str]:
    """`text` as pieces of at most about `max_chars` characters (a run without any space may be longer)."""
    pieces, start = [], 0
    while len(text) - start > max_chars:
        end = _cut(text, start, start + max_chars)
        pieces.append(text[start:end])
        start = end
    if start < len(text) or not pieces:
        pieces.append(text[start:])
    return pieces


def _cut(text: str, start: int, limit: int) -> int:
    """Where the piece from `start` ends: after the last line, sentence or word end before
    `limit` in its second half; else after the first space past it (a token is not cut)."""
    window = text[start + (limit - start) // 2 : limit]
    for end in _ENDS:
        if hits := list(end.finditer(window)):
            return limit - len(window) + hits[-1].end()
    space = _SPACE.search(text, limit)
    return space.end() if space else len(text)
