"""A normalised shadow copy of a text for detection, with a map back to the original offsets.

Evasions the recognizers would miss: zero-width and other format characters inside a value
(`4111\u200b1111…`, `pass\u200bword`), a soft hyphen in an email, control characters (a NUL in
`dana\x00.kerr@example.org`), other characters Unicode says to display as nothing (variation selectors,
the Hangul fillers), non-breaking spaces, fullwidth
forms (`＠`, `４１１１`), digits of other scripts (Arabic-Indic `٤١١١`), an @ written as an HTML
entity, an escape or a word (`&#64;`, `\u0040`, `(at)`, ` @ `: data/spelled_symbols.yaml; `word @name`
when the name may be an email's domain and the word is no frequent word, not a mention such as
`sur @lea.dessine`), an IBAN
in lowercase (`de89 3704 …`, read in capitals when its checksum holds). Detection runs on the
shadow; each span is mapped back to the original characters, which are what gets replaced, so
no fragment of a value stays in clear.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import contextlib
import html
import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import cache

from stealthflow.resources import data_yaml, listed_words, resource_dir

SPELLED_SYMBOLS = "spelled_symbols.yaml"

# What may need a change: anything but printable ASCII and ASCII whitespace
SPECIAL = re.compile(r"[^\t\n\x0b\x0c\r\x1c-\x7e]")
# Unicode's Default_Ignorable_Code_Point characters that are no format character (Cf, dropped anyway):
# the combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and other variation
# selectors, and the unassigned ones of those blocks
_IGNORABLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8\U000e0000-\U000e0fff]"
)


def shadow(text: str) -> tuple[str, list[int] | None]:
    """(normalised text, offsets) where offsets[k] is the original index of shadow char k (and
    offsets[len] == len(text)); offsets is None when the text needed no change."""
    capitals = _iban_capitals(text)
    unspelled, spelled = _symbols(capitals)
    normal, offsets = _characters(unspelled)
    if spelled is None and offsets is None and capitals != text:
        return normal, list(range(len(text) + 1))
    if spelled is None or offsets is None:
        return normal, spelled or offsets
    return normal, [spelled[k] for k in offsets]


# An IBAN written in lowercase: a country, two check digits, groups of four (Presidio's shape, in lowercase)
_LOWERCASE_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[a-z]{2}[0-9]{2}(?:[ -]?[a-z0-9]{4}){2,7}(?:[ -]?[a-z0-9]{1,3})?(?![A-Za-z0-9])"
)


def _iban_capitals(text: str) -> str:
    """`text` with each lowercase IBAN whose mod-97 checksum holds in capitals (the same length)."""
    if _LOWERCASE_IBAN.search(text) is None:
        return text
    return _LOWERCASE_IBAN.sub(lambda m: m[0].upper() if _iban_checksum(m[0]) else m[0], text)


def _iban_checksum(iban: str) -> bool:
    compact = re.sub(r"[ -]", "", iban).upper()
    return int("".join(str(int(c, 36)) for c in compact[4:] + compact[:4])) % 97 == 1


@cache
def _spellings() -> tuple[re.Pattern[str], dict[str, str]]:
    """A pattern of every spelling of data/spelled_symbols.yaml, with the spaces around it, between two
    non-space characters; and the symbol of each spelling (lowercased)."""
    data = data_yaml(SPELLED_SYMBOLS)
    symbols = {spelling.lower(): symbol for symbol, spellings in data.items() for spelling in spellings}
    alternation = "|".join(map(re.escape, sorted(symbols, key=len, reverse=True)))
    return re.compile(rf"(?<=\S)[ \t]*({alternation})[ \t]*(?=\S)", re.IGNORECASE), symbols


def _symbols(text: str) -> tuple[str, list[int] | None]:
    """`text` with each spelled symbol as the symbol, and offsets as `shadow`'s (None: no change)."""
    pattern, symbols = _spellings()
    chars: list[str] = []
    offsets: list[int] = []
    copied = 0
    for match in pattern.finditer(text):
        symbol = symbols[match[1].lower()]
        if match[0] == symbol or (match[0].endswith("@") and _handle_after(text, match.start(), match.end())):
            continue
        chars += (text[copied : match.start()], symbol)
        offsets += range(copied, match.start())
        offsets.append(match.start(1))
        copied = match.end()
    if not chars:
        return text, None
    chars.append(text[copied:])
    offsets += range(copied, len(text))
    offsets.append(len(text))
    return "".join(chars), offsets


# The name after an "@" written after a space, and the word before the space
_AFTER_AT = re.compile(r"[\w-]+(?:\.[\w-]+)*")
_BEFORE_AT = re.compile(r"[\w.+-]+$")
BEFORE_AT_REACH = 64  # characters before the "@" where the word before it is looked for


def _handle_after(text: str, at: int, start: int) -> bool:
    """Whether an "@" at `at` with a space before it and none after starts a mention ("Schatz @jule.kaffeeklatsch",
    "sur @lea.dessine"), not an address written apart ("jane.doe @mycompany.internal"): the name after it may be
    no email's domain (`domains.email_domain`, as the email recognizer reads it), or the word before is a frequent
    word of a covered language."""
    from stealthflow.placeholders.common_words import frequent_in_any
    from stealthflow.placeholders.domains import email_domain

    name = _AFTER_AT.match(text, start)
    if name is None or not email_domain(name[0].rstrip("-")):
        return True
    word = _BEFORE_AT.search(text, max(0, at - BEFORE_AT_REACH), at)
    return word is not None and word[0].isalpha() and frequent_in_any(word[0])


def _characters(text: str) -> tuple[str, list[int] | None]:
    """`shadow` of single characters: format and control characters dropped, spaces, forms and digits folded."""
    if SPECIAL.search(text) is None:
        return text, None
    # Each distinct character is looked at once; ASCII runs are copied whole (a loop over every
    # character cost ~0.3 ms per KB of accented text, most of which needs no change).
    changes = {char: replacement for char in set(SPECIAL.findall(text)) if (replacement := _replacement(char)) != char}
    if not changes:
        return text, None
    chars: list[str] = []
    offsets: list[int] = []
    copied = 0
    for match in SPECIAL.finditer(text):
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
    if category == "Cf" or _IGNORABLE.match(char):  # zero-width space/joiner, soft hyphen, word joiner, BOM ...
        return ""
    if category == "Cc" and not char.isspace():  # NUL and the other control characters
        return ""
    if char.isspace():
        return " "
    if category == "Nd":
        return str(unicodedata.digit(char))
    return unicodedata.normalize("NFKC", char)


def original_span(offsets: list[int], start: int, end: int) -> tuple[int, int]:
    """The original characters behind shadow[start:end] (format characters inside included)."""
    return offsets[start], (offsets[end - 1] + 1 if end > start else offsets[start])


# The standard encodings a program writes a value in (a tool's result: Python's `json.dumps` escapes, a URL it called,
# HTML): JSON and Python escapes (a surrogate pair as one), `\/`, runs of percent-escapes (UTF-8), HTML character
# references, and `+` for a space between two letters or digits (a query string's `Dana+Kerr`). Every alternative
# opens with a literal character (a percent-escape run is written `%XX(?:%XX)*`, not `(?:%XX)+`), so `re` skips at C
# speed to the next `\`, `%`, `&` or `+`: 10 KB of prose holding a `&` scanned in 0.08 ms instead of 0.49 ms.
_ENCODED = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|\\x[0-9a-fA-F]{2}"
    r"|\\/|%[0-9a-fA-F]{2}(?:%[0-9a-fA-F]{2})*|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
    r"|\+(?<=[^\W_]\+)(?=[^\W_]|%[0-9a-fA-F]{2})"
)

_ENCODING_MARKS = ("\\", "%", "&", "+")  # what each encoding of `_ENCODED` starts with


def decoded(text: str) -> tuple[str, list[int]] | None:
    """`text` with each standard encoding of a character decoded (`_ENCODED`), and offsets[k] the original index where
    the encoding of decoded char k starts (offsets[len] == len(text)): decoded[a:b] stands for text[offsets[a]:
    offsets[b]], escapes whole. None when the text holds no encoding."""
    if not any(mark in text for mark in _ENCODING_MARKS):  # most texts: four scans at C speed, no regex
        return None
    chars: list[str] = []
    offsets: list[int] = []
    copied = 0
    for match in _ENCODED.finditer(text):
        pieces = _decode(match[0])
        if pieces is None:
            continue
        chars.append(text[copied : match.start()])
        offsets += range(copied, match.start())
        for char, at in pieces:
            chars.append(char)
            offsets.append(match.start() + at)
        copied = match.end()
    if not offsets and not copied:
        return None
    chars.append(text[copied:])
    offsets += range(copied, len(text) + 1)
    return "".join(chars), offsets


def _decode(encoded: str) -> list[tuple[str, int]] | None:
    """Each character an encoding of `_ENCODED` stands for and where in it its encoding starts; None: none."""
    if encoded == "+":
        return [(" ", 0)]
    if encoded[0] == "%":
        with contextlib.suppress(UnicodeDecodeError):  # UTF-8 (nearly always): each character where its bytes start
            pieces, at = [], 0
            for char in bytes.fromhex(encoded.replace("%", "")).decode():
                pieces.append((char, at))
                at += 3 * len(char.encode())
            return pieces
        decoder, pieces, start = codecs.getincrementaldecoder("utf-8")("replace"), [], 0
        for at in range(0, len(encoded), 3):
            for char in decoder.decode(bytes([int(encoded[at + 1 : at + 3], 16)])):
                pieces.append((char, start))
                start = at + 3
        return pieces + [(char, start) for char in decoder.decode(b"", final=True)]
    if encoded[0] == "&":
        char = html.unescape(encoded)
        return None if char == encoded else [(char, 0)]
    if encoded == "\\/":
        return [("/", 0)]
    if len(encoded) == 12:  # a surrogate pair
        high, low = int(encoded[2:6], 16), int(encoded[8:], 16)
        return [(chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)), 0)]
    code = int(encoded[2:], 16)
    return [(chr(code), 0)] if code <= 0x10FFFF else None


Place = Callable[[int, int], tuple[int, int]]  # the span of a text that a span of a reading of it stands for
# A run of characters each followed by a space: `sed 's/./& /g'` (a space of the text is then three)
_SPACED = re.compile(r"(?:[^\n] ){4,}")
# A base64 token of 8 characters or more, padded (`base64`, Python's `b64encode`), standing apart
_BASE64 = re.compile(r"(?<![\w+/=])(?:[A-Za-z0-9+/]{4}){2,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![\w+/=])")


def undone(text: str) -> Iterator[tuple[str, Place]]:
    """Readings of a text that a program may have made from a value, each with where a span of it stands in `text`:
    reversed (`rev`), spaced out (`sed 's/./& /g'`), its base64 tokens decoded (a span stands for its whole token).
    The cheap transforms a hostile upstream can ask an agent's shell for (rev21 finding 1); any other transform a
    program can make is not undone."""
    length = len(text)
    yield text[::-1], lambda start, end: (length - end, length - start)
    yield from _joined(((m.start(), m.end(), m[0][::2]) for m in _SPACED.finditer(text)), step=2)
    yield from _joined((m.start(), m.end(), _base64(m[0])) for m in _BASE64.finditer(text))


def fold(text: str) -> str:
    """`folded`'s reading of a text alone (what a value is looked for as in it)."""
    return folded(text)[0]


def folded(text: str) -> tuple[str, Place]:
    """The text in lowercase (each character that lowercases to one), look-alike letters as Latin ones (`_look_alikes`),
    every run of white space one space, and where a
    span of it stands in `text`: how record systems print a value ("14 HARCOURT ROAD", a fixed-width table's "DENT
    VALERIE"), read as the value was written."""
    lower = text.lower()
    if len(lower) != len(text) or _SPACE_RUN.search(text):
        return _folded([(0, len(text))], text)
    return _ONE_SPACE.sub(" ", lower).translate(_look_alikes()), lambda start, end: (start, end)  # the same places


def json_values(text: str) -> tuple[str, Place] | None:
    """The string values of the JSON objects and lists in a text (not their keys), `folded`, one after another with a
    space between: a record's fields read together ("valerie dent" of `{"first_name": "Valerie", "last_name":
    "Dent"}`), a span standing for the text from its first value's character to its last's; None: fewer than two."""
    values = [(match.start(1), match.end(1)) for match in _JSON_VALUE.finditer(text)]
    return _folded(values, text) if len(values) > 1 else None


_SPACE_RUN = re.compile(r"\s\s")
_ONE_SPACE = re.compile(r"\s")
_SPACES = re.compile(r"\s+")
_JSON_VALUE = re.compile(r'(?<=[:,\[])\s*"((?:[^"\\\n]|\\.)*)"(?=\s*[,}\]])')


def _folded(pieces: list[tuple[int, int]], text: str) -> tuple[str, Place]:
    """`folded` of the pieces (start, end) of a text, with a space between two (where the second's opening quote
    stands)."""
    parts, offsets = [], []
    for start, end in pieces:
        if parts:
            parts.append(" ")
            offsets.append(start - 1)
        at = start
        for run in _SPACES.finditer(text, start, end):
            parts.extend((text[at : run.start()], " "))
            offsets.extend(range(at, run.start() + 1))
            at = run.end()
        parts.append(text[at:end])
        offsets.extend(range(at, end))
    reading = "".join(parts)
    lower = reading.lower()
    if len(lower) != len(reading):  # a character that lowercases to two ("İ") stays as it is
        lower = "".join(char.lower() if len(char.lower()) == 1 else char for char in reading)
    return lower.translate(_look_alikes()), lambda start, end: (offsets[start], offsets[end - 1] + 1)


@cache
def _look_alikes() -> dict[int, str]:
    """Cyrillic and Greek letters read as the Latin letter they look like (data/confusable_letters.txt): `Mаrcus` with a
    Cyrillic а is folded as `marcus`. One letter for one: the places stay."""
    pairs = (line.split() for line in listed_words(resource_dir("data") / "confusable_letters.txt"))
    return {ord(letter): latin for letter, latin in pairs}


def _base64(token: str) -> str:
    with contextlib.suppress(binascii.Error, UnicodeDecodeError):
        return base64.b64decode(token).decode()
    return ""


def _joined(pieces: Iterator[tuple[int, int, str]], step: int = 0) -> Iterator[tuple[str, Place]]:
    """One reading of the pieces (start, end, read) of a text, a line each: a span of the reading stands for the
    characters at `step` apart from its piece's start (`step` 0: the whole piece)."""
    pieces = [piece for piece in pieces if piece[2]]
    if not pieces:
        return
    starts, at = [], 0
    for _, _, read in pieces:
        starts.append(at)
        at += len(read) + 1

    def place(start: int, end: int) -> tuple[int, int]:
        k = bisect.bisect_right(starts, start) - 1
        first, last, _ = pieces[k]
        if not step:
            return first, last
        return first + step * (start - starts[k]), first + step * (end - 1 - starts[k]) + 1

    yield "\n".join(read for _, _, read in pieces), place
