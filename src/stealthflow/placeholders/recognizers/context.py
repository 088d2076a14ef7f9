"""Descriptive identifiers that a deterministic layer can only catch by their context: the
user's own name, relatives' names, employer, passport number, street address, diagnosis,
salary. Public figures, famous places and numbers without such context are never flagged;
the LLM extractor covers what these patterns miss.
"""

from __future__ import annotations

import re

from stealthflow.placeholders.recognizers.base import ContextRecognizer, register_recognizer, sentence_start

_NAME = r"[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?"
_WORD = r"[A-Z][\w&'-]*(?:\.[\w&'-]+)*"  # "Acme", "AT&T", "Booking.com"; not a sentence's full stop
_PROPER = rf"{_WORD}(?:\s+(?:&\s+)?{_WORD}){{0,4}}"
_RELATIVE = (
    r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|son|daughter|mother|father|mom|mum|dad|brother|"
    r"sister|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|niece|nephew|boss|manager|colleague|friend|neighbou?r"
)


@register_recognizer
class OwnNameRecognizer(ContextRecognizer):
    name, type = "own_name", "REAL_NAME"
    triggers = ("name", "called", "call", "signed", "regards", "cheers")
    pattern = re.compile(
        r"(?i:\b(?:my\s+(?:full\s+)?name\s+is|i\s+am\s+called|call\s+me|signed,?|regards,|cheers,|name:)\s+)"
        rf"(?P<value>{_NAME}(?:\s+{_NAME}){{0,2}})"
    )


@register_recognizer
class RelativeNameRecognizer(ContextRecognizer):
    name, type = "relative_name", "REAL_NAME"
    triggers = tuple(re.sub(r"\[.*|.\?.*", "", word) for word in _RELATIVE.split("|"))  # "fianc[ée]e?" -> "fianc"
    pattern = re.compile(rf"(?i:\bmy\s+(?:(?:older|younger|little|big|best|late|ex-?)\s+)?(?:{_RELATIVE})),?[ \t]+(?P<value>{_NAME}(?:\s+{_NAME})?)")


@register_recognizer
class EmployerRecognizer(ContextRecognizer):
    name, type = "employer", "EMPLOYER"
    triggers = ("work", "employ", "joined", "engineer", "manager", "nurse", "analyst", "developer", "teacher", "designer", "accountant")
    pattern = re.compile(
        r"(?i:\b(?:i\s+(?:currently\s+)?work(?:ed)?\s+(?:at|for)|i'm\s+(?:employed|working)\s+(?:at|by|for)|i\s+am\s+(?:employed|working)\s+(?:at|by|for)|"
        r"my\s+employer\s+is|i\s+joined|(?:engineer|manager|nurse|analyst|developer|teacher|designer|accountant)\s+at)\s+(?:the\s+)?)"
        rf"(?P<value>{_PROPER})"
    )

    def accept(self, match: re.Match[str]) -> bool:
        return match["value"].split()[0] not in {"I", "My", "The", "A", "Home"}


@register_recognizer
class PassportRecognizer(ContextRecognizer):
    name, type = "passport", "PASSPORT"
    triggers = ("passport",)
    pattern = re.compile(r"(?i:\bpassport(?:\s+(?:number|no\.?|#|num))?\s*(?:is|:|#)?\s*)(?P<value>[A-Z0-9]{6,9})\b")

    def accept(self, match: re.Match[str]) -> bool:
        return any(c.isdigit() for c in match["value"])


@register_recognizer
class NationalIdRecognizer(ContextRecognizer):
    """An SSN, SIN or national insurance number named as one ("SSN: 123456789"), also in the
    undashed forms Presidio's SSN pattern scores too low to keep."""

    name, type = "national_id", "NATIONAL_ID"
    triggers = ("ssn", "social", "sin", "insurance", "nino", "tax id")
    pattern = re.compile(
        r"(?i:\b(?:ssn|social(?:\s+security)?|sin|(?:national\s+)?insurance|nino|tax\s+id)(?:\s+(?:number|no\.?|#))?\s*(?:is|was|:|#)?\s*)"
        r"(?P<value>\d{3}[- ]?\d{2,3}[- ]?\d{3,4}|[A-Z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D])\b"
    )


_STREET = r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Square|Sq|Parkway|Pkwy|Close|Crescent|Straße|Strasse)"


# An address talked about as a landmark ("10 Downing Street is smaller than it looks", "Is 1600
# Pennsylvania Avenue open for tours?", "Can you visit 221B Baker Street?"): the subject of its
# sentence or something to visit, in a message with no word tying it to anyone (a first person, a
# home, a delivery, a meeting).
_LANDMARK_BEFORE = re.compile(
    r"^\s*(?:(?i:(?:how|what|where|when|why|who)\s+(?:\w+\s+)?)?(?i:is|was|are|were|does|did|has)\s+)?(?:the\s+)?$"
    r"|\b(?i:visit\w*|tour\w*|see|seeing|saw|photos?\s+of|pictures?\s+of|outside|in\s+front\s+of)\s+$"
)
_ADDRESS_TIE = re.compile(
    r"\b(?i:i|i'm|i've|me|my|mine|we|we're|us|our|live[sd]?|living|mov(?:e|ed|ing)|deliver\w*|send|sent|ship\w*|post(?:ed|ing)?|mail\w*"
    r"|address|home|house|flat|apartment|apt|stay\w*|come|coming|meet\w*|pick|drop|party|dinner|appointment|interview|parcel|package|order)\b"
)


def landmark_address(text: str, start: int) -> bool:
    return _LANDMARK_BEFORE.search(text[sentence_start(text, start) : start]) is not None and _ADDRESS_TIE.search(text) is None


@register_recognizer
class StreetAddressRecognizer(ContextRecognizer):
    name, type = "street_address", "ADDRESS"
    pattern = re.compile(
        rf"(?P<value>\b\d{{1,5}}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){{1,3}}{_STREET}\b\.?"
        r"(?:,?\s+(?:Apt|Apartment|Suite|Unit|Flat)\.?\s*#?\w+)?"
        r"(?:,\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2}(?:,?\s+[A-Z]{2})?(?:\s+\d{5}(?:-\d{4})?)?)?)"
    )

    def accept(self, match: re.Match[str]) -> bool:
        return not landmark_address(match.string, match.start("value"))


@register_recognizer
class DiagnosisRecognizer(ContextRecognizer):
    name, type = "diagnosis", "HEALTH"
    triggers = ("diagnos", "suffer", "treated", "prescribed")
    pattern = re.compile(
        r"(?i:\b(?:diagnosed\s+with|diagnosis\s+(?:is|of|was)|suffer(?:s|ing)?\s+from|i\s+have\s+been\s+treated\s+for|prescribed)\s+)"
        r"(?P<value>(?:(?:stage|type)\s+\w+\s+)?[a-z][\w'-]*(?:\s+(?!and\b|but\b|in\b|last\b|since\b|after\b|when\b|so\b|two\b|three\b|a\b)[a-z][\w'-]*){0,3})"
    )


# Money as a price or a statistic ("a Tesla costs around 45k", "the average salary for nurses is
# 38000 pounds") where no one in the sentence is the writer or their reader: no one's income.
_PRICE_TALK = re.compile(r"\b(?i:costs?|priced?|prices|average|median|typical|minimum\s+wage|revenue|profits?|market|budget|tuition|fees?|fines?|sale|sells?|sold|(?<!net\s)worth|charges?)\b")  # someone's net worth is theirs
_FIRST_PERSON = re.compile(r"\b(?i:i|i'm|i've|i'd|me|my|mine|we|we're|we've|us|our|you|your)\b")


def names_writer_or_reader(sentence: str) -> bool:
    return _FIRST_PERSON.search(sentence) is not None


def impersonal_money(sentence: str) -> bool:
    return _PRICE_TALK.search(sentence) is not None and not names_writer_or_reader(sentence)


@register_recognizer
class SalaryRecognizer(ContextRecognizer):
    name, type = "salary", "FINANCE"
    triggers = ("salary", "income", "earn", "mak", "paid", "pay", "take", "bonus")
    pattern = re.compile(
        r"(?i:\b(?:salary|income|earn(?:s|ed|ing)?|make|making|paid|pay\s+is|take\s+home|bonus)\b[^.\n$€£\d]{0,24}?)"
        r"(?P<value>[$€£]\s?\d(?:[\d,.]*\d)?(?:\s?[kKmM]\b)?(?:\s?(?:USD|EUR|GBP))?(?:\s+(?:a|per|/)\s*(?:year|yr|month|mo|hour|hr|week))?"
        r"|\d(?:[\d,.]*\d)?\s?[kK]?\s?(?:USD|EUR|GBP|dollars|euros|pounds)(?:\s+(?:a|per|/)\s*(?:year|yr|month|mo|hour|hr|week))?)"
    )

    def accept(self, match: re.Match[str]) -> bool:
        text = match.string
        return not impersonal_money(text[sentence_start(text, match.start()) : match.end()])
