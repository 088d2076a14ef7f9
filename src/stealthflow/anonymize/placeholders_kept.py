"""Protect's placeholders inside a post being rewritten: never a cue, never lost, never repeated, never split from
the words of the name they stand in."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

# An exact placeholder of protect's (`<EMAIL_1>`, `[[EMAIL:3f81a2c9]]`): never a cue, since
# rewriting one would lose a value.
PROTECT_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]*_\d+>|\[\[[A-Z][A-Z_]*:[0-9a-fA-F]+\]\]")
# A typed marker in place of words, a placeholder's or any other: `[[EMPLOYER]]`, `[[EMAIL:3f81a2c9]]`, `<LOCATION>`,
# `<REAL_NAME_1>`, `[EMPLOYER]`. One a rewrite wrote is internal to no one the text is for (`new_markers`).
MARKER = re.compile(r"\[\[[A-Z][A-Z_]*(?::[0-9a-fA-F]+)?\]\]|<[A-Z][A-Z_]*(?:_\d+)?>|\[[A-Z][A-Z_]{2,}\]")


def new_markers(original: str, rewritten: str) -> list[str]:
    """The markers of `rewritten` that `original` does not hold (a placeholder of protect's it held is kept on
    purpose), each once."""
    return list(dict.fromkeys(m.group() for m in MARKER.finditer(rewritten) if m.group() not in original))


@cache
def _with_its_words() -> re.Pattern[str]:
    """A placeholder with the words that belong to what it stands in: the title of address before a name's ("Mrs
    <REAL_NAME_1>", "Dr. <REAL_NAME_2>": `person_titles` of data/pii-tagger/lexicons.yaml) and the possessive after
    any ("<REAL_NAME_1>'s")."""
    from stealthflow.pii_tagger.lexicons import alternation  # at first use: the page imports this module without it
    from stealthflow.placeholders.common_words import NAME_TYPE

    name = rf"<{NAME_TYPE}_\d+>|\[\[{NAME_TYPE}:[0-9a-fA-F]+\]\]"
    title = rf"(?<![\w.])(?i:{alternation('person_titles')})\.?[ \t]+(?={name})"
    return re.compile(rf"(?:{title})?(?:{PROTECT_PLACEHOLDER.pattern})(?:['’]s\b)?")


def placeholder_stretches(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each placeholder of `text` with the words that belong to it (`_with_its_words`)."""
    return [match.span() for match in _with_its_words().finditer(text)]


def keeps_placeholders(text: str, rewrite: str) -> bool:
    """`rewrite` holds each of protect's placeholders exactly as often as `text`, each with the title and possessive it
    had: protect rejects a rewrite that drops one, one repeated would put its value where it never was, and a title
    left out ("Still buy from <REAL_NAME_1>" of "Still buy from Mrs <REAL_NAME_1>") changes the name restored."""
    return _written(rewrite) == _written(text)


def _written(text: str) -> Counter[str]:
    return Counter(" ".join(match.group().split()) for match in _with_its_words().finditer(text))


_ENDS_ON_PLACEHOLDER = re.compile(rf"(?:{PROTECT_PLACEHOLDER.pattern})[ \t]*$")
_FIRST_WORD = re.compile(r"[\w'’-]+")


def hangs_on_a_value(text: str, start: int, end: int) -> bool:
    """text[start:end] opens right after one of protect's placeholders (spaces between) on a word that is no function
    word: the value it stands for may modify that word ("sick" of "on <HEALTH_1> leave"), which the rewrite, reading
    the placeholder, cannot see, so cutting the word can break the restored sentence ("put me on sick after")."""
    from stealthflow.placeholders.common_words import function_word

    first = _FIRST_WORD.match(text, start, end)
    return bool(first and _ENDS_ON_PLACEHOLDER.search(text, 0, start) and not function_word(first.group()))
