"""The word lists of the PII tagger's filters and the context recognizers, from data/pii-tagger/lexicons.yaml
(each defined there once, compiled here at load), the conditions and medicines the tagger learnt (English's health
vocabulary is data/languages/en.yaml's), and the name lexicon shipped beside the tagger's weights.

A list compiles to a regex alternation: each entry matched whole and case-insensitively by the
pattern that holds it, a space as any run of spaces, an entry ending in "*" as the word's stem. A list
written by language (a mapping of language code -> entries) is read as all its languages' entries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from urllib.parse import unquote

from stealthflow.pii_tagger.model import shipped_pii_tagger_dir
from stealthflow.pii_tagger.names import FAMILY, GIVEN, LEXICON, load_lexicon
from stealthflow.resources import data_yaml

LEXICONS = "pii-tagger/lexicons.yaml"  # under the data directory
ENGLISH_FILE = "languages/en.yaml"  # English's health vocabulary: its `conditions` and the tagger's training lists
TAGGER_HEALTH = ("tagger_conditions", "tagger_medications")


@cache
def _lists() -> dict[str, list[str]]:
    return data_yaml(LEXICONS)


def words(name: str) -> list[str]:
    """The entries of list `name`, as written (of every language, for a list written by language)."""
    entries = _lists()[name]
    return [entry for listed in entries.values() for entry in listed] if isinstance(entries, dict) else list(entries)


def alternation(*names: str) -> str:
    """The lists `names` as one regex alternation (no group), longest entries first: a greedy
    pattern's choice ("dogs" before "dog")."""
    return entries_alternation({entry for name in names for entry in words(name)})


def entries_alternation(entries: Iterable[str]) -> str:
    """`entries` as one regex alternation (no group), longest first; a space matches any white space, a final `*` any
    word ending."""
    return "|".join(_entry_pattern(entry) for entry in sorted(set(entries), key=lambda e: (-len(e), e)))


def _entry_pattern(entry: str) -> str:
    if entry.endswith("*"):
        return re.escape(entry[:-1]) + r"\w*"
    return r"\s+".join(re.escape(word) for word in entry.split())


RELATIVES = alternation("relatives")
ANIMALS = alternation("animals")
THINGS = alternation("things")
KEEPERS = alternation("keepers")
MONTHS = rf"(?:{alternation('month_abbreviations')})\.?|{alternation('months')}"
CALENDAR = alternation("weekdays", "months")


@cache
def name_lexicon() -> dict[str, int]:
    """The shipped student's name lexicon (names.py): casefolded word -> GIVEN | FAMILY."""
    return load_lexicon(shipped_pii_tagger_dir() / LEXICON)


def given_name(word: str) -> bool:
    """Whether `word` is a given name of the student's name lexicon (Faker's, names.py)."""
    return bool(name_lexicon().get(word.casefold(), 0) & GIVEN)


_HEX_CODE = re.compile(r"[0-9a-fA-F]*[0-9][0-9a-fA-F]*")  # a run of hex digits holding a digit: a code


def spells_a_name(identifier: str) -> bool:
    """Whether `identifier` (a session name, a user id) spells a person's name as ids do: URL-decoded, split at
    anything but letters and digits, at camel case and at digits (`marcus.okafor`, `MarcusOkafor`, `Marcus%20Okafor`,
    `john.smith99`, `marcus1984okafor`), two neighbouring parts of the name lexicon, one a given name and the other a
    family name; a part of one or two letters (an initial) is skipped. A run of hex digits with a digit in it is a
    code, no name, and parts round it are no neighbours: 25 of 40 000 random uuid4 ids were refused for letter runs
    such as "baba" and "fee" of "baba2018fd1d8426fee" (0 of 60 000 now)."""
    flags = []
    for token in re.findall(r"[^\W_]+", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", unquote(identifier))):
        if not token.isdigit() and _HEX_CODE.fullmatch(token):
            flags.append(0)
            continue
        for part in re.findall(r"[^\W\d_]{3,}", token):
            flags.append(name_lexicon().get(part.casefold(), 0))
    return any(a & GIVEN and b & FAMILY or a & FAMILY and b & GIVEN for a, b in zip(flags, flags[1:]))


def condition_key(value: str) -> str:
    return re.sub(r"^(?:a|an)\s+", "", value.casefold())  # "a herniated disc" is "herniated disc"


@cache
def learnt_conditions() -> frozenset[str]:
    """The conditions and medicines the tagger learnt (data/languages/en.yaml `tagger_conditions`,
    `tagger_medications`), as `condition_key`s. With en.yaml's `conditions` too, on pii-heldout-k..r,u's English texts
    (benchmarks/pii_registers.py) 1 HEALTH value was found more and 1 lost ("Morphine", a name span dropped), 1 wrong
    span more; on c..j 1 more, 2 wrong spans more ("menopause"): not taken."""
    english = data_yaml(ENGLISH_FILE)
    return frozenset(condition_key(value) for key in TAGGER_HEALTH for value in english[key])
