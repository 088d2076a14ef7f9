"""Which shipped student tags a text: the multilingual student (models/pii-tagger-student-multilingual, on the
multilingual Universal Sentence Encoder's pieces) for a text in German, French, Spanish, Italian, Dutch or
Portuguese; the English student (models/pii-tagger-student, on MiniLM's English pieces) for every other text.

The languages are the detector's guess (`placeholders.language`: every covered language the text may be in). A
text that may be in English (an English message with a German sign-off, a short text, one the guesser reads as
English and French) or in none of the seven languages goes to the English student: on English text the English
student finds what the other misses (data/pii_test.jsonl, `python benchmarks/pii_detection.py --llm 0`: addresses
recall 0.76 against 0.65, one-time codes 1.00 against 0.77; benchmarks/results/pii_tagger_choices.md). The
multilingual student loads on the first text routed to it, so English-only use never loads its table. Naming a tagger
(`protect.tagger_model`, e.g. `pii-tagger-student`) turns the route off: that tagger reads every text.
"""

from __future__ import annotations

from stealthflow.pii_tagger.model import SHIPPED as ENGLISH_STUDENT
from stealthflow.placeholders.language import ENGLISH

MULTILINGUAL_STUDENT = "pii-tagger-student-multilingual"


def may_be_english(languages: frozenset[str]) -> bool:
    """Whether a text that may be in any of `languages` (the detector's candidates) is read as English: English is
    one of them, or none is known."""
    return not languages or ENGLISH in languages


def student_for(languages: frozenset[str]) -> str:
    """The shipped student for a text that may be in any of `languages` (the detector's candidates): the
    multilingual one when they are some of the six languages and not English, else the English one."""
    return ENGLISH_STUDENT if may_be_english(languages) else MULTILINGUAL_STUDENT
