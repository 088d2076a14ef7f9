"""Words that introduce a private person's name: the writer's own after a self-introduction ("my name is", "ich heiße",
"je suis"; `introductions` of data/languages/<code>.yaml, English too) and a relative's or close person's after them
("meine Frau", "mon fils"; `relatives` of the six other languages' files; English's "my sister" is the tagger
lexicons' `relatives`). A name they introduce is masked even where a gazetteer lists a famous namesake ("Ich heiße
Thomas Müller", "Soy David Silva"): by the introduced- and relative-name recognizers, which match the same lists
(languages.py), and by the PII tagger, whose name filter reads them here (pii_tagger/filters/public.py
`tied_to_writer`). The filter's tie to them changes no span on benchmarks/data/pii-heldout-c..p
(pii_registers.py --by register and --by lang): no namesake is introduced there.
"""

from __future__ import annotations

import re

from stealthflow.placeholders.language import COVERED, OTHERS, language_file
from stealthflow.placeholders.recognizers.languages import one_of

RELATIVES_OF_LANGUAGES = one_of(tuple(word for code in OTHERS for word in language_file(code)["relatives"]))
_INTRODUCTIONS = one_of(tuple(word for code in COVERED for word in language_file(code)["introductions"]))
_INTRODUCED_BEFORE = re.compile(rf"(?<!\w)(?i:{_INTRODUCTIONS}|{RELATIVES_OF_LANGUAGES})\s*,?\s*$")
_REACH = 40  # characters before a name that its cue may take ("o meu nome é", "mon meilleur ami,")
# The greetings of every covered language (`greetings` of data/languages/<code>.yaml), as an alternation: a salutation
# line's here, the PII tagger's filters' too (employer.py, public.py).
GREETINGS = one_of(tuple(word for code in COVERED for word in language_file(code)["greetings"]))
_GREETING_BEFORE = re.compile(rf"(?:^|\n)[ \t]*(?i:{GREETINGS})[ \t]+$")
_GREETING_AFTER = re.compile(r"[ \t]*(?:[,!]|\n|$)")


def introduced_before(text: str, start: int) -> bool:
    """Whether text[start:] follows a self-introduction or a relative of any covered language ("Ich heiße |Thomas")."""
    return _INTRODUCED_BEFORE.search(text, max(0, start - _REACH), start) is not None


def greeted(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is the name a salutation line opens with: a greeting of any covered language at the
    start of a line (`greetings` of data/languages/<code>.yaml: "Hi |Deepak|,", "Liebe |Anke|"), then a comma, "!" or
    the line's end."""
    return (
        _GREETING_BEFORE.search(text, max(0, start - _REACH), start) is not None
        and _GREETING_AFTER.match(text, end) is not None
    )
