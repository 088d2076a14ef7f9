"""Structured identifiers through well-kept libraries: Presidio's pattern recognizers (with
their checksums: Luhn for cards, mod-97 for IBANs) and `phonenumbers` for phone numbers.

Presidio's recognizers are called directly, without its spaCy pipeline: pattern recognizers
need no NLP artifacts, and skipping spaCy keeps detection fast and fully offline.
"""

from __future__ import annotations

import re
from functools import cached_property

import phonenumbers
import tldextract
from presidio_analyzer import PatternRecognizer
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer as PresidioCreditCard,
)
from presidio_analyzer.predefined_recognizers import (
    EmailRecognizer as PresidioEmail,
)
from presidio_analyzer.predefined_recognizers import (
    IbanRecognizer as PresidioIban,
)
from presidio_analyzer.predefined_recognizers import (
    IpRecognizer as PresidioIp,
)
from presidio_analyzer.predefined_recognizers import (
    UrlRecognizer as PresidioUrl,
)
from presidio_analyzer.predefined_recognizers import (
    UsSsnRecognizer as PresidioUsSsn,
)

from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.types import Span

# tldextract's default extractor downloads the public-suffix list on first use; this one
# reads only the snapshot bundled with the package, so nothing waits on the network.
_OFFLINE_TLD = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


class _OfflineEmail(PresidioEmail):
    def validate_result(self, pattern_text: str) -> bool:
        return _OFFLINE_TLD(pattern_text).fqdn != ""


class PresidioBacked(Recognizer):
    """Runs one Presidio pattern recognizer; keeps hits at or above `min_score`.

    Some Presidio patterns are slow over a whole message (URL: ~2 ms per KB), so a cheap
    `candidates` regex picks the tokens worth looking at and Presidio runs on those only.
    """

    presidio_class: type[PatternRecognizer]
    min_score = 0.5
    candidates: re.Pattern[str] | None = None
    trailing = ""  # punctuation that ends a sentence, not the identifier

    @cached_property
    def presidio(self) -> PatternRecognizer:
        return self.presidio_class()

    def find(self, text: str) -> list[Span]:
        pieces = [(m.start(), m[0]) for m in self.candidates.finditer(text)] if self.candidates else [(0, text)]
        spans = []
        for offset, piece in pieces:
            for result in self.presidio.analyze(piece, self.presidio.supported_entities, None):
                if result.score >= self.min_score:
                    start = offset + result.start
                    end = start + len(piece[result.start : result.end].rstrip(self.trailing))
                    spans.append(self.span(start, end, result.score))
        return spans


@register_recognizer
class EmailRecognizer(PresidioBacked):
    name, type, presidio_class = "email", "EMAIL", _OfflineEmail
    candidates, trailing = re.compile(r"\S+@\S+"), ".,;:!?)'\""


@register_recognizer
class CreditCardRecognizer(PresidioBacked):
    name, type, presidio_class = "credit_card", "CREDIT_CARD", PresidioCreditCard


@register_recognizer
class IbanRecognizer(PresidioBacked):
    name, type, presidio_class = "iban", "IBAN", PresidioIban


@register_recognizer
class IpRecognizer(PresidioBacked):
    name, type, presidio_class = "ip_address", "IP_ADDRESS", PresidioIp
    candidates = re.compile(r"[\w:.%/]*(?:\d\.\d|[0-9A-Fa-f]:[0-9A-Fa-f:])[\w:.%/]*")


@register_recognizer
class UrlRecognizer(PresidioBacked):
    name, type, presidio_class = "url", "URL", PresidioUrl
    candidates, trailing = re.compile(r"\S*[\w-]\.[A-Za-z]{2,}\S*"), ".,;:!?)'\""


@register_recognizer
class UsSsnRecognizer(PresidioBacked):
    # Presidio scores bare 9-digit runs very low (0.05); keep only the dashed/spaced forms.
    name, type, presidio_class, min_score = "us_ssn", "NATIONAL_ID", PresidioUsSsn, 0.3


# Cheap candidate scan: 7-15 digits with the separators people type. Running
# phonenumbers' own matcher over the whole text is ~5x slower, so it only validates candidates.
# Dates, dotted IPv4s and bare digit runs (order numbers, codes) are not phone numbers.
_NOT_PHONE = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,3}(?:\.\d{1,3}){3}|\d{7,9}")
_PHONE_CANDIDATE = re.compile(r"(?<![\w+.-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,5}){1,4}(?![\w-]|\.\d)")


@register_recognizer
class PhoneRecognizer(Recognizer):
    """Phone numbers valid for their region (`phonenumbers`): international, or national in `regions`."""

    name, type = "phone", "PHONE"
    regions = ("US", "GB", "DE", "FR", "CA", "AU", "IN")

    def find(self, text: str) -> list[Span]:
        spans = []
        for match in _PHONE_CANDIDATE.finditer(text):
            digits = sum(ch.isdigit() for ch in match[0])
            if 7 <= digits <= 15 and not _NOT_PHONE.fullmatch(match[0]) and self._valid(match[0]):
                spans.append(self.span(match.start(), match.end()))
        return spans

    def _valid(self, candidate: str) -> bool:
        for region in self.regions[:1] if candidate.startswith("+") else self.regions:
            try:
                if phonenumbers.is_valid_number(phonenumbers.parse(candidate, region)):
                    return True
            except phonenumbers.NumberParseException:
                continue
        return False
