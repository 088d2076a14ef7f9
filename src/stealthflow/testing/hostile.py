"""Hostile texts for detection's cost: long runs without spaces or full stops (tests, benchmarks).

Each kind is one shape a user or an attacker can paste: a token of letters and digits, one of every
printable character, a base64 blob, words glued together without spaces, words without a full
stop, capitalised names and numbers without a full stop (every few words a name, an address or a
phone number to the recognizers and the tagger), placeholder look-alikes (what a hostile reply
holds to slow restore down), and a token repeating a key's prefix or a password's cue. Seeded: the same kind and size give the same text.
"""

from __future__ import annotations

import base64
import random

_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_PRINTABLE = _ALNUM + "!#$%&()*+,-./:;<=>?@[]^_{|}~"
_WORDS = ("Anna", "Berg", "the", "x1", "hunter2", "password", "is", "my", "Street", "diabetes", "@", ".", "$5k")
_NAMES = (
    "Anna",
    "Berg",
    "Kowalski",
    "Maria",
    "Jan",
    "Schmidt",
    "Lopez",
    "Chen",
    "Dana",
    "Kerr",
    "Oslo",
    "Street",
    "Road",
)
_TYPES = ("EMAIL", "API_KEY", "PASSWORD", "REAL_NAME", "PHONE")


def _glued_words(rng: random.Random, size: int, separator: str) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        words.append(rng.choice(_WORDS))
        length += len(words[-1]) + len(separator)
    return separator.join(words)[:size]


def _joined(size: int, word) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        words.append(word())
        length += len(words[-1]) + 1
    return " ".join(words)[:size]


def _name_or_number(rng: random.Random) -> str:
    return rng.choice(_NAMES) if rng.random() < 0.7 else str(rng.randint(1, 99_999))


def _placeholder(rng: random.Random) -> str:
    return f"<{rng.choice(_TYPES)}_{rng.randint(1, 999)}>"


KINDS = {
    "alnum token": lambda rng, size: "".join(rng.choices(_ALNUM, k=size)),
    "printable token": lambda rng, size: "".join(rng.choices(_PRINTABLE, k=size)),
    "base64 blob": lambda rng, size: base64.b64encode(rng.randbytes(size * 3 // 4 + 3)).decode()[:size],
    "glued words": lambda rng, size: _glued_words(rng, size, ""),
    "words, no full stop": lambda rng, size: _glued_words(rng, size, " ").replace(".", ","),
    "names and numbers": lambda rng, size: _joined(size, lambda: _name_or_number(rng)),
    "placeholder look-alikes": lambda rng, size: _joined(size, lambda: _placeholder(rng)),
    # a token repeating a key's prefix, masked whole as one key (rev28 F1), and one repeating a password's cue
    "repeated key prefix": lambda rng, size: ("AKIA" * (size // 4 + 1))[:size],
    "repeated password cue": lambda rng, size: ("pw=" * (size // 3 + 1))[:size],
}


def hostile_text(kind: str, size: int, seed: int = 0) -> str:
    """`size` characters of the named kind (see KINDS)."""
    return KINDS[kind](random.Random(f"{kind}:{seed}"), size)
