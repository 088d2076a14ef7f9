"""An ADDRESS span: a street address, not a measure, a date, a price, a product, a landmark or a score."""

from __future__ import annotations

import re

from stealthflow.pii_tagger.filters.finance import ARTICLE
from stealthflow.pii_tagger.filters.public import public_talk
from stealthflow.pii_tagger.lexicons import MONTHS, alternation
from stealthflow.placeholders.recognizers.public_names import brand, text_words
from stealthflow.placeholders.recognizers.secrets import starts_with_other_kind
from stealthflow.placeholders.recognizers.sentences import capitalises, landmark_address, sentence_start

# Street words of the languages the tagger learnt addresses in: an address without a house number
# names its street ("Elm Street", "Rue Oberkampf", "Kastanienallee"); a landmark does not ("Alexanderplatz").
STREET = re.compile(
    rf"\b(?i:{alternation('street_types', 'address_units', 'street_words')})\b|(?i:{alternation('street_endings')})\b"
)


_TITLE_OPENS = re.compile(r"(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sr|Sra|Herr|Frau|Mme|Mlle)\.?\s+[A-Z]")


_GENERATION = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\s+gen(?:eration)?\b")  # a product's, no floor or house number


def _a_product(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a brand's product: past a leading article, a brand and the product's
    name ("a Shimano 105 chain"), or the product's name right after its brand ("Hyundai" of "Hyundai Ioniq 6")."""
    if brand(text, _past_article(text, start, end), end):
        return True
    words = text_words(text)
    inside = words.overlapping(start, end)
    return (
        bool(inside)
        and inside[0] > 0
        and words.adjacent(inside[0] - 1, inside[0])
        and brand(text, words.spans[inside[0] - 1][0], end)
    )


def _past_article(text: str, start: int, end: int) -> int:
    """Where text[start:end] starts past a leading article ("a Shimano 105 chain")."""
    article = ARTICLE.match(text, start, end)
    return article.end() if article else start


_SCORE_BEFORE = re.compile(
    r"\b(?i:scores?|beat|beats|beaten|drew\s+with|defeated|(?:won|lost)\s+(?:to|against))\b\W*$"
)  # right before the teams
_PRICE_OR_VERSION = re.compile(
    r"[$€£¥₹]\s?\d|\b[vV]?\d+\.\d+(?:\.\d+)*\b(?![.,]?\d)"
)  # no house number is priced or has decimals


_DATE = re.compile(
    rf"(?i:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTHS})(?:,?\s+\d{{4}})?|(?:{MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)"
)


# A number of something, not a house number: a measure ("250 g", "2 tsp", "3,492 km", "6 or 7 minutes")
# or, twice or more, a count of things to buy or cook with ("2 onions, 1 tin kidney beans").
_MEASURE = re.compile(
    r"\d+(?:[.,/]\d+)*(?:\s*(?:or|to|-|–)\s*\d+(?:[.,/]\d+)*)?\s?(?:(?:kg|mg|ml|cl|oz|lbs?|tsp|tbsp|cups?|km|kms|miles?|mi|cm|mm|ft|feet|grams?|kilos?|kilograms?|litres?|liters?|ounces?|inch(?:es)?|met(?:re|er)s?"
    r"|minutes|mins|hours|hrs|seconds|secs|(?i:minuten|stunden|sekunden|minutos|horas|segundos|heures|secondes)|degrees|°[CF]?|%|KB|MB|GB|TB|mph|kph|km/h)(?![\w/])"
    r"|[glm](?=\s+[a-z]))"  # not a postcode's "9G" or a flat's "41g,"; "40 Minuten Verspätung"
)
_COUNTED = re.compile(
    r"\b\d+\s?(?i:tins?|cans?|cloves?|pinch(?:es)?|bunch(?:es)?|slices?|packs?|packets?|bags?|bottles?|cartons?|jars?|dozen|x|eggs?|onions?|carrots?"
    r"|potatoes|tomatoes|apples?|bananas?|lemons?|limes?|peppers?|sticks?|sprigs?|handfuls?|stages|laps|rounds|sets|reps)\b"
)


_NUMBER_START = re.compile(r"(?<![\w.,])\d")  # a number's first digit, not within a code ("B9G")


def measured(text: str, start: int, end: int) -> bool:
    """Whether the numbers of text[start:end] measure or count things (see _MEASURE), as a recipe, a
    shopping list or a race's facts do: no address."""
    if any(_MEASURE.match(text, number.start()) for number in _NUMBER_START.finditer(text, start, end)):
        return True
    return len(_COUNTED.findall(text, start, end)) >= 2


def names_a_place(value: str, cased: bool) -> bool:
    """Whether an address names its street or place: a word not in lowercase (any word of 3 letters
    where the writer types no capitals) nor an uppercase code: not "LH 454 lands" (a flight),
    "SN-88213-XK" (a serial number), "TPM 2.0", "platform 9"."""
    words = re.findall(r"[^\W\d_]+", value)
    if not cased:
        return any(len(word) >= 3 for word in words)
    return any(len(word) >= 2 and not word[0].islower() and not word.isupper() for word in words)


def plausible(value: str) -> bool:
    """An address holds a word and a house number or a street word (not the "1" of "version 4.2.1",
    not a landmark's name; "Dr. Amira Haddad": a title, not a drive)."""
    has_digit = re.search(r"\d", value) is not None
    return re.search(r"[^\W\d_]{2,}", value) is not None and (
        has_digit or (STREET.search(value) is not None and not _TITLE_OPENS.match(value))
    )


def in_context(text: str, start: int, end: int, english: bool = True) -> str | None:  # same in every language
    """Why text[start:end] is kept as an address, None if it is not one: it names a place and is no
    number named as another kind, no team and its score, landmark, date, price or version, no public
    life talked about (public_talk) and, without a street word, no measure, count or product."""
    street = STREET.search(text, start, end) is not None
    if not names_a_place(text[start:end], cased=capitalises(text, start)) or (
        starts_with_other_kind(text[start:end]) and not street
    ):
        return None  # "Platform 53641", "Invoice 2024-117": a number named as another kind, no street
    if not street and _SCORE_BEFORE.search(text, max(sentence_start(text, start), start - 24), start):
        return None  # "Final score: Lakers 112, Celtics 108", "Inter Miami beat Orlando 3-1": teams and their scores
    if landmark_address(text, start) or _DATE.fullmatch(text, start, end) or _PRICE_OR_VERSION.search(text, start, end):
        return None  # "Tate Modern", "15 April 1912", "Paperwhite $99", "Minecraft 1.20"
    if not street and (
        measured(text, start, end)
        or _GENERATION.search(text, start, end)
        or ("," not in text[start:end] and _a_product(text, start, end))
    ):
        return None  # "2 tsp baking", "500g mince, 2 onions", "Hyundai Ioniq 6", "Kindle Paperwhite 11th gen": a recipe, a shopping list, a product
    if public_talk(text, start, end):
        return None
    return "a street word" if street else "a place and a house number"
