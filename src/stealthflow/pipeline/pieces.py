"""A long text cut into pieces that are protected one after another: progress can be shown,
each piece's values go to the vault in one bounded write, and memory stays bounded.

Pieces end where a line, else a sentence, else a word ends, so a value is never cut in two
(a name across the cut would be seen as two halves); joined, they give the text exactly, and their rows make the
whole text's row (`join_rows`).
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


def join_rows(rows: list[dict], pieces: list[str]) -> dict:
    """The protected rows of a text's pieces (`split_text`) as the one `{vault, text, spans, language[, rewrite][,
    warnings]}` row of the whole text: span offsets into it, the rewrite accepted (protected) only if every piece's
    was, the pieces' reasons, changes, phrases that stayed and warnings each once; one language, or the list of the
    pieces' where they differ."""
    joined = {"vault": rows[0]["vault"], "text": "".join(row["text"] for row in rows), "spans": []}
    offset = 0
    for row, piece in zip(rows, pieces, strict=True):
        joined["spans"] += [dict(span, start=span["start"] + offset, end=span["end"] + offset) for span in row["spans"]]
        offset += len(piece)
    if "rewrite" in rows[0]:
        rewrites = [row["rewrite"] for row in rows]
        joined["rewrite"] = {
            "method": rewrites[0]["method"],
            "accepted": all(r["accepted"] for r in rewrites),
            "protected": all(r["protected"] for r in rewrites),
        }
        if reasons := list(dict.fromkeys(r["reason"] for r in rewrites if r.get("reason"))):
            joined["rewrite"]["reason"] = "; ".join(reasons)
        if changes := [change for r in rewrites for change in r.get("changes", [])]:
            joined["rewrite"]["changes"] = changes
        if unprotected := list(dict.fromkeys(phrase for r in rewrites for phrase in r.get("unprotected", []))):
            joined["rewrite"]["unprotected"] = unprotected
    if warnings := list(dict.fromkeys(w for row in rows for w in row.get("warnings", []))):
        joined["warnings"] = warnings
    languages = list(dict.fromkeys(row.get("language") for row in rows))
    joined["language"] = languages[0] if len(languages) == 1 else languages  # a long text's pieces may differ
    return joined
