"""What the local rewrite reads. Its cue tagger, stand-ins and fluency model are English: a post that cannot be
English is not read (its marks would be no evidence: the tagger reads "Hallo zusammen" as English), and in a post that
may be, neither is a sentence of another covered language. A mark in what is not read is acted on nowhere: the rewrite
leaves it, and the page shows it not (`read_marks`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stealthflow.anonymize.generalize import sentence_around
from stealthflow.placeholders.language import ENGLISH

if TYPE_CHECKING:
    from stealthflow.pii_tagger.model import TaggedSpan
    from stealthflow.placeholders.language import LanguageGuesser


def post_language(guesser: LanguageGuesser, post: str) -> str | None:
    """None when the post may be English (a short English post may also read as another); else its language,
    "unknown" for one none of the guesser's."""
    guess = guesser.guess(post)
    return None if ENGLISH in guess.candidates else guess.language or "unknown"


def sentence_language(guesser: LanguageGuesser, text: str, phrase: str) -> str | None:
    """The language of the sentence holding `phrase` when it is another covered language and cannot be English
    ("Nací en Hermosillo, llegué a Phoenix de 10 años" in an English post): an English stand-in or a removal
    there leaves a sentence no reader of that language would write ("llegué a 10 años"). A sentence in letters
    no covered language writes is left to the post's guess. Of the sentences of the judged posts of seeds 2-12
    that the post's guess takes as possibly English (benchmarks/results/fluency_reader_seed*.jsonl), it finds 6
    of 2 995 (4 in Spanish, 2 in English: "Web Mercator for a thematic world map is a crime."); of the
    development posts' (benchmarks/data/rewrite-heldout-b, cued and harmless) 520, none."""
    first, last = sentence_around(text, phrase)
    guess = guesser.guess(text[first:last])
    return guess.language if guess.language is not None and ENGLISH not in guess.candidates else None


def read_marks(guesser: LanguageGuesser, text: str, marks: list[TaggedSpan]) -> list[TaggedSpan]:
    """The marks of `text` the rewrite reads: none of a post it does not read, none in a sentence it does not."""
    if post_language(guesser, text) is not None:
        return []
    return [mark for mark in marks if sentence_language(guesser, text, text[mark.start : mark.end]) is None]
