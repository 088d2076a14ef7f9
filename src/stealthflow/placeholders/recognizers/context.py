"""Descriptive identifiers that a deterministic layer can only catch by their context: the
user's own name, relatives' names, employer, passport number, street address, diagnosis,
salary. Public figures, famous places and numbers without such context are never flagged;
the LLM extractor covers what these patterns miss. The checks these patterns share with the tagger's
rules (tagger.py) live here too: whom a sentence is about (`anothers_life`), whether it names the
writer, the reader or their kin.
"""

from __future__ import annotations

import re

from stealthflow.placeholders.recognizers.base import (
    SENTENCE_REACH,
    ContextRecognizer,
    register_recognizer,
    sentence_start,
)
from stealthflow.placeholders.recognizers.gate import skipping
from stealthflow.placeholders.recognizers.public_names import brand, public_name, public_name_at, text_words

_NAME = r"[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?"
_WORD = r"[A-Z][\w&'-]*(?:\.[\w&'-]+)*"  # "Acme", "AT&T", "Booking.com"; not a sentence's full stop
_PROPER = rf"{_WORD}(?:[ \t]+(?:&[ \t]+)?{_WORD}){{0,4}}"  # on one line: "Employer: Google\nPosition: ..." is Google
RELATIVES = (
    r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|son|daughter|mother|father|mom|mum|dad|brother|"
    r"sister|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|niece|nephew|boss|manager|colleague|friend|neighbou?r"
)


@register_recognizer
class OwnNameRecognizer(ContextRecognizer):
    name, type = "own_name", "REAL_NAME"
    triggers = ("name", "called", "call", "signed", "regards", "cheers")
    pattern = re.compile(
        r"(?i:\b(?:my\s+(?:full\s+)?name\s+is|i\s+am\s+called|call\s+me|signed,?|regards,|cheers,|name:)\s+)"
        rf"(?P<value>{_NAME}(?:[ \t]+{_NAME}){{0,2}})"  # on one line: "Name: Esna\nEmployer: ..." is Esna
    )


@register_recognizer
class ContactNameRecognizer(ContextRecognizer):
    """Someone the writer is to call, text or email ("1. call Deborah", "remind me to text Sam Okafor").
    Not "X said": first names of the famous that are also people's names ("Jesus said", "Siri said")
    would be flagged, for 0.006 of validation name recall."""

    name, type = "contact_name", "REAL_NAME"
    triggers = ("call", "text", "email", "e-mail", "ring", "phone", "message")
    pattern = re.compile(rf"\b(?i:call|text|e-?mail|ring|phone|message)[ \t]+(?P<value>{_NAME}(?:[ \t]+{_NAME})?)\b")

    def accept(self, match: re.Match[str]) -> bool:
        """A given name of the tagger's name lexicon (names.py) opens the value, which is no famous
        person or brand ("call Tesco") and no day or month ("text Sunday"). A place that is also a
        given name ("call London") is taken for a person: the gazetteer leaves such words out."""
        from stealthflow.placeholders.recognizers.tagger import given_name  # the lexicon ships with the tagger

        text, start, end = match.string, match.start("value"), match.end("value")
        first = match["value"].split()[0]
        return (
            given_name(first)
            and _CALENDAR.fullmatch(first) is None
            and not public_name(text, start, end)
            and not brand(text, start, end)
        )


_CALENDAR = re.compile(
    r"(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)"
)


@register_recognizer
class RelativeNameRecognizer(ContextRecognizer):
    name, type = "relative_name", "REAL_NAME"
    triggers = tuple(re.sub(r"\[.*|.\?.*", "", word) for word in RELATIVES.split("|"))  # "fianc[ée]e?" -> "fianc"
    pattern = re.compile(
        rf"(?i:\bmy\s+(?:(?:older|younger|little|big|best|late|ex-?)\s+)?(?:{RELATIVES})),?[ \t]+(?P<value>{_NAME}(?:\s+{_NAME})?)"
    )


@register_recognizer
class EmployerRecognizer(ContextRecognizer):
    name, type = "employer", "EMPLOYER"
    triggers = (
        "work",
        "employ",
        "joined",
        "engineer",
        "manager",
        "nurse",
        "analyst",
        "developer",
        "teacher",
        "designer",
        "accountant",
    )
    pattern = re.compile(
        r"(?i:\b(?:i\s+(?:currently\s+)?work(?:ed)?\s+(?:at|for)|i'm\s+(?:employed|working)\s+(?:at|by|for)|i\s+am\s+(?:employed|working)\s+(?:at|by|for)|"
        r"my\s+employer\s+is|employer\s*:|i\s+joined|(?:engineer|manager|nurse|analyst|developer|teacher|designer|accountant)\s+at)\s+(?:the\s+)?)"
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
_ADDRESS_TIE = skipping(
    re.compile(
        r"\b(?i:i|i'm|i've|me|my|mine|we|we're|(?-i:us|Us)|our|live[sd]?|living|mov(?:e|ed|ing)|deliver\w*|send|sent|ship\w*|post(?:ed|ing)?|mail\w*"
        r"|address|home|house|flat|apartment|apt|stay\w*|come|coming|meet\w*|pick|drop|party|dinner|appointment|interview|parcel|package|order)\b"
    )
)


_LANDMARK_REACH = 64  # characters before an address that its cue may take ("Is it worth a visit to the")


def landmark_address(text: str, start: int) -> bool:
    first = sentence_start(text, start)
    # a longer stretch of its sentence is cut ("\x00": no sentence starts at the cut), so each address costs a bounded look
    before = text[first:start] if start - first <= _LANDMARK_REACH else "\x00" + text[start - _LANDMARK_REACH : start]
    if _LANDMARK_BEFORE.search(before) is None:
        return False
    return not text_words(text).holds_match(
        _ADDRESS_TIE, start - SENTENCE_REACH, start + SENTENCE_REACH
    )  # in the message


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

    def accept(self, match: re.Match[str]) -> bool:
        return not anothers_life(
            match.string, match.start("value"), match.end("value")
        )  # not "Bruce Willis was diagnosed with aphasia"


# Money as a price or a statistic ("a Tesla costs around 45k", "the average salary for nurses is
# 38000 pounds") where no one in the sentence is the writer or their reader: no one's income.
_PRICE_TALK = skipping(
    re.compile(
        r"\b(?i:costs?|priced?|prices|average|median|typical|minimum\s+wage|revenue|profits?|market|budget|tuition|fees?|fines?|sale|sells?|sold|(?<!net\s)worth|charges?)\b"
    )
)  # someone's net worth is theirs
_FIRST_PERSON = skipping(
    re.compile(r"\b(?i:i|i'm|i've|i'd|me|my|mine|we|we're|we've|(?-i:us|Us)|our|you|your)\b")
)  # not "the US"


SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")


def sentence_end(text: str, end: int) -> re.Match[str] | None:
    """What ends the sentence going on at `end`, within SENTENCE_REACH characters (None: the text ends first, or the reach)."""
    return SENTENCE_END.search(text, end, end + SENTENCE_REACH)


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence holding text[start:end] (a dot inside a value such as "$15.50" does not end it),
    at most SENTENCE_REACH characters on either side of it."""
    stop = sentence_end(text, end)
    return text[sentence_start(text, start) : stop.start() if stop else end + SENTENCE_REACH]


def names_writer_or_reader(sentence: str) -> bool:
    return _FIRST_PERSON.search(sentence) is not None


_KIN = re.compile(rf"\b(?i:{RELATIVES})s?\b")


def names_writer_reader_or_kin(sentence: str) -> bool:
    return names_writer_or_reader(sentence) or _KIN.search(sentence) is not None


# Animals and things people name and care for: what is said of them is no one's ("our dog Biscuit",
# "Our cat has diabetes").
ANIMALS = (
    r"dogs?|doggo|pup|pupp(?:y|ies)|cats?|kitty|kittens?|hamsters?|gerbils?|guinea\s+pigs?|rabbits?|bunn(?:y|ies)|horses?|pon(?:y|ies)|donkeys?"
    r"|goats?|sheep|cows?|pigs?|chickens?|hens?|roosters?|ducks?|parrots?|budgies?|cockatiels?|canar(?:y|ies)|goldfish|fish|tortoises?|turtles?"
    r"|snakes?|lizards?|geckos?|ferrets?|rats?|mice|hedgehogs?|pandas?|cubs?|labrador|retriever|spaniel|poodle|terrier|collie|beagle|dachshund"
    r"|husky|pug|bulldog|chihuahua|greyhound|whippet|shepherd|rottweiler|corgi|schnauzer|cockapoo|labradoodle|tabby|moggy"
)
THINGS = r"boat|yacht|car|bike|robot|vacuum|roomba|rover|starter|doll|teddy"  # not "van": "Employer: van Velzen & Knuf"
KEEPERS = r"walker|sitter|groomer|trainer|owner|breeder|minder|carer|handler|vet|lady|man|guy|person|people|friend"  # "our dog walker"

# Another's life, not the writer's: what a sentence says of whom it opens with, a few words on (a long
# sentence in unpunctuated chat may run on into the writer's news), where nothing after them names the
# writer, the reader or their kin ("Selena Gomez and my sister both have lupus" is the sister's):
# - a famous name (public_names.py) or office, maybe past "Did you know" or "Did" ("Stephen Hawking lived with ALS",
#   "Lionel Messi earns $60 million a year at Inter Miami", "The King's cancer diagnosis was announced");
# - an animal, a plant, a machine or a character of fiction ("Our cat has diabetes and needs insulin",
#   "My laptop has a virus", "In the show, the detective has OCD");
# - people in general ("A junior developer in Berlin earns about 50k euros", "Most runners get shin splints").
_LEAD_IN = re.compile(
    r"\s*(?:(?i:did\s+you\s+know|apparently|fun\s+fact|turns\s+out|so|wow)\b[\s,:;!-]*(?:(?i:that)\s+)?"
    r"|(?i:(?:how|why|when|where|what)\s+)?(?i:did|does|has|had|is|was|were)\s+)?"  # asked of them: "Did Jeff Bezos really work at McDonald's?"
)
_OFFICE = r"king|queen|pope|president|prime\s+minister|chancellor|crown\s+prince|prince|princess"
_FICTION = r"characters?|hero(?:ine)?|protagonist|villain|narrator|detective"
_NOT_PEOPLE = rf"{ANIMALS}|{THINGS}|plants?|roses?|trees?|tomato(?:es)?|hedges?|lawn|laptop|computer|pc|phone|server|website|{_FICTION}"
_ANYONE = (
    r"people|persons?|adults?|children|kids|teens|teenagers|men|women|patients|workers?|employees?|staff|developers?|engineers?|nurses?|doctors?"
    r"|teachers?|ceos?|executives?|managers?|graduates?|students?|players?|footballers?|athletes?|runners?|drivers?|plumbers?|americans|brits|germans"
)
_SUBJECT_OPENS = re.compile(
    rf"\s*(?:(?i:the\s+(?:{_OFFICE}))(?:['’]s)?\b"
    rf"|(?i:in\s+the\s+[\w-]+,?\s+)?(?:(?i:my|our|the|his|her|their|your|a|an)\s+)?(?:[\w-]+\s+){{0,2}}?(?i:{_NOT_PEOPLE})(?:['’]s)?\b"
    rf"(?!\s+(?i:{KEEPERS}|\w+(?:er|or|ist|ic|ian)s?)\b)"  # not the person looking after them: "Our dog walker has Crohn's", "The car mechanic"
    rf"|(?i:an?|every|most|many|some|all)\s+(?:[\w-]+\s+){{0,2}}?(?i:{_ANYONE})\b)"
)
_INITIAL_BEFORE = re.compile(r"(?:^|\s)[A-Z]\.$")  # "Michael J. Fox": no sentence ends at "J."
_SAID_OF_SUBJECT = 8  # words at most between the subject and what is said of it


CASE_REACH = 1000  # characters either side of a place that judge the writer's case, on one long line


def capitalises(text: str, at: int) -> bool:
    """Whether the writer uses capitals on the line around `at`: a lowercase word is then no name, and
    a name no lowercase word. The line, not the whole text: a chat log or a list of memories holds
    messages typed in lowercase beside capitalised ones (validation messages joined four or five to
    a text, with the whole text judged: name recall 0.925 -> 0.812)."""
    reach_start, reach_end = max(0, at - CASE_REACH), at + CASE_REACH
    start, end = (
        text.rfind("\n", reach_start, at) + 1,
        text.find("\n", at, reach_end),
    )  # within reach: a 100 KB line is not read per span
    return text_words(text).has_capital(max(start, reach_start), reach_end if end < 0 else end)


def anothers_life(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is said of the famous person, the animal, the thing, the fictional
    character or the people in general its sentence opens with (or is that famous person), with
    nothing after them naming the writer, the reader or their kin."""
    if not capitalises(text, start):
        return False  # no telling where a sentence ends ("frida kahlo scored twice the new job pays 5 million yen")
    opening = sentence_start(text, start)
    while opening > 1 and _INITIAL_BEFORE.search(text, max(0, opening - 3), opening):
        opening = sentence_start(text, opening - 2)
    lead = _LEAD_IN.match(text, opening).end()
    subject_end = public_name_at(text, lead) or (subject.end() if (subject := _SUBJECT_OPENS.match(text, lead)) else 0)
    said_of_subject = subject_end <= start or (start, end) == (
        lead,
        subject_end,
    )  # or the famous name itself, tagged as an employer
    if not subject_end or not said_of_subject or len(text[subject_end:start].split()) > _SAID_OF_SUBJECT:
        return False
    stop = sentence_end(text, end)
    return not names_writer_reader_or_kin(text[subject_end : stop.start() if stop else end + SENTENCE_REACH])


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
        sentence = text[sentence_start(text, match.start()) : match.end()]
        return not (impersonal_money(sentence) or anothers_life(text, match.start("value"), match.end("value")))
