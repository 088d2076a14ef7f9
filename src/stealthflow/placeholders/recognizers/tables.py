"""Values in a table or a JSON object, typed by their column's header or their key (`placeholders/cells.py`): a cell
under a name, a date of birth, an address or a health label is that type, in whatever row, as a form's value after its
label is. The labels are data, each defined once: a name's are the form labels `name_labels` of
data/languages/<code>.yaml (English's too), a date of birth's the cues of `date_of_birth` in
data/cued_identifiers.yaml, an address's and a health detail's `address_labels` and `health_labels` of the language
files. A header is matched whole ("date_of_birth", "Geburtsdatum", "dob"), in every text whatever its language.

A cell is taken when it has its type's shape (`_SHAPES`): a date of birth holds a figure, an address a word and a
figure (not `"address": "localhost"` or "0x3f..."), a health detail a word. A name is one to five words of letters,
one capitalised (not a package's `"name": "requests"`), and no public or place name (data/public_names.txt, GeoNames'
countries, regions and cities: a code lesson's sample "John Doe", a countries file's "Armenia"); and a person's, as
"name" is no one's label alone in code (an AWS resource's `"Name": "Url"`): a given name opens it, or its record (its
row, its object) holds another labelled value ("Müller" beside a Vorname, "Kaya" beside a date of birth), or it has two
words or more, not all common words of English ("Autauga County" is none, "Run Tests" none).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import regex

from stealthflow.placeholders.cells import Cell, cells, label_words
from stealthflow.placeholders.common_words import common_word
from stealthflow.placeholders.language import ENGLISH, OTHERS, language_file
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.cued import cued_data
from stealthflow.placeholders.recognizers.languages import given_or_dropped
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
_SHAPES = {
    "REAL_NAME": regex.compile(rf"(?=.*\p{{Lu}})(?:{_NAME_WORD}[ \t]+){{0,4}}{_NAME_WORD}"),
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


# Gain (benchmarks/pii_registers.py, tagger on, on pii-heldout-u, v, w's six files; benchmarks/code_negatives.py measure
# fit choose check): the sets hold no table, and every figure is the same with and without the recognizer and the cut at
# cells' edges (texts without PII flagged 142 of 900, 762 of 3 920 snippets). A name's shape alone flagged one text
# without PII more (v: a lesson's `{"name": "John Doe"}`) and 4 snippets more (boto3's `"Name": "Url"`, a test's
# "Cursor"): the public-name and person's-name checks of `_a_persons_name` took them back; they were written from
# those cases, so their gain is not measured on text they were not written from. ux25's tables (report H1, H3, M4) and
# tests/test_tables.py's, in the seven languages: every labelled value masked.
@register_recognizer
class TableCellRecognizer(Recognizer):
    """A cell of a table or a JSON string value under a label of a type (`label_types`), of that type's shape."""

    name, type = "table_cell", "REAL_NAME"

    def find(self, text: str) -> list[Span]:
        types = label_types()
        shaped = [
            (cell, types[cell.label])
            for cell in cells(text)
            if cell.label in types and _SHAPES[types[cell.label]].fullmatch(text, cell.start, cell.end)
        ]
        records = Counter(cell.record for cell, _ in shaped if cell.record >= 0)
        return [
            self.span(cell.start, cell.end, span_type=type_, reason=f"under the label {cell.label!r}")
            for cell, type_ in shaped
            if type_ != "REAL_NAME" or _a_persons_name(text, cell, records[cell.record] > 1)
        ]


def _a_persons_name(text: str, cell: Cell, in_a_record: bool) -> bool:
    """Whether a name-shaped value under a name label is a person's (the module's rule; `in_a_record`: its record holds
    another labelled value)."""
    value = text[cell.start : cell.end]
    if public_name(text, cell.start, cell.end) or name_key(value) in _places():
        return False
    words = value.split()
    return in_a_record or given_or_dropped(words[0]) or (len(words) > 1 and not all(map(common_word, words)))


@cache
def _places() -> frozenset[str]:
    return country_names() | region_names() | city_names()
