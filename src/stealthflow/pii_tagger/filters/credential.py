"""A CREDENTIAL span: a secret, not a number its words name as another kind, a book's number, keys pressed,
a card's last digits or what a secret opens; where no secret word introduces it, a value that looks like one.
"""

from __future__ import annotations

import re

from stealthflow.placeholders.recognizers.cued import names_last_digits
from stealthflow.placeholders.recognizers.secrets import (
    KEYS_PRESSED,
    buys_a_discount,
    introduced_as_secret,
    named_as_other_number,
)
from stealthflow.placeholders.recognizers.sentences import sentence_around

_ISBN = re.compile(r"97[89](?:[- ]?\d){9}[- ]?[\dX]")  # a book's number: 13 digits opening with 978 or 979
# Numbers of everyday life: a time or a race time ("14:30", "2:03:40"), a score ("31-28"), a count
# joined to its thing ("3-bed", "4-slice"), or to another count by words ("9-to-5", "2-for-1", ux21's report M3: a
# "9-to-5" job masked as CREDENTIAL), a key combination ("shift+2").
_EVERYDAY_NUMBER = re.compile(
    rf"\d{{1,2}}(?::\d\d){{1,2}}(?i:[ap]m)?|\d{{1,3}}[-–]\d{{1,3}}|\d+(?:\.\d+)?(?:-[a-z]+)+(?:-\d+)?|{KEYS_PRESSED}"
)


_KEYS_PRESSED = re.compile(KEYS_PRESSED)
# A number that is a whole segment of a URL's path, the URL's scheme before it with no space between: an id (a Sentry
# DSN's project, "https://<key>@o1.ingest.sentry.io/4507123456789012"; "/issues/4507"), not a secret: a URL's secrets are
# its password and its tokens, which hold letters.
_PATH_SEGMENT_END = re.compile(r"$|[/?#\s\"'<>)\]]")
_URL_SCHEME = "://"
_SPACE = re.compile(r"\s")


def url_path_number(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a number that is a whole segment of a URL's path (see _PATH_SEGMENT_END)."""
    if not text[start:end].isdigit() or text[start - 1 : start] != "/" or not _PATH_SEGMENT_END.match(text, end):
        return False
    scheme = text.rfind(_URL_SCHEME, max(0, start - 2048), start)
    return scheme >= 0 and _SPACE.search(text, scheme, start) is None


# A secret word, then what the secret opens: "the wifi password on a standard netgear router".
_SECRET_OF_BEFORE = re.compile(
    r"\b(?i:password|passcode|pin|code|login)\s+(?:for|on|of|to|at|in)\s+(?:(?i:a|an|the|my|your|our|this|that|standard|default|new|old)\s+){0,3}$"
)


def bare_secret(value: str) -> bool:
    """Whether a value no secret word introduces can still be a secret: it holds a digit ("pruning" is
    a word) and no space ("60 brownies, 48"), and is no everyday number (see _EVERYDAY_NUMBER)."""
    return (
        re.search(r"\d", value) is not None
        and re.search(r"\s", value) is None
        and _EVERYDAY_NUMBER.fullmatch(value) is None
    )


def plausible(value: str) -> bool:
    """A secret has 4 characters or more (a PIN's minimum; the student tags pieces of "version 4.2.1")."""
    return len(value) >= 4


def in_context(text: str, start: int, end: int, english: bool = True) -> str | None:  # same in every language
    """Why text[start:end] is kept as a secret, None if it is not one: a number its words name as
    another kind ("build number X", "error code X", "56113 chairs"), a book's number, keys pressed, a
    shop's code, a URL path's number or what a secret opens is none; else one a secret word introduces, or one that looks
    like a secret (bare_secret)."""
    if (
        named_as_other_number(text, start, end)
        or _ISBN.fullmatch(text, start, end)
        or _KEYS_PRESSED.fullmatch(text, start, end)
        or buys_a_discount(sentence_around(text, start, end))
        or names_last_digits(text, start, end)
        or url_path_number(text, start, end)
    ):
        return None  # "build number X", "978-0-261-10295-4" (a book), "Ctrl+Shift+T", "Use code SPRING20 for 20% off",
        # "card ending 4242", "SSN last four 4432" (a FINANCE or NATIONAL_ID span of recognizers/cued.py), ".../4507"
    if _SECRET_OF_BEFORE.search(text[max(0, start - 48) : start]) and not any(c.isdigit() for c in text[start:end]):
        return None  # "reset the wifi password on a standard netgear router": what the secret opens, not the secret
    if introduced_as_secret(text, start, end):
        return "a secret word introduces it"
    return "looks like a secret (a digit, no space, no everyday number)" if bare_secret(text[start:end]) else None
