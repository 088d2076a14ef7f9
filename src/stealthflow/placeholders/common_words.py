"""Which values of a session are specific enough to be masked wherever they appear again.

A session masks a value it already holds in every later text, whatever the words around it
(pipeline/protector.py `SessionValues`). That is right for an email, a card number, a key or a
person's name, and wrong for a word of the language: a false alarm ("the" taken once for a
condition) would then be masked in every later text of the session. So a value is found again
only when it is specific:
- it holds digits or symbols (an email, a phone or card number, a key, a street address) and at
  least `MIN_SYMBOLIC` letters and digits;
- or, written in words, one of its words is not a common word of English and has at least
  `MIN_LETTERS` letters ("Okafor", "Ozempic", "Priya Raghunathan"; not "the", "art", "nostalgia",
  "haha", "late-night"), or it is a name of several words each capitalised ("John Smith", "New York").
A value that is not specific is still masked where detection finds it again; a secret that is a
word ("sunshine") too, but no longer wherever that word appears.

Common words: `data/common_words.txt`, every one-word lemma WordNet 3.0 writes in lowercase (any
part of speech; "john" the toilet, not "Zurich") and the irregular forms of its exception lists,
read with WordNet's own suffix rules ("perks", "hustled"); built by `stealthflow tagger
common-words WORDNET_DIR` (Debian's wordnet-base: /usr/share/wordnet; licence: data/LICENSE-WordNet).
Function words (articles, pronouns, auxiliaries, chat words such as "lol", "yup"), which WordNet
does not hold: `data/function_words.txt`.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from stealthflow.resources import resource_dir

COMMON_WORDS = "common_words.txt"
FUNCTION_WORDS = "function_words.txt"
MIN_LETTERS = 3  # a one-word value shorter than this ("Jo", "Al") is no more specific than a word
MIN_SYMBOLIC = 4  # letters and digits of a value with digits or symbols ("$100", "2.5" are not specific)

_LETTERS = re.compile(r"[^\W\d_]+")
_WORDS = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*")  # a word, hyphenated or with an apostrophe: "late-night", "ain't"
# Words, with the spaces and marks they hold: a letter first, then letters, marks ("'’.-") and spaces
# (or "&"), a mark never right after a space. One character per step, so a match is linear in the value.
_WORDISH = re.compile(r"[\s&]*[^\W\d_](?:[^\W\d_]|['’.-]|[\s&](?!['’.-]))*")
# WordNet's detachment rules (its morphy): an inflected form -> the lemma it may come from.
_SUFFIXES = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


def specific(value: str) -> bool:
    """Whether a value the session holds is masked wherever it appears again (see the module)."""
    if not _WORDISH.fullmatch(value):
        return sum(char.isalnum() for char in value) >= MIN_SYMBOLIC
    words = [word for word in _WORDS.findall(value) if not function_word(word)]
    if any(len(word) >= MIN_LETTERS and not all(map(common_word, _LETTERS.findall(word))) for word in words):
        return True
    return len(words) >= 2 and all(word[0].isupper() for word in words) and not value.isupper()


def function_word(word: str) -> bool:
    return word.casefold() in _function_words()


def common_word(word: str) -> bool:
    """Whether `word` is a word of English: a function word, or a common word of WordNet as it is or
    once WordNet's suffix rules take an inflection off ("perks", "hustled", "paychecks")."""
    word = word.casefold()
    if word in _function_words() or word in _common_words():
        return True
    return any(
        word.endswith(suffix) and word[: len(word) - len(suffix)] + ending in _common_words()
        for suffix, ending in _SUFFIXES
    )


@cache
def _common_words() -> frozenset[str]:
    return frozenset((resource_dir("data") / COMMON_WORDS).read_text(encoding="utf-8").split())


@cache
def _function_words() -> frozenset[str]:
    lines = (resource_dir("data") / FUNCTION_WORDS).read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().casefold() for line in lines if line.strip() and not line.startswith("#"))


def common_words(wordnet_dir: Path) -> list[str]:
    """The one-word lemmas that WordNet 3.0 (data.noun, data.verb, data.adj, data.adv in
    `wordnet_dir`) writes in lowercase in some synset, and the irregular forms its exception lists
    (noun.exc, verb.exc, adj.exc, adv.exc) give for them ("children", "went")."""
    from stealthflow.data import DataError
    from stealthflow.placeholders.recognizers.wordnet import synsets

    parts = ("noun", "verb", "adj", "adv")
    words = {
        word
        for part in parts
        for synset in synsets(wordnet_dir / f"data.{part}")
        for word in synset.words
        if word.isalpha() and word.islower()
    }
    forms = set()
    for part in parts:
        exceptions = wordnet_dir / f"{part}.exc"
        for number, line in enumerate(exceptions.read_text(encoding="latin-1").splitlines(), 1):
            fields = line.split()
            if len(fields) < 2:
                raise DataError(
                    f"{exceptions}:{number}: not a line of a WordNet exception list (a form, then its lemmas)"
                )
            if fields[0].isalpha() and any(lemma in words for lemma in fields[1:]):
                forms.add(fields[0])
    return sorted(words | forms)


def write_common_words(wordnet_dir: Path, out: Path) -> int:
    words = common_words(wordnet_dir)
    out.write_text("".join(f"{word}\n" for word in words), encoding="utf-8")
    return len(words)
