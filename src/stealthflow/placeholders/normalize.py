"""A normalised shadow copy of a text for detection, with a map back to the original offsets.

Evasions the recognizers would miss: zero-width and other format characters inside a value
(`4111\u200b1111…`, `pass\u200bword`), a soft hyphen in an email, non-breaking spaces, fullwidth
forms (`＠`, `４１１１`), digits of other scripts (Arabic-Indic `٤١١١`). Detection runs on the
shadow; each span is mapped back to the original characters, which are what gets replaced, so
no fragment of a value stays in clear.
"""

from __future__ import annotations

import re
import unicodedata

NON_ASCII = re.compile(r"[^\x00-\x7f]")


def shadow(text: str) -> tuple[str, list[int] | None]:
    """(normalised text, offsets) where offsets[k] is the original index of shadow char k (and
    offsets[len] == len(text)); offsets is None when the text needed no change."""
    if text.isascii():
        return text, None
    # Each distinct character is looked at once; ASCII runs are copied whole (a loop over every
    # character cost ~0.3 ms per KB of accented text, most of which needs no change).
    changes = {
        char: replacement for char in set(NON_ASCII.findall(text)) if (replacement := _replacement(char)) != char
    }
    if not changes:
        return text, None
    chars: list[str] = []
    offsets: list[int] = []
    copied = 0
    for match in NON_ASCII.finditer(text):
        replacement = changes.get(match.group())
        if replacement is None:
            continue
        index = match.start()
        chars += (text[copied:index], replacement)
        offsets += range(copied, index)
        offsets += [index] * len(replacement)
        copied = index + 1
    chars.append(text[copied:])
    offsets += range(copied, len(text))
    offsets.append(len(text))
    return "".join(chars), offsets


def _replacement(char: str) -> str:
    category = unicodedata.category(char)
    if category == "Cf":  # zero-width space/joiner, soft hyphen, word joiner, BOM ...
        return ""
    if char.isspace():
        return " "
    if category == "Nd":
        return str(unicodedata.digit(char))
    return unicodedata.normalize("NFKC", char)


def original_span(offsets: list[int], start: int, end: int) -> tuple[int, int]:
    """The original characters behind shadow[start:end] (format characters inside included)."""
    return offsets[start], (offsets[end - 1] + 1 if end > start else offsets[start])
