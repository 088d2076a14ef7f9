"""Aho-Corasick automata over a few words: one pass over a text finds where any of them occurs.

Detection's gates (`recognizers/gate.py`) and restore's scan for placeholder bodies (`restore.py`)
both use them; this module imports nothing of the package, so restore's path stays light.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import ahocorasick


def word_automaton(words: Iterable[str]) -> ahocorasick.Automaton:
    """An automaton of `words`, each word's value its length: `iter(text)` gives (last index, length)."""
    automaton = ahocorasick.Automaton()
    for word in words:
        automaton.add_word(word, len(word))
    automaton.make_automaton()
    return automaton


def word_starts(automaton: ahocorasick.Automaton, text: str) -> Iterator[int]:
    """Where a word of `automaton` (`word_automaton`) starts in `text`, in the order of their ends."""
    for last, length in automaton.iter(text):
        yield last + 1 - length
