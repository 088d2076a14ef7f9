"""National ID and tax numbers of Germany, France, Spain, Italy, the Netherlands and Portugal,
each a candidate shape checked with its checksum by python-stdnum (no checksum is written here).

The Spanish DNI and NIE and the Italian codice fiscale carry a check letter and a shape of their
own: they are looked for in every text. The others are digits only, so they are looked for in
their country's language only, and a 9-digit BSN or NIF (a 1-in-11 checksum, the length of an
order number) only after its name ("BSN", "NIF", `id_names` of data/languages/<code>.yaml).
"""

from __future__ import annotations

import re
from functools import cached_property
from types import ModuleType
from typing import ClassVar

from stdnum.de import idnr
from stdnum.es import dni, nie
from stdnum.exceptions import ValidationError
from stdnum.fr import nir
from stdnum.it import codicefiscale
from stdnum.nl import bsn
from stdnum.pt import nif

from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.languages import cue_pattern, vocabulary
from stealthflow.placeholders.recognizers.sentences import sentence_start
from stealthflow.placeholders.types import Span


class ChecksumIdRecognizer(Recognizer):
    """Candidates of `shape` that `number.is_valid` accepts; with `named`, only after one of the
    language's `id_names` in the same sentence."""

    type = "NATIONAL_ID"
    shape: ClassVar[re.Pattern[str]]
    number: ClassVar[ModuleType]
    named: ClassVar[bool] = False

    @cached_property
    def _names(self) -> re.Pattern[str] | None:
        import regex

        return regex.compile(cue_pattern(vocabulary(next(iter(self.languages))).id_names)) if self.named else None

    def find(self, text: str) -> list[Span]:
        return [
            self.span(m.start(), m.end())
            for m in self.shape.finditer(text)
            if self._valid(m[0]) and self._is_named(text, m.start())
        ]

    def _valid(self, candidate: str) -> bool:
        try:
            return bool(self.number.is_valid(candidate))
        except ValidationError:
            return False

    def _is_named(self, text: str, start: int) -> bool:
        return self._names is None or self._names.search(text, sentence_start(text, start), start) is not None


def _digits(count: int) -> re.Pattern[str]:
    """`count` digits standing alone, grouped as the writer likes (a space or a dot between any two)."""
    return re.compile(rf"(?<![\w.-])\d(?:[ .]?\d){{{count - 1}}}(?![\w-]|[.,]\d)")


@register_recognizer
class SteuerIdRecognizer(ChecksumIdRecognizer):
    """German tax ID (Steuer-ID, 11 digits: "36 574 261 809")."""

    name, number, languages = "de_steuer_id", idnr, frozenset({"de"})
    shape = _digits(11)


@register_recognizer
class NirRecognizer(ChecksumIdRecognizer):
    """French social security number (NIR, 13 digits and a 2-digit key: "2 95 10 99 126 111 93")."""

    name, number, languages = "fr_nir", nir, frozenset({"fr"})
    shape = re.compile(
        r"(?<![\w.-])[12][ .]?\d{2}[ .]?\d{2}[ .]?(?:\d{2}|2[AB])[ .]?\d{3}[ .]?\d{3}[ .]?\d{2}(?![\w-]|[.,]\d)"
    )


@register_recognizer
class DniRecognizer(ChecksumIdRecognizer):
    """Spanish DNI (8 digits and a check letter: "54362315K")."""

    name, number = "es_dni", dni
    shape = re.compile(r"(?<![\w.-])\d{8}[ -]?[A-Za-z](?![\w-])")


@register_recognizer
class NieRecognizer(ChecksumIdRecognizer):
    """Spanish foreigner's number (NIE: X, Y or Z, 7 digits and a check letter: "X2482300W")."""

    name, number = "es_nie", nie
    shape = re.compile(r"(?<![\w.-])[XYZxyz][ -]?\d{7}[ -]?[A-Za-z](?![\w-])")


@register_recognizer
class CodiceFiscaleRecognizer(ChecksumIdRecognizer):
    """Italian codice fiscale (16 characters: "RCCMNL83S18D969H")."""

    name, number = "it_codice_fiscale", codicefiscale
    shape = re.compile(
        r"(?<![\w-])[A-Za-z]{6}[0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][0-9LMNPQRSTUVlmnpqrstuv]{3}[A-Za-z](?![\w-])"
    )


@register_recognizer
class BsnRecognizer(ChecksumIdRecognizer):
    """Dutch citizen service number (BSN, 9 digits: "111222333"), after its name."""

    name, number, languages, named = "nl_bsn", bsn, frozenset({"nl"}), True
    shape = _digits(9)


@register_recognizer
class NifRecognizer(ChecksumIdRecognizer):
    """Portuguese tax number (NIF, 9 digits: "501 964 843"), after its name."""

    name, number, languages, named = "pt_nif", nif, frozenset({"pt"}), True
    shape = re.compile(r"(?<![\w.-])(?:PT[ ]?)?\d{3}[ .]?\d{3}[ .]?\d{3}(?![\w-]|[.,]\d)")
