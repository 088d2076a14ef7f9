"""One person, one placeholder: the persons' names a session (or a text) holds, by their first and last words, so a
name's part met alone ("Ngozi", "Frau Nowak" of "Ngozi Adeyemi", "Katarzyna Nowak") is issued the person's placeholder
rather than one of its own, and the upstream model reads one person where the user wrote one.

A part links only to one person: a word that is a part of two names held ("Anna" of "Anna Berg" and "Anna Schmidt")
keeps a placeholder of its own, so a link is never made to the wrong person. Whether the word is
specific enough to link where it stands is the caller's (`Protector`: a common word never links; a family name after a
title only when the title and the given name say the same gender, `gender`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from stealthflow.placeholders.common_words import NAME_TYPE
from stealthflow.placeholders.types import canonical_value
from stealthflow.resources import data_words

GIVEN, FAMILY = "given", "family"  # the part a word is of a name: its first word, its last
GENDERS = ("female", "male")
_LETTERS = re.compile(r"[^\W\d_]+")


class People:
    """The persons' names (values of two words or more) of a session or a text, by their parts."""

    def __init__(self, names: Iterable[str] = ()):
        self._by_part: dict[str, dict[str, tuple[str, str]]] = {}  # part's key -> {person's key: (name, which part)}
        self._persons: set[str] = set()  # the keys of the persons' names
        self._titled: set[str] = set()  # ... of those written after a title ("Frau Esther Gschwend")
        self.add(names)

    def add(self, names: Iterable[str], titled: bool = False) -> None:
        for name in names:
            words = [word.strip(".,;:") for word in name.split()]
            if len(words) < 2:
                continue
            person = _key(name)
            self._persons.add(person)
            if titled:
                self._titled.add(person)
            for word, part in ((words[-1], FAMILY), (words[0], GIVEN)):  # "Lin Lin": the family name's
                self._by_part.setdefault(_key(word), {}).setdefault(person, (name, part))

    def holds(self, name: str) -> bool:
        return _key(name) in self._persons

    def titled(self, name: str) -> bool:
        return _key(name) in self._titled

    def __bool__(self) -> bool:
        return bool(self._by_part)

    def person(self, word: str, *others: People) -> tuple[str, str] | None:
        """(the person's name as first held, `GIVEN` or `FAMILY`) of the one person `word` is a part of, in this and
        `others`; None for a word of no name, or of two persons' names."""
        key = _key(word)
        found: dict[str, tuple[str, str]] = {}
        for people in (self, *others):
            for person, held in people._by_part.get(key, {}).items():
                found.setdefault(person, held)
        return next(iter(found.values())) if len(found) == 1 else None


def gender(name: str) -> str | None:
    """The gender ("female", "male") every word of the given name opening `name` is listed for, and for it only, in
    every Faker locale (data/languages/given-names-<gender>.txt: "Katarzyna", "Anne-Sophie"; not "Andrea"), or None."""
    runs = _LETTERS.findall(name.split()[0].casefold()) if name.split() else []
    said = [{kind for kind in GENDERS if run in _given_names(kind)} for run in runs]
    return next(iter(said[0])) if said and all(len(kinds) == 1 and kinds == said[0] for kinds in said) else None


@cache
def _given_names(kind: str) -> frozenset[str]:
    return data_words(f"languages/given-names-{kind}.txt")


def _key(value: str) -> str:
    return canonical_value(NAME_TYPE, value)
