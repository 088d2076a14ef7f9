"""A name lexicon for the fast student: is this word a given name, a family name, both or neither?

The student sees MiniLM's static word-piece vectors, which say little about "Xiomara" or
"Oyindasola" (split into pieces that are not words), while the MiniLM tagger infers a name from
its context. A lexicon gives the student what the word pieces lack. It comes from Faker's person
providers of every locale (not hand-written), is saved beside the student's weights (the model
and its lexicon stay one pair whatever Faker version is installed later), and is one input among
others: training hides it for a share of the words, and many names' words are also common words
("Grace", "Mark", "Park"), so context still decides.

Faker's lists of some locales hold everyday words of others ("sie", "la", "nada", "bueno", "vida"), and
the student trusts the flag on a capitalised word. So the shipped lexicon marks the words that a language
of the tagger uses very often (`mark_frequent`, `stealthflow tagger name-lexicon`): the student reads no flag
on them (`student_flag`), while the rules that ask whether a word is a given name ("ich bin Peter", "call
John", "JOHN" in capitals) still find it one.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

GIVEN, FAMILY = 1, 2  # flags, combined: 3 = both
FREQUENT = 4  # beside a word's flags in names.tsv: the student reads 0 for it
# A word at this Zipf or above (used 80 times per million words) in wordfreq 3.1.1's list of any of the tagger's
# seven languages is FREQUENT: "sie" 6.8, "nada" 6.0, "bueno" 5.7, "sommer" 5.1, and names common enough to have
# a word piece of their own, "john" 5.4, "peter" 5.1; "christoph" 4.5 and "kunde" 4.4 keep theirs. Chosen on the
# development sets (benchmarks/data/pii-heldout-c to -g, data/tagger-natural/validation{,-b,-c,-d}/; the shipped
# student unchanged): the fewest six-language texts without PII flagged among cut-offs 4.5-5.5 losing at most
# 0.01 recall in English and in the six languages; six languages 174 -> 141 of 540 flagged, precision 0.750 ->
# 0.785, recall 0.749 -> 0.743; English 222 -> 213 of 720, 0.776 -> 0.778, 0.849 -> 0.846.
NAME_MAX_ZIPF = 4.9
FLAGS = 4  # the flags a student reads: 0 to GIVEN | FAMILY
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


def faker_name_lexicon(romanised: bool = False) -> dict[str, int]:
    """casefolded word -> GIVEN | FAMILY, over the given and family names of every Faker locale
    (with `romanised`, also the Latin spellings of Chinese and Japanese names: "Ming", "Haruto");
    not initials and not English function words that some name holds ("the", "a", "my", "may")
    (a single CJK character is a whole given name)."""
    import faker.providers.person as person
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    lexicon: dict[str, int] = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(person.__path__)):
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


def mark_frequent(lexicon: dict[str, int], zipf: dict[str, float], max_zipf: float = NAME_MAX_ZIPF) -> dict[str, int]:
    """`lexicon` with FREQUENT on the words whose Zipf (`zipf`: word -> its highest Zipf in the languages'
    wordfreq lists) is `max_zipf` or above."""
    return {word: flag | FREQUENT if zipf.get(word, 0.0) >= max_zipf else flag for word, flag in lexicon.items()}


def save_lexicon(lexicon: dict[str, int], path: Path) -> None:
    path.write_text("".join(f"{word}\t{flag}\n" for word, flag in sorted(lexicon.items())), encoding="utf-8")


def load_lexicon(path: Path) -> dict[str, int]:
    lexicon = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        word, flag = line.split("\t")
        lexicon[word] = int(flag)
    return lexicon


def student_flag(word: str, lexicon: dict[str, int]) -> int:
    """The flag a student reads for `word`: GIVEN, FAMILY, both, or 0 (not a name's word, or a FREQUENT one)."""
    flag = lexicon.get(word.casefold(), 0)
    return 0 if flag & FREQUENT else flag


def name_flag(text: str, start: int, lexicon: dict[str, int]) -> int:
    """The flag a student reads for the word that begins at `start` (`student_flag`)."""
    match = WORD.match(text, start)
    return student_flag(match.group(), lexicon) if match else 0
