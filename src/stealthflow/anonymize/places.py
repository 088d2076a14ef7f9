"""The coarser places of a place name (`data/generalize/places.tsv`, built by `stealthflow.anonymize.places_build`
from GeoNames): "Leeds" lies in the UK and in Europe, "Toronto" in Ontario, Canada and North America. A name that
several comparable places share in different countries ("Cambridge", "Georgia") has none."""

from __future__ import annotations

from functools import cache

from stealthflow.placeholders.recognizers.public_names import name_key
from stealthflow.resources import resource_dir


@cache
def _places() -> dict[str, tuple[str, ...]]:
    """name (`name_key`) -> its coarser places, finest first."""
    table = {}
    for line in (resource_dir("data") / "generalize" / "places.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _kind, *coarser = line.split("\t")
            table[name_key(name)] = tuple(coarser)
    return table


def coarser_places(name: str) -> tuple[str, ...]:
    """The places that hold the place `name`, finest first; () when the name is no place the gazetteer resolves."""
    return _places().get(name_key(name), ())
