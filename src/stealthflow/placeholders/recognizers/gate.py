"""Run a context regex only where its trigger words occur, not over all the prose.

A context pattern ("my password is X") cannot match without one of a few literal words. One
Aho-Corasick pass over the lowercased text finds those words; the regex is then tried only at
the places a match can start: from a few words before each trigger to its end (never scanning
on through the prose after it, where a trigger word that starts no match would otherwise cost
a scan of the next few hundred characters). Over long prompts (chat history, RAG context) that
is most of detection's time saved, with the same matches: `tests/test_detection_gate.py` checks
gated == full scan.
"""

from __future__ import annotations

import re
import re._constants as sre
import re._parser as sre_parse
from collections.abc import Iterator
from functools import cache, cached_property

from stealthflow.placeholders.automaton import word_automaton, word_starts

BEFORE_WORDS = 5  # a match starts at most this many words before its trigger ("my older brother")
BEFORE_CHARS = 64
AFTER_CHARS = 400  # room for the value after the trigger (values are at most ~200 characters)
SAFE_END = 256  # a match ending this close to a window's end is re-matched on the whole text
SEARCH_SPAN = 200  # from this many possible starts on, one `search` costs less than a `match` at each


class TriggerGate:
    """The windows of a text worth searching for one pattern, from its lowercase trigger words."""

    def __init__(self, triggers: tuple[str, ...]):
        self.triggers = triggers

    @cached_property
    def automaton(self):
        return word_automaton(self.triggers)

    def starts(self, text: str) -> list[tuple[int, int]] | None:
        """(first, last) place a match can start, around each trigger (overlapping ones merged);
        None: scan it all (lowercasing changed the length, so offsets would not line up)."""
        lowered = text.lower()
        if len(lowered) != len(text):
            return None
        ranges: list[tuple[int, int]] = []
        reversed_text = text[::-1]
        for last, length in self.automaton.iter(lowered):
            # the words before a trigger are read back to the range so far at most, and not at all from a
            # trigger inside it: reaching it is all that matters (a text dense with triggers read 320
            # characters back for each of them)
            reach = ranges[-1][1] if ranges else 0
            start, end = last + 1 - length, last + 1
            if not ranges or start > reach:
                start = _back_words(reversed_text, start, reach)
            if ranges and start <= reach:
                ranges[-1] = (ranges[-1][0], max(reach, end))
            else:
                ranges.append((start, end))
        return ranges

    def finditer(self, pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
        """The matches `pattern.finditer(text)` gives (each holds a trigger near its start)."""
        ranges = self.starts(text)
        if ranges is None:
            yield from pattern.finditer(text)
            return
        starter = first_characters(pattern)
        position = 0
        for start, trigger_end in ranges:
            position = max(position, start)
            endpos = min(len(text), trigger_end + AFTER_CHARS)
            while position <= trigger_end:
                if trigger_end - position >= SEARCH_SPAN:  # a long run of triggers: one C-speed scan
                    match = pattern.search(text, position, endpos)
                    if match is None or match.start() > trigger_end:
                        break
                else:  # a few words: each place `search` would try, without scanning on past the trigger
                    if starter is not None:  # only where a match's first character is ("my ...": an m)
                        first = starter.search(text, position, trigger_end + 1)
                        if first is None:
                            break
                        position = first.start()
                    match = pattern.match(text, position, endpos)
                    if match is None:
                        position += 1
                        continue
                if match.end() > endpos - SAFE_END and endpos < len(text):
                    # The window's end may have cut the match short: match again on the whole text.
                    match = pattern.match(text, match.start()) or match
                yield match
                position = match.end() if match.end() > match.start() else match.start() + 1


class WordStarts:
    """Where any of a few words starts in a text, without case (`fold`): one Aho-Corasick pass."""

    def __init__(self, words: tuple[str, ...]):
        self.words = tuple(fold(word) for word in words)

    @cached_property
    def automaton(self):
        return word_automaton(self.words)

    def __call__(self, text: str) -> list[int]:
        """The starts in `text`, in order (where folding lengthened a character, "ß" to "ss", mapped back to it)."""
        text = text.replace("İ", "I")  # IGNORECASE matches "İ" to an "i"; casefolding makes it "i̇", two characters
        folded = fold(text)
        starts = word_starts(self.automaton, folded)
        if len(folded) != len(text):
            origins = folded_origins(text)
            starts = [origins[start] for start in starts]
        return sorted(set(starts))


_NON_ASCII = re.compile(r"[^\x00-\x7f]")  # an ASCII character folds to one character


def folded_origins(text: str) -> list[int]:
    """For each character of `fold(text)`, the index in `text` of the character it was folded from."""
    origins: list[int] = []
    last = 0
    for match in _NON_ASCII.finditer(text):
        width = len(fold(match[0]))
        if width != 1:
            index = match.start()
            origins.extend(range(last, index))
            origins.extend([index] * width)
            last = index + 1
    origins.extend(range(last, len(text)))
    return origins


def matches_at(pattern, text: str, starts: list[int]) -> Iterator:
    """The matches `pattern.finditer(text)` gives when each match starts at one of `starts` (in order)."""
    end = 0
    for start in starts:
        if start >= end and (match := pattern.match(text, start)):
            end = match.end()
            yield match


# Back over BEFORE_WORDS words from a place, matched forward on the reversed text: the whitespace
# before each word of any length, the word at most BEFORE_CHARS long (nothing follows the
# repeat, so the greedy first try is the match: no backtracking).
_BACK_WORDS = re.compile(rf"(?:\s*\S{{0,{BEFORE_CHARS}}}){{{BEFORE_WORDS}}}")


def _back_words(reversed_text: str, index: int, floor: int = 0) -> int:
    """Where a match holding a trigger at `index` may start: back over `BEFORE_WORDS` words (each
    at most `BEFORE_CHARS` long; the whitespace between them may be of any length), but not before
    `floor` (the greedy pattern never backtracks: read up to `floor`, it stops there)."""
    size = len(reversed_text)
    return size - _BACK_WORDS.match(reversed_text, size - index, size - floor).end()


_CATEGORIES = {
    sre.CATEGORY_DIGIT: r"\d",
    sre.CATEGORY_NOT_DIGIT: r"\D",
    sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S",
    sre.CATEGORY_WORD: r"\w",
    sre.CATEGORY_NOT_WORD: r"\W",
}


@cache
def first_characters(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A character class holding the first character of every match of `pattern` (matched without
    case: a superset), read from its parsed form; None when a match may start with anything."""

    def of(items) -> list[str] | None:
        for op, value in items:
            if op is sre.AT or (op in (sre.ASSERT, sre.ASSERT_NOT) and (op is sre.ASSERT_NOT or value[0] < 0)):
                continue  # zero-width (\b, a lookbehind, a negative lookahead): the next item consumes the first character
            if op is sre.ASSERT:  # a lookahead: its own first character is the match's
                return of(value[1])
            if op is sre.LITERAL:
                return [re.escape(chr(value))]
            if op is sre.IN:
                parts = [_class_part(*item) for item in value]  # a negated class gives a None
                return None if None in parts else parts
            if op is sre.SUBPATTERN:
                return of(value[3])
            if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and value[0] >= 1:
                return of(value[2])
            if op is sre.BRANCH:
                branches = [of(branch) for branch in value[1]]
                return None if None in branches else [part for branch in branches for part in branch]
            return None
        return None  # the pattern may match the empty string

    if pattern.flags & (re.LOCALE | re.ASCII):
        return None
    parts = of(sre_parse.parse(pattern.pattern, pattern.flags))
    return re.compile("[" + "".join(sorted(set(parts))) + "]", re.IGNORECASE) if parts else None


def skipping(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` behind a lookahead on its first characters (`first_characters`): a search then passes
    over most places at once instead of trying each alternative there (2-10x faster over long text,
    where a rule searches the sentence around each of many spans); the same matches."""
    chars = first_characters(pattern)
    return re.compile(f"(?=(?i:{chars.pattern}))(?:{pattern.pattern})", pattern.flags) if chars else pattern


def _class_part(op, value) -> str | None:
    if op is sre.LITERAL:
        return re.escape(chr(value))
    if op is sre.RANGE:
        return f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}"
    if op is sre.CATEGORY:
        return _CATEGORIES.get(value)
    return None


def fold(text: str) -> str:
    """Casefolded for literal presence tests: `re.IGNORECASE` also matches a dotless ı to i."""
    return text.casefold().replace("ı", "i")


def required_literals(pattern: re.Pattern[str], shortest: int = 2) -> frozenset[str] | None:
    """Folded strings (each at least `shortest` long) of which every match of `pattern` holds one,
    from its literal runs, groups and alternations; None when it has no such set."""

    def of(items) -> frozenset[str] | None:
        options: list[frozenset[str]] = []
        run = ""
        for op, value in [*items, (None, None)]:
            if op is sre.LITERAL:
                run += chr(value)
                continue
            if len(run) >= shortest:
                options.append(frozenset({fold(run)}))
            run = ""
            found = None
            if op is sre.SUBPATTERN:
                found = of(value[3])
            elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and value[0] >= 1:
                found = of(value[2])
            elif op is sre.BRANCH:
                branches = [of(branch) for branch in value[1]]
                found = None if None in branches else frozenset().union(*branches)
            if found:
                options.append(found)
        # the most selective choice: the longest shortest literal, then the fewest
        return max(options, key=lambda option: (min(map(len, option)), -len(option)), default=None)

    found = of(sre_parse.parse(pattern.pattern, pattern.flags))
    return found if found and all(len(literal) >= shortest for literal in found) else None
