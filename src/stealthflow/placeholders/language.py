"""Which language a text is in: English or one of the six others the recognizers know (German,
French, Spanish, Italian, Dutch, Portuguese), or none of them (`None`).

Detection is `lingua-language-detector`'s, its trigram models (inside the wheel) restricted to
these seven languages. Recognizers that read words (the English PII tagger, the cue recognizers of
each language) run only on texts in their language; the structured ones (emails, phones, IBANs,
IDs, cards, URLs, secrets) run on every text. A text too short to tell is taken for English, as
before languages were detected; one whose letters are mostly outside the seven languages' alphabets
(another script, or Polish, Czech, Turkish letters) is in none of them.
"""

from __future__ import annotations

from functools import cache, cached_property
from typing import Protocol

import yaml

from stealthflow.resources import resource_dir

ENGLISH = "en"
OTHERS = ("de", "fr", "es", "it", "nl", "pt")
COVERED = (ENGLISH, *OTHERS)
MIN_LETTERS = 20  # fewer letters: too short to tell, taken for English
MIN_CONFIDENCE = 0.5  # a language other than English is chosen only with this share of lingua's confidence
MAX_FOREIGN_LETTERS = 0.02  # share of letters outside the covered alphabets above which a text is in none of them


class LanguageGuesser(Protocol):
    def language_of(self, text: str) -> str | None:
        """An ISO 639-1 code of `COVERED`, or None for a text in none of them."""


@cache
def covered_letters() -> frozenset[str]:
    """a-z and every letter the six languages' vocabulary files list under `alphabet`."""
    letters = set("abcdefghijklmnopqrstuvwxyz")
    for code in OTHERS:
        letters.update(
            yaml.safe_load((resource_dir("data") / "languages" / f"{code}.yaml").read_text(encoding="utf-8"))[
                "alphabet"
            ]
        )
    return frozenset(letters)


def foreign_share(text: str) -> tuple[int, float]:
    """(letters, share of them that no covered language writes)."""
    letters = [ch for ch in text.casefold() if ch.isalpha()]
    if not letters:
        return 0, 0.0
    covered = covered_letters()
    return len(letters), sum(ch not in covered for ch in letters) / len(letters)


class LinguaGuesser:
    """Lingua over the seven covered languages (its models load on first use, ~0.4 s)."""

    @cached_property
    def _lingua(self):
        from lingua import IsoCode639_1, LanguageDetectorBuilder

        codes = [getattr(IsoCode639_1, code.upper()) for code in COVERED]
        return LanguageDetectorBuilder.from_iso_codes_639_1(*codes).with_low_accuracy_mode().build()

    def language_of(self, text: str) -> str | None:
        letters, foreign = foreign_share(text)
        if letters and foreign > MAX_FOREIGN_LETTERS:
            return None
        if letters < MIN_LETTERS:
            return ENGLISH
        confidences = self._lingua.compute_language_confidence_values(text)
        if not confidences or confidences[0].value == 0:
            return None
        best = confidences[0]
        code = best.language.iso_code_639_1.name.lower()
        return code if code != ENGLISH and best.value >= MIN_CONFIDENCE else ENGLISH


def uncovered_warning() -> str:
    return (
        f"the text's language is none of {', '.join(COVERED)}: only structured identifiers (emails, phone numbers, IBANs, "
        "ID numbers, cards, URLs, secrets) were looked for, not names, addresses, employers or health details"
    )
