"""Passport numbers: a number of a country's format near a passport cue word of any of the seven
languages, and the machine-readable zone of a passport's data page. Formats and cue words are data
(data/passports.yaml, with the recognizer's measured gain in its header).
"""

from __future__ import annotations

import string
from functools import cache, cached_property

import regex

from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.gate import WordStarts, matches_at
from stealthflow.placeholders.recognizers.languages import cue_pattern, one_of
from stealthflow.placeholders.recognizers.structured import other_kind_before
from stealthflow.placeholders.types import Span, merge_spans
from stealthflow.resources import data_yaml

PASSPORTS = "passports.yaml"
_TOKEN = regex.compile(r"(?<![\w-])[A-Z0-9]{6,11}(?![\w-])")  # as long as any format's number and its check digit
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
    """A number of one of the formats of data/passports.yaml at most `reach` characters after a cue word
    ("Reisepass", "passeport n°", "pasaporte", "passport no."), or of the looser `any_format` right after
    one; with one more digit than its format, that digit must be its ICAO check digit. Confidence 0.9 right
    after the cue, 0.7 further on, 1.0 with a check digit or in a machine-readable zone."""

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
        between = rf"(?:[\s:#.()-]|(?i:{one_of(tuple(passport_data()['between']))})(?![\p{{L}}\d]))*"
        return regex.compile(rf"{between}(?P<value>{passport_data()['any_format']})(?![\w-])")

    def find(self, text: str) -> list[Span]:
        zones = _MRZ.finditer(text) if "<" in text else ()  # a zone's fillers; a text without one is not scanned
        spans = [self._mrz_span(m) for m in zones if _mrz_valid(m)]
        starts = self._cue_starts(text)
        cues = matches_at(self._cue, text, starts) if starts is not None else self._cue.finditer(text)
        for cue in cues:
            spans += self._after(text, cue)
        return merge_spans(spans)

    def _after(self, text: str, cue: regex.Match[str]) -> list[Span]:
        """The values a cue names: a number of one of `formats` within reach, or of `any_format` right after it."""
        reason = f"after the passport word {cue[0].lower()!r}"
        right = self._right_after.match(text, cue.end())
        if right and any(ch.isdigit() for ch in right["value"]) and (found := self._format(right["value"])):
            country, checked = found
            return [self.span(*right.span("value"), 1.0 if checked else 0.9, reason=reason + _of(country))]
        spans = []
        for token in _TOKEN.finditer(text, cue.end(), cue.end() + passport_data()["reach"]):
            found = self._format(token[0])
            if found and found[0] and not other_kind_before(text, token.start()):
                country, checked = found
                spans.append(self.span(*token.span(), 1.0 if checked else 0.7, reason=reason + _of(country)))
        return spans

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


def _of(country: str | None) -> str:
    return f", a number of the {country} format" if country else ""


def _mrz_valid(match: regex.Match[str]) -> bool:
    return all(
        _icao_valid(match[field], match[digit]) for field, digit in (("number", "n"), ("birth", "b"), ("expiry", "e"))
    )
