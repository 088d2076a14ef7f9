"""A normalised shadow copy of a text for detection, with a map back to the original offsets.

Evasions the recognizers would miss: zero-width and other format characters inside a value
(`4111\u200b1111…`, `pass\u200bword`), a soft hyphen in an email, non-breaking spaces, fullwidth
forms (`＠`, `４１１１`), digits of other scripts (Arabic-Indic `٤١١١`). Detection runs on the
shadow; each span is mapped back to the original characters, which are what gets replaced, so
no fragment of a value stays in clear.
"""

from __future__ import annotations

import unicodedata


def shadow(text: str) -> tuple[str, list[int] | None]:
    """(normalised text, offsets) where offsets[k] is the original index of shadow char k (and
    offsets[len] == len(text)); offsets is None when the text needed no change."""
    if text.isascii():
        return text, None
    chars: list[str] = []
    offsets: list[int] = []
    for index, char in enumerate(text):
        if char.isascii():
            replacement = char
        elif unicodedata.category(char) == "Cf":  # zero-width space/joiner, soft hyphen, word joiner, BOM ...
            continue
        elif char.isspace():
            replacement = " "
        elif unicodedata.category(char) == "Nd":
            replacement = str(unicodedata.digit(char))
        else:
            replacement = unicodedata.normalize("NFKC", char)
        chars.append(replacement)
        offsets.extend([index] * len(replacement))
    normalised = "".join(chars)
    if normalised == text:
        return text, None
    offsets.append(len(text))
    return normalised, offsets


def original_span(offsets: list[int], start: int, end: int) -> tuple[int, int]:
    """The original characters behind shadow[start:end] (format characters inside included)."""
    return offsets[start], (offsets[end - 1] + 1 if end > start else offsets[start])
