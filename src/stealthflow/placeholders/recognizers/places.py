"""A place written as a position rather than a street: a pair of decimal degrees ("51.5072, -0.1276"), degrees with
their hemispheres ("51°30'26\"N 0°7'39\"W") and a what3words address ("///filled.count.soap"). Each is the ADDRESS of
whoever is there, both halves of a pair in one span (ux26 M10: "52.370216, 4.895168" went out as two phone numbers,
"51.5072, -0.1276" in clear).

No annotated value of the held-back sets is a position, so no gain is measured there; false alarms: on pii-heldout-zc,
zd (benchmarks/pii_registers.py, both files) and the 1 969 natural comments (benchmarks/pii_session_flags.py) they add
no span.
"""

from __future__ import annotations

import re
from functools import cache

from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.languages import one_of
from stealthflow.placeholders.recognizers.sentences import sentence_start
from stealthflow.placeholders.types import Span
from stealthflow.resources import data_yaml

# Decimal degrees with four decimals or more (about 11 m: a house, not a town), latitude then longitude. The blanks around
# a separator are one optional group, so a run of blanks is read once (rev27b L1: `[ \t]*,?[ \t]*` read 40 KB in 11 s).
_DECIMAL_PAIR = re.compile(
    r"(?<![\w.+-])(?P<lat>[-+]?\d{1,2}\.\d{4,})[ \t]*(?:[,;/][ \t]*)?(?P<lon>[-+]?\d{1,3}\.\d{4,})(?!\w|[.,]\d)"
)
# Degrees (minutes, seconds) with a hemisphere's letter: the letters name it a position, no word needs to.
_HEMISPHERE = r"\d{1,3}(?:\.\d+)?[ \t]*°(?:[ \t]*\d{1,2}(?:\.\d+)?[ \t]*['′’])?(?:[ \t]*\d{1,2}(?:\.\d+)?[ \t]*[\"″”])?"
_HEMISPHERE_PAIR = re.compile(
    rf"(?<![\w.])(?:{_HEMISPHERE}[ \t]*[NS])[ \t]*(?:,[ \t]*)?(?:{_HEMISPHERE}[ \t]*[EWO])(?!\w)"
)
_THREE_WORDS = r"[^\W\d_]{1,20}\.[^\W\d_]{1,20}\.[^\W\d_]{1,20}(?![\w.]|\.\w)"


@cache
def _places() -> dict:
    return data_yaml("places.yaml")


@cache
def _coordinate_word() -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{one_of(tuple(_places()['coordinate_words']))})(?!\w)", re.IGNORECASE)


@cache
def _three_word_address() -> re.Pattern[str]:
    """A what3words address: "///filled.count.soap", or three words joined by dots after a name of the system
    ("what3words: filled.count.soap"; data/places.yaml): alone, three dotted words are a host or a program's key."""
    names = one_of(tuple(_places()["three_word_names"]))
    return re.compile(rf"(?:(?<![\w/:])///|(?i:(?<!\w)(?:{names}))[ \t]*:?[ \t]*(?:///)?)(?P<value>{_THREE_WORDS})")


def coordinates_at(text: str, start: int) -> re.Match[str] | None:
    """The pair of decimal degrees starting at `start`, if one does (a PIN's rule asks: "Pin for our cabin: 61.21843,
    -149.90028" is a dropped pin's position, not a secret)."""
    pair = _DECIMAL_PAIR.match(text, start)
    return pair if pair and _in_range(pair) else None


def _in_range(pair: re.Match[str]) -> bool:
    return abs(float(pair["lat"])) <= 90 and abs(float(pair["lon"])) <= 180


@register_recognizer
class CoordinatesRecognizer(Recognizer):
    """A pair of decimal degrees a word earlier in its sentence names as a place (`coordinate_words` of
    data/places.yaml: "Coordinates of my house: 51.5072, -0.1276", "My house is at 52.370216, 4.895168"; not "The
    interval was 0.4567, 0.3456 in my house experiment."), or degrees with their hemispheres ("51°30'26\"N, 0°7'39\"W")."""

    name, type = "coordinates", "ADDRESS"

    def find(self, text: str) -> list[Span]:
        found = [self.span(*pair.span()) for pair in _HEMISPHERE_PAIR.finditer(text)]
        for pair in _DECIMAL_PAIR.finditer(text):
            if _in_range(pair) and _coordinate_word().search(text, sentence_start(text, pair.start()), pair.start()):
                found.append(self.span(*pair.span()))
        return found


@register_recognizer
class ThreeWordAddressRecognizer(Recognizer):
    """A what3words address: "///filled.count.soap", or "what3words: filled.count.soap"; the three words, not the slashes
    that mark them."""

    name, type = "three_word_address", "ADDRESS"

    def find(self, text: str) -> list[Span]:
        return [self.span(*match.span("value")) for match in _three_word_address().finditer(text)]
