"""National ID and tax numbers of Germany, France, Spain, Italy, the Netherlands and Portugal, and of the
countries that write those languages or English (Austria, Belgium, Switzerland, Brazil, Chile, Mexico, the UK),
each a candidate shape checked with its checksum by python-stdnum (no checksum is written here).

The Spanish DNI and NIE, the Italian codice fiscale and the Mexican CURP carry check letters and a shape of their
own: they are looked for in every text. The others are digits only, so they are looked for in their
country's language only, and a 9-digit BSN or NIF or a 10-digit NHS number (a 1-in-11 checksum, the length of an
order or phone number) only after its name ("BSN", "NIF", "NHS number": `id_names` of data/languages/<code>.yaml).
The UK National Insurance number has no checksum: its check is HMRC's rules for its letters
(data/national_insurance.yaml). A checksum-valid number wins over a phone reading of it or of part of it: NATIONAL_ID is of a higher level than
PHONE (`types.merge_spans`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, cached_property
from types import ModuleType
from typing import ClassVar

from stdnum.at import vnr
from stdnum.be import nn
from stdnum.br import cpf
from stdnum.ch import ssn
from stdnum.cl import rut
from stdnum.de import idnr
from stdnum.es import dni, nie
from stdnum.exceptions import ValidationError
from stdnum.fr import nir
from stdnum.gb import nhs
from stdnum.it import codicefiscale
from stdnum.mx import curp
from stdnum.nl import bsn
from stdnum.pt import nif

from stealthflow.placeholders.language import language_file
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.cued import glue
from stealthflow.placeholders.recognizers.gate import matches_at
from stealthflow.placeholders.recognizers.languages import cue_pattern
from stealthflow.placeholders.recognizers.public_names import text_words, words_shared
from stealthflow.placeholders.recognizers.sentences import sentence_start
from stealthflow.placeholders.reserved import sample_value
from stealthflow.placeholders.types import Span
from stealthflow.resources import data_yaml


class ChecksumIdRecognizer(Recognizer):
    """Candidates of `shape` that `number.is_valid` accepts, but the published specimen and test values of its `name`
    (`reserved.sample_value`: "RSSMRA80A01H501U", BSNs of the test range 99999...); with `named`, only after one of the
    language's `names` (`id_names`) in the same sentence. In a text of another language, only after one of
    them ("My Steuer-ID is 36 574 261 809", "sécu 2 95 10 99 126 111 93": a phone number otherwise). Right after one
    of its names (only data/cued_identifiers.yaml `links` words, spaces and ":#()=-" between), a number of its shape
    is that number even where its checksum fails, mistyped or made up: "Meine Steuer-ID ist 12 345 678 903" was
    masked as a PHONE (ux19's report M5); so is a number looked for in every text, named in its country's language
    (`names_language`: "Il mio codice fiscale è BNCGLI88C45F205X" went out in clear, ux20's report M3)."""

    type = "NATIONAL_ID"
    reads_named = True
    shape: ClassVar[re.Pattern[str]]
    number: ClassVar[ModuleType]
    named: ClassVar[bool] = False

    names: ClassVar[str] = "id_names"  # the key of data/languages/<code>.yaml that lists the number's names
    # The language whose `names` name the number when it is looked for in every text (`languages` None); otherwise its
    # first language's.
    names_language: ClassVar[str | None] = None
    # Whether a number right after its name is taken without its check: a checksum's, not a format's rules (HMRC's
    # letters tell an NI number from a passport number after its name too).
    named_is_enough: ClassVar[bool] = True
    # Whether every match of `shape` opens with a digit after no letter, digit, dot or dash (`_alone`): it is then tried
    # only where such a digit stands (`_NUMBER_STARTS`, found once per text for all of them), not at every character of
    # the text. The ten such shapes and the five others: 0.30 -> 0.19 CPU ms per KB in a detector's pass (the best of 9
    # passes over benchmarks/tagger_threads.py's 1 KB texts), the same matches (tests/test_detection_gate.py).
    opens_with_digit: ClassVar[bool] = False

    @cached_property
    def _names(self) -> re.Pattern[str]:
        import regex

        return regex.compile(cue_pattern(self._name_words))

    @cached_property
    def _name_words(self) -> tuple[str, ...]:
        code = self.names_language or next(iter(self.languages or ()), None)
        return tuple(language_file(code)[self.names]) if code else ()

    @cached_property
    def _named_right_before(self) -> re.Pattern[str]:
        import regex

        return regex.compile(rf"{cue_pattern(self._name_words)}{glue()}$")

    def find(self, text: str) -> list[Span]:
        return [
            self.span(m.start(), m.end())
            for m in self.shapes_in(text)
            if (self._valid(m) or self._named_just_before(text, m.start()))
            and not sample_value(self.name, m[0])
            and (not self._needs_name(m) or self.named_at(text, m.start()))
        ]

    def shapes_in(self, text: str) -> Iterator[re.Match[str]]:
        """The matches `shape.finditer(text)` gives (tried where a digit stands alone within a detector's pass, which
        finds those places once for every such shape: `words_shared`)."""
        if not (self.opens_with_digit and words_shared()):
            return self.shape.finditer(text)
        return matches_at(self.shape, text, text_words(text).starts_of(_NUMBER_STARTS))

    def _named_just_before(self, text: str, start: int) -> bool:
        """Whether one of the number's names stands right before `start`."""
        return (
            self.named_is_enough
            and bool(self._name_words)
            and self._named_right_before.search(text, max(0, start - 64), start) is not None
        )

    def _valid(self, match: re.Match[str]) -> bool:
        try:
            return bool(self.number.is_valid(match[0]))
        except ValidationError:
            return False

    def _needs_name(self, match: re.Match[str]) -> bool:
        return self.named

    def named_at(self, text: str, start: int) -> bool:
        """Whether the number at `start` follows one of the number's names in its sentence; a full stop right before
        the number is its sign's, not a sentence's end ("NHS no. 943 476 5129": 3 NHS numbers of c-k more, no span
        added)."""
        begin = sentence_start(text, start)
        if begin and not text[begin:start].strip():
            begin = sentence_start(text, begin - 1)
        return self._names.search(text, begin, start) is not None


_NUMBER_STARTS = re.compile(r"\d(?<![\w.-]\d)")  # a digit after no letter, digit, dot or dash: `_alone`'s first


def _alone(number: str) -> re.Pattern[str]:
    """A number of the shape `number` (a regex) standing alone: no letter, digit, dot or dash right before it, no
    letter, digit or dash after it, nor a decimal part (a price, a measure)."""
    return re.compile(rf"(?<![\w.-]){number}(?![\w-]|[.,]\d)")


def _digits(count: int) -> re.Pattern[str]:
    """`count` digits standing alone, grouped as the writer likes (a space or a dot between any two)."""
    return _alone(rf"\d(?:[ .]?\d){{{count - 1}}}")


@register_recognizer
class SteuerIdRecognizer(ChecksumIdRecognizer):
    """German tax ID (Steuer-ID, 11 digits: "36 574 261 809")."""

    name, number, languages = "de_steuer_id", idnr, frozenset({"de"})
    shape = _digits(11)
    opens_with_digit = True


@register_recognizer
class NirRecognizer(ChecksumIdRecognizer):
    """French social security number (NIR, 13 digits and a 2-digit key: "2 95 10 99 126 111 93")."""

    name, number, languages = "fr_nir", nir, frozenset({"fr"})
    shape = _alone(r"[12][ .]?\d{2}[ .]?\d{2}[ .]?(?:\d{2}|2[AB])[ .]?\d{3}[ .]?\d{3}[ .]?\d{2}")
    opens_with_digit = True


@register_recognizer
class DniRecognizer(ChecksumIdRecognizer):
    """Spanish DNI (8 digits and a check letter: "54362315K")."""

    name, number, names_language = "es_dni", dni, "es"
    shape = re.compile(r"(?<![\w.-])\d{8}[ -]?[A-Za-z](?![\w-])")
    opens_with_digit = True


@register_recognizer
class NieRecognizer(ChecksumIdRecognizer):
    """Spanish foreigner's number (NIE: X, Y or Z, 7 digits and a check letter: "X2482300W")."""

    name, number, names_language = "es_nie", nie, "es"
    shape = re.compile(r"(?<![\w.-])[XYZxyz][ -]?\d{7}[ -]?[A-Za-z](?![\w-])")


@register_recognizer
class CodiceFiscaleRecognizer(ChecksumIdRecognizer):
    """Italian codice fiscale (16 characters: "RCCMNL83S18D969H")."""

    name, number, names_language = "it_codice_fiscale", codicefiscale, "it"
    shape = re.compile(
        r"(?<![\w-])[A-Za-z]{6}[0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][0-9LMNPQRSTUVlmnpqrstuv]{3}[A-Za-z](?![\w-])"
    )


@register_recognizer
class BsnRecognizer(ChecksumIdRecognizer):
    """Dutch citizen service number (BSN, 9 digits: "111222345"), after its name."""

    name, number, languages, named = "nl_bsn", bsn, frozenset({"nl"}), True
    shape = _digits(9)
    opens_with_digit = True


@register_recognizer
class NifRecognizer(ChecksumIdRecognizer):
    """Portuguese tax number (NIF, 9 digits: "501 964 843"), after its name."""

    name, number, languages, named = "pt_nif", nif, frozenset({"pt"}), True
    shape = _alone(r"(?:PT[ ]?)?\d{3}[ .]?\d{3}[ .]?\d{3}")


# The numbers below are those that the development sets pii-heldout-c..k write (benchmarks/pii_registers.py): 65 values
# there were masked as PHONE (part of a French one left in clear) or not at all before they had a recognizer.


@register_recognizer
class AustrianSvRecognizer(ChecksumIdRecognizer):
    """Austrian social security number (SV-Nummer, 4 digits and a birth date: "1237 010180")."""

    name, number, languages = "at_sv_nummer", vnr, frozenset({"de"})
    shape = _alone(r"\d{4}[ ]?\d{6}")
    opens_with_digit = True


@register_recognizer
class BelgianNationalNumberRecognizer(ChecksumIdRecognizer):
    """Belgian national number (Rijksregisternummer / numéro national, 11 digits: "85.07.30-033.28")."""

    name, number, languages = "be_national_number", nn, frozenset({"fr", "nl"})
    shape = _alone(r"\d{2}[ .]?\d{2}[ .]?\d{2}[ .-]?\d{3}[ .]?\d{2}")
    opens_with_digit = True


@register_recognizer
class SwissAhvRecognizer(ChecksumIdRecognizer):
    """Swiss social security number (AHV / AVS, 13 digits opening with 756: "756.9217.0769.85")."""

    name, number, languages = "ch_ahv", ssn, frozenset({"de", "fr", "it"})
    shape = _alone(r"756[ .]?\d{4}[ .]?\d{4}[ .]?\d{2}")
    opens_with_digit = True


@register_recognizer
class CpfRecognizer(ChecksumIdRecognizer):
    """Brazilian taxpayer number (CPF, 11 digits: "390.533.447-05")."""

    name, number, languages = "br_cpf", cpf, frozenset({"pt"})
    shape = _alone(r"\d{3}[ .]?\d{3}[ .]?\d{3}[ -]?\d{2}")
    opens_with_digit = True


@register_recognizer
class RutRecognizer(ChecksumIdRecognizer):
    """Chilean national number (RUT / RUN, 7 or 8 digits, a dash and a check digit or K: "16.482.907-3")."""

    name, number, languages = "cl_rut", rut, frozenset({"es"})
    shape = re.compile(r"(?<![\w.-])\d{1,2}\.?\d{3}\.?\d{3}-[\dkK](?![\w-])")
    opens_with_digit = True


@register_recognizer
class CurpRecognizer(ChecksumIdRecognizer):
    """Mexican population registry key (CURP, 18 characters: "BOXW310820HNERXN09")."""

    name, number, names_language = "mx_curp", curp, "es"
    shape = re.compile(r"(?<![\w-])[A-Za-z]{4}\d{6}[HMXhmx][A-Za-z]{5}[0-9A-Za-z]\d(?![\w-])")


@register_recognizer
class NhsNumberRecognizer(ChecksumIdRecognizer):
    """NHS number (10 digits: "943 476 5919"), after its name: the length of a phone number."""

    name, number, languages, named = "gb_nhs", nhs, frozenset({"en"}), True
    shape = _alone(r"\d{3}[ -]?\d{3}[ -]?\d{4}")
    opens_with_digit = True


@cache
def _insurance_rules() -> dict:
    """The parsed data/national_insurance.yaml."""
    return data_yaml("national_insurance.yaml")


@register_recognizer
class NationalInsuranceRecognizer(ChecksumIdRecognizer):
    """UK National Insurance number ("JT 48 27 63 C", "PW193807B"): a prefix that HMRC's rules allow, six digits and
    a suffix letter (data/national_insurance.yaml); without its suffix, or spelt otherwise than compact or in pairs
    (`_NINO_SPELLINGS`: "part CR 214365 A" is a part code), only after its name ("NI number AB 12 34 56":
    `ni_names` of data/languages/en.yaml), as a passport number or a login of two letters and six digits
    ("passport HK381920") is that shape too.

    With the suffix, the shape matches 33 distinct strings in data/ and benchmarks/data, every one an annotated NI
    number; without it, 21 more: 19 passport numbers and 2 crew logins. HMRC's rules hold against the sets: of the prefixes they
    exclude, "QQ 12 34 56 C" (HMRC's specimen) is annotated in 1 English text of pii-heldout-c..n and left in 6, "QH"
    annotated once. pii-heldout-c..n, English, full detector (benchmarks/pii_registers.py): NATIONAL_ID found 38 -> 59
    of 63 (those two lost: the context pattern took any two letters after "insurance"), no span added on no value;
    data/tagger-natural/validation*/en.txt (benchmarks/pii_marked.py): 6 -> 8 of 9."""

    name, languages, names = "gb_nino", frozenset({"en"}), "ni_names"
    named_is_enough = False
    shape = re.compile(r"(?<![\w.-])(?P<prefix>[A-Z]{2}) ?(?:\d{6}|\d{2} \d{2} \d{2})(?: ?(?P<suffix>[A-Z]))?(?![\w-])")

    def _valid(self, match: re.Match[str]) -> bool:
        rules, prefix, suffix = _insurance_rules(), match["prefix"], match["suffix"]
        return (
            prefix[0] not in rules["first_letter_not"]
            and prefix[1] not in rules["second_letter_not"]
            and prefix not in rules["prefixes_not"]
            and (suffix is None or suffix in rules["suffixes"])
        )

    def _needs_name(self, match: re.Match[str]) -> bool:
        return match["suffix"] is None or not _NINO_SPELLINGS.fullmatch(match[0])


# The spellings people write an NI number in: compact or in pairs ("AB123456C", "AB 12 34 56 C"). Any other ("CR 214365
# A", a part code) only after the number's name. Every one of the 39 distinct strings of the shape with a suffix in data/
# and benchmarks/data is in one of these spellings (pii-heldout-c..n: 28 annotated NI numbers, all kept; no span
# changes); on a reviewer's 80 texts (protect CLI) 2 part codes are no longer masked, no other span changes.
_NINO_SPELLINGS = re.compile(r"[A-Z]{2}\d{6}[A-Z]|[A-Z]{2} \d{2} \d{2} \d{2} [A-Z]")


@cache
def _checksum_ids() -> tuple[ChecksumIdRecognizer, ...]:
    found, todo = [], list(ChecksumIdRecognizer.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        found.append(kind())
    return tuple(found)


def named_checksum_id(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a national ID of one of the recognizers' shapes whose checksum holds, with one of its
    names before it in its sentence ("Mijn BSN is 111222333"), a published specimen included (the recognizer leaves
    those, `sample_value`). The PII tagger's CREDENTIAL span there is a NATIONAL_ID: typed a secret, it told the user
    to rotate it (ux22's report M2). On benchmarks/data/pii-heldout-c..u (all 39 files, the tagger on; not read when
    this was written) it retypes 4 spans and masks nothing more or less: 1 annotated NATIONAL_ID (a codice fiscale
    typed CREDENTIAL before) and 3 unannotated published specimens ("RSSMRA80A01H501U", "999999990")."""
    value = text[start:end]
    return any(
        (match := kind.shape.fullmatch(value)) is not None and kind._valid(match) and kind.named_at(text, start)
        for kind in _checksum_ids()
    )
