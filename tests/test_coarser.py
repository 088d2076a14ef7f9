"""Coarser wordings of a count (stealthflow.anonymize.coarser, data/generalize/coarser.yaml): each is true of the
phrase it replaces, and they join the generalizer's candidates (FAKE scorer and gate in the generalizer test; the real
models in test_front_door)."""

from __future__ import annotations

import pytest
from gate_fakes import ScoreByTable, floors_gate

from stealthflow.anonymize.coarser import age_decades, calendar_years, number_value, vaguer_durations
from stealthflow.anonymize.generalize import Generalizer, candidates


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), ("1,200", 1200), ("twelve", 12), ("Twenty-six", 26), ("Thirty-odd", 30), ("odd", None)],
)
def test_a_count_is_read_from_digits_or_number_words(text, value):
    assert number_value(text) == value


@pytest.mark.parametrize(
    ("phrase", "after", "wordings"),
    [
        ("for 12 years", "", ["for more than a decade", "for over a decade"]),
        ("for 6 years", "", ["for several years"]),
        ("3 yrs", "", ["a few years"]),
        ("two weeks", "", ["a couple of weeks"]),
        ("Twenty years", " on", ["More than a decade", "Over a decade", "Decades"]),
        ("Six", " years later", ["Several"]),  # a lone count before its unit: the quantity alone
    ],
)
def test_a_duration_becomes_each_range_that_holds_its_count(phrase, after, wordings):
    assert vaguer_durations(phrase, "", after) == wordings


@pytest.mark.parametrize(
    ("phrase", "before", "after"),
    [
        ("one week", "", ""),  # one unit: no range is sure to hold it
        ("Twenty years", "", " old"),  # an age
        ("Twenty", "", " years old"),
        ("12 years", "about ", ""),  # a hedge: "more than a decade" may be untrue
        ("12 years", "my ", ""),  # "my more than a decade"
        ("20", "Took ", " years at the firm"),  # no quantity word holds 20 years without its unit
        ("Twelve years as an ER nurse", "", ""),  # the wording would keep "as an ER nurse", the mark's cue
        ("3 years", "We move every ", ""),  # "every a few years"
    ],
)
def test_no_duration_wording_where_none_is_sure_to_be_true(phrase, before, after):
    assert vaguer_durations(phrase, before, after) == []


@pytest.mark.parametrize(
    ("phrase", "before", "attribute", "wordings"),
    [
        ("I'm 34", "", "age", ["I'm in my 30s", "I'm in my thirties", "I'm 30-something"]),
        ("34", "Well, I'm ", "age", ["in my 30s", "in my thirties", "30-something"]),
        ("at 26", "moved here ", "pobp", ["in my 20s", "in my twenties", "at 20-something"]),
        ("I was 16", "", "age", ["I was in my teens"]),
        ("Started my BSc at 18", "", "education", []),  # the wording would keep the rest of the mark, its cue
        ("58", "a widower at ", "age", ["50-something"]),  # a lone count marked as an age: "at in my 50s" reads badly
        ("52", "sold it at ", "income", []),  # a lone count after "at" marked as no age: a price
        ("5", "I'm ", "age", []),  # no stage listed under 13
        ("30", "Turning ", "age", []),  # not an age the author is or was
        ("at 6am", "", "age", []),  # a time
        ("at 18 months", "", "age", []),  # a count before a unit
        ("at 115", "", "age", []),  # no age
    ],
)
def test_an_exact_age_of_the_author_becomes_its_decade(phrase, before, attribute, wordings):
    assert age_decades(phrase, before, attribute) == wordings


@pytest.mark.parametrize(
    ("phrase", "after"),
    [
        ("I'm 35", " weeks pregnant and exhausted."),
        ("I'm 30", " minutes from the coast."),
        ("I was 45", " seconds off"),
    ],
)
def test_a_count_whose_unit_follows_the_mark_is_no_age(phrase, after):
    """A read-only review's candidates: the unit after the mark makes the count no age ("I'm in my 30s" was offered)."""
    assert age_decades(phrase, "", "age", after) == []


def test_the_generalizer_offers_a_coarser_duration_and_takes_it_when_it_reads_well():
    """Fails on the code before coarser.py: "Eleven years" had no candidate but the teacher's and the drop."""
    text = "Eleven years since he went and I still expect them."
    assert "More than a decade" in candidates(text, 0, len("Eleven years"), "married")
    scorer = ScoreByTable({"More than a decade since he went and I still expect them.": 0.5})  # FAKE
    ((new, (replacement,)),) = Generalizer(scorer, floors_gate(0.0)).generalize([text], [[("Eleven years", "age")]])
    assert new == "More than a decade since he went and I still expect them."
    assert replacement.replacement == "More than a decade"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [("My cousin got married at 25 last spring.", "at 25"), ("My younger cousin just got engaged at 22.", "at 22")],
)
def test_an_age_stand_in_in_the_authors_words_is_never_offered_for_someone_elses_age(text, phrase):
    """ "My younger cousin just got engaged at 22" became "... engaged in my 20s" (a replay of the judged posts)."""
    start = text.index(phrase)
    found = candidates(text, start, start + len(phrase), "age")
    assert not any("my 20s" in c for c in found) and "at 20-something" in found


@pytest.mark.parametrize(
    ("phrase", "before", "after", "wordings"),
    [
        ("2016", "We moved here in ", " and never looked back.", ["the 2010s"]),
        ("in 2016", "We moved here ", ".", ["in the 2010s", "years ago"]),
        ("In 1996", "", ", we married.", ["In the 1990s", "Decades ago"]),
        ("back in '89", "I was born ", ".", ["back in the 80s", "decades ago"]),
        ("in '05", "Moved ", ".", ["in the 2000s", "decades ago"]),
        ("since 2009", "On this forum ", ".", ["since the 2000s"]),  # "ago" only after "in"
        ("in 2024", "Moved ", ".", ["in the 2020s"]),  # under `ago_after` years ago: its decade only
        ("in 2028", "College ", ".", ["in the 2020s"]),  # a plan
        ("2016", "the ", " floods", []),  # no preposition: a modifier
        ("2016", "before ", ".", []),  # "before the 2010s" would say more than "before 2016"
        ("2016", "in ", "-2018", []),  # a range
        ("in 2000", "", " people", []),  # a count
        ("in 1066", "", ".", []),  # history, no calendar year of a life
        ("1980", "I left in ", ", the year of independence.", []),  # an appositive names the year
        ("1999", "I defended in ", ", my committee spent an hour.", ["the 1990s"]),  # a clause of its own
    ],
)
def test_a_calendar_year_becomes_its_decade_or_how_long_ago(phrase, before, after, wordings):
    """A year puts an age on the author ("born in '89", "graduated in 2019"): its decade is true of it and says less;
    "in 2016" said in 2026 is "years ago"."""
    assert calendar_years(phrase, before, after, this_year=2026) == wordings


def test_the_generalizer_offers_a_years_decade_and_takes_it_when_it_reads_well():
    """Fails on the code before calendar years: "1996" had no candidate (a number of no kind of the attribute)."""
    text = "Back in 1996 we got married in a tiny chapel."
    start = text.index("1996")
    assert "the 1990s" in candidates(text, start, start + 4, "married")
    scorer = ScoreByTable({"Back in the 1990s we got married in a tiny chapel.": 0.5})  # FAKE
    ((new, (replacement,)),) = Generalizer(scorer, floors_gate(0.0)).generalize([text], [[("1996", "married")]])
    assert new == "Back in the 1990s we got married in a tiny chapel."
    assert replacement.replacement == "the 1990s"
