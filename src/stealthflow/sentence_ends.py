"""Where a sentence ends, for every stage that reads sentences: the PII recognizers' and tagger's sentence
(placeholders/recognizers/sentences.py), the cue tagger's marks (anonymize/cues.py), the local rewrite's pieces
(anonymize/local.py) and the stand-in scorer's sentence (anonymize/generalize.py).

A sentence ends at a run of end marks (".", "!", "?", "…") and the closing quotes or brackets after it, before white
space or the end of the text, or at a line break; not at the full stop of an initial ("Michael J. Fox", "G.J.
Hoekstra", "My coworker D. is from Glasgow"). Two variants are the caller's to choose: whether a line break ends a
sentence, and whether the full stop of an abbreviation does ("Dr. Huber", "Av. Corrientes": lexicons.yaml
`abbreviations`, `month_abbreviations`, `street_words`, and street_endings' "str."; "Door No. 70": `number_abbreviations`
before a number).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

# A single capital: its full stop ends no sentence ("My coworker D. is from Glasgow", a name a stand-in shortened: the
# clause is the coworker's). In the 3 153 posts of blind-profiles-a..g and rewrite-heldout(-b) (cued and harmless; not
# written from), 3 boundaries of the stand-in scorer's sentences go, 2 rightly ("E.T. when it came out", "Alexander L.
# Kielland"), 1 wrongly ("our Series B. Honestly").
_INITIAL = r"\b[A-Z]"
# A match: the marks and closers (`marks`) and the white space after them (`space`, empty at the text's end), or a
# run of line breaks (`breaks`). Its lookahead of what may open a match, and the initial looked for behind the first
# mark, not before it, let it be searched for as fast as a class of characters (~3x faster on a text without one).
SENTENCE_END = re.compile(
    rf"(?=[.!?…\n])(?:(?P<marks>[.!?…](?<!{_INITIAL}\.)[.!?…]*[\"')\]]*)(?P<space>\s+|\Z)|(?P<breaks>\n+))"
)
_INITIAL_BEFORE = re.compile(rf"{_INITIAL}\.$")
_DIGIT = re.compile(r"\d")  # what follows "No." where it ends no sentence
# Characters read past the end of a stretch: whether an end starting in it is one ("0." of "0.3" is none) is told
# after it, but a text without full stops is not read to its end for each stretch (a megabyte cost its length per span).
_READ_PAST = 64


def sentence_ends(
    text: str, start: int = 0, end: int | None = None, *, line_breaks: bool = True, abbreviations_end: bool = True
) -> Iterator[re.Match[str]]:
    """The sentence ends that start in text[start:end], in order (`SENTENCE_END`'s matches: `match.start()` is where the
    sentence's words stop, `words_end(match)` where its marks and closers stop, `match.end()` where the next sentence
    starts). `line_breaks`: whether a line break ends a sentence. `abbreviations_end`: whether the full stop of an
    abbreviation does (False for the tagger's span cut, pii_tagger/spans.py, where it was measured, and for the stand-in
    scorer's sentence, anonymize/generalize.sentence_bounds)."""
    stop = len(text) if end is None else end
    for match in SENTENCE_END.finditer(text, start, stop + _READ_PAST):
        if match.start() >= stop:
            return
        if (line_breaks or match["breaks"] is None) and (
            abbreviations_end or match["marks"] is None or not _after_abbreviation(match)
        ):
            yield match


def words_end(match: re.Match[str]) -> int:
    """Where the sentence a `sentence_ends` match ends stops, with its marks and closers (before the white space)."""
    return match.start("space") if match["marks"] is not None else match.start()


def initial_before(text: str, at: int) -> bool:
    """Whether text[:at] ends with the full stop of an initial ("J." of "Michael J. Fox"), which ends no sentence."""
    return _INITIAL_BEFORE.search(text, max(0, at - 2), at) is not None


def _after_abbreviation(match: re.Match[str]) -> bool:
    text, at = match.string, match.start()
    if text[at] != ".":
        return False
    if _abbreviation_before().search(text, max(0, at - 10), at) is not None:
        return True
    return (
        _DIGIT.match(text, match.end()) is not None
        and _number_abbreviation_before().search(text, max(0, at - 4), at) is not None
    )


@cache
def _number_abbreviation_before() -> re.Pattern[str]:
    """An abbreviation of "number" ending where it is searched up to: before a number its full stop ends no sentence
    ("Door No. 70, Banyan Street"; lexicons.yaml `number_abbreviations`)."""
    from stealthflow.pii_tagger.lexicons import alternation

    return re.compile(rf"(?<![\w.])(?i:{alternation('number_abbreviations')})$")


@cache
def _abbreviation_before() -> re.Pattern[str]:
    """An abbreviation ending where it is searched up to. Measured on the dev files
    benchmarks/data/pii-heldout-{c,d,e,g..k} (the tagger's spans cut at sentence ends): with abbreviations ending no
    sentence, recall 0.757 -> 0.761 (six languages), 0.817 -> 0.819 (English registers)."""
    from stealthflow.pii_tagger.lexicons import alternation, words

    street_endings = "|".join(re.escape(end[:-1]) for end in words("street_endings") if end.endswith("."))
    return re.compile(
        rf"(?<![\w.])(?i:{alternation('abbreviations', 'month_abbreviations', 'street_words')})$"  # "al.", "ul."
        rf"|(?i:{street_endings})$"  # "Hauptstr."
    )


WORD_REACH = 12  # characters a word takes on average: how far `local_piece` reads for a window of words
SENTENCE_REACH = (
    1000  # characters a sentence reaches on either side of a place: a text without full stops is no one sentence
)


def sentence_start(text: str, position: int, reach: int = SENTENCE_REACH) -> int:
    """Where the sentence holding `position` starts: after the last ".", "!", "?" or newline before it,
    at most `reach` characters back (each span's rules read its sentence: an unbounded one made
    a megabyte without full stops cost its length per span)."""
    low = max(0, position - reach)
    return max(max(text.rfind(mark, low, position) for mark in ".!?\n") + 1, low)


def sentence_end(text: str, end: int, reach: int = SENTENCE_REACH) -> re.Match[str] | None:
    """What ends the sentence going on at `end`, within `reach` characters (`sentence_ends`; None: the text ends first, or
    the reach)."""
    return next(sentence_ends(text, end, end + reach), None)


def local_piece(text: str, start: int, end: int, window: int) -> tuple[int, int]:
    """Where the text a span is scored on starts and ends: the span's sentence, at most `window` words'
    reach on either side."""
    reach = window * WORD_REACH
    stop = sentence_end(text, end, reach)
    return sentence_start(text, start, reach), stop.start() if stop else min(len(text), end + reach)


def span_in_piece(text: str, start: int, end: int, window: int) -> tuple[str, int, int]:
    """The text a span is scored on (`local_piece`) and the span's start and end within it."""
    low, high = local_piece(text, start, end, window)
    return text[low:high], start - low, end - low
