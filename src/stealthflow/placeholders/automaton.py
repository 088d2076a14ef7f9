"""Aho-Corasick automata over a few words: one pass over a text finds where any of them occurs.

Detection's gates (`recognizers/gate.py`) and restore's scan for placeholder bodies (`restore.py`)
both use them, and the values a session or a text holds are found again with a growing one (`GrowingAutomaton`,
pipeline/protector.py); this module imports nothing of the package, so restore's path stays light.
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


def word_starts(automaton: ahocorasick.Automaton, text: str) -> list[int]:
    """Where a word of `automaton` (`word_automaton`) starts in `text`, in the order of their ends (a list: a generator
    cost a third more over a text dense with cue words)."""
    return [last + 1 - length for last, length in automaton.iter(text)]


class GrowingAutomaton:
    """Words with a value each, added over time (a session's values), found in a text in one pass per tier: the words
    added since the last merge sit in a small automaton of their own, built again when a text is searched after an
    addition; they join the large one once they are a quarter of its size. Rebuilding one automaton of every word on
    each addition cost a session its size on every request (1.7 ms at 6 000 values, two automata a request). A word
    added again takes the new value (`Automaton.add_word`), wherever it sits."""

    MERGE_SHARE = 4  # the recent words join the settled ones once they number a quarter of them

    def __init__(self) -> None:
        self._settled = ahocorasick.Automaton()
        self._recent = ahocorasick.Automaton()

    def __len__(self) -> int:
        return len(self._settled) + len(self._recent)

    def __contains__(self, word: str) -> bool:
        return self._recent.exists(word) or self._settled.exists(word)

    def get(self, word: str, default: object = None) -> object:
        return self._recent.get(word, self._settled.get(word, default))

    def add_word(self, word: str, value: object) -> None:
        (self._settled if self._settled.exists(word) else self._recent).add_word(word, value)

    def iter(self, text: str) -> Iterator[tuple[int, object]]:
        """(last index, value) of each word found in `text`, tier by tier."""
        tiers = (self._settled, self._recent)
        if any(tier.kind == ahocorasick.TRIE for tier in tiers):  # words added since the last search
            self._build()
            tiers = (self._settled, self._recent)
        for tier in tiers:
            if tier.kind == ahocorasick.AHOCORASICK:
                yield from tier.iter(text)

    def _build(self) -> None:
        if len(self._recent) * self.MERGE_SHARE > len(self._settled):
            for word, value in self._recent.items():
                self._settled.add_word(word, value)
            self._recent = ahocorasick.Automaton()
        for tier in (self._settled, self._recent):
            if tier.kind == ahocorasick.TRIE:  # a new value for a settled word makes the settled tier a trie again
                tier.make_automaton()
