"""A person's name is masked without the words of address before it: its titles (`person_titles` of
data/pii-tagger/lexicons.yaml: "Frau", "Dr.", "meneer") and the salutation opening it (`greetings` of
data/languages/<code>.yaml: "Chère", "Sehr geehrte"). The cloud model needs them to address the person correctly, a
reply that writes "Frau <REAL_NAME_1>" must not restore as "Frau Frau Schneider", and "Chère Camille Lefèvre" must be
the same value, and so the same placeholder, as "Camille Lefèvre" (ux21 M4).

The salutations are those of the languages the name's sentence may be in (its piece's guess, any language when none is
covered), the titles those of every language, as the titled_name recognizer reads them ("Herr Doktor Schmidt's
practice"), but a title that is a given name too ("Don", "Dona", "Ing") only in its own languages: "Don Johnson" in
English keeps its first word, "Don Pedro" in Spanish does not. A name that is nothing but words of address stays whole.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from stealthflow.pii_tagger.lexicons import LEXICONS, entries_alternation, given_name
from stealthflow.placeholders.common_words import NAME_TYPE
from stealthflow.placeholders.language import COVERED, Reading, language_file
from stealthflow.placeholders.types import Span
from stealthflow.resources import data_yaml


def without_titles(spans: list[Span], text: str, reading: Reading) -> list[Span]:
    """`spans` with each person's name starting after the titles and salutation before it."""
    return [_trimmed(span, text, reading) if span.type == NAME_TYPE else span for span in spans]


def _trimmed(span: Span, text: str, reading: Reading) -> Span:
    salutation, title, alone = _address(frozenset(reading.at(span.start).candidates) or frozenset(COVERED))
    start = span.start
    if (match := salutation.match(text, start, span.end)) and match.end() < span.end:
        start = match.end()
    while (match := title.match(text, start, span.end)) and match.end() < span.end:
        start = match.end()
    if start == span.start or alone.fullmatch(text, start, span.end):
        return span
    return replace(span, start=start)


def after_title(text: str, start: int) -> bool:
    """Whether a title of any language (`person_titles`) and white space stand right before `start`, in any case
    ("Herrn Kolbe", "dr. berg", "Fr. Berg"); a title that is a given name too only with its abbreviation's dot ("Sra.
    Berg", not "Don Berg")."""
    return _title_before().search(text, max(0, start - 40), start) is not None


def title_gender(text: str, start: int) -> str | None:
    """The gender ("female", "male") the title right before `start` (`after_title`) says (`title_genders` of
    data/pii-tagger/lexicons.yaml: "Frau", "Mme", "Sig.ra"; "Herr", "M."), or None ("Dr", or no title)."""
    if (match := _title_before().search(text, max(0, start - 40), start)) is None:
        return None
    title = match["title"].casefold()
    genders = _title_genders()
    return genders.get(title) or genders.get(title.rstrip("."))


@cache
def _title_genders() -> dict[str, str]:
    return {title: gender for gender, titles in data_yaml(LEXICONS)["title_genders"].items() for title in titles}


@cache
def _title_before() -> re.Pattern[str]:
    titles = {word for listed in data_yaml(LEXICONS)["person_titles"].values() for word in listed}
    names = {word for word in titles if given_name(word)}
    plain, dotted = entries_alternation(titles - names), entries_alternation(names) or "(?!)"
    return re.compile(rf"(?<![\w.])(?P<title>(?i:(?:{plain})\.?|(?:{dotted})\.))\s+\Z")


@cache
def _address(codes: frozenset[str]) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """For the languages `codes`: a salutation with the white space (and comma) after it, a title with the white space
    after it ("Sehr geehrte Frau Dr. ", never a salutation after a title: "Mevrouw Lieve Janssens"), and either alone."""
    titles = data_yaml(LEXICONS)["person_titles"]
    salutations = {word for code in codes for word in language_file(code)["greetings"]}
    titled = {word for code, listed in titles.items() for word in listed if code in codes or not given_name(word)}
    salutation, title = entries_alternation(salutations) or "(?!)", entries_alternation(titled) or "(?!)"
    return (
        re.compile(rf"(?i:{salutation}),?\s+(?=\w)"),
        re.compile(rf"(?i:{title})\.?\s+(?=\w)"),
        re.compile(rf"(?i:{salutation}|{title})\.?"),
    )
