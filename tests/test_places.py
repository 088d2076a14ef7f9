"""A place's kind and frame, and the stand-ins they give it (stealthflow.anonymize.places; spaCy's parse, no model)."""

from __future__ import annotations

from stealthflow.anonymize import places


def _at(sentence: str, phrase: str) -> tuple[str, int, int]:
    start = sentence.index(phrase)
    return sentence, start, start + len(phrase)


def test_a_names_kind_comes_from_the_gazetteers():
    assert places.kind_of_name("Cyprus") == places.kind_of_name("the Netherlands") == "country"
    assert places.kind_of_name("UK") == "country"  # places.yaml `countries`: Faker lacks it
    assert places.kind_of_name("Texas") == places.kind_of_name("Ontario") == "region"
    assert places.kind_of_name("Tacoma") == "city"  # the gazetteer's GeoNames cities
    assert places.kind_of_name("Gloucester Road") == "area"
    assert places.kind_of_name("Brooklyn", "GPE") == "city"  # not in the gazetteer: spaCy's type
    assert places.kind_of_name("English", "NORP") == ""  # a nationality or a language names no place


def test_a_places_stand_ins_are_of_its_kind_and_frame():
    country = places.stand_ins(*_at("Only in Cyprus.", "in Cyprus"), "in")
    assert "the country" in country["phrases"] and not any("city" in w for f in country.values() for w in f)
    work = places.stand_ins(*_at("I'm a dental hygienist in Tacoma.", "in Tacoma"), "in")
    assert "my city" in work["phrases"] and not any("hometown" in w for f in work.values() for w in f)
    grew = places.stand_ins(*_at("I grew up in Tacoma.", "in Tacoma"), "in")
    assert "my hometown" in grew["phrases"] and "my city" not in grew["phrases"]
    assert places.frame(*_at("Went to Berlin last week.", "to Berlin")) == "travel"
    assert places.frame(*_at("Went to a grammar school in Kent.", "in Kent")) == "lives"  # no trip to Kent


def test_a_name_outside_a_preposition_of_place_gets_no_place_stand_in():
    assert places.stand_ins(*_at("Mexico out in groups again in Copa.", "Mexico"), "") == {}
    assert places.stand_ins(*_at("Anyone know a place for a full English?", "a full English"), "") == {}
    like = places.stand_ins(*_at("Should I move somewhere cheaper like Tucson?", "like Tucson"), "like")
    assert like == {}  # "like" is no preposition of place: never "locally"
    assert places.stand_ins(*_at("I love my dog.", "my dog"), "") is None  # no name
