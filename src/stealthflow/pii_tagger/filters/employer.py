"""An EMPLOYER span: an organisation in talk of work or study, or one its name shows."""

from __future__ import annotations

import re

from stealthflow.pii_tagger.filters.no_one import WORD_OF_NO_ONE, names_a_feast
from stealthflow.pii_tagger.filters.unlisted import CONTEXT_DECIDES, GATES_DECIDE
from stealthflow.pii_tagger.lexicons import alternation
from stealthflow.placeholders.recognizers.introductions import GREETINGS
from stealthflow.placeholders.recognizers.public_names import (
    brand,
    city_names,
    name_key,
    public_name,
    region_names,
)
from stealthflow.placeholders.recognizers.sentences import anothers_life, capitalises, sentence_around

# Words of work or study (in the six other languages too: data/pii-tagger/lexicons.yaml): an EMPLOYER span
# stands in their company (or names an organisation itself), not after "photos at" or "houses near" (a place
# the model took for a company). A game's "final boss" or "boss fight" is no one's boss.
WORK = re.compile(
    r"\b(?i:work\w*|job|employ\w*|hired?|fired|quit|resign\w*|join\w*|promot\w*|intern\w*|colleagues?|(?<!final\s)boss(?!\s+fights?\b)|manager|team|office"
    r"|company|firm|career|position|role|salary|earns?|earning|paid|pays?|(?<!on\s)(?<!special\s)offer\w*|contract|shifts?|staff|start\w*|stud(?:y|ied|ying|ent)"
    r"|degree|graduat\w*|school|universit\w*|college|class|course|teach\w*|professor|nurse|engineer|analyst|developer|employer"
    r"|leav\w*|left|let\s+go|laid\s+off|redundan\w*|years|as\s+an?\s+(?:\w+\s+){1,2}(?:at|for|with)"
    rf"|{alternation('work_talk_other_languages')})\b"
)
# ... or follows a person in a list of people and where they work ("- Willem Keijser, KPMG").
_LISTED_AFTER_SOMEONE = re.compile(
    r"(?:^|\n)[^\n]*?[-–—*•][^\S\n]+[^\W\d_][\w.'’-]*(?:[^\S\n]+[^\W\d_][\w.'’-]*){0,3},[^\S\n]*$"
)
# Company forms and institutions: words only an organisation's name holds (data/pii-tagger/lexicons.yaml).
FIRM_OR_INSTITUTION = alternation("firm_or_institution")
_FIRM_WORD = alternation("firm_or_institution", "firm_name_ends")
ORGANISATION = re.compile(rf"\b(?i:{_FIRM_WORD}|sa|as|co|e\.v|and|et|und|y|e)\b|[&,-]")
_SAINT_PLACE = re.compile(
    r"(?:Saint|Sainte|St|Ste|San|Santa|Santo|São)-[A-Z]"
)  # "Saint-Rémy", "Santa-Cruz": a place's hyphen
# An organisation's department, and a letter's greeting: "Dear Hilton Reservations," is written to a company.
_DEPARTMENT = r"support|reservations|bookings|help\s?desk|customer\s+(?:service|services|care|support)|admissions|team"
_DEPARTMENT_ENDS = re.compile(rf"\b(?i:{_DEPARTMENT})$")
_GREETED = re.compile(rf"(?:^|\n)\s*(?i:{GREETINGS}|to)\s+$")
# ... as a name's last word: a firm, a school or a department, not a person ("Levesque BV", "Watson and Sons", "Sutton College").
ORGANISATION_ENDS = re.compile(rf"\b(?i:{_FIRM_WORD}|{_DEPARTMENT})\.?$")


_MODEL_CODE = re.compile(r"\s(?=[\w-]*\d)[A-Za-z][\w-]*$")  # a last word of letters and digits


_DIRECTIONS = re.compile(
    r"(?i:(?:north|south|east|west)(?:[\s-]*(?:north|south|east|west))?(?:\s+(?:and|&|or|to)\s+(?:north|south|east|west)(?:[\s-]*(?:east|west))?)*)"
)


_PLACE_WORDS = r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2}"
_CITY_AND_REGION = re.compile(rf"(?P<city>{_PLACE_WORDS}),\s*(?P<region>{_PLACE_WORDS})")


def city_and_region(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a place and the region or country it lies in ("Austin, Texas",
    "Portland, Oregon"): capitalised words, one comma, a country or a region (`region_names`), and no
    brand before the comma. (The comma had made it a firm's name, as in "Smith, Jones & Co".)"""
    match = _CITY_AND_REGION.fullmatch(text, start, end)
    return (
        match is not None and name_key(match["region"]) in region_names() and not brand(text, start, match.end("city"))
    )


_PLACE_BEFORE = re.compile(rf"\b(?i:{alternation('place_before')})\s+$")


def a_place_on_a_map(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a famous place's name (`public_name`) or a city (`city_names`: "I started at Dell in
    Austin" had Austin an EMPLOYER), no brand, after a word that puts it on a map (lexicons.yaml `place_before`: "Rafael
    Ortega from Glasgow", "I work in Leeds"): a place, even in talk of work. Kept as an employer, such a city became one
    in the session and was masked as EMPLOYER wherever it came again ("we just moved to <EMPLOYER_2>", ux19's report
    M5)."""
    return (
        _PLACE_BEFORE.search(text, max(0, start - 24), start) is not None
        and (public_name(text, start, end) or name_key(text[start:end]) in city_names())
        and not brand(text, start, end)
    )


def plausible(value: str) -> bool:
    """An employer holds a letter ("☔": the student reads an emoji after a word as one)."""
    return any(c.isalpha() for c in value)


def in_context(text: str, start: int, end: int, english: bool = True) -> str | None:
    """Why text[start:end] is kept as an employer, None if it is not one: no one's where its sentence
    tells another's life (`anothers_life`); no lowercase word where the writer capitalises, feast,
    direction or word of no one; no organisation written to; in talk of work or study, an employer;
    without it, no famous place or person, product or city and region, and an organisation's name or
    a list of people and where they work shows it. Where none of these shows it, the gates decide: in English its
    verifier and reader (`unlisted.GATES_DECIDE`), in a text not read as English its context model
    (`unlisted.CONTEXT_DECIDES`)."""
    if anothers_life(text, start, end):
        return None
    if (
        (capitalises(text, start) and text[start:end].islower())
        or names_a_feast(text, start, end)
        or _DIRECTIONS.fullmatch(text, start, end)
        or WORD_OF_NO_ONE.fullmatch(text, start, end)
    ):
        return (
            None  # no organisation ("overpay a student loan", "St. George's Day parade", "East and West", "Henry VIII")
        )
    if _GREETED.search(text[max(0, start - 24) : start]) and _DEPARTMENT_ENDS.search(text, start, end):
        return None  # an organisation written to ("Dear Hilton Reservations,"), not where someone works
    if a_place_on_a_map(text, start, end):
        return None
    work_talk = WORK.search(sentence_around(text, start, end)) is not None
    if work_talk and not text.startswith(("'s", "’s"), end):
        return "talk of work or study in its sentence"
    # Without work talk, or before a possessive, no famous place or person ("the train to the Champs-Élysées":
    # its hyphen is no "Hewlett-Packard"; "Mbappé's wages at Real"); else an organisation's name or a list
    # of people and where they work shows it.
    if public_name(text, start, end) and not brand(text, start, end):  # "Google" is both
        return None
    if _MODEL_CODE.search(text, start, end) and brand(text, start, end):
        return None  # a brand's product by its model: "Sony ZV-E10", "Canon EOS R50"
    if city_and_region(text, start, end) or _SAINT_PLACE.match(text, start, end):
        return None  # "Austin, Texas", "Saint-Rémy": places, their comma or hyphen no firm's
    if work_talk:
        return "talk of work or study in its sentence"
    if ORGANISATION.search(text, start, end) is not None:
        return "an organisation's word or sign in its name"
    if _LISTED_AFTER_SOMEONE.search(text[max(0, start - 80) : start]) is not None:
        return "listed after a person, as where they work"
    return GATES_DECIDE if english else CONTEXT_DECIDES
