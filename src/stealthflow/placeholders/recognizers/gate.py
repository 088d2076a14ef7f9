"""Run a context regex only where its trigger words occur, not over all the prose.

A context pattern ("my password is X") cannot match without one of a few literal words. One
Aho-Corasick pass over the lowercased text finds those words; the regex then searches only
windows around them. Over long prompts (chat history, RAG context) that is most of detection's
time saved, with the same matches: `tests/test_detection_gate.py` checks gated == full scan.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property

BEFORE_WORDS = 5  # a match starts at most this many words before its trigger ("my older brother")
BEFORE_CHARS = 64
AFTER_CHARS = 400  # room for the value after the trigger (values are at most ~200 characters)
SAFE_END = 256  # a match ending this close to a window's end is re-matched on the whole text


class TriggerGate:
    """The windows of a text worth searching for one pattern, from its lowercase trigger words."""

    def __init__(self, triggers: tuple[str, ...]):
        self.triggers = triggers

    @cached_property
    def automaton(self):
        import ahocorasick

        automaton = ahocorasick.Automaton()
        for word in self.triggers:
            automaton.add_word(word, len(word))
        automaton.make_automaton()
        return automaton

    def windows(self, text: str) -> list[tuple[int, int]] | None:
        """(first start, last trigger end) of each run of nearby triggers; None: scan it all
        (lowercasing changed the length, so offsets would not line up)."""
        lowered = text.lower()
        if len(lowered) != len(text):
            return None
        windows: list[tuple[int, int]] = []
        for last, length in self.automaton.iter(lowered):
            start, end = _back_words(text, last + 1 - length), last + 1
            if windows and start <= windows[-1][1] + AFTER_CHARS:
                windows[-1] = (windows[-1][0], max(windows[-1][1], end))
            else:
                windows.append((start, end))
        return windows

    def finditer(self, pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
        """The matches `pattern.finditer(text)` gives (each holds a trigger near its start)."""
        windows = self.windows(text)
        if windows is None:
            yield from pattern.finditer(text)
            return
        position = 0
        for start, trigger_end in windows:
            position = max(position, start)
            endpos = min(len(text), trigger_end + AFTER_CHARS)
            while position <= trigger_end:
                match = pattern.search(text, position, endpos)
                if match is None or match.start() > trigger_end:
                    break
                if match.end() > endpos - SAFE_END and endpos < len(text):
                    # The window's end may have cut the match short: match again on the whole text.
                    match = pattern.match(text, match.start()) or match
                yield match
                position = match.end() if match.end() > match.start() else match.start() + 1


def _back_words(text: str, index: int) -> int:
    """Where a match holding a trigger at `index` may start: back over `BEFORE_WORDS` words (each
    at most `BEFORE_CHARS` long; the whitespace between them may be of any length)."""
    position = index
    for _ in range(BEFORE_WORDS):
        while position > 0 and text[position - 1].isspace():
            position -= 1
        word_limit = max(0, position - BEFORE_CHARS)
        while position > word_limit and not text[position - 1].isspace():
            position -= 1
    return position
