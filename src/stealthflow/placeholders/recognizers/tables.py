"""Values in a table or a JSON object, typed by their column's header or their key (`placeholders/cells.py`): a cell
under a name, a date of birth, an address or a health label is that type, in whatever row, as a form's value after its
label is. The labels are data, each defined once: a name's are the form labels `name_labels` of
data/languages/<code>.yaml (English's too), a date of birth's the cues of `date_of_birth` in
data/cued_identifiers.yaml, an address's and a health detail's `address_labels` and `health_labels` of the language
files. A header is matched whole ("date_of_birth", "Geburtsdatum", "dob"), in every text whatever its language.

A cell is taken when it has its type's shape (`_SHAPES`): a date of birth holds a figure, an address a word and a
figure (not `"address": "localhost"` or "0x3f..."), a health detail a word. A name is one to five words of letters,
one capitalised (not a package's `"name": "requests"`), and a person's, as "name" is no one's label alone in code (an
AWS resource's `"Name": "Url"`): its record (its row, its object) holds another labelled value ("Müller" beside a
Vorname, "Martin" beside a date of birth); or it is no public or place name (data/public_names.txt, GeoNames'
countries, regions and cities: a code lesson's sample "John Doe", a countries file's "Armenia") and a given name opens
it or it has two words or more, not all common words of English ("Run Tests" is none).

A record with a person's name or date of birth taken is a person's: a health condition of the seven languages'
`conditions` in another of its cells ("Kundin seit 2019; Diabetes" in a customer's notes) is HEALTH, as a personal word
makes a sentence about someone for the condition recognizers (`languages.py` `ConditionRecognizer`).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import regex

from stealthflow.placeholders.cells import Cell, cells, label_words
from stealthflow.placeholders.common_words import common_word
from stealthflow.placeholders.language import ENGLISH, NAME_RUN, OTHERS, language_file
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.cued import cued_data
from stealthflow.placeholders.recognizers.languages import cue_pattern, given_or_dropped, listed
from stealthflow.placeholders.recognizers.public_names import (
    city_names,
    country_names,
    name_key,
    public_name,
    region_names,
)
from stealthflow.placeholders.types import Span

# The lists of data/languages/<code>.yaml that label a value of a type
_LABEL_LISTS = {"name_labels": "REAL_NAME", "address_labels": "ADDRESS", "health_labels": "HEALTH"}
_NAME_WORD = r"(?:\p{L}+(?:['’.-]\p{L}*)*)"
_ANY_NAME = regex.compile(rf"(?:{_NAME_WORD}[ \t]+){{0,4}}{_NAME_WORD}")  # a name's shape in any case
_A_PERSONS = frozenset({"REAL_NAME", "PERSONAL"})  # a record holding one of these types is a person's
_SHAPES = {
    # a capital, or letters of a script without case ("李伟")
    "REAL_NAME": regex.compile(rf"(?=.*[\p{{Lu}}\p{{Lo}}])(?:{_NAME_WORD}[ \t]+){{0,4}}{_NAME_WORD}"),
    "PERSONAL": regex.compile(r"(?=.*\d).{1,40}"),
    "ADDRESS": regex.compile(r"(?=.*\p{L}{2})(?=.*\d)(?=.*\s).{1,200}"),
    "HEALTH": regex.compile(r"(?=.*\p{L}{2}).{1,200}"),
}


@cache
def label_types() -> dict[str, str]:
    """Each label (as `label_words` reads a header) and the type of the values under it."""
    types = {}
    for code in (ENGLISH, *OTHERS):
        for key, type_ in _LABEL_LISTS.items():
            types.update(dict.fromkeys((label_words(label) for label in language_file(code)[key]), type_))
    cues = cued_data()["date_of_birth"]["cues"].values()
    types.update(dict.fromkeys((label_words(cue) for words in cues for cue in words), "PERSONAL"))
    return types


@cache
def place_labels() -> frozenset[str]:
    """The labels (as `label_words` reads a header) of a column or key of towns and countries: `place_labels` of the
    language files ("city", "Stadt", "ville"). A cell under one is a place, no person's name ("York": the PII tagger)."""
    return frozenset(label_words(label) for code in (ENGLISH, *OTHERS) for label in language_file(code)["place_labels"])


# Gain (benchmarks/pii_registers.py, tagger on, on pii-heldout-u, v, w's six files; benchmarks/code_negatives.py measure
# fit choose check): the sets hold no table, and every figure is the same with and without the recognizer, its
# conditions in a person's row and the cut at cells' edges (texts without PII flagged 132 of 900, 761 of 3 920
# snippets). A name's shape alone flagged one text without PII more (v: a lesson's `{"name": "John Doe"}`) and 4
# snippets more (boto3's `"Name": "Url"`, a test's "Cursor"): the public-name and person's-name checks of
# `_a_persons_name` took them back; they were written from those cases, so their gain is not measured on text they were
# not written from. ux25's tables (report H1, H3, M4) and tests/test_tables.py's, in the seven languages: every
# labelled value masked.
@register_recognizer
class TableCellRecognizer(Recognizer):
    """A cell of a table or a JSON string value under a label of a type (`label_types`), of that type's shape."""

    name, type = "table_cell", "REAL_NAME"

    def find(self, text: str) -> list[Span]:
        types, found = label_types(), cells(text)
        shaped = [
            (cell, types[cell.label])
            for cell in found
            if cell.label in types and _SHAPES[types[cell.label]].fullmatch(text, cell.start, cell.end)
        ]
        records = Counter(cell.record for cell, _ in shaped if cell.record >= 0)
        taken = [
            (cell, type_)
            for cell, type_ in shaped
            if type_ != "REAL_NAME" or _a_persons_name(text, cell, records[cell.record] > 1)
        ]
        taken += _in_name_columns(text, found, taken)
        persons = {cell.record for cell, type_ in taken if type_ in _A_PERSONS and cell.record >= 0}
        labelled = {cell.start for cell, _ in taken}
        return [
            *(self.span(c.start, c.end, span_type=type_, reason=f"under the label {c.label!r}") for c, type_ in taken),
            *(
                self.span(*match.span(), span_type="HEALTH", reason="in a person's row")
                for cell in found
                if cell.record in persons and cell.label and cell.start not in labelled
                for match in _conditions().finditer(text, cell.start, cell.end)
            ),
        ]


def _in_name_columns(text: str, found: list[Cell], taken: list[tuple[Cell, str]]) -> list[tuple[Cell, str]]:
    """The other cells of a table's column of persons' names (one of its cells taken as one), of letters in any case or
    script: "O'Brien" and "李伟" under "name" beside "Сергей Иванов" and "Anna" were sent in clear (ux27's report H5)."""
    columns = {cell.column for cell, type_ in taken if type_ == "REAL_NAME" and cell.column >= 0}
    starts = {cell.start for cell, _ in taken}
    return [
        (cell, "REAL_NAME")
        for cell in found
        if cell.label
        and cell.column in columns
        and cell.start not in starts
        and _ANY_NAME.fullmatch(text, cell.start, cell.end)
    ]


def _a_persons_name(text: str, cell: Cell, in_a_record: bool) -> bool:
    """Whether a name-shaped value under a name label is a person's (the module's rule): in a record that holds another
    labelled value (`in_a_record`), whatever it also names ("Martin" beside a first name and a date of birth: a town of
    Slovakia too); alone, no public or place name, and a given name or two words not all common."""
    if in_a_record:
        return True
    value = text[cell.start : cell.end]
    if public_name(text, cell.start, cell.end) or name_key(value) in _places():
        return False
    words = value.split()
    return given_or_dropped(words[0]) or (len(words) > 1 and not all(map(common_word, words))) or _caseless_name(value)


def _caseless_name(value: str) -> bool:
    """A name written in a script without case, as long as one ("李伟", "王小明": `language.NAME_RUN`)."""
    return len(value) <= NAME_RUN and all(
        letter.isalpha() and not letter.isupper() and not letter.islower() for letter in value
    )


@cache
def _places() -> frozenset[str]:
    return country_names() | region_names() | city_names()


@cache
def _conditions() -> regex.Pattern[str]:
    """The conditions of the seven language files as one pattern: a row's cells are in any language."""
    return regex.compile(
        cue_pattern(tuple({word for code in (ENGLISH, *OTHERS) for word in listed(code, "conditions")}))
    )
