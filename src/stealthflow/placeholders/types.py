"""The privacy taxonomy: four levels (after MemPrivacy) and the span types we detect.

PL1 preferences and habits (never masked); PL2 identifiable (names, contacts, addresses,
employer); PL3 highly sensitive (documents, finance, health); PL4 credentials and secrets,
always masked. When unsure, the higher level.
"""

from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass, field, replace
from enum import IntEnum
from functools import cache, lru_cache

import phonenumbers
import regex

from stealthflow.placeholders.language import OTHERS, language_file


class Level(IntEnum):
    PL1 = 1
    PL2 = 2
    PL3 = 3
    PL4 = 4

    @classmethod
    def parse(cls, value: object) -> "Level":
        """'PL3', 'pl3', '3' or 3 -> Level.PL3; anything else raises ValueError."""
        text = str(value).strip().upper().removeprefix("PL")
        if text.isdigit() and 1 <= int(text) <= 4:
            return cls(int(text))
        raise ValueError(f"not a privacy level: {value!r} (expected PL1..PL4)")


# type -> default level. Placeholders are built from these names, so they stay UPPER_SNAKE.
TYPE_LEVELS: dict[str, Level] = {
    "REAL_NAME": Level.PL2,
    "EMAIL": Level.PL2,
    "PHONE": Level.PL2,
    "ADDRESS": Level.PL2,
    "URL": Level.PL2,
    "IP_ADDRESS": Level.PL2,
    "EMPLOYER": Level.PL2,
    "USERNAME": Level.PL2,
    "ACCOUNT_ID": Level.PL2,
    "DEVICE_ID": Level.PL2,  # a device's own number: a network card's MAC address (recognizers/structured.py)
    "CREDIT_CARD": Level.PL3,
    "IBAN": Level.PL3,
    "PASSPORT": Level.PL3,
    "NATIONAL_ID": Level.PL3,
    "HEALTH": Level.PL3,
    "FINANCE": Level.PL3,
    "LOCATION": Level.PL3,
    "PERSONAL": Level.PL2,  # other identifying details: a date of birth (recognizers/cued.py), what the LLM extractor names
    "SENSITIVE": Level.PL3,  # ethnicity, religion, politics, judicial, other highly sensitive
    "PASSWORD": Level.PL4,
    "OTP": Level.PL4,
    "API_KEY": Level.PL4,
    "PRIVATE_KEY": Level.PL4,
    "CREDENTIAL": Level.PL4,
}
# Structured numbers of high sensitivity: one alone is enough to commit fraud or steal an identity,
# so, like secrets, they are not restored into a URL or tool call a reply chooses (`placeholders.scope`).
STRUCTURED_IDS = frozenset({"CREDIT_CARD", "IBAN", "PASSPORT", "NATIONAL_ID"})
# Secrets are compared case-sensitively; everything else by its casefolded form.
CASE_SENSITIVE_TYPES = frozenset(t for t, level in TYPE_LEVELS.items() if level == Level.PL4)


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    type: str
    level: Level
    source: str = ""  # recognizer name, or "llm"
    score: float = 1.0  # the recognizer's confidence (the tagger's: its tokens' mean probability)
    reason: str = field(default="", compare=False)  # why it was kept, where its recognizer says more than its name

    def text_in(self, text: str) -> str:
        return text[self.start : self.end]

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end


def type_alternation() -> str:
    """A regular expression's alternation of the type names, longest first, each "_" also a space, a hyphen or
    nothing (a placeholder's type as a reply may spell it: `EMAIL_1`, `REAL NAME`, `APIKEY`)."""
    names = sorted(TYPE_LEVELS, key=len, reverse=True)
    return "|".join("[ _-]?".join(name.split("_")) for name in names)


def merge_spans(spans: list[Span], text: str) -> list[Span]:
    """Disjoint spans of `text`, by start. Spans of one type that overlap are one span over both, with the higher level
    and confidence and the first one's source and reason: the longer one alone would leave the other's words in clear
    (a street recognizer's "455 rue Sainte-Catherine" and the tagger's "rue Sainte-Catherine à Montréal"; the
    multilingual student's "Calle Durango 214" and "214, Col. Roma Norte"). Of spans of different types that overlap,
    the higher level wins, then the longer, then the higher score; what the loser covers outside the winners stays a
    span of its type (each piece with a letter or digit, trimmed of white space), never text in clear (a URL's
    "token=9f8e...&email=jo.b@gmx.net" read as one e-mail around an API key). Each span is checked against its
    neighbours in the kept ones (a binary search), not against all of them."""
    kept: list[Span] = []  # disjoint, by start: only a span's neighbours there can overlap it
    starts: list[int] = []
    for span in sorted(_joined(spans, text), key=lambda s: (-s.level, -(s.end - s.start), -s.score, s.start)):
        for piece in _outside(span, kept, starts, text):
            at = bisect.bisect_right(starts, piece.start)
            kept.insert(at, piece)
            starts.insert(at, piece.start)
    return kept


def _outside(span: Span, kept: list[Span], starts: list[int], text: str) -> list[Span]:
    """`pieces_outside(span, ...)` of the kept spans that overlap it, found by a binary search."""
    at = bisect.bisect_right(starts, span.start)
    first = at - 1 if at and kept[at - 1].end > span.start else at
    return pieces_outside(span, kept[first : bisect.bisect_left(starts, span.end)], text)


_JOINING = ",;:"  # a list's and a label's separators: they stand between two values, in neither


def pieces_outside(span: Span, others: list[Span], text: str) -> list[Span]:
    """The pieces of `span` that none of `others` (by start) covers, each with a letter or digit, trimmed of white
    space and of the punctuation that joins it to its neighbour (`_JOINING`: "dietmar.kolbe@posteo.de, Lindenstraße
    14" read as one address leaves "Lindenstraße 14", not ", Lindenstraße 14" glued to the e-mail's placeholder,
    ux22b's report M1): `span` itself when none of them overlaps it."""
    if not any(span.overlaps(other) for other in others):
        return [span]
    pieces, position = [], span.start
    for other in others:
        if other.start > position:
            pieces.append((position, min(other.start, span.end)))
        position = max(position, other.end)
    pieces.append((position, span.end))
    kept = []
    for a, b in pieces:
        while a < b and (text[a].isspace() or text[a] in _JOINING):
            a += 1
        while b > a and (text[b - 1].isspace() or text[b - 1] in _JOINING):
            b -= 1
        if any(ch.isalnum() for ch in text[a:b]):
            kept.append(replace(span, start=a, end=b))
    return kept


# The types whose values are names: two spans of one of them that only blanks or a name particle part are one name
# (ux21's report M8: "camille lefèvre" was two placeholders). An organisation's span goes on over a particle and the
# capitalised word after it ("Hospital Puerta del Mar" left "del Mar" beside its placeholder); a person's does not
# ("Herr Weber zu Hause", "Frau Roth von der Bank": German capitalises its nouns).
NAME_TYPES = frozenset({"REAL_NAME", "EMPLOYER"})


@cache
def _particles() -> str:
    """The name particles of the six languages (`name_particles` of data/languages/<code>.yaml) as an alternation; not
    the one-letter "y" and "e", which also join two people ("Carlos y Ana"), nor the elided "d'"."""
    words = {word for code in OTHERS for word in language_file(code)["name_particles"] if len(word) > 1}
    return "|".join(regex.escape(word) for word in sorted(words - {"d'"}, key=len, reverse=True))


@cache
def _name_gap() -> regex.Pattern[str]:
    """What may part two spans of one name: blanks, a particle between them ("Maria" and "Santos" of "Maria dos Santos")."""
    return regex.compile(rf"[ \t]*|[ \t]+(?:{_particles()})[ \t]+")


@cache
def _name_goes_on() -> regex.Pattern[str]:
    """A particle and a capitalised word right after a name's span, or the word after a span that ends on a particle."""
    word = r"\p{Lu}\p{L}*(?:['’-]\p{L}+)*"
    return regex.compile(rf"[ \t]+(?:{_particles()})[ \t]+{word}|(?<=(?<![\p{{L}}'’])(?:{_particles()}))[ \t]+{word}")


def _joined(spans: list[Span], text: str) -> list[Span]:
    """`spans` with each run of overlapping spans of one type made one span over all of them; of a name type
    (`NAME_TYPES`), also spans that only `_name_gap` parts; an employer's grown over the particle and word after it."""
    joined: list[Span] = []
    for span in sorted(spans, key=lambda span: (span.type, span.start)):
        last = joined[-1] if joined and joined[-1].type == span.type else None
        if last and (
            span.start < last.end
            or (span.type in NAME_TYPES and _name_gap().fullmatch(text, last.end, span.start) is not None)
        ):
            joined[-1] = replace(
                last, end=max(last.end, span.end), level=max(last.level, span.level), score=max(last.score, span.score)
            )
        else:
            joined.append(span)
    return [_grown(span, text) if span.type == "EMPLOYER" else span for span in joined]


def _grown(span: Span, text: str) -> Span:
    """An organisation's span with the particles and capitalised words that go on after it ("Hospital Puerta" + " del
    Mar")."""
    end = span.end
    while goes_on := _name_goes_on().match(text, end):
        end = goes_on.end()
    return replace(span, end=end) if end != span.end else span


@lru_cache(maxsize=4096)  # the phone recognizers ask for the same candidate in the same region again
def parse_phone(text: str, region: str) -> phonenumbers.PhoneNumber | None:
    """`phonenumbers.parse`, None for what it cannot parse (the result is shared: never change it)."""
    try:
        return phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None


def canonical_value(span_type: str, value: str) -> str:
    """The form two mentions of one value share, and so one placeholder, which restores to the first mention's text: a
    phone number as written (white space runs as one space), since two spellings of its digits may be two numbers
    ("06 12 34 56 78" in France, "06-12345678" in the Netherlands, ux21 M5) and each must restore as its author wrote it;
    a card or IBAN by its letters and digits; a secret as it is; anything else casefolded."""
    text = " ".join(unicodedata.normalize("NFKC", value).split())
    if span_type == "PHONE":
        return text
    if span_type in ("CREDIT_CARD", "IBAN"):
        return "".join(ch for ch in text if ch.isalnum()).upper()
    if span_type in CASE_SENSITIVE_TYPES:
        return text
    return text.casefold()
