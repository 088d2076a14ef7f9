"""Passport numbers: a number of a country's format near a passport cue word of any of the seven
languages, and the machine-readable zone of a passport's data page. Formats and cue words are data
(data/passports.yaml, with the recognizer's measured gain in its header).
"""

from __future__ import annotations

import string
from functools import cache, cached_property

import regex

from stealthflow.placeholders.language import OTHERS, language_file
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.gate import WordStarts, matches_at
from stealthflow.placeholders.recognizers.languages import cue_pattern, one_of
from stealthflow.placeholders.recognizers.sentences import sentence_end
from stealthflow.placeholders.recognizers.structured import other_kind_before
from stealthflow.placeholders.types import Span, merge_spans
from stealthflow.resources import data_yaml

PASSPORTS = "passports.yaml"
_TOKEN = regex.compile(r"(?<![\w-])[A-Z0-9]{6,11}(?![\w-])")  # as long as any format's number and its check digit
# A date written as eight digits, YYYYMMDD ("20250314"): no passport number
_DATE = regex.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")
BEFORE_REACH = 40  # characters before a number where a word naming it is looked for
_ICAO_VALUES = {ch: value for value, ch in enumerate(string.digits + string.ascii_uppercase)} | {"<": 0}


@cache
def passport_data() -> dict:
    """The parsed data/passports.yaml."""
    return data_yaml(PASSPORTS)


def icao_check_digit(characters: str) -> int:
    """ICAO 9303's check digit of a field of the machine-readable zone: weights 7, 3, 1 repeated, mod 10."""
    return sum(_ICAO_VALUES[ch] * (7, 3, 1)[i % 3] for i, ch in enumerate(characters)) % 10


def _icao_valid(field: str, digit: str) -> bool:
    return digit.isdigit() and icao_check_digit(field) == int(digit)


# The second line of a passport's zone (TD3, 44 characters): number, its check digit, nationality, birth
# date and its check digit, sex, expiry and its check digit, personal number and its check, overall check;
# the first line ("P<" and the country and names) is masked with it when it stands right before.
_MRZ = regex.compile(
    r"(?:(?<![A-Z0-9<])P[A-Z<][A-Z<]{3}[A-Z<]{39}[ \t]*\r?\n[ \t]*)?"
    r"(?<![A-Z0-9<])(?P<number>[A-Z0-9<]{9})(?P<n>\d)[A-Z<]{3}(?P<birth>\d{6})(?P<b>\d)[MFX<]"
    r"(?P<expiry>\d{6})(?P<e>\d)[A-Z0-9<]{14}[0-9<]\d(?![A-Z0-9<])"
)


@register_recognizer
class PassportRecognizer(Recognizer):
    """A number of one of the formats of data/passports.yaml after a cue word ("Reisepass", "passeport n°",
    "pasaporte", "passport no.") in its sentence or the next, at most `reach` characters on (no date, no number
    of another kind, digits only after a number word), or of the looser `any_format` right after one; with one
    more digit than its format, that digit must be its ICAO check digit. Confidence 0.9 right after the cue, 0.7
    further on, 1.0 with a check digit or in a machine-readable zone."""

    name, type = "passport", "PASSPORT"

    @cached_property
    def _cue_starts(self) -> WordStarts:
        return WordStarts(tuple(word.split()[0] for word in self._cues))

    @cached_property
    def _cues(self) -> tuple[str, ...]:
        return tuple(word for words in passport_data()["cues"].values() for word in words)

    @cached_property
    def _cue(self) -> regex.Pattern[str]:
        return regex.compile(cue_pattern(self._cues))

    @cached_property
    def _formats(self) -> dict[str, regex.Pattern[str]]:
        return {country: regex.compile(shape) for country, shape in passport_data()["formats"].items()}

    @cached_property
    def _right_after(self) -> regex.Pattern[str]:
        """What may stand between a cue and a value of `any_format`, then the value."""
        return regex.compile(rf"{self._glue}(?P<value>{passport_data()['any_format']})(?![\w-])")

    def find(self, text: str) -> list[Span]:
        zones = _MRZ.finditer(text) if "<" in text else ()  # a zone's fillers; a text without one is not scanned
        spans = [self._mrz_span(m) for m in zones if _mrz_valid(m)]
        for cue in matches_at(self._cue, text, self._cue_starts(text)):
            spans += self._after(text, cue)
        return merge_spans(spans, text)

    def _after(self, text: str, cue: regex.Match[str]) -> list[Span]:
        """The values a cue names: a number of one of `formats` within reach, or of `any_format` right after it."""
        reason = f"after the passport word {cue[0].lower()!r}"
        right = self._right_after.match(text, cue.end())
        value = right["value"] if right else ""
        if any(ch.isdigit() for ch in value) and not _DATE.fullmatch(value) and (found := self._format(value)):
            country, checked = found
            return [self.span(*right.span("value"), 1.0 if checked else 0.9, reason=reason + _of(country))]
        spans = []
        for token in _TOKEN.finditer(text, cue.end(), _reach_end(text, cue.end())):
            found = self._format(token[0])
            if found and found[0] and self._named_within_reach(text, token, self._names_number(cue[0])):
                country, checked = found
                spans.append(self.span(*token.span(), 1.0 if checked else 0.7, reason=reason + _of(country)))
        return spans

    def _named_within_reach(self, text: str, token: regex.Match[str], numbered: bool) -> bool:
        """Whether a number of a country's format within reach of a cue may be the passport's: no date, no other
        identifier's word right before it (an order, a flight: `other_kinds`, the languages' `number_kinds`), and
        a number of digits only after a number word ("the number is 801245376"), or after a linking word when the
        cue names the number (`numbered`: "Passport number on my old one is 118472603")."""
        start, low = token.start(), max(0, token.start() - BEFORE_REACH)
        if _DATE.fullmatch(token[0]) or other_kind_before(text, start) or self._other_kind.search(text, low, start):
            return False
        if not token[0].isdigit():
            return True
        return bool(self._number_word.search(text, low, start) or (numbered and self._link.search(text, low, start)))

    def _names_number(self, cue: str) -> bool:
        """Whether a cue ends in a number word ("passport number", "passport #")."""
        return self._number_word.search(cue) is not None or cue.endswith("#")

    @cached_property
    def _glue(self) -> str:
        """Number words and linking words ("number", "n°", "is"), spaces and ":#.()=,-" between them."""
        words = (*passport_data()["number_words"], *passport_data()["links"])
        return rf"(?:[\s:#.()=,-]|(?i:{one_of(words)})(?![\p{{L}}\d]))*"

    @cached_property
    def _number_word(self) -> regex.Pattern[str]:
        words = one_of(tuple(passport_data()["number_words"]))
        return regex.compile(rf"(?<![\p{{L}}\d])(?i:{words}){self._glue}$")

    @cached_property
    def _link(self) -> regex.Pattern[str]:
        return regex.compile(rf"(?<![\p{{L}}\d])(?i:{one_of(tuple(passport_data()['links']))}){self._glue}$")

    @cached_property
    def _other_kind(self) -> regex.Pattern[str]:
        """A word of another identifier (maybe the head of a compound: "Vorgangsnummer"), then number words."""
        kinds = [
            *(w for words in passport_data()["other_kinds"].values() for w in words),
            *(w for code in OTHERS for w in language_file(code)["number_kinds"]),
        ]
        return regex.compile(rf"(?<![\p{{L}}\d])(?i:{one_of(tuple(kinds))})\p{{L}}*{self._glue}$")

    def _format(self, value: str) -> tuple[str | None, bool] | None:
        """(The first country whose format the value has, whether it is written with its check digit); (None,
        False): no country's format; None: a country's number and a check digit that does not hold."""
        for checked, number in ((False, value), (True, value[:-1]))[: 1 + value[-1].isdigit()]:
            country = next((key for key, shape in self._formats.items() if shape.fullmatch(number)), None)
            if country:
                return (country, checked) if not checked or _icao_valid(number, value[-1]) else None
        return None, False

    def _mrz_span(self, match: regex.Match[str]) -> Span:
        return self.span(
            match.start(), match.end(), 1.0, reason="a passport's machine-readable zone, its check digits hold"
        )


def _reach_end(text: str, start: int) -> int:
    """Where a cue's reach ends: `reach` characters on, or before that at the end of the sentence after the cue's
    ("Mi número de pasaporte está mal. El correcto es XDB507318.")."""
    limit = start + passport_data()["reach"]
    first = sentence_end(text, start, limit - start)
    second = sentence_end(text, first.end(), limit - first.end()) if first else None
    return second.start() if second else limit


def _of(country: str | None) -> str:
    return f", a number of the {country} format" if country else ""


def _mrz_valid(match: regex.Match[str]) -> bool:
    return all(
        _icao_valid(match[field], match[digit]) for field, digit in (("number", "n"), ("birth", "b"), ("expiry", "e"))
    )
