"""A name lexicon for the fast student: is this word a given name, a family name, both or neither?

The student sees MiniLM's static word-piece vectors, which say little about "Xiomara" or
"Oyindasola" (split into pieces that are not words), while the MiniLM tagger infers a name from
its context. A lexicon gives the student what the word pieces lack. It comes from Faker's person
providers of every locale (not hand-written), is saved beside the student's weights (the model
and its lexicon stay one pair whatever Faker version is installed later), and is one input among
others: training hides it for a share of the words, and many names' words are also common words
("Grace", "Mark", "Park"), so context still decides.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from pathlib import Path

GIVEN, FAMILY = 1, 2  # flags, combined: 3 = both
STUDENT_FLAGS = 4  # the values a student's name input takes: 0 to GIVEN | FAMILY (its embedding's rows per case)
LEXICON = "names.tsv"  # beside a student's weights
WORD = re.compile(r"\w+")


_NAME_LISTS = (
    ("first_names", GIVEN),
    ("first_names_male", GIVEN),
    ("first_names_female", GIVEN),
    ("last_names", FAMILY),
)
_ROMANISED_LISTS = (
    ("first_romanized_names", GIVEN),
    ("first_romanized_names_male", GIVEN),
    ("first_romanized_names_female", GIVEN),
    ("last_romanized_names", FAMILY),
)


def faker_name_lexicon(romanised: bool = False, languages: Iterable[str] | None = None) -> dict[str, int]:
    """casefolded word -> GIVEN | FAMILY, over the given and family names of every Faker locale, or of the locales of
    `languages` ("es": es, es_AR, ..., es_MX) (with `romanised`, also the Latin spellings of Chinese and Japanese
    names: "Ming", "Haruto"); not initials and not English function words that some name holds ("the", "a", "my",
    "may") (a single CJK character is a whole given name)."""
    import faker.providers.person as person
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    lexicon: dict[str, int] = {}
    modules = sorted(m.name for m in pkgutil.iter_modules(person.__path__))
    for module in (m for m in modules if languages is None or m.split("_")[0] in languages):
        provider = importlib.import_module(f"{person.__name__}.{module}").Provider
        for attribute, flag in _NAME_LISTS + (_ROMANISED_LISTS if romanised else ()):
            names = provider.__dict__.get(attribute, ())  # some locales define them as properties
            if not isinstance(names, (dict, tuple, list, set, frozenset)):
                continue
            for name in names:
                for word in WORD.findall(name.casefold()):
                    if (len(word) > 1 or not word.isascii()) and not word.isdigit() and word not in ENGLISH_STOP_WORDS:
                        lexicon[word] = lexicon.get(word, 0) | flag
    return lexicon


def one_gender_given_names(gender: str) -> list[str]:
    """The words of the given names of Faker's locales (every one) listed for `gender` ("female" or "male") and never
    for the other, sorted (data/languages/given-names-<gender>.txt): "katarzyna", "dietmar"; not "andrea", "jean"."""
    import faker.providers.person as person

    listed: dict[str, set[str]] = {"female": set(), "male": set()}
    for module in sorted(m.name for m in pkgutil.iter_modules(person.__path__)):
        provider = importlib.import_module(f"{person.__name__}.{module}").Provider
        for kind, words in listed.items():
            names = provider.__dict__.get(f"first_names_{kind}", ())
            if isinstance(names, (dict, tuple, list, set, frozenset)):
                words.update(word for name in names for word in WORD.findall(name.casefold()) if len(word) > 1)
    other = "male" if gender == "female" else "female"
    return sorted(listed[gender] - listed[other])


def languages_given_names(languages: Iterable[str]) -> list[str]:
    """The words of the given names of Faker's locales of `languages`, sorted (data/languages/given-names.txt)."""
    return sorted(word for word, flag in faker_name_lexicon(languages=set(languages)).items() if flag & GIVEN)


def save_lexicon(lexicon: dict[str, int], path: Path) -> None:
    path.write_text("".join(f"{word}\t{flag}\n" for word, flag in sorted(lexicon.items())), encoding="utf-8")


def load_lexicon(path: Path) -> dict[str, int]:
    lexicon = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        word, flag = line.split("\t")
        lexicon[word] = int(flag)
    return lexicon


def name_flag(text: str, start: int, lexicon: dict[str, int]) -> int:
    """The lexicon flag of the word that begins at `start` (0: not a name's word)."""
    match = WORD.match(text, start)
    return lexicon.get(match.group().casefold(), 0) if match else 0
